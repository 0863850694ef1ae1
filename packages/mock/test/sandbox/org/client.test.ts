// The organisation rules through @payroll-api/client, as an integrator meets them: paging
// child employers with includeParent, the employerNumber of a created employer, and a refused
// metadata key as an ApiError naming the field (the client must be built first).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { builtClient } from '../../helpers.js';

interface ClientModule {
  createPayrollClient(options: Record<string, unknown>): any;
  paginate(client: unknown, target: string, ...args: unknown[]): AsyncIterable<any>;
  unwrap(result: { data?: unknown; error?: unknown; response: Response }): any;
  ApiError: new (...args: any[]) => Error & { status: number; messages: Array<{ type: string; properties?: string[] }> };
}

let running: RunningMock;
let client: ClientModule;
beforeAll(async () => {
  client = await builtClient<ClientModule>();
  running = await startMock({ port: 0, mode: 'sandbox' });
  await fetch(`${running.url}/__sandbox/reset`, { method: 'POST', headers: { Authorization: 'Bearer org-client' } });
});
afterAll(async () => {
  await running?.close();
});

it('pages the child employers, with the parent on includeParent', async () => {
  const payroll = client.createPayrollClient({ baseUrl: `${running.url}/v2`, auth: 'org-client' });
  const names: string[] = [];
  const init = { params: { path: { employerId: ORG_IDS.employers.vanDerMeerBouwgroep }, query: { includeParent: true, pageSize: 1, orderBy: 'employerNumber' } } };
  for await (const employer of client.paginate(payroll, '/v2/providers/employers/{employerId}/childemployers', init)) names.push(employer.companyName);
  expect(names).toEqual(['Van der Meer Bouwgroep B.V.', 'Van der Meer Infra B.V.', 'Van der Meer Vastgoed B.V.']);
});

it('creates an employer with its employerNumber, and reports a refused metadata key as an ApiError naming the field', async () => {
  const payroll = client.createPayrollClient({ baseUrl: `${running.url}/v2`, auth: 'org-client' });
  const params = { path: { providerId: ORG_IDS.provider } };
  const created = client.unwrap(await payroll.POST('/v2/providers/{providerId}/employers', { params, body: { companyName: 'Fietsenmakerij De Spaak B.V.', legalForm: { key: 3 } } }));
  expect(created.content).toMatchObject({ employerNumber: 10006, legalForm: { key: 3, value: 'Besloten vennootschap' } });
  let refusal: unknown;
  try {
    client.unwrap(await payroll.POST('/v2/providers/{providerId}/employers', { params, body: { companyName: 'Fietsenmakerij De Ketting B.V.', legalForm: { key: 99 } } }));
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(client.ApiError);
  expect((refusal as InstanceType<ClientModule['ApiError']>).status).toBe(400);
  expect((refusal as InstanceType<ClientModule['ApiError']>).messages).toEqual([expect.objectContaining({ type: 'BrokenBusinessRule', properties: ['legalForm'] })]);
});
