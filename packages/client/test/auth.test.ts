import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, createPayrollClient, passwordGrant, refreshTokenGrant, unwrap } from '../src/index.js';
import { BASE, fakeFetch, json, list } from './fake-fetch.js';

const AUTH_URL = 'https://auth.test/oauth';
const bearer = (r: Request) => r.headers.get('authorization');

/** A token endpoint that counts calls and hands out numbered tokens. */
function tokenEndpoint(expiresIn = 3600) {
  let issued = 0;
  const forms: URLSearchParams[] = [];
  const endpoint = fakeFetch(async (request) => {
    forms.push(new URLSearchParams(await request.text()));
    issued++;
    return json({ access_token: `access-${issued}`, token_type: 'bearer', expires_in: expiresIn, refresh_token: `refresh-${issued}`, two_factor_state: 'Skipped' });
  });
  return { ...endpoint, forms, issued: () => issued };
}

describe('static token and token provider', () => {
  it('sends a static token as a bearer token', async () => {
    const api = fakeFetch(() => json(list([])));
    await createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: 'abc-123' }).GET('/v2/providers');
    expect(bearer(api.calls[0]!)).toBe('Bearer abc-123');
  });

  it('asks a provider function for each request and, after a 401, for a fresh token once', async () => {
    const asked: boolean[] = [];
    const api = fakeFetch((r) => (bearer(r) === 'Bearer fresh' ? json(list([])) : json({ message: 'Authorization has been denied for this request.' }, { status: 401 })));
    const client = createPayrollClient({
      baseUrl: BASE,
      fetch: api.fetch,
      auth: ({ forceRefresh }) => {
        asked.push(forceRefresh);
        return forceRefresh ? 'fresh' : 'stale';
      },
    });
    const { response } = await client.GET('/v2/providers');
    expect(response.status).toBe(200);
    expect(asked).toEqual([false, true]);
    expect(api.calls.map(bearer)).toEqual(['Bearer stale', 'Bearer fresh']);
  });

  it('retries a 401 only once, and answers the second 401', async () => {
    const api = fakeFetch(() => json({ message: 'denied' }, { status: 401 }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: () => 'tok-1' });
    const result = await client.GET('/v2/providers');
    expect(result.response.status).toBe(401);
    expect(api.calls).toHaveLength(2);
    expect(ApiError.from(result)?.plainMessage).toBe('denied');
  });

  it('does not retry with a static token, and never retries a 403', async () => {
    const api = fakeFetch(() => json({ message: 'The user is not authorized for this activity.' }, { status: 403 }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: () => 'tok-1' });
    const result = await client.GET('/v2/providers');
    expect(result.response.status).toBe(403);
    expect(api.calls).toHaveLength(1);
    const unauthorized = fakeFetch(() => json({ message: 'no' }, { status: 401 }));
    await createPayrollClient({ baseUrl: BASE, fetch: unauthorized.fetch, auth: 'static-token' }).GET('/v2/providers');
    expect(unauthorized.calls).toHaveLength(1);
  });

  it('rejects an empty token and a provider that returns none', async () => {
    expect(() => createPayrollClient({ baseUrl: BASE, auth: '' })).toThrow(/token is empty/);
    const client = createPayrollClient({ baseUrl: BASE, fetch: fakeFetch(() => json({})).fetch, auth: () => '' });
    await expect(client.GET('/v2/providers')).rejects.toThrow(/returned no token/);
  });
});

