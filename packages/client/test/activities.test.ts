// Calls by activity name (operationId): built from the operation table, checked as the
// path-based calls are, and accepted by paginate and exportList.
import { describe, expect, it } from 'vitest';
import { ApiError, createJournalClient, createPayrollClient, exportList, paginate, unwrap } from '../src/index.js';
import { BASE, EMPLOYER, EMPLOYMENT, PROFILE, fakeFetch, json, list, version } from './fake-fetch.js';
import { EMPLOYEE_FIXTURES, newestVersion } from './fixture-versions.js';

const sent = (r: Request) => `${r.method} ${new URL(r.url).pathname}${new URL(r.url).search} ${r.headers.get('accept')}`;

describe('calls by activity name', () => {
  it('splits one params object into path and query parameters', async () => {
    const server = fakeFetch(() => json(list([{ id: 'e-1' }])));
    const payroll = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, auth: 'tok' });
    const { data } = await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER, filter: "personalDetails.lastName lk 'Jan'", pageSize: 10 });
    expect(data?._embedded[0]?.id).toBe('e-1');
    expect(sent(server.calls[0]!)).toBe(
      `GET /v2/v2/providers/employers/${EMPLOYER}/employees?filter=personalDetails.lastName%20lk%20%27Jan%27&pageSize=10 application/json;version=${newestVersion('GetEmployeesByEmployerId')}`,
    );
    expect(server.calls[0]!.headers.get('authorization')).toBe('Bearer tok');
  });

  it('sends the body of an activity that takes one, versioned, and passes fetch options on', async () => {
    const server = fakeFetch(() => json({ version: version(), messages: [], content: {} }));
    const payroll = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const controller = new AbortController();
    await payroll.PatchTerminateByEmploymentId(
      { employmentId: EMPLOYMENT },
      { endDate: '2025-12-31', endOfEmploymentDueToIllness: false, endOfEmploymentReason: { key: 8 } },
      { headers: { 'X-Correlation-Id': 'c-1' }, signal: controller.signal, cache: 'no-store' },
    );
    const request = server.calls[0]!;
    expect(sent(request)).toBe(`PATCH /v2/v2/providers/employers/employees/employments/${EMPLOYMENT}/terminate application/json;version=2018-01-01`);
    expect(request.headers.get('content-type')).toBe('application/json;version=2018-01-01');
    expect(request.headers.get('x-correlation-id')).toBe('c-1');
    expect(request.cache).toBe('no-store');
    expect(JSON.parse(await request.text())).toEqual({ endDate: '2025-12-31', endOfEmploymentDueToIllness: false, endOfEmploymentReason: { key: 8 } });
  });

  it('calls an activity without parameters, and answers as the path-based call does', async () => {
    const server = fakeFetch(() => json({ version: version(), messages: [{ type: 'BrokenBusinessRule', description: 'Nee', code: 1 }] }, { status: 400 }));
    const payroll = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const result = await payroll.GetProvidersByUser();
    expect(sent(server.calls[0]!)).toBe('GET /v2/v2/providers application/json;version=2018-01-01');
    expect(ApiError.from(result)!.operation).toBe('GetProvidersByUser');
    expect(() => unwrap(result)).toThrow(/GetProvidersByUser failed with status 400/);
  });

  it('makes each method once, keeps the client usable as a value, and knows only the API’s own activities', async () => {
    const payroll = createPayrollClient({ baseUrl: BASE, fetch: fakeFetch(() => json(list([]))).fetch });
    expect(payroll.GetProvidersByUser).toBe(payroll.GetProvidersByUser);
    expect((payroll as unknown as Record<string, unknown>).GetCostCentersAtWageModelLevelByJournalProfileId).toBeUndefined();
    // Not a thenable: a client can be returned from an async function.
    expect(await Promise.resolve(payroll)).toBe(payroll);
    const journal = createJournalClient({ baseUrl: 'https://api.test', fetch: fakeFetch(() => json(list([]))).fetch });
    expect((journal as unknown as Record<string, unknown>).GetProvidersByUser).toBeUndefined();
    expect(typeof journal.GetCostCentersAtWageModelLevelByJournalProfileId).toBe('function');
  });

  it('calls journal activities, the matrix patch with its array body', async () => {
    const server = fakeFetch(() => json(list([])));
    const journal = createJournalClient({ baseUrl: 'https://api.test', fetch: server.fetch });
    await journal.PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId({ journalProfileId: PROFILE }, [
      { costCenterId: EMPLOYER, costUnitId: EMPLOYMENT, isLinked: true },
    ]);
    expect(sent(server.calls[0]!)).toBe(`PATCH /journal/providers/wagemodels/journalprofiles/${PROFILE}/costcentercostunitmatrix application/json`);
    expect(await server.calls[0]!.json()).toEqual([{ costCenterId: EMPLOYER, costUnitId: EMPLOYMENT, isLinked: true }]);
  });

  it('paginate and exportList accept activity names', async () => {
    const server = fakeFetch((r) => {
      const url = new URL(r.url);
      if (r.headers.get('accept')?.startsWith('text/csv')) return new Response('a\r\n1\r\n', { headers: { 'content-type': 'text/csv' } });
      const page = Number(url.searchParams.get('pageNumber') ?? 1);
      return json(list([{ id: `item-${page}` }], { currentPage: page, totalPages: 3 }));
    });
    // Its report names an employee field: the client asks for the version whose shape that is.
    const payroll = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, resourceVersionDate: EMPLOYEE_FIXTURES });
    const ids: string[] = [];
    for await (const e of paginate(payroll, 'GetEmployeesByEmployerId', { employerId: EMPLOYER, pageSize: 1, orderBy: 'employeeNumber' }, { maxPages: 2 })) ids.push(String(e.id));
    expect(ids).toEqual(['item-1', 'item-2']);
    expect(server.calls.map((c) => new URL(c.url).search)).toEqual(['?pageSize=1&orderBy=employeeNumber', '?pageSize=1&orderBy=employeeNumber&pageNumber=2']);
    const file = await exportList(payroll, 'GetEmployeesByEmployerId', {
      format: 'csv',
      report: { fields: [{ fieldName: 'personalDetails.lastName' }] },
      params: { employerId: EMPLOYER, filter: 'endDate eq null' },
    });
    const request = server.calls[2]!;
    expect(sent(request)).toBe(`GET /v2/v2/providers/employers/${EMPLOYER}/employees?filter=endDate%20eq%20null text/csv;version=${EMPLOYEE_FIXTURES}`);
    expect(JSON.parse(request.headers.get('x-reportinput')!)).toEqual({ fields: [{ fieldName: 'personalDetails.lastName' }] });
    expect(new TextDecoder().decode(file.bytes)).toBe('a\r\n1\r\n');
    await expect(
      exportList(payroll, 'GetProvidersByUser' as never, { format: 'csv', report: { fields: [{ fieldName: 'id' }] } } as never),
    ).rejects.toThrow(/GetProvidersByUser offers no export/);
  });
});
