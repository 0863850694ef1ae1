// Two sandbox processes on one PostgreSQL database serve the same sandboxes, and the OAuth
// endpoint's state (issued and rotated tokens) lives in that database too: a token issued by
// one process works at the other, and a refresh token used at one is refused at the other.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { freshToken, request, startProcess, type MockProcess } from '../../helpers.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();
let a: MockProcess;
let b: MockProcess;

beforeAll(async () => {
  const url = await postgres().database('engine_shared');
  a = await startProcess(['--port', '0', '--database-url', url]);
  b = await startProcess(['--port', '0', '--database-url', url]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const form = (mock: MockProcess, fields: Record<string, string>) =>
  request(`${mock.url}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

it('shares issued tokens and their rotation between the processes', async () => {
  const issued = (await form(a, { grant_type: 'password', username: 'gerda@example.nl', password: 'x', client_Id: 'shared' })).json();
  const atB = await request(`${b.url}/v2/v2/providers`, { headers: { Authorization: `Bearer ${issued.access_token}`, Accept: 'application/json' } });
  expect(atB.status).toBe(200);
  const refreshedAtB = await form(b, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_Id: 'shared' });
  expect(refreshedAtB.status).toBe(200);
  const reusedAtA = await form(a, { grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_Id: 'shared' });
  expect(reusedAtA.status).toBe(400);
  expect(reusedAtA.json().error).toBe('invalid_grant');
});

it('serves one sandbox from both processes: state, clock and reset', async () => {
  const token = freshToken('shared');
  const auth = { Authorization: `Bearer ${token}` };
  const state = (await request(`${a.url}/__sandbox/snapshot`, { headers: auth })).json();
  state.collections.providers.find((p: { id: string }) => p.id === SEED_IDS.provider).name = 'Gedeeld Rekenhuis B.V.';
  expect((await request(`${a.url}/__sandbox/snapshot`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(state) })).status).toBe(200);
  const name = async (mock: MockProcess) => (await request(`${mock.url}/v2/v2/providers`, { headers: { ...auth, Accept: 'application/json' } })).json()._embedded[0].name;
  expect(await name(b)).toBe('Gedeeld Rekenhuis B.V.');
  await request(`${b.url}/__sandbox/clock`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"now":"2035-06-01T00:00:00Z"}' });
  expect((await request(`${a.url}/__sandbox/clock`, { headers: auth })).json().today).toBe('2035-06-01');
  await request(`${b.url}/__sandbox/reset`, { method: 'POST', headers: auth });
  expect(await name(a)).not.toBe('Gedeeld Rekenhuis B.V.');
});
