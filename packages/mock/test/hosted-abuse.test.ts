// A shared sandbox (--hosted) attacked by one of its tenants, through two real processes on one
// real PostgreSQL database: no request exhausts or crashes the process, bad input gets a 4xx in
// the contract's envelope (never a 500), and the limits hold per client across instances:
// what a client sets through one instance applies through the other, and the two together let
// a client through at its rate, not twice it.
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { createSandbox } from '@payroll-api/sandbox';
import { request, startProcess, type MockProcess } from './helpers.js';
import { startPostgres, usePostgres } from './support/postgres.js';
import { newEmployee } from './support/new-employee.js';
import { PostgresStore } from '../src/store/postgres/index.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { tenantSandbox } from '#sandbox/auth/tenants.js';
import pg from 'pg';
import { snapshotBytes } from '../src/store/stored-bytes.js';

const server = usePostgres();
const OPERATOR = 'operator-token-of-the-abuse-test-0123456789';
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
/** A PUT that declares `length` bytes of JSON and sends none of them: the status and body of the answer. */
function declaredOnly(base: string, target: string, token: string, length: number): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`PUT ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`);
    });
    let raw = '';
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to PUT ${target}`)));
    socket.on('data', (chunk) => {
      raw += chunk.toString('utf8');
      const head = /^HTTP\/1\.1 (\d{3})/.exec(raw);
      if (head && raw.includes('\r\n\r\n') && raw.includes('}')) {
        socket.destroy();
        resolve({ status: Number(head[1]), text: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const head = /^HTTP\/1\.1 (\d{3})/.exec(raw);
      if (head) resolve({ status: Number(head[1]), text: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
      else reject(new Error(`PUT ${target}: the connection closed with no answer`));
    });
  });
}

const MAX_BODY = 100_000;
const MAX_SNAPSHOT = 3_000_000;
const RATE = 20;
const MAX_SANDBOXES = 3;
const MAX_FAILURES = 40;
/** Room above the seed in each sandbox (--max-sandbox-bytes). */
const STORED_HEADROOM = 1_000_000;
const MAX_SANDBOX_BYTES = snapshotBytes(seedSnapshot()) + STORED_HEADROOM;
const APP_ORIGIN = 'https://app.example.com';
/** Remote addresses of their own (every 127/8 address reaches the loopback interface), so that
 * the failures one test provokes throttle no other test. */
const RACE_ADDRESS = '127.0.0.3';
const FAILING_ADDRESS = '127.0.0.2';
const JSON_V = 'application/json;version=2018-01-01';
let a: MockProcess;
let b: MockProcess;

const hostedArgs = (databaseUrl: string, more: string[] = []) => [...more, '--port', '0', '--hosted', '--operator-token', OPERATOR, '--database-url', databaseUrl, '--max-body', String(MAX_BODY), '--max-snapshot-body', String(MAX_SNAPSHOT), '--rate-limit', String(RATE), '--max-sandboxes', String(MAX_SANDBOXES), '--max-failures', String(MAX_FAILURES), '--max-sandbox-bytes', String(MAX_SANDBOX_BYTES), '--cors-origin', APP_ORIGIN];

beforeAll(async () => {
  const databaseUrl = await server().database('abuse');
  // One first: it creates the schema, the other finds it.
  a = await startProcess(hostedArgs(databaseUrl, ['--admin-port', '0']));
  b = await startProcess(hostedArgs(databaseUrl));
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

async function call(mock: MockProcess, method: string, target: string, token: string | undefined, body?: unknown, extra: Record<string, string> = {}, localAddress?: string): Promise<Answer> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const answer = await request(`${mock.url}${target}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(text === undefined ? {} : { 'content-type': JSON_V, 'content-length': Buffer.byteLength(text) }),
      ...extra,
    },
    body: text,
    timeoutMs: 60_000,
    localAddress,
  });
  let parsed: unknown;
  try {
    parsed = answer.text ? answer.json() : undefined;
  } catch {
    parsed = answer.text;
  }
  return { status: answer.status, headers: answer.headers, body: parsed };
}

/** An answer past the rate limit, waited out (the tests that are not about the limit). */
async function calm(send: () => Promise<Answer>): Promise<Answer> {
  for (;;) {
    const answer = await send();
    if (answer.status !== 429) return answer;
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers['retry-after'] ?? 1) * 1000));
  }
}

const descriptions = (answer: Answer) => ((answer.body?.messages ?? []) as Array<{ description: string }>).map((m) => m.description).join(' ');

let clients = 0;
async function newClient(): Promise<{ client_id: string; client_secret: string }> {
  const created = await call(a, 'POST', '/__operator/clients', OPERATOR, { name: `Tenant ${++clients}` });
  expect(created.status).toBe(201);
  return created.body;
}

