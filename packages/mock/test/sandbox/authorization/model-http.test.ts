// The authorization model's seed and control endpoints (/__sandbox/authorization), and the
// token endpoint issuing tokens bound to a seeded user and client, against a running sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { authorizationModelSeed, SEED_CLIENTS, SEED_PASSWORD, SEED_USERS } from '#sandbox/seed/authorization.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { call, EMPLOYERS, expectRefused, expectUnchanged, PAYROLL, reset, tokenOf } from './harness.js';

let running: RunningMock;
let url: string;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  url = running.url;
});
afterAll(async () => {
  await running?.close();
});

const CONTROL = '/__sandbox/authorization';
const control = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}${CONTROL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
const modelOf = async (token: string) => (await control(token, 'GET', '')).json();
const emailPatch = (token: string) => call(url, token, 'PATCH', `${PAYROLL}/employers/employees/${PEOPLE_IDS.employee}/email`, { emailAddress: 'a@example.nl' });

function tokenRequest(fields: Record<string, string>) {
  return fetch(`${url}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

describe('the seed', () => {
  it('its rights group every activity of both descriptions exactly once; clients and modules name only served activities', () => {
    const seed = authorizationModelSeed() as { rights: Record<string, { activities: string[] }>; clients: Record<string, { activities: string[] }>; modules: Record<string, { activities: string[] }> };
    const served = running.mock.operations().map((o) => o.operationId).sort();
    const granted = Object.values(seed.rights).flatMap((r) => r.activities).sort();
    expect(granted).toEqual(served);
    for (const list of [...Object.values(seed.clients), ...Object.values(seed.modules)]) for (const a of list.activities) expect(a === '*' || served.includes(a), a).toBe(true);
  });

  it('GET shows every part, with the employers\' modules of the organisation seed', async () => {
    const model = await modelOf('authorization-model-reader');
    expect(Object.keys(model).sort()).toEqual(['clients', 'employers', 'modules', 'providers', 'rights', 'roles', 'users']);
    expect(Object.keys(model.users).sort()).toEqual(Object.values(SEED_USERS).sort());
    expect(model.employers[EMPLOYERS.zorgcentrumDeLinde].modules).not.toContain('journal');
    expect((await control('authorization-model-reader', 'GET', '/users/read-only')).status).toBe(200);
    expect((await control('authorization-model-reader', 'GET', '/users/nobody')).status).toBe(404);
  });
});

describe('editing the model', () => {
  const token = tokenOf(SEED_USERS.readOnly);

  it('a right granted through an edit takes effect; reset brings the seed back', async () => {
    await reset(url, token);
    expectRefused(await emailPatch(token), 2, 'no-right');
    const user = (await modelOf(token)).users['read-only'];
    const edited = await control(token, 'PUT', '/users/read-only', { ...user, rights: [...user.rights, 'employees-write'] });
    expect(edited.status).toBe(200);
    expect((await emailPatch(token)).status).toBe(200);
    expect((await control(token, 'POST', '/reset')).status).toBe(200);
    expectRefused(await emailPatch(token), 2, 'no-right');
  });

  it('a sandbox\'s model is its own: an edit with one token leaves every other sandbox as seeded', async () => {
    await reset(url, token);
    const user = (await modelOf(token)).users['read-only'];
    await control(token, 'PUT', '/users/read-only', { ...user, rights: [...user.rights, 'employees-write'] });
    expect((await modelOf('authorization-other-sandbox')).users['read-only'].rights).toEqual(user.rights);
    await reset(url, token);
  });

  it.each([
    ['an unknown role', '/users/read-only', (u: any) => ({ ...u, role: 'boss' }), 'users.read-only.role'],
    ['an unknown right', '/users/read-only', (u: any) => ({ ...u, rights: ['everything'] }), 'users.read-only.rights'],
    ['an unknown employer', '/users/read-only', (u: any) => ({ ...u, employers: ['00000000-0000-4000-8000-000000000000'] }), 'users.read-only.employers'],
    // Refused by the control description before the model is read: named as in the body.
    ['an unknown field', '/users/read-only', (u: any) => ({ ...u, admin: true }), 'admin'],
    ['a missing field', '/users/read-only', ({ password: _p, ...u }: any) => u, 'password'],
    ['a department role without a department', '/users/read-only', (u: any) => ({ ...u, role: 'department-manager' }), 'users.read-only.department'],
    // The description's pattern of the path parameter id refuses it.
    ['a username unusable in a token', '/users/Read.Only', (u: any) => u, 'id'],
    ['an activity the API does not have', '/rights/everything', () => ({ name: 'Alles', activities: ['GetEverything'] }), 'rights.everything.activities'],
    ['a module on an unknown employer', '/employers/00000000-0000-4000-8000-000000000000', () => ({ modules: ['payroll'] }), 'employers.00000000-0000-4000-8000-000000000000'],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_what, path, change, field) => {
    await reset(url, token);
    const before = await modelOf(token);
    const response = await control(token, 'PUT', path, change(before.users['read-only']));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.messages.map((m: { properties: string[] }) => m.properties[0])).toContain(field);
    expect(await modelOf(token)).toEqual(before);
  });

  it('refuses removing a right a role still names, a body that is not JSON, a whole model missing parts; nothing changes', async () => {
    await reset(url, token);
    const before = await modelOf(token);
    const removed = await control(token, 'DELETE', '/rights/employees-read');
    expect(removed.status).toBe(400);
    expect((await removed.json()).messages[0].properties[0]).toMatch(/^roles\..*\.rights$/);
    expect((await control(token, 'PUT', '', '{not json')).status).toBe(400);
    const partial = await control(token, 'PUT', '', { clients: before.clients });
    expect(partial.status).toBe(400);
    expect((await partial.json()).messages.map((m: { properties: string[] }) => m.properties[0])).toEqual(expect.arrayContaining(['rights', 'roles', 'users', 'modules', 'providers']));
    expect(await modelOf(token)).toEqual(before);
  });

  it('replaces the whole model with PUT (employers left out keep their modules), creates entries (201) and deletes unused ones', async () => {
    await reset(url, token);
    const { employers, ...rest } = await modelOf(token);
    expect((await control(token, 'PUT', '', rest)).status).toBe(200);
    expect((await modelOf(token)).employers).toEqual(employers);
    const created = await control(token, 'PUT', '/clients/payslip-viewer', { name: 'Payslip viewer', secret: null, activities: ['GetEmployeeByEmployeeId'] });
    expect(created.status).toBe(201);
    expect((await control(token, 'DELETE', '/clients/payslip-viewer')).status).toBe(200);
    expect((await control(token, 'GET', '/clients/payslip-viewer')).status).toBe(404);
  });

  it('answers unknown parts 404, unsupported methods 405 with Allow, and calls without a token 401', async () => {
    expect((await control(token, 'GET', '/groups')).status).toBe(404);
    const wrong = await control(token, 'DELETE', '/employers/' + EMPLOYERS.vanDerMeerBouwgroep);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PUT');
    expect((await fetch(`${url}${CONTROL}`)).status).toBe(401);
  });
});

describe('tokens bound to a seeded user and client', () => {
  const login = (username: string, password: string, client: string, extra: Record<string, string> = {}) =>
    tokenRequest({ grant_type: 'password', username, password, client_Id: client, ...extra });

  it('a seeded user signs in with its password and a client of the model; the decision uses that client', async () => {
    const viaIntegration = await (await login('Admin', SEED_PASSWORD, SEED_CLIENTS.integration)).json();
    expect((await emailPatch(viaIntegration.access_token)).status).toBe(200);
    const viaDashboard = await (await login('admin', SEED_PASSWORD, SEED_CLIENTS.reportingDashboard)).json();
    expectRefused(await emailPatch(viaDashboard.access_token), 1, 'client-not-linked');
    const refreshed = await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: viaDashboard.refresh_token, client_Id: SEED_CLIENTS.reportingDashboard })).json();
    expectRefused(await emailPatch(refreshed.access_token), 1, 'client-not-linked');
    const readOnly = await (await login('read-only', SEED_PASSWORD, SEED_CLIENTS.integration)).json();
    expectRefused(await emailPatch(readOnly.access_token), 2, 'no-right');
  });

  it('refuses a wrong password (invalid_grant), a client the model does not know and a missing client secret (invalid_client)', async () => {
    const wrong = await login('admin', 'geheim', SEED_CLIENTS.integration);
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    const unknownClient = await login('admin', SEED_PASSWORD, 'my-app');
    expect((await unknownClient.json()).error).toBe('invalid_client');

    const adminToken = tokenOf(SEED_USERS.admin);
    await reset(url, adminToken);
    const client = (await modelOf(adminToken)).clients[SEED_CLIENTS.integration];
    expect((await control(adminToken, 'PUT', `/clients/${SEED_CLIENTS.integration}`, { ...client, secret: 's3cr3t' })).status).toBe(200);
    expect((await (await login('admin', SEED_PASSWORD, SEED_CLIENTS.integration)).json()).error).toBe('invalid_client');
    expect((await login('admin', SEED_PASSWORD, SEED_CLIENTS.integration, { client_secret: 's3cr3t' })).status).toBe(200);
    await reset(url, adminToken);
  });

  it('a username the model does not know is a quick-start user with every right, as before', async () => {
    const issued = await (await login('jan@example.nl', 'x', 'my-app')).json();
    expect((await call(url, issued.access_token, 'GET', `${PAYROLL}/employers/${EMPLOYERS.bakkerijDeKorenschoof}`)).status).toBe(200);
    expect((await emailPatch(issued.access_token)).status).toBe(200);
  });

  it('a token of a user removed from the model is no longer valid (401)', async () => {
    const token = tokenOf(SEED_USERS.withoutBakery);
    await reset(url, token);
    const issued = await (await login(SEED_USERS.withoutBakery, SEED_PASSWORD, SEED_CLIENTS.integration)).json();
    expect((await control(token, 'DELETE', `/users/${SEED_USERS.withoutBakery}`)).status).toBe(200);
    expect((await call(url, issued.access_token, 'GET', `${PAYROLL}/employers`)).status).toBe(401);
    expect((await call(url, token, 'GET', `${PAYROLL}/employers`)).status).toBe(401);
    await reset(url, token);
    expect((await call(url, token, 'GET', `${PAYROLL}/employers`)).status).toBe(200);
  });
});

describe('a model imported through a snapshot', () => {
  it('a malformed one answers a clear 500 for its users instead of crashing, and reset repairs it', async () => {
    const token = tokenOf(SEED_USERS.admin);
    await reset(url, token);
    const snapshot = await (await fetch(`${url}/__sandbox/snapshot`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const model = snapshot.collections.authorizationModel[0];
    model.users.admin.rights = 'everything';
    const imported = await fetch(`${url}/__sandbox/snapshot`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(snapshot) });
    expect(imported.status).toBe(200);
    const answer = await call(url, token, 'GET', `${PAYROLL}/employers`);
    expect(answer.status).toBe(500);
    expect(answer.json().message).toMatch(/authorization model .* malformed/);
    expect((await control(token, 'POST', '/reset')).status).toBe(200);
    expect((await call(url, token, 'GET', `${PAYROLL}/employers`)).status).toBe(200);
  });
});

describe('the provider\'s modules', () => {
  it('a wage model belongs to the provider: without the provider\'s journal module its journal profiles cannot be created (step 4)', async () => {
    const token = tokenOf(SEED_USERS.admin);
    await reset(url, token);
    const create = () => call(url, token, 'POST', `/journal/providers/wagemodels/${SEED_IDS.wageModel}/journalprofiles`, { description: 'Reiskosten' });
    const provider = Object.keys((await modelOf(token)).providers)[0]!;
    expect((await control(token, 'PUT', `/providers/${provider}`, { modules: ['payroll', 'hr'] })).status).toBe(200);
    await expectUnchanged(url, token, async () => expectRefused(await create(), 4, 'module-disabled'));
    expect((await control(token, 'POST', '/reset')).status).toBe(200);
    expect((await create()).status).toBe(201);
  });
});

describe('examples mode', () => {
  it('has no authorization stage: a seeded user\'s fixed token gets the example like any token', async () => {
    const examples = await startMock({ port: 0, mode: 'examples' });
    try {
      const answer = await call(examples.url, tokenOf(SEED_USERS.readOnly), 'PATCH', `${PAYROLL}/employers/employees/${PEOPLE_IDS.employee}/email`, { emailAddress: 'a@example.nl' }, {
        Accept: 'application/json;version=2018-12-31',
        'Content-Type': 'application/json;version=2018-12-31',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-sandbox-authorization')).toBeNull();
    } finally {
      await examples.close();
    }
  }, 60_000);
});
