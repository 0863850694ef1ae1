// Custom export: CSV and XLSX files built from the list's example data and X-ReportInput.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { EMPLOYER_ID, employees, realBundle } from './fixtures/fixture.js';
import { fixtureMock, headers, request } from './helpers.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const mock = fixtureMock();
const url = () => `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;

const sample = {
  fileNameWithoutExtension: 'medewerkers',
  delimiter: ';',
  decimalSepartor: ',',
  fields: [
    { fieldName: 'employeeNumber', reportColumnName: 'Personeelsnummer' },
    { fieldName: 'personalDetails.lastName', reportColumnName: 'Achternaam' },
    { fieldName: 'personalDetails.dateOfBirth', reportColumnName: 'Geboortedatum', format: 'dd-MM-yyyy' },
    { fieldName: 'travel.travelDistanceToWorkInKm', reportColumnName: 'Afstand (km)' },
    { fieldName: 'personalDetails.gender', reportColumnName: 'Geslacht' },
  ],
};

function exportRequest(accept: string, input?: unknown) {
  const h: Record<string, string> = headers(accept);
  if (input !== undefined) h['X-ReportInput'] = typeof input === 'string' ? input : JSON.stringify(input);
  return request(url(), { headers: h });
}

describe('CSV', () => {
  it('builds the file from the example data, the fields, names, delimiter, decimal separator and date format', async () => {
    const res = await exportRequest('text/csv;version=2021-03-29', sample);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv;version=2021-03-29;charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="medewerkers.csv"');
    expect(res.text).toBe(
      [
        'Personeelsnummer;Achternaam;Geboortedatum;Afstand (km);Geslacht',
        '1001;Vries;14-03-1985;12,5;Man',
        '1002;"El Amrani; Bakker";02-11-1992;3,25;Vrouw',
        '',
      ].join('\r\n'),
    );
  });

  it('understands decimalSeparator, defaults to comma and point, and names the file after the operation', async () => {
    const res = await exportRequest('text/csv', {
      decimalSeparator: ',',
      fields: [{ fieldName: 'travel.travelDistanceToWorkInKm', reportColumnName: 'km' }, { fieldName: 'id' }],
    });
    expect(res.headers['content-disposition']).toBe('attachment; filename="GetEmployeesByEmployerId.csv"');
    expect(res.text.split('\r\n')).toEqual(['km,id', `"12,5",${employees[0]?.id}`, `"3,25",${employees[1]?.id}`, '']);
  });

  it('accepts an Excel-style lowercase date format and other patterns', async () => {
    const res = await exportRequest('text/csv', {
      fields: [
        { fieldName: 'personalDetails.dateOfBirth', reportColumnName: 'a', format: 'dd-mm-yyyy' },
        { fieldName: 'personalDetails.dateOfBirth', reportColumnName: 'b', format: 'yyyy/M/d' },
      ],
    });
    expect(res.text.split('\r\n')[1]).toBe('14-03-1985,1985/3/14');
  });

  it('exports every scalar field when X-ReportInput is absent', async () => {
    const res = await exportRequest('text/csv;version=2021-03-29');
    const [head, first] = res.text.split('\r\n');
    expect(head?.split(',')).toEqual(expect.arrayContaining(['id', 'employeeNumber', 'personalDetails.lastName', 'personalDetails.gender.value', 'travel.travelDistanceToWorkInKm']));
    expect(first).toContain('1001');
  });

  it('follows Prefer example= for the data', async () => {
    const res = await request(url(), { headers: { ...headers('text/csv'), Prefer: 'example=single', 'X-ReportInput': JSON.stringify(sample) } });
    expect(res.text.trim().split('\r\n')).toHaveLength(2);
  });

  it('keeps non-ASCII column names sent as UTF-8 and file names in RFC 5987 form', async () => {
    const res = await exportRequest('text/csv', { fileNameWithoutExtension: 'overzicht één', fields: [{ fieldName: 'employeeNumber', reportColumnName: 'Nº' }] });
    expect(res.text.split('\r\n')[0]).toBe('Nº');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="overzicht __n.csv"; filename*=UTF-8''${encodeURIComponent('overzicht één.csv')}`);
  });
});

