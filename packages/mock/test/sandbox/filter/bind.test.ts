// bindFilter / bindOrderBy: fields looked up case-insensitively, literals checked and converted
// to the field's type, and refusals that name the field.
import { describe, expect, it } from 'vitest';
import { bindFilter, filterFrom, orderFrom } from '#sandbox/filter/bind.js';
import { fieldTable } from '#sandbox/filter/fields.js';
import { parseFilter } from '#sandbox/filter/parse.js';
import type { BoundFilter } from '#sandbox/filter/tree.js';
import { refusal } from './refusal.js';
import { metadataFields, nested, scalars } from './fixtures/fields.js';

const table = new Map([...fieldTable(scalars), ...fieldTable(nested), ...fieldTable(metadataFields)]);

function valueOf(text: string): unknown {
  const bound = filterFrom(text, table) as BoundFilter & { kind: 'compare' };
  return bound.value;
}

describe('bindFilter', () => {
  it('finds fields case-insensitively, nested and metadata fields included', () => {
    const bound = filterFrom("LASTNAME eq 'x' and Address.City eq 'y' or gender eq 2", table);
    expect(bound).toEqual({
      kind: 'or',
      left: {
        kind: 'and',
        left: { kind: 'compare', field: { path: ['lastName'], type: 'string' }, op: 'eq', value: 'x' },
        right: { kind: 'compare', field: { path: ['address', 'city'], type: 'string' }, op: 'eq', value: 'y' },
      },
      right: { kind: 'compare', field: { path: ['gender', 'key'], type: 'integer' }, op: 'eq', value: 2 },
    });
  });

  it('converts literals: text lower-cased, dates kept, date-times as UTC instants', () => {
    expect(valueOf("lastName eq 'De Vries'")).toBe('de vries');
    expect(valueOf('employeeNumber gt 12')).toBe(12);
    expect(valueOf('hourlyWage le 12.75')).toBe(12.75);
    expect(valueOf('isActive eq true')).toBe(true);
    expect(valueOf("dateOfBirth lt '1990-02-28'")).toBe('1990-02-28');
    expect(valueOf("lastModified ge '2024-03-01T10:00:00+01:00'")).toBe('2024-03-01T09:00:00.000Z');
    expect(valueOf("lastModified ge '2024-03-01'")).toBe('2024-03-01T00:00:00.000Z');
    expect(valueOf("lastModified ge '2024-03-01T10:00:00'")).toBe('2024-03-01T10:00:00.000Z');
    expect(valueOf('dateOfBirth eq null')).toBeNull();
    expect(valueOf('lastName ne null')).toBeNull();
  });

  it.each([
    ['unknownField eq 1', /Unknown field 'unknownField'/],
    ["name eq 'x'", /Unknown field 'name'/],
    ["address.nowhere eq 'x'", /Unknown field 'address.nowhere'/],
    ['lastName eq 12', /'lastName' is a string: compare it with quoted text, not 12/],
    ["employeeNumber eq '12'", /'employeeNumber' is an integer: compare it with a whole number, not '12'/],
    ['employeeNumber eq 1.5', /whole number, not 1.5/],
    ["hourlyWage eq 'x'", /'hourlyWage' is a number/],
    ["isActive eq 'true'", /'isActive' is a boolean: compare it with true or false/],
    ["dateOfBirth eq '31-01-2020'", /'dateOfBirth' is a date: .*'2020-01-31'.*not '31-01-2020'/],
    ["dateOfBirth eq '2021-02-29'", /is a date/],
    ['dateOfBirth eq 20200131', /is a date/],
    ["lastModified eq 'yesterday'", /'lastModified' is a date-time/],
    ['lastName gt null', /Only eq and ne compare with null \('lastName gt null'\)/],
    ['employeeNumber lk 1', /lk \(contains\) applies to text fields; 'employeeNumber' is an integer/],
  ])('refuses %j', (text, pattern) => {
    const error = refusal(() => filterFrom(text, table));
    expect(error.parameter).toBe('filter');
    expect(error.message).toMatch(pattern);
  });

  it('binds a parsed tree as given', () => {
    expect(bindFilter(parseFilter('(isActive eq true)'), table)).toEqual({
      kind: 'compare',
      field: { path: ['isActive'], type: 'boolean' },
      op: 'eq',
      value: true,
    });
  });
});

describe('bindOrderBy', () => {
  it('gives sort keys for known fields, any case, metadata by key', () => {
    expect(orderFrom('LastName,-gender,-address.city', table)).toEqual([
      { field: { path: ['lastName'], type: 'string' }, descending: false },
      { field: { path: ['gender', 'key'], type: 'integer' }, descending: true },
      { field: { path: ['address', 'city'], type: 'string' }, descending: true },
    ]);
  });

  it('refuses an unknown field, naming it, as an orderBy error', () => {
    const error = refusal(() => orderFrom('lastName,-shoeSize', table));
    expect(error.parameter).toBe('orderBy');
    expect(error.message).toContain("'shoeSize'");
  });
});