async function login(mock: MockProcess, client: { client_id: string; client_secret: string }, username: string, localAddress?: string): Promise<{ status: number; body: any }> {
  return grant(mock, { grant_type: 'password', username, password: 'Welkom01!', client_Id: client.client_id, client_secret: client.client_secret }, localAddress);
}

async function grant(mock: MockProcess, fields: Record<string, string>, localAddress?: string): Promise<{ status: number; body: any }> {
  const form = new URLSearchParams(fields).toString();
  const answer = await request(`${mock.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) }, body: form, localAddress });
  return { status: answer.status, body: answer.text ? answer.json() : undefined };
}

async function token(mock: MockProcess, username = 'admin'): Promise<string> {
  const issued = await login(mock, await newClient(), username);
  expect(issued.status).toBe(200);
  return issued.body.access_token as string;
}

describe('no request exhausts the process', () => {
  it('caps every body, control and operator ones included, at --max-body, by Content-Length and while it streams', async () => {
    const owner = await token(a);
    const big = JSON.stringify({ unknownFields: 'warn', padding: 'x'.repeat(MAX_BODY) });
    for (const [method, target, auth] of [
      ['PUT', '/__sandbox/settings', owner],
      ['PUT', '/__sandbox/faults', owner],
      ['PUT', '/__sandbox/authorization', owner],
      ['POST', EMPLOYEES, owner],
      ['POST', '/__operator/clients', OPERATOR],
    ] as const) {
      const declared = await call(a, method, target, auth, big).catch((e) => { throw new Error(`${method} ${target}: ${e.message}`); });
      expect(declared.status, `${method} ${target}`).toBe(413);
      expect(declared.body.messages[0]).toMatchObject({ code: 413, properties: ['body'] });
      if (!target.startsWith('/__operator')) expect(descriptions(declared)).toContain('--max-body');
      // Without Content-Length (chunked), the bytes are counted as they arrive.
      const streamed = await request(`${b.url}${target}`, { method, headers: { authorization: `Bearer ${auth}`, accept: 'application/json', 'content-type': JSON_V, 'transfer-encoding': 'chunked' }, body: big }).catch((e) => { throw new Error(`${method} ${target} chunked: ${e.message}`); });
      expect(streamed.status, `${method} ${target} chunked`).toBe(413);
    }
    // A snapshot import has its own, larger cap.
    const snapshot = (await call(a, 'GET', '/__sandbox/snapshot', owner)).body;
    const sized = { ...snapshot, meta: { ...snapshot.meta, note: 'y'.repeat(MAX_BODY) } };
    expect((await call(a, 'PUT', '/__sandbox/snapshot', owner, sized)).status).toBe(200);
    // Beyond its cap by Content-Length alone: the answer comes before any of the body is sent (a
    // client still writing a body far beyond the cap may see the connection closed instead).
    const refused = await declaredOnly(b.url, '/__sandbox/snapshot', owner, MAX_SNAPSHOT + 1);
    expect(refused.status).toBe(413);
    expect(refused.text).toContain('--max-snapshot-body');
  });

  it('answers broken percent-encoding in control and operator paths with 400, with or without a token', async () => {
    const owner = await token(a);
    for (const [target, auth] of [
      ['/__sandbox/faults/%E0%A4%A', undefined],
      ['/__sandbox/faults/%E0%A4%A', owner],
      ['/__sandbox/authorization/users/%E0%A4%A', owner],
      ['/__sandbox/authorization/users/%E0%A4%A', undefined],
      ['/__operator/sandboxes/%E0%A4%A', OPERATOR],
      ['/__operator/clients/%ZZ', undefined],
    ] as const) {
      const answer = await call(b, 'DELETE', target, auth);
      expect(answer.status, target).toBe(400);
      expect(answer.body.messages[0]).toMatchObject({ code: 400, properties: ['path'] });
    }
  });

  it('refuses JSON nested deeper than the limit in an API body and in a snapshot, with 400', async () => {
    const owner = await token(b);
    const deep = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    const employee = JSON.stringify(newEmployee(70_001, 1)).replace('"exclusionFromAbsenceStatus":false', `"exclusionFromAbsenceStatus":${deep(10_000)}`);
    const api = await call(b, 'POST', EMPLOYEES, owner, employee);
    expect(api.status).toBe(400);
    expect(descriptions(api)).toMatch(/nested more than \d+ levels/);
    const snapshot = (await call(b, 'GET', '/__sandbox/snapshot', owner)).body;
    const text = JSON.stringify({ ...snapshot, meta: { deep: 0 } }).replace('"deep":0', `"deep":${deep(10_000).replaceAll('[', '{"a":').replaceAll(']', '}')}`);
    const control = await call(b, 'PUT', '/__sandbox/snapshot?mode=merge', owner, text);
    expect(control.status).toBe(400);
    expect(descriptions(control)).toMatch(/nested more than \d+ levels/);
    // A nesting an honest body has still passes.
    expect((await call(b, 'PUT', '/__sandbox/snapshot', owner, { ...snapshot, meta: { ...snapshot.meta, fine: deep(20) } })).status).toBe(200);
  });

  it('refuses a lone surrogate with 400 naming the field, on PostgreSQL and in memory alike', async () => {
    const owner = await token(a);
    const body = JSON.stringify(newEmployee(70_002, 2)).replace('"firstName":"Sanne"', '"firstName":"San\\ud800ne"');
    const onPostgres = await call(a, 'POST', EMPLOYEES, owner, body);
    expect(onPostgres.status).toBe(400);
    expect(onPostgres.body.messages[0].properties).toEqual(['employeeData.personalDetails.firstName']);
    const sandbox = await createSandbox();
    const inMemory = await sandbox.fetch(`http://sandbox.invalid${EMPLOYEES}`, { method: 'POST', headers: { authorization: 'Bearer memory-test', accept: 'application/json', 'content-type': JSON_V }, body });
    expect(inMemory.status).toBe(400);
    expect((await inMemory.json()).messages[0].properties).toEqual(['employeeData.personalDetails.firstName']);
    await sandbox.close();
    // A surrogate pair (a character outside the BMP) is text, and is stored.
    const pair = JSON.stringify(newEmployee(70_003, 3)).replace('"firstName":"Sanne"', '"firstName":"San\\ud83d\\ude00ne"');
    expect((await call(a, 'POST', EMPLOYEES, owner, pair)).status).toBe(201);
    // In a snapshot's meta, a key holding one is refused too.
    const snapshot = (await call(a, 'GET', '/__sandbox/snapshot', owner)).body;
    const meta = JSON.stringify({ ...snapshot, meta: { x: 1 } }).replace('"x":1', '"\\udc00":1');
    expect((await call(a, 'PUT', '/__sandbox/snapshot', owner, meta)).status).toBe(400);
  });

  it('bounds the running total of a clock advanced again and again; the sandbox keeps answering', async () => {
    const owner = await token(a);
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const step = await calm(() => call(i % 2 === 0 ? a : b, 'POST', '/__sandbox/clock/advance', owner, { days: 365_000 }));
      if (step.status === 400) refused++;
      else expect(step.status).toBe(200);
    }
    expect(refused).toBeGreaterThan(290);
    // Past the client's rate, each call waits its turn (calm): what is checked is the answer, not the limit.
    const clock = await calm(() => call(b, 'GET', '/__sandbox/clock', owner));
    expect(clock.status).toBe(200);
    expect(clock.body.now).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await calm(() => call(a, 'GET', EMPLOYEES, owner))).status).toBe(200);
    // A clock set beyond year 9999 is refused as well.
    expect((await calm(() => call(a, 'PUT', '/__sandbox/clock', owner, { now: '10000-01-01T00:00:00Z' }))).status).toBe(400);
  }, 120_000);

  it('answers a write whose own query loses the database with 503, not 500', async () => {
    const own = await startPostgres();
    try {
      const store = await PostgresStore.open({ databaseUrl: await own.database('outage'), seed: seedSnapshot(), collections: [{ name: 'notes' }] });
      try {
        await store.transaction('s1', 'write', (tx) => tx.insert('notes', { id: 'n1' }));
        const failed = await store
          .transaction('s1', 'write', async (tx) => {
            own.halt();
            await tx.insert('notes', { id: 'n2' });
          })
          .then(() => undefined, (error: unknown) => error);
        expect((failed as { name?: string })?.constructor?.name).toBe('StoreUnavailable');
      } finally {
        own.resume();
        await store.close().catch(() => undefined);
      }
    } finally {
      own.stop();
    }
  }, 120_000);

  it('stops accepting, drains and exits 1 after an uncaught error, so that it is restarted', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-mock-crash-'));
    // Stands for a defect anywhere in the process: an error thrown outside any request.
    const crash = path.join(dir, 'crash.mjs');
    fs.writeFileSync(crash, "process.on('SIGUSR2', () => setTimeout(() => { throw new Error('a defect'); }, 0));\n");
    const mock = await startProcess(['--port', '0'], { NODE_OPTIONS: `--import=${crash}` });
    try {
      const slow = call(mock, 'GET', EMPLOYEES, 'crash-test', undefined, { 'X-Sandbox-Fault': 'delay=1500' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = new Promise<number | null>((resolve) => mock.child.once('exit', (code) => resolve(code)));
      mock.child.kill('SIGUSR2');
      // The request in flight is answered; then the process exits non-zero.
      expect((await slow).status).toBe(200);
      expect(await exited).toBe(1);
      expect(mock.stderr()).toContain('a defect');
      await expect(call(mock, 'GET', EMPLOYEES, 'crash-test')).rejects.toThrow();
    } finally {
      await mock.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** Calls `target` on `mock` with `tokens` in turn, `inFlight` at a time, for `ms`; the statuses. */
async function flood(mock: MockProcess, target: string, tokens: Array<string | undefined>, ms: number, inFlight = 16, method = 'GET', body?: string): Promise<number[]> {
  const statuses: number[] = [];
  const until = Date.now() + ms;
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < until) {
        const answer = await call(mock, method, target, tokens[next++ % tokens.length], body, body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' });
        statuses.push(answer.status);
      }
    }),
  );
  return statuses;
}

describe('quotas per client, not per token', () => {
  it('limits a client as a whole, whichever of its tokens it uses', async () => {
    const client = await newClient();
    const tokens: string[] = [];
    // Each login from an address of its own: logins are limited per address (a share of the rate per instance).
    for (let i = 0; i < 20; i++) {
      const issued = await login(a, client, 'admin', `127.0.1.${i + 1}`);
      expect(issued.status).toBe(200);
      tokens.push(issued.body.access_token);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const seconds = 3;
    const statuses = await flood(a, '/__sandbox/clock', tokens, seconds * 1000);
    const passed = statuses.filter((s) => s === 200).length;
    // One second's burst, then the rate: within 10 %.
    expect(passed).toBeLessThanOrEqual(RATE * (seconds + 1) * 1.1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Another client is not held up by it.
    const other = await login(a, await newClient(), 'admin', '127.0.1.100');
    expect(other.status).toBe(200);
    expect((await call(a, 'GET', '/__sandbox/clock', other.body.access_token)).status).toBe(200);
  });

  it("limits the sandboxes of a client, and lists a client's own sandboxes only", async () => {
    const client = await newClient();
    const other = await token(b, 'admin');
    expect((await calm(() => call(b, 'PUT', '/__sandbox/clock', other, { now: '2030-01-01T00:00:00Z' }))).status).toBe(200);
    const users = ['admin', 'read-only', 'alice', 'bob'];
    const tokens: string[] = [];
    for (const user of users) tokens.push((await login(a, client, user)).body.access_token);
    for (const [i, owner] of tokens.entries()) {
      const answer = await calm(() => call(i % 2 === 0 ? a : b, 'PUT', '/__sandbox/clock', owner, { now: '2031-01-01T00:00:00Z' }));
      if (i < MAX_SANDBOXES) expect(answer.status).toBe(200);
      else {
        expect(answer.status).toBe(400);
        expect(descriptions(answer)).toContain('--max-sandboxes');
      }
    }
    // An API write of a fourth user is refused the same way; the sandboxes held still write.
    expect((await calm(() => call(a, 'POST', EMPLOYEES, tokens[3], newEmployee(70_010, 10)))).status).toBe(400);
    expect((await calm(() => call(a, 'POST', EMPLOYEES, tokens[0], newEmployee(70_011, 11)))).status).toBe(201);
    const listed = await calm(() => call(b, 'GET', '/__sandbox/sandboxes', tokens[1]));
    expect(listed.body.sandboxes).toHaveLength(MAX_SANDBOXES);
    const prefix = /^client-[0-9a-f]{16}-/.exec(listed.body.sandboxes[0].id)![0];
    expect(listed.body.sandboxes.every((s: { id: string }) => s.id.startsWith(prefix))).toBe(true);
    // Once one is removed, another user may write.
    expect((await calm(() => call(a, 'POST', '/__sandbox/reset', tokens[2]))).status).toBe(200);
    expect((await calm(() => call(b, 'PUT', '/__sandbox/clock', tokens[3], { now: '2031-01-01T00:00:00Z' }))).status).toBe(200);
  });

  it('limits the bytes one sandbox stores (documents, meta, uploads, its logins\' tokens) across instances', async () => {
    const client = await newClient();
    const owner = (await login(a, client, 'admin')).body.access_token as string;
    const withPadding = async (mock: MockProcess, padding: number) => {
      const snapshot = (await calm(() => call(mock, 'GET', '/__sandbox/snapshot', owner))).body;
      return calm(() => call(mock, 'PUT', '/__sandbox/snapshot', owner, { ...snapshot, meta: { ...snapshot.meta, pad: 'x'.repeat(padding) } }));
    };
    const refusedByLimit = (answer: { status: number; body: any }) => {
      expect(answer.status).toBe(400);
      expect(descriptions(answer as Answer)).toContain(`at most ${MAX_SANDBOX_BYTES} bytes (the limit --max-sandbox-bytes`);
    };
    // Meta through one instance leaves about 1 kB; the other instance sees the same total.
    expect((await withPadding(a, STORED_HEADROOM - 1_000)).status).toBe(200);
    const employee = newEmployee(70_020, 20);
    refusedByLimit(await calm(() => call(b, 'POST', EMPLOYEES, owner, { ...employee, employeeData: { ...employee.employeeData, personalDetails: { ...employee.employeeData.personalDetails, lastName: 'y'.repeat(60) } } })));
    const stored = await calm(() => call(a, 'GET', `${EMPLOYEES}?filter=${encodeURIComponent('employeeNumber eq 70020')}`, owner));
    expect(stored.body.totalSize).toBe(0);
    const photo = { data: Buffer.alloc(20_000, 7).toString('base64'), mimeType: 'image/png' };
    const employeeId = (await calm(() => call(a, 'GET', `${EMPLOYEES}?pageSize=1`, owner))).body._embedded[0].id as string;
    refusedByLimit(await calm(() => call(b, 'POST', `/v2/v2/providers/employers/employees/${employeeId}/photo`, owner, photo)));
    refusedByLimit(await withPadding(b, STORED_HEADROOM + 1_000));
    // Each login stores two token rows that count towards the sandbox: the room left runs out.
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 60 && !refused; i++) {
      const issued = await login(i % 2 === 0 ? a : b, client, 'admin');
      if (issued.status === 429) await new Promise((resolve) => setTimeout(resolve, 1_000));
      else if (issued.status !== 200) refused = issued;
    }
    expect(refused).toBeDefined();
    refusedByLimit(refused!);
    // Room made again: logins, documents and uploads are stored.
    expect((await withPadding(b, 10)).status).toBe(200);
    expect((await login(a, client, 'admin')).status).toBe(200);
    expect((await calm(() => call(a, 'POST', EMPLOYEES, owner, employee))).status).toBe(201);
    expect((await calm(() => call(b, 'POST', `/v2/v2/providers/employers/employees/${employeeId}/photo`, owner, photo))).status).toBe(201);
  }, 120_000);

  it('limits requests without a client token by remote address', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // All at once: more than a second's burst arrives before the bucket can refill.
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: RATE * 4 }, () => call(b, 'POST', '/auth/token', undefined, 'grant_type=nonsense', { 'content-type': 'application/x-www-form-urlencoded' }).then((answer) => answer.status)));
    const seconds = (Date.now() - started) / 1000;
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(Math.ceil(RATE * (1 + seconds) * 1.1));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  });
});

