import { describe, expect, it, vi } from 'vitest';
import { ApiError, createJournalClient, createPayrollClient, messagesByEntity, unwrap, type DeprecationEvent, type PartialFailureEvent, type WarningEvent } from '../src/index.js';
import { BASE, EMPLOYEE, EMPLOYMENT, PROFILE, fakeFetch, json, list, version } from './fake-fetch.js';
import { newestVersion } from './fixture-versions.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('ApiError', () => {
  it('types a 400 envelope by message type with status and operation', async () => {
    const server = fakeFetch(() =>
      json(
        {
          version: version('2019-12-16'),
          messages: [
            { type: 'BrokenBusinessRule', description: 'De einddatum ligt voor de begindatum.', code: 1201, id: null, properties: ['endDate'] },
            { type: 'Warning', description: 'Controleer de loonheffingskorting.', code: 12, id: null, properties: [] },
          ],
        },
        { status: 400 },
      ),
    );
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const result = await client.PUT('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
      body: { incomeRelationshipNumber: 1 } as never,
    });
    const error = ApiError.from(result)!;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.operation).toBe('PutEmploymentByEmploymentId');
    expect(error.info).toMatchObject({ method: 'PUT', resource: 'employment', version: '2019-12-16' });
    expect(error.byType.BrokenBusinessRule.map((m) => m.code)).toEqual([1201]);
    expect(error.byType.Warning).toHaveLength(1);
    expect(error.byType.Exception).toEqual([]);
    expect(error.message).toBe('PutEmploymentByEmploymentId failed with status 400 (BrokenBusinessRule: De einddatum ligt voor de begindatum.)');
    expect(() => unwrap(result)).toThrow(ApiError);
  });

  it('carries the plain {message} of a 401 and a 404 NotFound message, and no error for a 2xx', async () => {
    const server = fakeFetch((r) =>
      r.url.endsWith('/logo')
        ? json({ version: version(), messages: [{ type: 'NotFound', description: 'Geen logo bekend.' }] }, { status: 404 })
        : json({ message: 'Authorization has been denied for this request.' }, { status: 401 }),
    );
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const unauthorized = ApiError.from(await client.GET('/v2/providers'))!;
    expect(unauthorized.plainMessage).toBe('Authorization has been denied for this request.');
    expect(unauthorized.messages).toEqual([]);
    const notFound = ApiError.from(await client.GET('/v2/providers/{providerId}/logo', { params: { path: { providerId: A } } }))!;
    expect(notFound.status).toBe(404);
    expect(notFound.byType.NotFound[0]!.description).toBe('Geen logo bekend.');
    const ok = fakeFetch(() => json(list([])));
    expect(ApiError.from(await createPayrollClient({ baseUrl: BASE, fetch: ok.fetch }).GET('/v2/providers'))).toBeUndefined();
  });

  it('reports a 500 without body and a text/plain 400', async () => {
    const server = fakeFetch((r) => (r.method === 'DELETE' ? new Response(null, { status: 500 }) : new Response('This API can only be called over TLS 1.2.', { status: 400, headers: { 'content-type': 'text/plain' } })));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: false });
    const plain = ApiError.from(await client.GET('/v2/providers'))!;
    expect(plain.body).toBe('This API can only be called over TLS 1.2.');
    expect(plain.message).toContain('TLS 1.2');
    const failed = ApiError.from(await client.DELETE('/v2/providers/employers/employees/{employeeId}/photo', { params: { path: { employeeId: EMPLOYEE } } }))!;
    expect(failed.status).toBe(500);
    expect(failed.operation).toBe('DeleteEmployeePhotoByEmployeeId');
  });
});

