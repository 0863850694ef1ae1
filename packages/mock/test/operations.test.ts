// Operating a shared sandbox on PostgreSQL, through the real process: /__health, /__ready and
// /__metrics; an outage of a real PostgreSQL under load (503 with Retry-After while it is down,
// recovery alone, every acknowledged write kept, none half applied); a graceful SIGTERM.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { startProcess, type MockProcess } from './helpers.js';
import { usePostgres } from './support/postgres.js';
import { newEmployee } from './support/new-employee.js';

const server = usePostgres();
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
const TOKEN = 'operations';
let mock: MockProcess;

beforeAll(async () => {
  mock = await startProcess(['--port', '0', '--database-url', await server().database('operations')]);
}, 120_000);
afterAll(async () => {
  await mock?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json;version=2018-01-01' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON (metrics) */
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Whether the employee numbered `employeeNumber` exists, and then with its employment (a new
 * employee is three kinds of doc written in one transaction). */
async function stored(url: string, employeeNumber: number): Promise<'absent' | 'whole' | 'half'> {
  const list = await call(url, 'GET', `${EMPLOYEES}?filter=${encodeURIComponent(`employeeNumber eq ${employeeNumber}`)}`);
  expect(list.status).toBe(200);
  if (list.body.totalSize === 0) return 'absent';
  expect(list.body.totalSize).toBe(1);
  const employeeId = list.body._embedded[0].id as string;
  const employments = await call(url, 'GET', `/v2/v2/providers/employers/employees/${employeeId}/employments`);
  return employments.status === 200 && employments.body.totalSize >= 1 ? 'whole' : 'half';
}

it('answers /__health, /__ready and /__metrics', async () => {
  expect((await call(mock.url, 'GET', '/__health')).status).toBe(200);
  const ready = await call(mock.url, 'GET', '/__ready');
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({ status: 'ready', store: 'postgresql' });
  expect((await call(mock.url, 'GET', `${EMPLOYEES}?pageSize=5`)).status).toBe(200);
  expect((await call(mock.url, 'POST', EMPLOYEES, newEmployee(70_001, 1))).status).toBe(201);
  const metrics = await call(mock.url, 'GET', '/__metrics');
  expect(metrics.status).toBe(200);
  expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = metrics.body as string;
  expect(text).toMatch(/^payroll_mock_requests_total\{operation="GetEmployeesByEmployerId",status="200"\} 1$/m);
  expect(text).toMatch(/^payroll_mock_request_duration_seconds_count\{operation="PostEmployeeByEmployerId",status="201"\} 1$/m);
  expect(text).toMatch(/^payroll_mock_requests_total\{operation="none",status="200"\} \d+$/m);
  expect(text).toMatch(/^payroll_mock_sandboxes 1$/m);
  // Two lists of one collection at one state (two pages: the answer cache answers neither): the
  // collection is loaded into the collection cache beside the second.
  for (const size of [6, 7]) expect((await call(mock.url, 'GET', `${EMPLOYEES}?pageSize=${size}`)).status).toBe(200);
  const cached = async () => Number(/^payroll_mock_collection_cache_bytes (\d+)$/m.exec((await call(mock.url, 'GET', '/__metrics')).body as string)?.[1]);
  await expect.poll(cached, { timeout: 5_000, interval: 50 }).toBeGreaterThan(0);
  expect(text).toMatch(/^payroll_mock_store_errors_total\{kind="unavailable"\} 0$/m);
  expect(text).toMatch(/^payroll_mock_process_cpu_seconds_total \d/m);
}, 60_000);

it('keeps no collections with --collection-cache 0', async () => {
  const plain = await startProcess(['--port', '0', '--database-url', await server().database('operations'), '--collection-cache', '0']);
  try {
    for (const size of [6, 7, 8]) expect((await call(plain.url, 'GET', `${EMPLOYEES}?pageSize=${size}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(plain.url, 'GET', '/__metrics')).body).toMatch(/^payroll_mock_collection_cache_bytes 0$/m);
  } finally {
    await plain.stop();
  }
}, 60_000);

it('answers 503 with Retry-After while PostgreSQL is down, recovers alone, keeps every acknowledged write and applies none by half', async () => {
  const answers = new Map<number, Answer>();
  let next = 0;
  let running = true;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const worker = async () => {
    while (running) {
      const n = next++;
      const answer = await call(mock.url, 'POST', EMPLOYEES, newEmployee(71_000 + n, 200 + n));
      answers.set(n, answer);
      if (answer.status >= 500) await sleep(50);
    }
  };
  const workers = Array.from({ length: 6 }, worker);
  const count = (status: number) => [...answers.values()].filter((a) => a.status === status).length;
  const until = async (what: () => boolean | Promise<boolean>, label: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
      await sleep(50);
    }
  };

  await until(() => count(201) >= 20, '20 writes before the outage');
  server().halt();
  const createdBefore = count(201);
  await until(() => count(503) >= 10, '10 answers 503 during the outage');
  const notReady = await call(mock.url, 'GET', '/__ready');
  expect(notReady.status).toBe(503);
  expect(notReady.headers.get('retry-after')).toBe('2');
  expect((await call(mock.url, 'GET', '/__health')).status).toBe(200);
  server().resume();
  await until(async () => (await call(mock.url, 'GET', '/__ready')).status === 200, 'readiness after the outage');
  await until(() => count(201) >= createdBefore + 20, '20 writes after the outage');
  running = false;
  await Promise.all(workers);

  const statuses = new Set([...answers.values()].map((a) => a.status));
  expect([...statuses].sort()).toEqual([201, 503]);
  for (const answer of answers.values()) {
    if (answer.status !== 503) continue;
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.body.messages).toEqual([expect.objectContaining({ code: 503, type: 'Exception', properties: [] })]);
    expect(answer.body.messages[0].description).toMatch(/temporarily unavailable/);
  }
  for (const [n, answer] of answers) {
    const state = await stored(mock.url, 71_000 + n);
    if (answer.status === 201) expect(state, `employee ${71_000 + n} (answered 201)`).toBe('whole');
    else expect(state, `employee ${71_000 + n} (answered 503)`).not.toBe('half');
  }
  const metrics = (await call(mock.url, 'GET', '/__metrics')).body as string;
  expect(Number(/^payroll_mock_store_errors_total\{kind="unavailable"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  expect(metrics).toMatch(/^payroll_mock_requests_total\{operation="PostEmployeeByEmployerId",status="503"\} \d+$/m);
}, 120_000);

it('on SIGTERM stops accepting, finishes the requests in flight, exits 0 within 10 s and loses no acknowledged write', async () => {
  const url = await server().database('shutdown');
  const child = await startProcess(['--port', '0', '--database-url', url]);
  // Slow requests (X-Sandbox-Fault delays them 1.5 s) are in flight when the signal comes.
  const inFlight = Array.from({ length: 8 }, (_, n) =>
    call(child.url, 'POST', EMPLOYEES, newEmployee(72_000 + n, 400 + n), { 'X-Sandbox-Fault': 'delay=1500' }).catch((error: Error) => error),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
    const signalled = Date.now();
    child.child.once('exit', (code) => resolve({ code, ms: Date.now() - signalled }));
  });
  child.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  // No longer accepting.
  await expect(fetch(`${child.url}/__health`)).rejects.toThrow();
  const answers = await Promise.all(inFlight);
  for (const answer of answers) expect((answer as Answer).status).toBe(201);
  const { code, ms } = await exited;
  expect(code).toBe(0);
  expect(ms).toBeLessThan(10_000);
  // Every acknowledged write is there for the next process.
  const after = await startProcess(['--port', '0', '--database-url', url]);
  try {
    for (let n = 0; n < 8; n++) expect(await stored(after.url, 72_000 + n)).toBe('whole');
  } finally {
    await after.stop();
  }
}, 120_000);