describe('deletion and keys take effect at once', () => {
  it('leaves no working token of a client removed while its users log in, on either instance', async () => {
    const client = await newClient();
    const logins = Array.from({ length: 12 }, (_, i) => login(i % 2 === 0 ? a : b, client, `racer-${i}`, RACE_ADDRESS));
    const removed = call(a, 'DELETE', `/__operator/clients/${client.client_id}`, OPERATOR);
    const results = await Promise.all(logins);
    expect((await removed).status).toBe(204);
    for (const result of results) {
      expect([200, 401]).toContain(result.status);
      if (result.status !== 200) continue;
      for (const mock of [a, b]) expect((await call(mock, 'GET', '/__sandbox/clock', result.body.access_token, undefined, {}, RACE_ADDRESS)).status).toBe(401);
    }
  });

  it('revokes every token of a login when one of its refresh tokens is used twice', async () => {
    const client = await newClient();
    const first = await login(a, client, 'admin');
    const refresh = (presented: string, mock: MockProcess) => grant(mock, { grant_type: 'refresh_token', refresh_token: presented, client_Id: client.client_id, client_secret: client.client_secret });
    const second = await refresh(first.body.refresh_token, b);
    expect(second.status).toBe(200);
    const third = await refresh(second.body.refresh_token, a);
    expect(third.status).toBe(200);
    expect((await call(a, 'GET', '/__sandbox/clock', third.body.access_token)).status).toBe(200);
    // The first refresh token again (stolen and replayed, or the client's own mistake).
    const replayed = await refresh(first.body.refresh_token, b);
    expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    for (const issued of [first, second, third]) expect((await call(b, 'GET', '/__sandbox/clock', issued.body.access_token)).status).toBe(401);
    expect((await refresh(third.body.refresh_token, a)).status).toBe(400);
    // Another login of the same user is not touched.
    const other = await login(b, client, 'admin');
    expect((await call(a, 'GET', '/__sandbox/clock', other.body.access_token)).status).toBe(200);
  });

  it('takes no property of Object.prototype for a user, client, role or right of the model', async () => {
    const owner = await token(a);
    for (const name of ['constructor', 'hasOwnProperty', 'toString']) {
      const user = { name: 'Probe', password: 'Welkom01!', client: name, role: name, rights: [name], employers: 'all', department: null };
      const answer = await calm(() => call(a, 'PUT', '/__sandbox/authorization/users/probe', owner, user));
      expect(answer.status, name).toBe(400);
      expect(answer.body.messages.map((m: { properties: string[] }) => m.properties[0])).toEqual(expect.arrayContaining(['users.probe.client', 'users.probe.role']));
      expect((await calm(() => call(a, 'GET', `/__sandbox/authorization/users/${name.toLowerCase()}`, owner))).status).toBe(404);
    }
  });
});

