// A shared sandbox (--hosted) on PostgreSQL, through the real process: fixed and arbitrary tokens
// are refused; the operator creates clients behind the operator token; two clients whose users
// log in with the same seeded usernames reach two sandboxes, and no token of one client reads,
// resets, snapshots or lists the other's; the operator lists and removes sandboxes and clients.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { startProcess, type MockProcess } from './helpers.js';
import { usePostgres } from './support/postgres.js';
import { newEmployee } from './support/new-employee.js';

const server = usePostgres();
const OPERATOR = 'operator-token-of-this-test-0123456789';
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
let mock: MockProcess;

beforeAll(async () => {
  mock = await startProcess(['--port', '0', '--hosted', '--operator-token', OPERATOR, '--database-url', await server().database('hosted')]);
}, 120_000);
afterAll(async () => {
  await mock?.stop();
});

async function call(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json;version=2018-01-01' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function login(clientId: string, secret: string, username: string) {
  const response = await fetch(`${mock.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password: 'Welkom01!', client_Id: clientId, client_secret: secret }),
  });
  return { status: response.status, body: await response.json() };
}

async function createClient(name: string): Promise<{ client_id: string; client_secret: string }> {
  const created = await call('POST', '/__operator/clients', OPERATOR, { name });
  expect(created.status).toBe(201);
  return created.body;
}

it('refuses fixed and arbitrary tokens, and an unauthenticated list of sandboxes', async () => {
  for (const token of ['sandbox-user-admin', 'my-test-suite']) expect((await call('GET', EMPLOYEES, token)).status).toBe(401);
  expect((await call('GET', '/__sandbox/sandboxes', undefined)).status).toBe(401);
  expect((await call('GET', '/__sandbox/sandboxes', 'sandbox-user-admin')).status).toBe(401);
  // Operator endpoints take the operator token only.
  expect((await call('GET', '/__operator/sandboxes', undefined)).status).toBe(401);
  expect((await call('GET', '/__operator/sandboxes', 'sandbox-user-admin')).status).toBe(401);
  expect((await call('POST', '/__operator/clients', OPERATOR, { name: '' })).status).toBe(400);
  // A client the operator did not create, or a wrong secret, gets no token.
  const known = await createClient('Wrong secret test');
  expect((await login('payroll-integration', 'x', 'admin')).status).toBe(401);
  const wrong = await login(known.client_id, 'not-the-secret', 'admin');
  expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
}, 60_000);

it('keeps two clients with the same seeded usernames apart', async () => {
  const [a, b] = [await createClient('Integrator A'), await createClient('Integrator B')];
  const listed = await call('GET', '/__operator/clients', OPERATOR);
  expect(listed.body.clients.map((c: { client_id: string }) => c.client_id)).toEqual(expect.arrayContaining([a.client_id, b.client_id]));
  expect(JSON.stringify(listed.body)).not.toContain(a.client_secret);

  const tokenA = (await login(a.client_id, a.client_secret, 'admin')).body.access_token as string;
  const tokenB = (await login(b.client_id, b.client_secret, 'admin')).body.access_token as string;
  expect(tokenA).toMatch(/^sandbox-at-/);
  // A writes; B (same username) does not see it.
  const created = await call('POST', EMPLOYEES, tokenA, newEmployee(60_001, 1));
  expect(created.status).toBe(201);
  const employee = `/v2/v2/providers/employers/employees/${created.body.content.employeeId}`;
  expect((await call('GET', employee, tokenA)).status).toBe(200);
  expect((await call('GET', employee, tokenB)).status).toBe(404);
  const snapshotB = await call('GET', '/__sandbox/snapshot', tokenB);
  expect(JSON.stringify(snapshotB.body)).not.toContain(created.body.content.employeeId);
  // B writes too; each lists its own sandbox only.
  expect((await call('PUT', '/__sandbox/clock', tokenB, { now: '2031-01-01T00:00:00Z' })).status).toBe(200);
  const [listA, listB] = [await call('GET', '/__sandbox/sandboxes', tokenA), await call('GET', '/__sandbox/sandboxes', tokenB)];
  expect(listA.body.sandboxes).toHaveLength(1);
  expect(listB.body.sandboxes).toHaveLength(1);
  expect(listA.body.sandboxes[0].id).not.toBe(listB.body.sandboxes[0].id);
  // B resets its own sandbox; A's employee stays.
  expect((await call('POST', '/__sandbox/reset', tokenB)).status).toBe(200);
  expect((await call('GET', employee, tokenA)).status).toBe(200);
  // The authorization model still applies to a seeded user of a client: read-only may not write.
  const readOnly = (await login(b.client_id, b.client_secret, 'read-only')).body.access_token as string;
  expect((await call('POST', EMPLOYEES, readOnly, newEmployee(60_002, 2))).status).toBe(403);
  // A refresh token of A's is refused to B.
  const session = await login(a.client_id, a.client_secret, 'admin');
  const refresh = await fetch(`${mock.url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: session.body.refresh_token, client_Id: b.client_id, client_secret: b.client_secret }),
  });
  expect(refresh.status).toBe(400);

  // The operator sees both sandboxes with their clients, removes A's, then client B.
  const all = await call('GET', '/__operator/sandboxes', OPERATOR);
  const ofA = all.body.sandboxes.find((s: { client: string }) => s.client === a.client_id);
  expect(ofA).toMatchObject({ id: listA.body.sandboxes[0].id, docs: expect.any(Number) });
  expect((await call('DELETE', `/__operator/sandboxes/${ofA.id}`, OPERATOR)).status).toBe(204);
  expect((await call('DELETE', `/__operator/sandboxes/${ofA.id}`, OPERATOR)).status).toBe(404);
  expect((await call('GET', employee, tokenA)).status).toBe(404);
  expect((await call('DELETE', `/__operator/clients/${b.client_id}`, OPERATOR)).status).toBe(204);
  expect((await call('GET', EMPLOYEES, tokenB)).status).toBe(401);
  expect((await login(b.client_id, b.client_secret, 'admin')).status).toBe(401);
}, 60_000);
