import { describe, expect, it } from 'vitest';
import { and, createPayrollClient, filterDate, filterFor, or, orderBy, where } from '../src/index.js';
import type { Schema } from '@payroll-api/types/payroll';
import { BASE, EMPLOYER, fakeFetch, json, list } from './fake-fetch.js';

describe('filter builder', () => {
  it('writes every comparison operator', () => {
    expect(String(where('employeeNumber', 'eq', 12))).toBe('employeeNumber eq 12');
    expect(String(where('employeeNumber', 'ne', 12))).toBe('employeeNumber ne 12');
    expect(String(where('lastName', 'lk', 'Jan'))).toBe("lastName lk 'Jan'");
    expect(String(where('grossWage', 'gt', 2500.5))).toBe('grossWage gt 2500.5');
    expect(String(where('grossWage', 'ge', -1))).toBe('grossWage ge -1');
    expect(String(where('payrollId', 'lt', 0))).toBe('payrollId lt 0');
    expect(String(where('payrollId', 'le', 99))).toBe('payrollId le 99');
  });

  it('quotes strings, doubling single quotes, and writes null, booleans and quoted dates', () => {
    expect(String(where('lastName', 'eq', "D'Hondt"))).toBe("lastName eq 'D''Hondt'");
    expect(String(where('lastName', 'eq', "''"))).toBe("lastName eq ''''''");
    expect(String(where('lastName', 'eq', ''))).toBe("lastName eq ''");
    expect(String(where('endDate', 'eq', null))).toBe('endDate eq null');
    expect(String(where('endDate', 'eq', 'null'))).toBe("endDate eq 'null'");
    expect(String(where('isOnCallEmployment', 'eq', true))).toBe('isOnCallEmployment eq true');
    expect(String(where('startDate', 'ge', filterDate('2024-01-01')))).toBe("startDate ge '2024-01-01'");
    expect(String(where('startDate', 'lt', new Date(Date.UTC(2025, 0, 31))))).toBe("startDate lt '2025-01-31'");
    expect(String(where('personalDetails.dateOfBirth', 'le', filterDate('1990-02-28')))).toBe("personalDetails.dateOfBirth le '1990-02-28'");
  });

  it('joins with and/or, parenthesising groups of the other operator', () => {
    const f = and(where('startDate', 'ge', filterDate('2024-01-01')), or(where('endDate', 'eq', null), where('endDate', 'gt', filterDate('2025-01-01'))));
    expect(f.text).toBe("startDate ge '2024-01-01' and (endDate eq null or endDate gt '2025-01-01')");
    const g = or(and(where('a', 'eq', 1), where('b', 'eq', 2)), where('c', 'eq', 3));
    expect(String(g)).toBe('(a eq 1 and b eq 2) or c eq 3');
    expect(String(and(where('a', 'eq', 1), and(where('b', 'eq', 2), where('c', 'eq', 3))))).toBe('a eq 1 and b eq 2 and c eq 3');
    expect(String(and(where('a', 'eq', 1), undefined, false))).toBe('a eq 1');
    expect(String(or(where('a', 'eq', 1), and(where('b', 'eq', 2), or(where('c', 'eq', 3), where('d', 'eq', 4)))))).toBe(
      'a eq 1 or (b eq 2 and (c eq 3 or d eq 4))',
    );
  });

  it('types field names from the list item, with dotted paths', () => {
    const f = filterFor<Schema<'Employee'>>();
    const expr = f.and(f.where('personalDetails.lastName', 'lk', 'Jansen'), f.where('employeeNumber', 'ge', 100));
    expect(expr.text).toBe("personalDetails.lastName lk 'Jansen' and employeeNumber ge 100");
    expect(f.orderBy('-employeeNumber', 'id')).toBe('-employeeNumber,id');
  });

  it('throws clear errors for malformed dates, empty or invalid fields, unknown operators and bad numbers', () => {
    expect(() => filterDate('2024-02-30')).toThrow(/not a calendar date written yyyy-MM-dd/);
    expect(() => filterDate('01-02-2024')).toThrow(/yyyy-MM-dd/);
    expect(() => where('startDate', 'eq', new Date('nope'))).toThrow(/Date is invalid/);
    expect(() => where('startDate', 'eq', { date: '2024-13-01' })).toThrow(/not a calendar date/);
    expect(() => where('', 'eq', 1)).toThrow(/field name is empty/);
    expect(() => where('a..b', 'eq', 1)).toThrow(/invalid field name "a..b"/);
    expect(() => where('last name', 'eq', 1)).toThrow(/invalid field name/);
    expect(() => where('a', 'like' as never, 1)).toThrow(/unknown operator "like"/);
    expect(() => where('a', 'eq', Number.NaN)).toThrow(/finite number/);
    expect(() => and()).toThrow(/at least one expression/);
    expect(() => or(where('a', 'eq', 'x'.repeat(2100)))).toThrow(/at most 2048/);
  });
});

describe('orderBy builder', () => {
  it('writes comma-separated fields with a leading minus for descending', () => {
    expect(orderBy('-startDate', 'employeeNumber')).toBe('-startDate,employeeNumber');
    expect(orderBy('companyName')).toBe('companyName');
    expect(orderBy('-companyName', 'address.houseNumber')).toBe('-companyName,address.houseNumber');
    expect(orderBy('personalDetails.lastName')).toBe('personalDetails.lastName');
  });

  it('rejects empty and otherwise invalid fields', () => {
    expect(() => orderBy()).toThrow(/at least one field/);
    expect(() => orderBy('')).toThrow(/field name is empty/);
    expect(() => orderBy('-')).toThrow(/field name is empty/);
    expect(() => orderBy('personalDetails..lastName')).toThrow(/invalid field "personalDetails..lastName"/);
    expect(() => orderBy('personalDetails.-lastName')).toThrow(/invalid field/);
    expect(() => orderBy('address.')).toThrow(/invalid field/);
    expect(() => orderBy('start date')).toThrow(/invalid field/);
    expect(() => orderBy('--startDate')).toThrow(/invalid field/);
  });

  it('bad input throws before a request is sent; good input is URL encoded on the wire', async () => {
    const server = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const f = filterFor<Schema<'Employee'>>();
    expect(() =>
      client.GET('/v2/providers/employers/{employerId}/employees', {
        params: { path: { employerId: EMPLOYER }, query: { orderBy: f.orderBy('personalDetails..lastName' as never) } },
      }),
    ).toThrow(/invalid field/);
    expect(server.calls).toHaveLength(0);
    await client.GET('/v2/providers/employers/{employerId}/employees', {
      params: { path: { employerId: EMPLOYER }, query: { filter: String(f.where('personalDetails.lastName', 'eq', "D'Hondt & Zn")), orderBy: f.orderBy('-employeeNumber') } },
    });
    const url = new URL(server.calls[0]!.url);
    expect(url.searchParams.get('filter')).toBe("personalDetails.lastName eq 'D''Hondt & Zn'");
    expect(url.search).toContain('%26');
    expect(url.searchParams.get('orderBy')).toBe('-employeeNumber');
  });
});