describe('headers', () => {
  it('marks answers not to be sniffed nor kept, and allows the listed browser origins only', async () => {
    const owner = await token(a);
    const listed = await calm(() => call(a, 'GET', EMPLOYEES, owner, undefined, { origin: APP_ORIGIN }));
    expect(listed.status).toBe(200);
    expect(listed.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'access-control-allow-origin': APP_ORIGIN });
    const other = await calm(() => call(b, 'GET', EMPLOYEES, owner, undefined, { origin: 'https://elsewhere.example.com' }));
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await call(b, 'GET', EMPLOYEES, 'sandbox-user-admin', undefined, { origin: APP_ORIGIN });
    expect(refused.status).toBe(401);
    expect(refused.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });
});

// Its own address: the failures it provokes leave that address throttled.
describe('repeated failures', () => {
  it('answers 429 after a bound of wrong client secrets and operator tokens, and keeps serving known clients', async () => {
    const owner = await token(a);
    const client = await newClient();
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < MAX_FAILURES + 15; i++) {
      statuses.push((await login(a, { ...client, client_secret: `wrong-${i}` }, 'admin', FAILING_ADDRESS)).status);
      await new Promise((resolve) => setTimeout(resolve, 1000 / (RATE / 2))); // under the rate limit
    }
    expect(statuses.slice(0, MAX_FAILURES), statuses.join()).toEqual(Array(MAX_FAILURES).fill(401));
    // The bound refills over a minute: a few more may pass while the attempts go on, no more.
    const refilled = Math.ceil((((Date.now() - started) / 1000) * MAX_FAILURES) / 60);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILURES + refilled);
    expect(statuses.slice(MAX_FAILURES).filter((s) => s === 429).length).toBeGreaterThanOrEqual(15 - refilled);
    // The right secret waits too (no guessing goes on), and so do operator tokens. Each check
    // follows a refusal at once; one attempt refills every 60 / MAX_FAILURES s, so on a busy
    // machine a check may land just after a refill: it is retried after a fresh refusal, and an
    // address that is not throttled would answer it every time.
    const refusedRightAfterARefusal = async (check: () => Promise<{ status: number }>) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        while ((await login(a, { ...client, client_secret: 'wrong-again' }, 'admin', FAILING_ADDRESS)).status !== 429);
        seen.push((await check()).status);
        if (seen.at(-1) === 429) return seen;
      }
      return seen;
    };
    expect(await refusedRightAfterARefusal(() => login(a, client, 'admin', FAILING_ADDRESS))).toContain(429);
    expect(await refusedRightAfterARefusal(() => call(a, 'GET', '/__operator/clients', 'not-the-operator-token-0123456789', undefined, {}, FAILING_ADDRESS))).toContain(429);
    expect(await refusedRightAfterARefusal(() => call(a, 'GET', '/__operator/clients', OPERATOR, undefined, {}, FAILING_ADDRESS))).toContain(429);
    // A client's valid token is no failure and still answered; so is another address.
    expect((await call(a, 'GET', '/__sandbox/clock', owner, undefined, {}, FAILING_ADDRESS)).status).toBe(200);
    expect((await call(a, 'GET', '/__operator/clients', OPERATOR)).status).toBe(200);
  });
});

