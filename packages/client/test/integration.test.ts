// Against the real mock process: addresses, versions, auth, paging, filters, export, errors.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createJournalClient,
  createPayrollClient,
  exportList,
  filterFor,
  paginate,
  passwordGrant,
  unwrap,
  type ListItemAt,
  type PayrollPathsAt,
} from '../src/index.js';
import { EMPLOYEE_FIXTURES } from './fixture-versions.js';
import { startMock, type RunningMock } from './mock-server.js';

const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
const EMPLOYMENT = '520dbfbe-cca4-5b8e-b67b-1fdfecca8a34';
const PROFILE = '294af36b-2828-41e3-9ca6-a823da96a226';

let mock: RunningMock;
let tokenServer: Server;
let authUrl: string;
let tokenCalls = 0;

beforeAll(async () => {
  mock = await startMock();
  // A local token endpoint, so the OAuth2 session runs over real HTTP as well.
  tokenServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      tokenCalls++;
      const ok = req.url === '/oauth/token' && form.get('client_Id') === 'integration' && (form.get('grant_type') === 'password' ? form.get('password') === 'Welkom01!' : form.get('grant_type') === 'refresh_token');
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { access_token: `tok-${tokenCalls}`, token_type: 'bearer', expires_in: 3600, refresh_token: 'r-1', two_factor_state: 'Skipped' } : { error: 'invalid_grant' }));
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/oauth`;
});

afterAll(async () => {
  await mock?.stop();
  await new Promise((resolve) => tokenServer?.close(resolve));
});

const payroll = (extra: Partial<Parameters<typeof createPayrollClient>[0]> = {}) =>
  createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: 'integration-token', ...extra } as Parameters<typeof createPayrollClient>[0]);

/** A client asking for the employee version whose field names the filters and reports below use. */
const pinned = () => createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: 'integration-token', resourceVersionDate: EMPLOYEE_FIXTURES });

describe('against the mock', () => {
  it('lists the provider with the versioned Accept the mock requires', async () => {
    const data = unwrap(await payroll().GET('/v2/providers'));
    expect(data.version.resourceVersion).toBe('2018-01-01');
    expect(data._embedded).toHaveLength(1);
    expect(typeof data._embedded[0]!.name).toBe('string');
  });

  it('answers 401 without a token, as a typed ApiError with the plain message', async () => {
    const client = createPayrollClient({ baseUrl: `${mock.origin}/v2` });
    const error = ApiError.from(await client.GET('/v2/providers'))!;
    expect(error.status).toBe(401);
    expect(error.operation).toBe('GetProvidersByUser');
    expect(error.plainMessage).toMatch(/denied/);
  });

  it('gets and puts an employment at 2019-12-16, also when a later date is asked', async () => {
    const client = payroll({ resourceVersionDate: '2024-05-01' });
    const detail = unwrap(await client.GET('/v2/providers/employers/employees/employments/{employmentId}', { params: { path: { employmentId: EMPLOYMENT } } }));
    expect(detail.version.resourceVersion).toBe('2019-12-16');
    const put = await payroll().PUT('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
      body: { incomeRelationshipNumber: 2, namePayslip: 'S.M. de Vries', isOnCallEmployment: false },
    });
    expect(put.response.status).toBe(200);
    expect(unwrap(put).version.resourceVersion).toBe('2019-12-16');
  });

  it('pages through employees with a built filter and orderBy', async () => {
    type Employee = ListItemAt<PayrollPathsAt<typeof EMPLOYEE_FIXTURES>, '/v2/providers/employers/{employerId}/employees'>;
    const f = filterFor<Employee>();
    const employees: Employee[] = [];
    for await (const e of paginate(pinned(), '/v2/providers/employers/{employerId}/employees', {
      params: {
        path: { employerId: EMPLOYER },
        query: { pageSize: 50, filter: f.and(f.where('personalDetails.lastName', 'lk', 'V'), f.where('revokeEmployeeSelfServiceAccessOn', 'eq', null)).text, orderBy: f.orderBy('-employeeNumber') },
      },
    })) {
      employees.push(e);
    }
    expect(employees.length).toBeGreaterThan(0);
    expect(typeof employees[0]!.employeeNumber).toBe('number');
  });

  it('exports employees as csv and xlsx with the file name of Content-Disposition', async () => {
    const client = pinned();
    const report = { fileNameWithoutExtension: 'medewerkers', delimiter: ';', fields: [{ fieldName: 'employeeNumber' as const, reportColumnName: 'Personeelsnummer' }, { fieldName: 'personalDetails.lastName' as const, reportColumnName: 'Achternaam' }] };
    const csv = await exportList(client, '/v2/providers/employers/{employerId}/employees', { format: 'csv', report, params: { path: { employerId: EMPLOYER } } });
    expect(csv.fileName).toMatch(/\.csv$/);
    expect(csv.contentType).toMatch(/^text\/csv/);
    expect(new TextDecoder().decode(csv.bytes).split(/\r?\n/).length).toBeGreaterThan(1);
    const xlsx = await exportList(client, '/v2/providers/employers/{employerId}/employees', { format: 'xlsx', report, params: { path: { employerId: EMPLOYER } } });
    expect(xlsx.fileName).toMatch(/\.xlsx$/);
    expect([...xlsx.bytes.slice(0, 2)]).toEqual([0x50, 0x4b]); // a zip container
  });

  it('reports a 400 envelope by message type', async () => {
    // A filter on a field the list does not have.
    const error = ApiError.from(await payroll().GetEmployeesByEmployerId({ employerId: EMPLOYER, filter: "shoeSize eq '42'" }))!;
    expect(error.status).toBe(400);
    expect(error.byType.BrokenBusinessRule.length).toBeGreaterThan(0);
    expect(error.message).toMatch(/^GetEmployeesByEmployerId failed with status 400 \(BrokenBusinessRule: /);
  });

  it('authenticates through the OAuth2 password grant against a token endpoint', async () => {
    const session = passwordGrant({ authUrl, username: 'integratie', password: 'Welkom01!', clientId: 'integration' });
    const client = createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: session });
    const results = await Promise.all(Array.from({ length: 5 }, () => client.GET('/v2/providers')));
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(tokenCalls).toBe(1);
  });

  it('calls the journal API unversioned: list, create and the matrix patch array', async () => {
    const journal = createJournalClient({ baseUrl: mock.origin, auth: 'integration-token' });
    const list = unwrap(await journal.GET('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', { params: { path: { journalProfileId: PROFILE } } }));
    expect(list._embedded!.length).toBeGreaterThan(0);
    const items = [];
    for await (const unit of paginate(journal, '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunits', { params: { path: { journalProfileId: PROFILE } } })) items.push(unit);
    expect(items.length).toBeGreaterThan(0);
    const matrix = await journal.GET('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcentercostunitmatrix', { params: { path: { journalProfileId: PROFILE } } });
    expect(matrix.response.status).toBe(200);
  });
});