describe('OAuth2 helpers', () => {
  it('password grant posts the contract form fields to {auth_url}/token', async () => {
    const endpoint = tokenEndpoint();
    const session = passwordGrant({ authUrl: AUTH_URL, username: 'j.jansen', password: 'Geheim!2024', clientId: 'client-7', clientSecret: 's3cr3t-value', fetch: endpoint.fetch });
    expect(await session.getToken()).toBe('access-1');
    const request = endpoint.calls[0]!;
    expect(request.url).toBe('https://auth.test/oauth/token');
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(endpoint.forms[0]!)).toEqual({
      grant_type: 'password',
      username: 'j.jansen',
      password: 'Geheim!2024',
      client_Id: 'client-7',
      client_secret: 's3cr3t-value',
    });
    expect(session.refreshToken()).toBe('refresh-1');
  });

  it('refresh-token grant posts grant_type=refresh_token and omits an absent client_secret', async () => {
    const endpoint = tokenEndpoint();
    const session = refreshTokenGrant({ authUrl: `${AUTH_URL}/`, refreshToken: 'rt-original', clientId: 'client-7', fetch: endpoint.fetch });
    expect(await session.getToken()).toBe('access-1');
    expect(endpoint.calls[0]!.url).toBe('https://auth.test/oauth/token');
    expect(Object.fromEntries(endpoint.forms[0]!)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-original', client_Id: 'client-7' });
  });

  it('honours expires_in with a safety margin, then refreshes with the refresh token', async () => {
    let now = 1_000_000;
    const endpoint = tokenEndpoint(300);
    const session = passwordGrant({ authUrl: AUTH_URL, username: 'u', password: 'password-1', clientId: 'c', fetch: endpoint.fetch, safetyMarginSeconds: 30, now: () => now });
    expect(await session.getToken()).toBe('access-1');
    now += 269_000; // 269 s: inside 300 - 30
    expect(await session.getToken()).toBe('access-1');
    now += 2_000; // 271 s: within the margin, so expired
    expect(await session.getToken()).toBe('access-2');
    expect(endpoint.forms.map((f) => f.get('grant_type'))).toEqual(['password', 'refresh_token']);
    expect(endpoint.forms[1]!.get('refresh_token')).toBe('refresh-1');
  });

  // A token server that issues short-lived tokens: the margin (60 s by default) is capped at
  // half the lifetime, so sequential requests share a token instead of one token call each.
  it.each([
    [1, 500],
    [30, 15_000],
    [60, 30_000],
    [61, 30_500],
    [3600, 3_540_000],
  ])('with expires_in %i s, five sequential requests make one token call; the token is renewed after %i ms', async (expiresIn, usableMs) => {
    let now = 1_000_000;
    const endpoint = tokenEndpoint(expiresIn);
    const session = passwordGrant({ authUrl: AUTH_URL, username: 'u', password: 'password-1', clientId: 'c', fetch: endpoint.fetch, now: () => now });
    const api = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: session });
    for (let i = 0; i < 5; i++) {
      await client.GET('/v2/providers');
      now += Math.floor(usableMs / 10);
    }
    expect(endpoint.issued()).toBe(1);
    expect(new Set(api.calls.map(bearer))).toEqual(new Set(['Bearer access-1']));
    now = 1_000_000 + usableMs - 1;
    expect(await session.getToken()).toBe('access-1');
    now = 1_000_000 + usableMs;
    expect(await session.getToken()).toBe('access-2');
    expect(endpoint.forms.map((f) => f.get('grant_type'))).toEqual(['password', 'refresh_token']);
  });

  it('refreshes single-flight: ten concurrent requests with an expired token make one token call', async () => {
    let now = 0;
    const endpoint = tokenEndpoint(60);
    const session = refreshTokenGrant({ authUrl: AUTH_URL, refreshToken: 'rt', clientId: 'c', fetch: endpoint.fetch, safetyMarginSeconds: 0, now: () => now });
    await session.getToken();
    now += 61_000;
    const api = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: session });
    await Promise.all(Array.from({ length: 10 }, () => client.GET('/v2/providers')));
    expect(endpoint.issued()).toBe(2);
    expect(api.calls).toHaveLength(10);
    expect(new Set(api.calls.map(bearer))).toEqual(new Set(['Bearer access-2']));
  });

  it('on a 401 the session refreshes once for all concurrent requests and each retries once', async () => {
    const endpoint = tokenEndpoint();
    const session = refreshTokenGrant({ authUrl: AUTH_URL, refreshToken: 'rt', clientId: 'c', fetch: endpoint.fetch });
    const api = fakeFetch((r) => (bearer(r) === 'Bearer access-1' ? json({ message: 'expired' }, { status: 401 }) : json(list([]))));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: session });
    const results = await Promise.all(Array.from({ length: 5 }, () => client.GET('/v2/providers')));
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(endpoint.issued()).toBe(2);
    expect(api.calls).toHaveLength(10);
  });

  it('falls back to the password grant when the refresh token is refused', async () => {
    let n = 0;
    const forms: string[] = [];
    const endpoint = fakeFetch(async (r) => {
      const form = new URLSearchParams(await r.text());
      forms.push(form.get('grant_type')!);
      n++;
      if (form.get('grant_type') === 'refresh_token') return json({ error: 'invalid_grant' }, { status: 400 });
      return json({ access_token: `a${n}`, expires_in: 1, refresh_token: 'r' });
    });
    let now = 0;
    const session = passwordGrant({ authUrl: AUTH_URL, username: 'u', password: 'password-1', clientId: 'c', fetch: endpoint.fetch, now: () => now });
    await session.getToken();
    now += 1_000;
    await session.getToken();
    expect(forms).toEqual(['password', 'refresh_token', 'password']);
  });

  it('rejects bad options clearly', () => {
    expect(() => passwordGrant({ authUrl: 'auth.test', username: 'u', password: 'p', clientId: 'c' })).toThrow(/absolute http\(s\) URL/);
    expect(() => passwordGrant({ authUrl: AUTH_URL, username: '', password: 'p', clientId: 'c' })).toThrow(/username and password/);
    expect(() => refreshTokenGrant({ authUrl: AUTH_URL, refreshToken: 'r', clientId: '' })).toThrow(/clientId/);
  });
});