describe('many instances behave as one', () => {
  it('applies a fault rule set through one instance through the other, and clears it on a reset through either', async () => {
    const owner = await token(a);
    const rule = { operations: ['GetEmployeesByEmployerId'], status: 503, retryAfterSeconds: 3, times: 2 };
    expect((await calm(() => call(a, 'PUT', '/__sandbox/faults', owner, { faults: [rule] }))).status).toBe(200);
    const first = await calm(() => call(b, 'GET', EMPLOYEES, owner));
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('3');
    // The two calls the rule allows are counted across the instances.
    expect((await calm(() => call(a, 'GET', EMPLOYEES, owner))).status).toBe(503);
    expect((await calm(() => call(b, 'GET', EMPLOYEES, owner))).status).toBe(200);
    expect((await calm(() => call(a, 'GET', '/__sandbox/faults', owner))).body).toEqual({ faults: [] });
    // A rule added through B applies through A, and a reset through B clears it for A.
    const added = await calm(() => call(b, 'POST', '/__sandbox/faults', owner, { faults: [{ operations: ['*'], status: 500 }] }));
    expect(added.status).toBe(201);
    expect((await calm(() => call(a, 'GET', '/__sandbox/faults', owner))).body.faults).toEqual(added.body.faults);
    expect((await calm(() => call(a, 'GET', EMPLOYEES, owner))).status).toBe(500);
    expect((await calm(() => call(b, 'POST', '/__sandbox/reset', owner))).status).toBe(200);
    expect((await calm(() => call(a, 'GET', EMPLOYEES, owner))).status).toBe(200);
    expect((await calm(() => call(a, 'GET', '/__sandbox/faults', owner))).body).toEqual({ faults: [] });
  });

  it('applies a setting made through one instance through the other, and clears it on a reset through either', async () => {
    const owner = await token(b);
    expect((await calm(() => call(a, 'PUT', '/__sandbox/settings', owner, { unknownFields: 'reject' }))).status).toBe(200);
    const unknown = JSON.stringify(newEmployee(70_020, 20)).replace('{', '{"notAField":1,');
    const refused = await calm(() => call(b, 'POST', EMPLOYEES, owner, unknown));
    expect(refused.status).toBe(400);
    expect(descriptions(refused)).toContain('notAField');
    expect((await calm(() => call(b, 'GET', '/__sandbox/settings', owner))).body).toMatchObject({ unknownFields: 'reject' });
    expect((await calm(() => call(b, 'POST', '/__sandbox/reset', owner))).status).toBe(200);
    expect((await calm(() => call(a, 'GET', '/__sandbox/settings', owner))).body).toMatchObject({ unknownFields: 'ignore' });
  });

  it("keeps a client's rate over both instances within 10 % of the limit", async () => {
    const client = await newClient();
    const tokens = [(await login(a, client, 'admin')).body.access_token, (await login(b, client, 'admin')).body.access_token];
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const seconds = 3;
    const started = Date.now();
    const both = await Promise.all([flood(a, '/__sandbox/clock', tokens, seconds * 1000, 8), flood(b, '/__sandbox/clock', tokens, seconds * 1000, 8)]);
    const elapsed = (Date.now() - started) / 1000;
    const statuses = both.flat();
    const passed = statuses.filter((s) => s === 200).length;
    // One second's burst, then the rate, over the two together: within 10 %, neither twice it
    // (each instance its own limit) nor much less (the instances split it between them).
    expect(passed).toBeLessThanOrEqual(RATE * (elapsed + 1) * 1.1);
    expect(passed).toBeGreaterThanOrEqual(RATE * seconds * 0.9);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // The header fields say what the answering instance holds: the quota over a window of two seconds.
    const answer = await calm(() => call(b, 'GET', '/__sandbox/clock', tokens[0]));
    expect(answer.headers['ratelimit-policy']).toBe(`"per-client";q=${RATE};w=2`);
  });
});

