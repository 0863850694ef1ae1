// The authorization decision through @payroll-api/client, as an integrator meets it: a
// passwordGrant session of a seeded user, a write the user's rights do not grant answered as an
// ApiError 403 carrying the plain message, and nothing changed (the client must be built first).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { SEED_CLIENTS, SEED_PASSWORD, SEED_USERS } from '#sandbox/seed/authorization.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { builtClient } from '../../helpers.js';
import { reset, snapshotOf, tokenOf } from './harness.js';

interface ClientModule {
  createPayrollClient(options: Record<string, unknown>): any;
  passwordGrant(options: Record<string, unknown>): { getToken(): Promise<string> };
  unwrap(result: { data?: unknown; error?: unknown; response: Response }): any;
  ApiError: new (...args: any[]) => Error & { status: number; plainMessage?: string; messages: unknown[] };
}

let running: RunningMock;
let client: ClientModule;
beforeAll(async () => {
  client = await builtClient<ClientModule>();
  running = await startMock({ port: 0, mode: 'sandbox' });
  await reset(running.url, tokenOf(SEED_USERS.readOnly));
});
afterAll(async () => {
  await running?.close();
});

it('a read-only user signed in with passwordGrant reads, and gets an ApiError 403 with the plain message on a write', async () => {
  const session = client.passwordGrant({ authUrl: `${running.url}/auth`, username: SEED_USERS.readOnly, password: SEED_PASSWORD, clientId: SEED_CLIENTS.integration });
  const payroll = client.createPayrollClient({ baseUrl: `${running.url}/v2`, auth: session });
  const employee = client.unwrap(await payroll.GET('/v2/providers/employers/employees/{employeeId}', { params: { path: { employeeId: PEOPLE_IDS.employee } } }));
  expect(employee.content.id).toBe(PEOPLE_IDS.employee);

  const before = await snapshotOf(running.url, tokenOf(SEED_USERS.readOnly));
  let refusal: unknown;
  try {
    client.unwrap(await payroll.PATCH('/v2/providers/employers/employees/{employeeId}/email', { params: { path: { employeeId: PEOPLE_IDS.employee } }, body: { emailAddress: 'nieuw@example.nl' } }));
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(client.ApiError);
  const apiError = refusal as InstanceType<ClientModule['ApiError']>;
  expect(apiError.status).toBe(403);
  expect(apiError.plainMessage).toBe('The user read-only has no right granting the activity PatchEmailByEmployeeId.');
  expect(apiError.messages).toEqual([]);
  // The session's token reaches the same sandbox as the user's fixed token: nothing changed there.
  expect(await snapshotOf(running.url, tokenOf(SEED_USERS.readOnly))).toEqual(before);
});
