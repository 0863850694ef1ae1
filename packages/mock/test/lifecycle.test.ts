// Lifecycle of sandboxes through the real process (memory store): with --sandbox-ttl a sandbox
// not written for that long is removed (it reads the seed again); the operator lists and
// removes sandboxes behind the operator token, which no sandbox token replaces; --rate-limit
// refuses a token's requests beyond its rate with 429 and Retry-After, and no other token's;
// --max-entities refuses a write (and a snapshot) beyond the limit, naming it, and applies none of it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { startProcess, type MockProcess } from './helpers.js';
import { newEmployee } from './support/new-employee.js';

const OPERATOR = 'lifecycle-operator-token-0123456789';
let mock: MockProcess;

beforeAll(async () => {
  mock = await startProcess(['--port', '0', '--sandbox-ttl', '2s', '--operator-token', OPERATOR, '--rate-limit', '20', '--max-entities', '1200']);
}, 120_000);
afterAll(async () => {
  await mock?.stop();
});

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const sandboxes = async (token: string) => (await (await fetch(`${mock.url}/__sandbox/sandboxes`, { headers: headers(token) })).json()).sandboxes as { id: string }[];
const setClock = (token: string) => fetch(`${mock.url}/__sandbox/clock`, { method: 'PUT', headers: headers(token), body: JSON.stringify({ now: '2032-02-02T00:00:00Z' }) });

it('removes a sandbox not written for the time to live', async () => {
  expect((await setClock('lifecycle-ttl')).status).toBe(200);
  expect(await sandboxes('lifecycle-ttl')).toHaveLength(1);
  const deadline = Date.now() + 15_000;
  while ((await sandboxes('lifecycle-ttl')).length > 0) {
    if (Date.now() > deadline) throw new Error('the sandbox was not removed within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const clock = await (await fetch(`${mock.url}/__sandbox/clock`, { headers: headers('lifecycle-ttl') })).json();
  expect(clock.offsetMs).toBe(0);
}, 30_000);

it('lists and removes sandboxes for the operator only', async () => {
  expect((await setClock('lifecycle-operator')).status).toBe(200);
  expect((await fetch(`${mock.url}/__operator/sandboxes`, { headers: headers('lifecycle-operator') })).status).toBe(401);
  const listed = await (await fetch(`${mock.url}/__operator/sandboxes`, { headers: headers(OPERATOR) })).json();
  const [own] = await sandboxes('lifecycle-operator');
  expect(listed.sandboxes.map((s: { id: string }) => s.id)).toContain(own!.id);
  expect(listed.sandboxes.find((s: { id: string }) => s.id === own!.id)).toMatchObject({ client: null });
  expect((await fetch(`${mock.url}/__operator/sandboxes/${own!.id}`, { method: 'DELETE', headers: headers(OPERATOR) })).status).toBe(204);
  expect(await sandboxes('lifecycle-operator')).toHaveLength(0);
  expect((await fetch(`${mock.url}/__operator/nothing`, { headers: headers(OPERATOR) })).status).toBe(404);
  expect((await fetch(`${mock.url}/__operator/sandboxes`, { method: 'POST', headers: headers(OPERATOR) })).status).toBe(405);
}, 30_000);

it('answers 429 with Retry-After beyond the rate limit of a token, and recovers', async () => {
  const health = (token: string) => fetch(`${mock.url}/__sandbox/clock`, { headers: headers(token) });
  const answers = await Promise.all(Array.from({ length: 60 }, () => health('lifecycle-rate')));
  const refused = answers.filter((a) => a.status === 429);
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(20);
  expect(refused.length).toBeGreaterThan(0);
  expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await refused[0]!.json()).messages[0]).toMatchObject({ code: 429, description: expect.stringContaining('20 requests per second') });
  // Another token is not held back; the limited one goes on after Retry-After.
  expect((await health('lifecycle-rate-other')).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1000 * Number(refused[0]!.headers.get('retry-after'))));
  expect((await health('lifecycle-rate')).status).toBe(200);
}, 30_000);

it('refuses writes beyond --max-entities, naming the limit, and applies none of such a write', async () => {
  const token = 'lifecycle-limit';
  const employees = `${mock.url}/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
  const post = (n: number) =>
    fetch(employees, { method: 'POST', headers: { ...headers(token), accept: 'application/json', 'content-type': 'application/json;version=2018-01-01' }, body: JSON.stringify(newEmployee(40_000 + n, 600 + n)) });
  let refused: Response | undefined;
  let n = 0;
  for (; n < 40 && !refused; n++) {
    const answer = await post(n);
    if (answer.status !== 201) refused = answer;
    else await new Promise((resolve) => setTimeout(resolve, 60)); // under the rate limit
  }
  expect(refused?.status).toBe(400);
  expect((await refused!.json()).messages[0].description).toMatch(/at most 1200 entities \(the limit --max-entities\)/);
  const list = async (number: number) =>
    (await (await fetch(`${employees}?filter=${encodeURIComponent(`employeeNumber eq ${number}`)}`, { headers: { ...headers(token), accept: 'application/json' } })).json()).totalSize;
  expect(await list(40_000 + n - 1)).toBe(0);
  expect(await list(40_000)).toBe(1);
  // A snapshot beyond the limit is refused too; after a reset, writes pass again.
  const snapshot = await (await fetch(`${mock.url}/__sandbox/snapshot`, { headers: headers(token) })).json();
  // (a collection without a schema, so that only the limit refuses it)
  snapshot.collections.oauthRefreshTokens = Array.from({ length: 50 }, (_, i) => ({ id: `pad-${i}` }));
  const put = await fetch(`${mock.url}/__sandbox/snapshot`, { method: 'PUT', headers: headers(token), body: JSON.stringify(snapshot) });
  expect(put.status).toBe(400);
  expect((await put.json()).messages[0].description).toMatch(/at most 1200 entities/);
  expect((await fetch(`${mock.url}/__sandbox/reset`, { method: 'POST', headers: headers(token) })).status).toBe(200);
  expect((await post(100)).status).toBe(201);
}, 60_000);