describe('connections and fault delays per client', () => {
  const MAX_CONNECTIONS = 4;
  const MAX_FAULT_DELAY = 3000;
  let c: MockProcess;
  beforeAll(async () => {
    c = await startProcess(['--port', '0', '--hosted', '--operator-token', OPERATOR, '--rate-limit', '1000', '--max-connections', String(MAX_CONNECTIONS), '--max-fault-delay', String(MAX_FAULT_DELAY)]);
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });
  const clientOn = async (mock: MockProcess) => {
    const created = await call(mock, 'POST', '/__operator/clients', OPERATOR, { name: `Tenant ${++clients}` });
    const issued = await login(mock, created.body, 'admin');
    expect(issued.status).toBe(200);
    return issued.body.access_token as string;
  };
  const delayed = (owner: string, ms: number) => call(c, 'GET', EMPLOYEES, owner, undefined, { 'X-Sandbox-Fault': `delay=${ms}` });

  it('answers 429 naming --max-connections past the connections one client has open', async () => {
    const owner = await clientOn(c);
    const held = Array.from({ length: MAX_CONNECTIONS }, () => delayed(owner, 600));
    await new Promise((resolve) => setTimeout(resolve, 250));
    const refused = await call(c, 'GET', EMPLOYEES, owner);
    expect(refused.status).toBe(429);
    expect(refused.body.messages[0]).toMatchObject({ code: 429 });
    expect(descriptions(refused)).toContain('--max-connections');
    // Another client is not held up by it.
    expect((await call(c, 'GET', EMPLOYEES, await clientOn(c))).status).toBe(200);
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
    expect((await call(c, 'GET', EMPLOYEES, owner)).status).toBe(200);
  });

  it('answers 429 naming --max-fault-delay past the fault delays one client has waiting', async () => {
    const owner = await clientOn(c);
    // A rule's delay counts as the header's does.
    expect((await call(c, 'PUT', '/__sandbox/faults', owner, { faults: [{ operations: ['GetEmployeesByEmployerId'], delayMs: 1400, times: 1 }] })).status).toBe(200);
    const held = [call(c, 'GET', EMPLOYEES, owner), delayed(owner, 1400)];
    await new Promise((resolve) => setTimeout(resolve, 250));
    const refused = await delayed(owner, 400);
    expect(refused.status).toBe(429);
    expect(descriptions(refused)).toContain('--max-fault-delay');
    expect(refused.headers['retry-after']).toBeDefined();
    // Another client's delays are its own.
    expect((await delayed(await clientOn(c), 400)).status).toBe(200);
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
    expect((await delayed(owner, 400)).status).toBe(200);
  });
});

