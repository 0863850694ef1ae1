// The sandbox for the component tests: the engine in this process, reached through MSW's
// request interception (setupServer), no port. Every test starts from the seed.
import { createSandbox } from '@payroll-api/sandbox';
import { sandboxHandlers } from '@payroll-api/sandbox/msw';
import { cleanup, configure } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createApiClient } from '../src/api.js';

/** Where the tests' app thinks the API is; MSW answers it from the engine. */
export const ORIGIN = 'http://payroll.test';
/** Each token has its own sandbox: this one is the tests'. */
export const TOKEN = 'component-tests';

// A shared two-core machine can be slow: wait up to 5 s for what the tests look for.
configure({ asyncUtilTimeout: 5000 });

export const sandbox = await createSandbox();
const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: ORIGIN }));

// 'error': a call the sandbox does not serve is a test failure, not a silent real request.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  cleanup();
  await sandbox.reset(); // back to the seed, faults cleared
});
afterAll(() => server.close());

export const appClient = () => createApiClient(ORIGIN, TOKEN);

/** A call of the tests themselves, straight to the engine, to see what is stored. */
export async function stored<T>(path: string, accept: string): Promise<T> {
  const response = await sandbox.fetch(`${ORIGIN}${path}`, { headers: { Authorization: `Bearer ${TOKEN}`, Accept: accept } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as T;
}
