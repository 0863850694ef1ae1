// A refused bearer token keeps the contract's 401 {message} body; the sandbox-only header
// X-Sandbox-Authentication and the server log say why, without repeating the token.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';

let mock: RunningMock;
const lines: string[] = [];
beforeAll(async () => {
  mock = await startMock({ port: 0, log: (line) => lines.push(line) });
});
afterAll(async () => {
  await mock?.close();
});

const providers = (authorization?: string) =>
  fetch(`${mock.url}/v2/v2/providers`, { headers: { Accept: 'application/json', Origin: 'http://app.test', ...(authorization === undefined ? {} : { Authorization: authorization }) } });

it.each([
  ['Bearer abc.def.ghi', 'jwt-shaped', /shape of a JWT/],
  ['Bearer abc.def', 'token-characters', /other characters/],
  ['Basic dXNlcjpwYXNz', 'not-bearer', /not "Bearer <token>"/],
  [undefined, 'no-authorization-header', /no Authorization header/],
])('%s gets the contract 401 with reason=%s in the header and the log', async (authorization, reason, says) => {
  lines.length = 0;
  const response = await providers(authorization);
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ message: expect.any(String) });
  expect(response.headers.get('X-Sandbox-Authentication')).toBe(`reason=${reason}`);
  expect(response.headers.get('Access-Control-Expose-Headers')).toContain('X-Sandbox-Authentication');
  const logged = lines.find((line) => line.includes(`reason=${reason}`));
  expect(logged).toMatch(says);
  expect(logged).toContain('GET /v2/v2/providers');
  if (authorization) expect(logged).not.toContain(authorization.split(' ')[1]);
});

it('a well-formed token is not refused and gets no such header', async () => {
  const response = await providers('Bearer kit-authentication');
  expect(response.status).toBe(200);
  expect(response.headers.get('X-Sandbox-Authentication')).toBeNull();
});

it('a well-formed token the sandbox did not issue, or that expired, gets reason and where tokens come from', async () => {
  const local = await providers('Bearer sandbox-at-never-issued');
  expect(local.status).toBe(401);
  expect(local.headers.get('X-Sandbox-Authentication')).toMatch(/^reason=token-unknown; explain="tokens that start with sandbox-at- come from \/auth\/token on this sandbox/);

  const operator = 'operator-token-of-the-authentication-test';
  const hosted = await startMock({ port: 0, hosted: true, operatorToken: operator, tokenLifetimeSeconds: 1, log: () => {} });
  try {
    const call = (path: string, token: string) => fetch(`${hosted.url}${path}`, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    const explain = `explain="tokens must come from /auth/token with your client's credentials on this sandbox"`;
    for (const path of ['/v2/v2/providers', '/__sandbox/clock']) {
      const madeUp = await call(path, 'demo-token');
      expect(madeUp.status, path).toBe(401);
      expect(await madeUp.json()).toEqual({ message: expect.any(String) });
      expect(madeUp.headers.get('X-Sandbox-Authentication'), path).toBe(`reason=token-not-issued-here; ${explain}`);
      expect((await call(path, 'sandbox-at-never-issued')).headers.get('X-Sandbox-Authentication'), path).toBe(`reason=token-unknown; ${explain}`);
    }
    const created = await fetch(`${hosted.url}/__operator/clients`, { method: 'POST', headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Expiry test' }) });
    const client = (await created.json()) as { client_id: string; client_secret: string };
    const issued = await fetch(`${hosted.url}/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'someone', password: 'x', client_Id: client.client_id, client_secret: client.client_secret }),
    });
    const { access_token: token } = (await issued.json()) as { access_token: string };
    expect((await call('/v2/v2/providers', token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await call('/v2/v2/providers', token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('X-Sandbox-Authentication')).toBe(`reason=token-expired; ${explain}`);
  } finally {
    await hosted.close();
  }
});
