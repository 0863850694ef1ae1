// Refresh tokens lapse after 30 days unused, and lapsed tokens are dropped from the store when
// tokens are next issued (the token endpoint on a memory store, with a token dated back).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tokenEndpoint } from '#sandbox/auth/token-endpoint.js';
import { AUTH_COLLECTIONS, AUTH_SANDBOX, REFRESH_LIFETIME_MS, REFRESH_TOKENS } from '#sandbox/auth/tokens.js';
import { createStore } from '../../../src/store/index.js';
import type { Store } from '#sandbox/store/types.js';
import { fromNodeRequest } from '../../../src/node-request.js';
import { request } from '../../helpers.js';

let store: Store;
let server: http.Server;
let url: string;

beforeAll(async () => {
  store = await createStore({ seed: { format: 'payroll-sandbox/1', collections: {}, meta: {} }, collections: AUTH_COLLECTIONS });
  server = http.createServer((req, res) => {
    void tokenEndpoint(fromNodeRequest(req), store, 60).then((out) => {
      res.writeHead(out.status, out.headers as http.OutgoingHttpHeaders);
      res.end(out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/token`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

const post = (fields: Record<string, string>) =>
  request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

it('refuses a refresh token unused for longer than its lifetime, and drops it', async () => {
  const issued = (await post({ grant_type: 'password', username: 'hanna@example.nl', password: 'x', client_Id: 'c' })).json();
  await store.transaction(AUTH_SANDBOX, 'write', async (tx) => {
    const doc = (await tx.get(REFRESH_TOKENS, issued.refresh_token))!;
    await tx.replace(REFRESH_TOKENS, { ...doc, expiresAt: Date.now() - 1 });
  });
  const lapsed = await post({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_Id: 'c' });
  expect(lapsed.status).toBe(400);
  expect(lapsed.json().error).toBe('invalid_grant');
  await post({ grant_type: 'password', username: 'ivo@example.nl', password: 'x', client_Id: 'c' });
  const kept = await store.transaction(AUTH_SANDBOX, 'read', (tx) => tx.get(REFRESH_TOKENS, issued.refresh_token));
  expect(kept).toBeUndefined();
  const fresh = await store.transaction(AUTH_SANDBOX, 'read', (tx) => tx.find(REFRESH_TOKENS));
  expect(fresh.rows.every((doc) => (doc.expiresAt as number) > Date.now() + REFRESH_LIFETIME_MS - 60_000)).toBe(true);
});