describe('warnings and multi-patch results', () => {
  it('calls onWarning for a 2xx carrying Warning messages, and not otherwise', async () => {
    const warnings: WarningEvent[] = [];
    const server = fakeFetch((r) =>
      r.method === 'PATCH'
        ? json({ version: version('2018-12-31'), messages: [{ type: 'Warning', description: 'Het e-mailadres wordt ook gebruikt door een andere medewerker.', code: 7, id: null }], content: {} })
        : json(list([{ id: A, name: 'Loonkantoor Jansen' }])),
    );
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, onWarning: (e) => warnings.push(e) });
    const { data } = await client.PATCH('/v2/providers/employers/employees/{employeeId}/email', {
      params: { path: { employeeId: EMPLOYEE } },
      body: { emailAddress: 'p.devries@example.nl' },
    });
    expect(data?.content).toEqual({});
    await client.GET('/v2/providers');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ operation: 'PatchEmailByEmployeeId', status: 200, resource: 'employeeEmail', version: '2018-12-31' });
    expect(warnings[0]!.messages[0]!.code).toBe(7);
  });

  it('reports the failing entities of a multi-patch by id', async () => {
    const failures: PartialFailureEvent[] = [];
    const body = {
      messages: [
        { type: 'BrokenBusinessRule', description: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenter_NotExists', code: 2, id: A },
        { type: 'Exception', description: 'Koppeling vergrendeld', code: 3, id: A },
        { type: 'BrokenBusinessRule', description: 'Combinatie niet uniek', code: 4, id: B },
        { type: 'Warning', description: 'Let op', code: 5, id: B },
      ],
      totalSize: 0, pageSize: 250, totalPages: 0, currentPage: 1, _embedded: [],
    };
    const server = fakeFetch(() => json(body));
    const client = createJournalClient({ baseUrl: 'https://api.test', fetch: server.fetch, onPartialFailure: (e) => failures.push(e) });
    await client.PATCH('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcentercostunitmatrix', {
      params: { path: { journalProfileId: PROFILE } },
      body: [{}] as never,
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.operation).toBe('PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId');
    expect([...failures[0]!.failures.keys()]).toEqual([A, B]);
    expect(failures[0]!.failures.get(A)!.map((m) => m.code)).toEqual([2, 3]);
    expect(failures[0]!.failures.get(B)!.map((m) => m.code)).toEqual([4]);
    expect(messagesByEntity(body).get(B)!.map((m) => m.code)).toEqual([4, 5]);
  });
});

describe('deprecation', () => {
  it('calls onDeprecation once per resource version when version.obsoleteDate is set', async () => {
    const events: DeprecationEvent[] = [];
    const server = fakeFetch(() => json({ version: version('2019-12-16', '2026-06-30'), messages: [], content: { id: EMPLOYMENT } }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, onDeprecation: (e) => events.push(e) });
    for (let i = 0; i < 3; i++) {
      await client.GET('/v2/providers/employers/employees/employments/{employmentId}', { params: { path: { employmentId: EMPLOYMENT } } });
    }
    expect(events).toEqual([
      { operation: 'GetEmploymentByEmploymentId', resource: 'employment', version: '2019-12-16', date: '2026-06-30', obsoleteDate: '2026-06-30' },
    ]);
  });

  it('reads Deprecation and Sunset headers', async () => {
    const events: DeprecationEvent[] = [];
    const server = fakeFetch((r) =>
      r.url.includes('/employees/')
        ? json({ version: version('2021-03-29'), messages: [], content: {} }, { headers: { deprecation: '@1767225600' } })
        : json(list([]), { headers: { deprecation: '@1767225600', sunset: 'Wed, 01 Jul 2026 00:00:00 GMT' } }),
    );
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, onDeprecation: (e) => events.push(e) });
    await client.GET('/v2/providers');
    await client.GET('/v2/providers');
    await client.GET('/v2/providers/employers/employees/{employeeId}', { params: { path: { employeeId: EMPLOYEE } } });
    expect(events).toEqual([
      { operation: 'GetProvidersByUser', resource: 'provider', version: '2018-01-01', date: '2026-07-01', deprecation: '@1767225600', sunset: 'Wed, 01 Jul 2026 00:00:00 GMT' },
      { operation: 'GetEmployeeByEmployeeId', resource: 'employee', version: newestVersion('GetEmployeeByEmployeeId'), date: '2026-01-01', deprecation: '@1767225600' },
    ]);
  });

  it('keeps the body intact for the caller after inspecting it', async () => {
    const onDeprecation = vi.fn();
    const server = fakeFetch(() => json(list([{ id: A, name: 'Loonkantoor Jansen' }])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, onDeprecation, onWarning: vi.fn() });
    const { data } = await client.GET('/v2/providers');
    expect(data?._embedded[0]).toEqual({ id: A, name: 'Loonkantoor Jansen' });
    expect(onDeprecation).not.toHaveBeenCalled();
  });
});