describe('secrets never leak', () => {
  const secrets = ['Geheim!2024', 's3cr3t-value', 'rt-very-secret', 'access-token-xyz'];
  const rendered = (error: unknown) => [String(error), (error as Error).message, (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 5 })].join('\n');

  it('token endpoint errors do not contain the password, client secret or refresh token', async () => {
    const endpoint = fakeFetch(() =>
      json({ error: 'invalid_grant', error_description: 'refresh token rt-very-secret of client secret s3cr3t-value is invalid' }, { status: 400 }),
    );
    const session = refreshTokenGrant({ authUrl: AUTH_URL, refreshToken: 'rt-very-secret', clientId: 'c', clientSecret: 's3cr3t-value', fetch: endpoint.fetch });
    const error = await session.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).status).toBe(400);
    expect((error as AuthError).code).toBe('invalid_grant');
    for (const secret of secrets) expect(rendered(error)).not.toContain(secret);
    expect(rendered(session)).not.toContain('rt-very-secret');
  });

  it('a network failure of the token endpoint does not leak the secrets', async () => {
    const session = passwordGrant({
      authUrl: AUTH_URL,
      username: 'u',
      password: 'Geheim!2024',
      clientId: 'c',
      clientSecret: 's3cr3t-value',
      fetch: async () => {
        throw new TypeError('connect failed sending password=Geheim!2024&client_secret=s3cr3t-value');
      },
    });
    const error = await session.getToken().catch((e: unknown) => e);
    expect((error as AuthError).status).toBe(0);
    for (const secret of secrets) expect(rendered(error)).not.toContain(secret);
  });

  it('API errors carry no token, not even when the body echoes the header', async () => {
    const api = fakeFetch(() => json({ message: 'Bearer access-token-xyz is not valid' }, { status: 403 }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: api.fetch, auth: 'access-token-xyz' });
    const error = await client.GET('/v2/providers').then(unwrap).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(rendered(error)).not.toContain('access-token-xyz');
    expect(rendered(client)).not.toContain('access-token-xyz');
  });
});