describe('monitoring endpoints', () => {
  it('serves /__metrics and /__ready on the admin port only, and on the public port to the operator token only', async () => {
    const owner = await token(b);
    let adminUrl: string | undefined;
    for (let i = 0; i < 50 && !adminUrl; i++) {
      adminUrl = /\/__ready and \/__metrics on (http:\/\/\S+)/.exec(a.stderr())?.[1];
      if (!adminUrl) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(adminUrl).toBeDefined();
    for (const target of ['/__metrics', '/__ready']) {
      // An instance with an admin port: not on the public port, whatever the token.
      expect((await call(a, 'GET', target, undefined)).status, target).toBe(404);
      expect((await call(a, 'GET', target, OPERATOR)).status, target).toBe(404);
      const admin = await request(`${adminUrl}${target}`, { method: 'GET', headers: {} });
      expect(admin.status, target).toBe(200);
      // Without one: the operator's token only.
      const anonymous = await call(b, 'GET', target, undefined);
      expect(anonymous.status, target).toBe(401);
      expect(anonymous.body.messages[0]).toMatchObject({ code: 401 });
      expect((await call(b, 'GET', target, owner)).status, target).toBe(401);
      expect((await call(b, 'GET', target, OPERATOR)).status, target).toBe(200);
    }
    expect((await request(`${adminUrl}${EMPLOYEES}`, { method: 'GET', headers: {} })).status).toBe(404);
    expect((await call(a, 'GET', '/__health', undefined)).status).toBe(200);
  });
});

describe('expiry', () => {
  // Long enough that the busy user's refreshes, every half second, keep its sandbox on a busy machine.
  const IDLE_SECONDS = 5;
  let c: MockProcess;
  let d: MockProcess;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await server().database('expiry');
    const args = ['--port', '0', '--hosted', '--operator-token', OPERATOR, '--database-url', databaseUrl, '--sandbox-ttl', `${IDLE_SECONDS}s`, '--token-lifetime', '1'];
    c = await startProcess(args);
    d = await startProcess(args);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([c?.stop(), d?.stop()]);
  });

  it('removes a sandbox idle for --sandbox-ttl with its tokens, on either instance; one in use stays', async () => {
    const client = (await call(c, 'POST', '/__operator/clients', OPERATOR, { name: 'Expiring tenant' })).body as { client_id: string; client_secret: string };
    const idle = await login(c, client, 'admin');
    const busy = await login(d, client, 'alice');
    expect((await call(d, 'PUT', '/__sandbox/clock', idle.body.access_token, { now: '2031-01-01T00:00:00Z' })).status).toBe(200);
    expect((await call(c, 'PUT', '/__sandbox/clock', busy.body.access_token, { now: '2032-01-01T00:00:00Z' })).status).toBe(200);
    const refresh = (presented: string, mock: MockProcess) => grant(mock, { grant_type: 'refresh_token', refresh_token: presented, client_Id: client.client_id, client_secret: client.client_secret });
    // The busy user refreshes (uses its login) and writes nothing more; the idle one does nothing.
    // Past the time to live, each round also asks which sandboxes are left, until the idle one is
    // gone: a sweep runs every second or so, later on a busy machine, and the busy one stays throughout.
    let latest = busy.body.refresh_token as string;
    const started = Date.now();
    let idleGone = false;
    for (let i = 0; !idleGone && Date.now() - started < 60_000; i++) {
      const renewed = await refresh(latest, i % 2 === 0 ? c : d);
      expect(renewed.status).toBe(200);
      latest = renewed.body.refresh_token;
      if (Date.now() - started > IDLE_SECONDS * 1000) {
        const sandboxes = (await call(d, 'GET', '/__operator/sandboxes', OPERATOR)).body.sandboxes.map((s: { id: string }) => s.id);
        expect(sandboxes).toContain(tenantSandbox(client.client_id, 'alice'));
        idleGone = !sandboxes.includes(tenantSandbox(client.client_id, 'admin'));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(idleGone).toBe(true);
    expect(await refresh(idle.body.refresh_token, c)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = async (user: string) => Number((await db.query("SELECT count(*) AS n FROM sandbox_doc WHERE sandbox = '__auth' AND doc->>'sandbox' = $1", [tenantSandbox(client.client_id, user)])).rows[0].n);
      expect(await rows('admin')).toBe(0);
      expect(await rows('alice')).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    // The removed sandbox reads the seed again for a new login.
    const again = await login(d, client, 'admin');
    expect((await call(c, 'GET', '/__sandbox/clock', again.body.access_token)).body.now).not.toMatch(/^2031/);
  }, 120_000);
});
