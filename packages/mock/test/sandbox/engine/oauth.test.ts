// The sandbox's OAuth2 token endpoint (contract section 5) at {auth_url}/token with auth_url =
// <mock>/auth: the password and refresh_token grants, rotating refresh tokens, the OAuth error
// body, tokens that expire after --token-lifetime, and @payroll-api/client's OAuth session
// running end to end against it.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { builtClient, request, sandboxMock } from '../../helpers.js';

const LIFETIME = 2;
const mock = sandboxMock(['--token-lifetime', String(LIFETIME)]);
const tokenUrl = () => `${mock().url}/auth/token`;

function form(fields: Record<string, string>) {
  return request(tokenUrl(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });
}

const password = (username: string) => form({ grant_type: 'password', username, password: 'Welkom01!', client_Id: 'sandbox-tests', client_secret: 'secret' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('token endpoint', () => {
  it('issues a bearer token with the contract fields for the password grant', async () => {
    const res = await password('anna@example.nl');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({ access_token: expect.stringMatching(/^[\w-]+$/), token_type: 'bearer', expires_in: LIFETIME, refresh_token: expect.any(String), two_factor_state: expect.any(String) });
    const api = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: `Bearer ${body.access_token}`, Accept: 'application/json' } });
    expect(api.status).toBe(200);
  });

  it('rotates refresh tokens: the new one works once, the old one is refused with the OAuth error body', async () => {
    const first = (await password('bram@example.nl')).json();
    const refreshed = await form({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_Id: 'sandbox-tests' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json().refresh_token).not.toBe(first.refresh_token);
    const again = await form({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_Id: 'sandbox-tests' });
    expect(again.status).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });

  it('refuses other grants, missing fields and non-form bodies with the OAuth error shape', async () => {
    for (const [fields, error] of [
      [{ grant_type: 'client_credentials', client_Id: 'c' }, 'unsupported_grant_type'],
      [{ client_Id: 'c' }, 'invalid_request'],
      [{ grant_type: 'password', username: 'x', client_Id: 'c' }, 'invalid_request'],
      [{ grant_type: 'password', username: 'x', password: 'y' }, 'invalid_client'],
      [{ grant_type: 'refresh_token', refresh_token: 'sandbox-rt-unknown', client_Id: 'c' }, 'invalid_grant'],
    ] as const) {
      const res = await form(fields as Record<string, string>);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.json(), JSON.stringify(fields)).toEqual({ error, error_description: expect.any(String) });
    }
    const json = await request(tokenUrl(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":"password"}' });
    expect(json.json().error).toBe('invalid_request');
    expect((await request(tokenUrl())).status).toBe(405);
  });

  it('keeps a user in one sandbox across refreshes, apart from other users', async () => {
    const first = (await password('carla@example.nl')).json();
    const other = (await password('dirk@example.nl')).json();
    const clock = (token: string) => request(`${mock().url}/__sandbox/clock`, { headers: { Authorization: `Bearer ${token}` } });
    await request(`${mock().url}/__sandbox/clock`, { method: 'PUT', headers: { Authorization: `Bearer ${first.access_token}`, 'Content-Type': 'application/json' }, body: '{"now":"2033-03-03T00:00:00Z"}' });
    const refreshed = (await form({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_Id: 'sandbox-tests' })).json();
    expect((await clock(refreshed.access_token)).json().today).toBe('2033-03-03');
    expect((await clock(other.access_token)).json().today).not.toBe('2033-03-03');
    const again = (await password('Carla@example.nl')).json();
    expect((await clock(again.access_token)).json().sandbox).toBe((await clock(first.access_token)).json().sandbox);
  });

  it('refuses an issued token once it has expired: 401', async () => {
    const { access_token } = (await password('erik@example.nl')).json();
    await sleep(LIFETIME * 1000 + 200);
    const res = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: `Bearer ${access_token}`, Accept: 'application/json' } });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });
});

it("runs @payroll-api/client's OAuth session end to end: password grant, calls, expiry, refresh", { timeout: 30_000 }, async () => {
  const client = await builtClient<{
    passwordGrant(options: Record<string, unknown>): { getToken(): Promise<string>; refreshToken(): string | undefined };
    createPayrollClient(options: Record<string, unknown>): { GET(path: string, init?: unknown): Promise<{ data?: any; response: Response }> };
    createJournalClient(options: Record<string, unknown>): { GET(path: string, init?: unknown): Promise<{ data?: any; response: Response }> };
  }>();
  const tokenRequests: string[] = [];
  const recordingFetch = (input: string | URL | Request, init?: RequestInit) => {
    if (String(input).endsWith('/auth/token')) tokenRequests.push(new URLSearchParams(String(init?.body)).get('grant_type') ?? '');
    return fetch(input, init);
  };
  const session = client.passwordGrant({ authUrl: `${mock().url}/auth`, username: 'frank@example.nl', password: 'Welkom01!', clientId: 'sandbox-tests', clientSecret: 'secret', safetyMarginSeconds: 0, fetch: recordingFetch });
  const payroll = client.createPayrollClient({ baseUrl: `${mock().url}/v2`, auth: session });
  const journal = client.createJournalClient({ baseUrl: mock().url, auth: session });

  const first = await payroll.GET('/v2/providers');
  expect(first.response.status).toBe(200);
  expect(first.data._embedded[0].id).toBe(SEED_IDS.provider);
  const profiles = await journal.GET('/journal/providers/wagemodels/{wageModelId}/journalprofiles', { params: { path: { wageModelId: SEED_IDS.wageModel } } });
  expect(profiles.response.status).toBe(200);
  expect(tokenRequests).toEqual(['password']);
  const firstRefresh = session.refreshToken();

  // The access token runs out (expires_in): the session refreshes with the rotated refresh token.
  await sleep(LIFETIME * 1000 + 200);
  const later = await payroll.GET('/v2/providers/employers/{employerId}', { params: { path: { employerId: SEED_IDS.employer } } });
  expect(later.response.status).toBe(200);
  expect(later.data.content.id).toBe(SEED_IDS.employer);
  expect(tokenRequests).toEqual(['password', 'refresh_token']);
  expect(session.refreshToken()).not.toBe(firstRefresh);
});