describe('XLSX', () => {
  it('builds a real workbook with columns, names, values and date formats', async () => {
    const res = await exportRequest(`${XLSX};version=2021-03-29`, {
      ...sample,
      fields: sample.fields.map((f) => (f.format ? { ...f, format: 'dd-mm-yyyy' } : f)),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(`${XLSX};version=2021-03-29`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="medewerkers.xlsx"');
    expect(res.body.subarray(0, 2).toString()).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('medewerkers');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Personeelsnummer', 'Achternaam', 'Geboortedatum', 'Afstand (km)', 'Geslacht']);
    expect(sheet?.getCell('A2').value).toBe(1001);
    expect(sheet?.getCell('B3').value).toBe('El Amrani; Bakker');
    const date = sheet?.getCell('C2');
    expect(date?.value).toEqual(new Date(Date.UTC(1985, 2, 14)));
    expect(date?.numFmt).toBe('dd-mm-yyyy');
    expect(sheet?.getCell('D3').value).toBe(3.25);
    expect(sheet?.getCell('E3').value).toBe('Vrouw');
    expect(sheet?.rowCount).toBe(3);
  });
});

describe('invalid X-ReportInput and unsupported exports', () => {
  const cases: Array<[string, unknown, string]> = [
    ['not JSON', '{fields: [', 'X-ReportInput'],
    ['not an object', '[1, 2]', 'X-ReportInput'],
    ['fields not an array', { fields: 'employeeNumber' }, 'X-ReportInput.fields'],
    ['a field without fieldName', { fields: [{ reportColumnName: 'x' }] }, 'X-ReportInput.fields[0].fieldName'],
    ['a fieldName that is no path', { fields: [{ fieldName: 'a..b' }] }, 'X-ReportInput.fields[0].fieldName'],
    ['a long delimiter', { delimiter: ';;' }, 'X-ReportInput.delimiter'],
    ['a quote as delimiter', { delimiter: '"' }, 'X-ReportInput.delimiter'],
    ['a numeric decimal separator', { decimalSeparator: 1 }, 'X-ReportInput.decimalSeparator'],
  ];
  for (const [name, input, property] of cases) {
    it(`answers 400 with the envelope for ${name}`, async () => {
      const res = await exportRequest('text/csv;version=2021-03-29', input);
      expect(res.status).toBe(400);
      const body = res.json();
      expect(body.version).toEqual({ resourceVersion: '2021-03-29', obsoleteDate: null });
      expect(body.messages[0]).toMatchObject({ type: 'BrokenBusinessRule', properties: [property] });
    });
  }

  it('refuses an export media type on an operation that is no exportable list', async () => {
    const res = await request(`${mock().url}/v2/v2/providers`, { headers: headers('text/csv;version=2018-01-01') });
    expect(res.status).toBe(400);
    expect(res.json().messages[0].properties).toEqual(['Accept']);
  });

  it('applies the version rules to exports too', async () => {
    const res = await exportRequest('text/csv;version=2020-01-01', sample);
    expect(res.status).toBe(400);
    expect(res.json().messages[0].properties).toEqual(['Accept']);
  });
});

describe('journal lists', () => {
  const journal = realBundle('journal');
  const list = Object.entries(journal.paths as Record<string, any>).find(
    ([, item]) => item.get && Object.keys(item.get.responses?.['200']?.content ?? {}).includes('text/csv'),
  );

  it('export as CSV without a version', async () => {
    const path = list?.[0].replace(/\{[^}]+\}/g, EMPLOYER_ID);
    const json = await request(`${mock().url}${path}`, { headers: headers('application/json') });
    const items = json.json()._embedded as Array<Record<string, unknown>>;
    const res = await request(`${mock().url}${path}`, { headers: { ...headers('text/csv'), 'X-ReportInput': JSON.stringify({ fields: [{ fieldName: 'id', reportColumnName: 'Id' }] }) } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv;charset=utf-8');
    expect(res.text.split('\r\n')).toEqual(['Id', ...items.map((i) => String(i.id)), '']);
  });
});
