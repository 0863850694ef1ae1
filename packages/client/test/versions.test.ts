import { describe, expect, it } from 'vitest';
import { ApiError, createJournalClient, createPayrollClient } from '../src/index.js';
import { pickVersion } from '../src/versions.js';
import { BASE, EMPLOYEE, EMPLOYMENT, PROFILE, fakeFetch, json, list, version } from './fake-fetch.js';
import { newestVersion } from './fixture-versions.js';

describe('addresses', () => {
  it('sends payroll requests to the base URL followed by the path (v2 twice)', async () => {
    const f = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch });
    await client.GET('/v2/providers');
    expect(f.calls[0]!.url).toBe('https://api.test/v2/v2/providers');
  });

  it('builds the base URL from an environment and its host', async () => {
    const f = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ environment: 'acceptance', host: 'payroll.example.nl', fetch: f.fetch });
    await client.GET('/v2/providers');
    expect(f.calls[0]!.url).toBe('https://payroll.example.nl/v2/v2/providers');
  });

  it('rejects an environment without host, an unknown environment and a base URL without /v2', () => {
    expect(() => createPayrollClient({ environment: 'acceptance' } as never)).toThrow('environment acceptance: host must be a host name without a scheme, e.g. api.example.nl (got undefined)');
    expect(() => createPayrollClient(undefined as never)).toThrow(/give baseUrl, or environment/);
    expect(() => createJournalClient(null as never)).toThrow(/give baseUrl, or environment/);
    expect(() => createPayrollClient({ environment: 'staging', host: 'x.nl' } as never)).toThrow(/acceptance or production/);
    expect(() => createPayrollClient({ baseUrl: 'https://api.test' })).toThrow(/followed by \/v2/);
    expect(() => createPayrollClient({ baseUrl: 'not a url' })).toThrow(/absolute http\(s\) URL/);
    expect(() => createPayrollClient({ baseUrl: BASE, host: 'x' } as never)).toThrow(/not both/);
  });

  it('says that a host takes no scheme', () => {
    for (const host of ['https://payroll.example.nl', 'http://payroll.example.nl/v2']) {
      expect(() => createPayrollClient({ environment: 'production', host })).toThrow(
        `environment production: host must be a host name without a scheme, e.g. api.example.nl (got ${JSON.stringify(host)})`,
      );
      expect(() => createJournalClient({ environment: 'acceptance', host })).toThrow(/host must be a host name without a scheme/);
    }
  });

  it('sends journal requests to the origin followed by /journal paths', async () => {
    const f = fakeFetch(() => json(list([])));
    const client = createJournalClient({ baseUrl: 'https://api.test', fetch: f.fetch });
    await client.GET('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', {
      params: { path: { journalProfileId: PROFILE } },
    });
    expect(f.calls[0]!.url).toBe(`https://api.test/journal/providers/wagemodels/journalprofiles/${PROFILE}/costcenters`);
  });
});

