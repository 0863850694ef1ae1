import { describe, expect, it } from 'vitest';
import type { ListItem } from '@payroll-api/types/payroll';
import { ApiError, createJournalClient, createPayrollClient, exportList, fileNameOf, reportInputHeader, type ReportInput } from '../src/index.js';
import { BASE, EMPLOYER, PROFILE, fakeFetch, json } from './fake-fetch.js';
import { EMPLOYEE_FIXTURES, newestVersion } from './fixture-versions.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const csv = 'Personeelsnummer;Achternaam\r\n1;Jansen\r\n';
const report: ReportInput<ListItem<'GetEmployeesByEmployerId', typeof EMPLOYEE_FIXTURES>> = {
  fileNameWithoutExtension: 'medewerkers',
  delimiter: ';',
  decimalSeparator: ',',
  fields: [
    { fieldName: 'employeeNumber', reportColumnName: 'Personeelsnummer' },
    { fieldName: 'personalDetails.lastName', reportColumnName: 'Achternaam' },
    { fieldName: 'personalDetails.dateOfBirth', reportColumnName: 'Geboortedatum', format: 'dd-MM-yyyy' },
  ],
};

describe('export', () => {
  it('downloads csv with the versioned export media type and a typed X-ReportInput', async () => {
    const server = fakeFetch(() => new Response(csv, { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="medewerkers.csv"' } }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, auth: 'tok-1', resourceVersionDate: EMPLOYEE_FIXTURES });
    const result = await exportList(client, '/v2/providers/employers/{employerId}/employees', {
      format: 'csv',
      report,
      params: { path: { employerId: EMPLOYER }, query: { filter: 'endDate eq null' } },
    });
    const request = server.calls[0]!;
    expect(request.headers.get('accept')).toBe(`text/csv;version=${EMPLOYEE_FIXTURES}`);
    expect(request.headers.get('authorization')).toBe('Bearer tok-1');
    expect(JSON.parse(request.headers.get('x-reportinput')!)).toEqual(report);
    expect(new URL(request.url).searchParams.get('filter')).toBe('endDate eq null');
    expect(new TextDecoder().decode(result.bytes)).toBe(csv);
    expect(result.fileName).toBe('medewerkers.csv');
    expect(result.contentType).toBe('text/csv');
  });

  it('downloads xlsx bytes unchanged', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80]);
    const server = fakeFetch(() => new Response(bytes, { headers: { 'content-type': XLSX, 'content-disposition': "attachment; filename*=UTF-8''medewerkers%20overzicht.xlsx" } }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const result = await exportList(client, '/v2/providers/employers/{employerId}/employees', {
      format: 'xlsx',
      report: { fields: [{ fieldName: 'employeeNumber' }] },
      params: { path: { employerId: EMPLOYER } },
    });
    expect(server.calls[0]!.headers.get('accept')).toBe(`${XLSX};version=${newestVersion('GetEmployeesByEmployerId')}`);
    expect([...result.bytes]).toEqual([...bytes]);
    expect(result.fileName).toBe('medewerkers overzicht.xlsx');
  });

  it('exports journal lists unversioned', async () => {
    const server = fakeFetch(() => new Response('code\r\nKP100\r\n', { headers: { 'content-type': 'text/csv' } }));
    const client = createJournalClient({ baseUrl: 'https://api.test', fetch: server.fetch });
    const result = await exportList(client, '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', {
      format: 'csv',
      report: { fields: [{ fieldName: 'code' }] },
      params: { path: { journalProfileId: PROFILE } },
    });
    expect(server.calls[0]!.headers.get('accept')).toBe('text/csv');
    expect(result.fileName).toBeUndefined();
  });

  it('escapes non-ASCII column names so the header stays valid', () => {
    const header = reportInputHeader({ fields: [{ fieldName: 'a', reportColumnName: 'Straße €' }] });
    expect(header).toBe('{"fields":[{"fieldName":"a","reportColumnName":"Stra\\u00dfe \\u20ac"}]}');
    expect(JSON.parse(header).fields[0].reportColumnName).toBe('Straße €');
  });

  it('reads file names from Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(fileNameOf('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOf('attachment; filename="fallback.csv"; filename*=UTF-8\'\'caf%C3%A9.csv')).toBe('café.csv');
    expect(fileNameOf('inline')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });

  it('rejects bad report input and non-export operations before sending, and throws ApiError on failure', async () => {
    const server = fakeFetch(() => json({ version: { resourceVersion: '2021-03-29', obsoleteDate: null }, messages: [{ type: 'BrokenBusinessRule', description: 'Onbekend veld', code: 3 }] }, { status: 400 }));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const path = '/v2/providers/employers/{employerId}/employees' as const;
    const params = { path: { employerId: EMPLOYER } };
    await expect(exportList(client, path, { format: 'csv', report: { fields: [] }, params })).rejects.toThrow(/at least one field/);
    await expect(exportList(client, path, { format: 'csv', report: { fields: [{ fieldName: 'a b' as never }] }, params })).rejects.toThrow(/invalid fieldName/);
    await expect(exportList(client, path, { format: 'csv', report: { delimiter: ';;', fields: [{ fieldName: 'id' }] }, params })).rejects.toThrow(/single character/);
    await expect(exportList(client, path, { format: 'pdf' as never, report: { fields: [{ fieldName: 'id' }] }, params })).rejects.toThrow(/csv or xlsx/);
    await expect(
      exportList(client, '/v2/providers' as never, { format: 'csv', report: { fields: [{ fieldName: 'id' }] } } as never),
    ).rejects.toThrow(/GetProvidersByUser offers no export/);
    expect(server.calls).toHaveLength(0);
    const error = await exportList(client, path, { format: 'csv', report: { fields: [{ fieldName: 'id' }] }, params }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).byType.BrokenBusinessRule[0]!.description).toBe('Onbekend veld');
  });
});
