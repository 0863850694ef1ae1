// Two sandbox processes (`payroll-mock --database-url …`, as behind a load balancer) sharing
// one PostgreSQL database: the database decides uniqueness under concurrent writes, and every
// write through one process is read through the other.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { startProcess, type MockProcess } from '../../helpers.js';
import { realBundle } from '../../fixtures/fixture.js';
import { usePostgres } from '../../support/postgres.js';
import { newEmployee } from '../../support/new-employee.js';
import { newestName, valueAt } from '../../support/renamed-bundle.js';

const server = usePostgres();
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
const TOKEN = 'two-processes';
/** The employee's last name at the newest version, which reads without a version answer. */
const LAST_NAME = newestName(realBundle('payroll'), 'employee', 'personalDetails.lastName');
let processes: MockProcess[] = [];

beforeAll(async () => {
  const url = await server().database('two_processes');
  // Started at the same moment against an empty database: both create the schema and the seed.
  processes = await Promise.all([startProcess(['--port', '0', '--database-url', url]), startProcess(['--port', '0', '--database-url', url])]);
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map((running) => running.stop()));
});

async function call(processIndex: number, method: string, path: string, body?: unknown) {
  const response = await fetch(`${processes[processIndex]!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json;version=2018-01-01' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

it('of 32 concurrent POSTs with one employeeNumber through two processes, exactly one is created', async () => {
  const answers = await Promise.all(Array.from({ length: 32 }, (_, n) => call(n % 2, 'POST', EMPLOYEES, newEmployee(90_001, n))));
  const created = answers.filter((answer) => answer.status === 201);
  expect(created).toHaveLength(1);
  const refused = answers.filter((answer) => answer.status !== 201);
  expect(refused).toHaveLength(31);
  for (const answer of refused) {
    expect(answer.status).toBe(400);
    const messages = answer.body.messages as { type: string; properties: string[] }[];
    expect(messages.some((message) => message.type === 'BrokenBusinessRule' && message.properties.some((property) => /employeeNumber$/.test(property)))).toBe(true);
  }
  // Both processes see the one employee, and the same list.
  const employeeId = created[0]!.body.content.employeeId as string;
  for (const index of [0, 1]) {
    const detail = await call(index, 'GET', `/v2/v2/providers/employers/employees/${employeeId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.content.employeeNumber).toBe(90_001);
    const list = await call(index, 'GET', `${EMPLOYEES}?filter=${encodeURIComponent('employeeNumber eq 90001')}`);
    expect(list.body.totalSize).toBe(1);
  }
}, 60_000);

it('reads through each process what was written through the other', async () => {
  for (const [writer, reader] of [
    [0, 1],
    [1, 0],
  ] as const) {
    const created = await call(writer, 'POST', EMPLOYEES, newEmployee(91_000 + writer, 100 + writer));
    expect(created.status).toBe(201);
    const employeeId = created.body.content.employeeId as string;
    const read = await call(reader, 'GET', `/v2/v2/providers/employers/employees/${employeeId}`);
    expect(read.status).toBe(200);
    expect(valueAt(read.body.content, LAST_NAME)).toBe(`Visser ${100 + writer}`);
    // A clock set through one process is the clock of the other.
    // Days ahead, not years: every served version stays served (each is served six months on).
    const now = `${new Date(Date.now() + (30 + writer) * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect((await fetch(`${processes[writer]!.url}/__sandbox/clock`, { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ now }) })).status).toBe(200);
    const clock = await (await fetch(`${processes[reader]!.url}/__sandbox/clock`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(clock.today).toBe(now.slice(0, 10));
  }
  // A reset through one process is seen by the other.
  const reset = await fetch(`${processes[0]!.url}/__sandbox/reset`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(reset.status).toBeLessThan(300);
  const list = await call(1, 'GET', `${EMPLOYEES}?filter=${encodeURIComponent('employeeNumber ge 90000')}`);
  expect(list.body.totalSize).toBe(0);
}, 60_000);

it('answers a repeated read again only while the other process has not written the sandbox', async () => {
  const page = `${EMPLOYEES}?filter=${encodeURIComponent('employeeNumber ge 92000')}`;
  // The sandbox has data of its own (a first write), read twice through process 1: the second
  // answer comes from its answer cache. A write through process 0 must show in the next read.
  expect((await call(0, 'POST', EMPLOYEES, newEmployee(92_000, 200))).status).toBe(201);
  for (let i = 0; i < 2; i++) expect((await call(1, 'GET', page)).body.totalSize).toBe(1);
  expect((await call(0, 'POST', EMPLOYEES, newEmployee(92_001, 201))).status).toBe(201);
  expect((await call(1, 'GET', page)).body.totalSize).toBe(2);
  // A reset through process 0 goes back to the seed: the same read through process 1 shows it.
  expect((await fetch(`${processes[0]!.url}/__sandbox/reset`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBeLessThan(300);
  expect((await call(1, 'GET', page)).body.totalSize).toBe(0);
}, 60_000);