describe('resource versions', () => {
  it('sends each operation the version it was generated for, in Accept and Content-Type', async () => {
    const f = fakeFetch(() => json({ version: version('2019-12-16'), messages: [], content: {} }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch });
    await client.GET('/v2/providers');
    await client.GET('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
    });
    await client.PUT('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
      body: { incomeRelationshipNumber: 1 } as never,
    });
    await client.PATCH('/v2/providers/employers/employees/{employeeId}/email', {
      params: { path: { employeeId: EMPLOYEE } },
      body: { emailAddress: 'j.jansen@example.nl' },
    });
    await client.GET('/v2/providers/employers/employees/{employeeId}', { params: { path: { employeeId: EMPLOYEE } } });
    expect(f.calls.map((c) => c.headers.get('accept'))).toEqual([
      'application/json;version=2018-01-01',
      'application/json;version=2019-12-16',
      'application/json;version=2019-12-16',
      'application/json;version=2018-12-31',
      `application/json;version=${newestVersion('GetEmployeeByEmployeeId')}`,
    ]);
    expect(f.calls[0]!.headers.get('content-type')).toBeNull();
    expect(f.calls[2]!.headers.get('content-type')).toBe('application/json;version=2019-12-16');
    expect(f.calls[3]!.headers.get('content-type')).toBe('application/json;version=2018-12-31');
  });

  it('versions every form of call by its own path: request(), a detached method, a call made while another is built', async () => {
    const f = fakeFetch(() => json({ version: version('2019-12-16'), messages: [], content: {} }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch });
    const seen: (string | null)[] = [];
    client.use({ onRequest: ({ request }) => void seen.push(request.headers.get('accept')) });
    const employment = '/v2/providers/employers/employees/employments/{employmentId}' as const;
    const params = { path: { employmentId: EMPLOYMENT } };
    await client.request('get', employment, { params });
    const { GET } = client;
    await GET('/v2/providers');
    let inner: Promise<unknown> | undefined;
    await client.PUT(employment, {
      params,
      body: { incomeRelationshipNumber: 1 } as never,
      bodySerializer: (body) => {
        inner = client.GET('/v2/providers');
        return JSON.stringify(body);
      },
    });
    await inner;
    const sent = f.calls.map((c) => `${c.method} ${c.headers.get('accept')} ${c.headers.get('content-type')}`);
    expect(sent).toEqual([
      'GET application/json;version=2019-12-16 null',
      'GET application/json;version=2018-01-01 null',
      'GET application/json;version=2018-01-01 null',
      'PUT application/json;version=2019-12-16 application/json;version=2019-12-16',
    ]);
    // Middleware sees the request as it is sent.
    expect(seen).toEqual(f.calls.map((c) => c.headers.get('accept')));
  });

  it('with resourceVersionDate sends the newest version dated on or before it', async () => {
    const f = fakeFetch(() => json({ version: version('2019-12-16'), messages: [], content: {} }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch, resourceVersionDate: '2020-06-30' });
    await client.GET('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
    });
    expect(f.calls[0]!.headers.get('accept')).toBe('application/json;version=2019-12-16');
  });

  it('picks versions as the contract describes (2018-08-01 selects 2018-01-01 of 2018-01-01 and 2018-09-01)', () => {
    const versions = ['2018-09-01', '2018-01-01'];
    expect(pickVersion(versions, '2018-08-01', 'op')).toBe('2018-01-01');
    expect(pickVersion(versions, '2018-09-01', 'op')).toBe('2018-09-01');
    expect(pickVersion(versions, '2030-01-01', 'op')).toBe('2018-09-01');
    expect(pickVersion(versions, undefined, 'op')).toBe('2018-09-01');
    expect(() => pickVersion(versions, '2017-12-31', 'op')).toThrow(/predates every version of op \(oldest 2018-01-01\)/);
  });

  it('refuses a date older than every served version before sending anything', async () => {
    const f = fakeFetch(() => json({}));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch, resourceVersionDate: '2019-01-01' });
    await expect(
      client.GET('/v2/providers/employers/employees/employments/{employmentId}', { params: { path: { employmentId: EMPLOYMENT } } }),
    ).rejects.toThrow(/resourceVersionDate 2019-01-01 predates every version of GetEmploymentByEmploymentId/);
    expect(f.calls).toHaveLength(0);
  });

  it('rejects a malformed resourceVersionDate', () => {
    expect(() => createPayrollClient({ baseUrl: BASE, resourceVersionDate: '2020-02-30' })).toThrow(/not a calendar date/);
    expect(() => createPayrollClient({ baseUrl: BASE, resourceVersionDate: '20200101' })).toThrow(/yyyy-MM-dd/);
  });

  it('respects an Accept that names a version, and versions one that does not', async () => {
    const f = fakeFetch(() => json({ version: version('2019-12-16'), messages: [] }, { status: 400 }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch, retry: false });
    const employment = '/v2/providers/employers/employees/employments/{employmentId}' as const;
    const params = { path: { employmentId: EMPLOYMENT } };
    const explicit = await client.GET(employment, { params, headers: { Accept: 'application/json;version=2020-06-01' } });
    await client.GET(employment, { params, headers: { accept: 'application/json' } });
    await client.PUT(employment, { params, body: { incomeRelationshipNumber: 1 }, headers: { Accept: 'application/json;version=2020-06-01' } });
    await createPayrollClient({ baseUrl: BASE, fetch: f.fetch, headers: { Accept: 'application/json;version=2020-06-01' } }).GET('/v2/providers');
    expect(f.calls.map((c) => [c.headers.get('accept'), c.headers.get('content-type')])).toEqual([
      ['application/json;version=2020-06-01', null],
      ['application/json;version=2019-12-16', null],
      // The body goes at the version the caller asked for.
      ['application/json;version=2020-06-01', 'application/json;version=2020-06-01'],
      ['application/json;version=2020-06-01', null],
    ]);
    // The operation is reported at the version that was sent.
    expect(ApiError.from(explicit)!.info).toMatchObject({ operation: 'GetEmploymentByEmploymentId', version: '2020-06-01' });
  });

  it('sends the journal API plain application/json', async () => {
    const f = fakeFetch(() => json({ messages: [], content: {} }, { status: 201 }));
    const client = createJournalClient({ baseUrl: 'https://api.test', fetch: f.fetch });
    await client.POST('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', {
      params: { path: { journalProfileId: PROFILE } },
      body: { code: 'KP100', description: 'Administratie' } as never,
    });
    expect(f.calls[0]!.headers.get('accept')).toBe('application/json');
    expect(f.calls[0]!.headers.get('content-type')).toBe('application/json');
  });

  it('refuses a path that is not an operation, before sending', async () => {
    const f = fakeFetch(() => json({}));
    const client = createPayrollClient({ baseUrl: BASE, fetch: f.fetch });
    await expect(client.GET('/v2/nothing' as never)).rejects.toThrow('GET /v2/nothing is not an operation of this API');
    expect(f.calls).toHaveLength(0);
  });
});
