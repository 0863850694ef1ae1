// The employee and employment rules through @payroll-api/client, as an integrator meets them:
// the termination's Warning through onWarning, a refused citizen service number as an ApiError
// naming the field (and nothing changed), paging an employer's employees, and a terminate then
// reinstate round trip (the client must be built first).
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { builtClient } from '../../helpers.js';
import { api, type Api } from './harness.js';

interface ClientModule {
  createPayrollClient(options: Record<string, unknown>): any;
  paginate(client: unknown, target: string, ...args: unknown[]): AsyncIterable<any>;
  unwrap(result: { data?: unknown; error?: unknown; response: Response }): any;
  ApiError: new (...args: any[]) => Error & { status: number; messages: Array<{ type: string; properties?: string[] }> };
}

const TOKEN = 'people-client';
let running: RunningMock;
let client: ClientModule;
let control: Api;
beforeAll(async () => {
  client = await builtClient<ClientModule>();
  running = await startMock({ port: 0, mode: 'sandbox' });
  control = api({ url: running.url, token: TOKEN });
});
afterAll(async () => {
  await running?.close();
});
beforeEach(async () => {
  await control.reset();
});

const payrollClient = (options: Record<string, unknown> = {}) => client.createPayrollClient({ baseUrl: `${running.url}/v2`, auth: TOKEN, ...options });

it('reports the ignored createMdvEntry as a warning on a 200', async () => {
  const warnings: any[] = [];
  const payroll = payrollClient({ onWarning: (event: any) => warnings.push(event) });
  const answer = client.unwrap(
    await payroll.PATCH('/v2/providers/employers/employees/employments/{employmentId}/terminate', {
      params: { path: { employmentId: PEOPLE_IDS.noNotificationModuleEmployment } },
      body: { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, createMdvEntry: true },
    }),
  );
  expect(answer.content).toEqual({});
  expect(warnings).toHaveLength(1);
  expect(warnings[0].status).toBe(200);
  expect(warnings[0].messages).toEqual([expect.objectContaining({ type: 'Warning', properties: ['createMdvEntry'] })]);
});

it('refuses a citizen service number failing the 11-test as an ApiError naming the field, changing nothing', async () => {
  const payroll = payrollClient();
  const before = await control.state();
  let refusal: unknown;
  try {
    client.unwrap(await payroll.PUT('/v2/providers/employers/employees/{employeeId}/citizenservicenumber', { params: { path: { employeeId: PEOPLE_IDS.employee } }, body: '123456789' }));
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(client.ApiError);
  expect((refusal as InstanceType<ClientModule['ApiError']>).status).toBe(400);
  expect((refusal as InstanceType<ClientModule['ApiError']>).messages).toEqual([expect.objectContaining({ type: 'BrokenBusinessRule', properties: ['citizenServiceNumber'] })]);
  expect(await control.state()).toEqual(before);
});

it('pages through every employee of the employer', async () => {
  const payroll = payrollClient();
  const ids: string[] = [];
  const init = { params: { path: { employerId: SEED_IDS.employer }, query: { pageSize: 7, orderBy: 'employeeNumber' } } };
  for await (const employee of client.paginate(payroll, '/v2/providers/employers/{employerId}/employees', init)) ids.push(employee.id);
  const first = client.unwrap(await payroll.GET('/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: SEED_IDS.employer }, query: { pageSize: 1 } } }));
  expect(ids.length).toBe(first.totalSize);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toContain(PEOPLE_IDS.employee);
});

it('terminates and reinstates an employment', async () => {
  const payroll = payrollClient();
  const params = { path: { employmentId: PEOPLE_IDS.employment } };
  client.unwrap(await payroll.PATCH('/v2/providers/employers/employees/employments/{employmentId}/terminate', { params, body: { endDate: '2026-12-31', endOfEmploymentDueToIllness: false } }));
  expect(client.unwrap(await payroll.GET('/v2/providers/employers/employees/employments/{employmentId}', { params })).content.endDate).toBe('2026-12-31');
  client.unwrap(await payroll.PATCH('/v2/providers/employers/employees/employments/{employmentId}/reinstate', { params, body: {} }));
  expect(client.unwrap(await payroll.GET('/v2/providers/employers/employees/employments/{employmentId}', { params })).content.endDate).toBeNull();
});
