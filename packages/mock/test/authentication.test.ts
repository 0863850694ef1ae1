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
