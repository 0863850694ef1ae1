// The filter and orderBy parser: the contract's syntax (section 4.1), precedence, literals,
// and errors that say where the filter went wrong.
import { describe, expect, it } from 'vitest';
import { parseFilter, parseOrderBy } from '#sandbox/filter/parse.js';
import type { FilterNode } from '#sandbox/filter/tree.js';
import { refusal } from './refusal.js';

const compare = (field: string, op: string, value: unknown) => ({ kind: 'compare', field, op, value });

describe('parseFilter', () => {
  it('reads each operator, case-insensitively', () => {
    for (const op of ['eq', 'ne', 'lk', 'gt', 'ge', 'lt', 'le']) {
      expect(parseFilter(`age ${op.toUpperCase()} 3`)).toEqual(compare('age', op, 3));
    }
  });

  it('reads literals: quoted text with doubled quotes, numbers, true, false, null', () => {
    expect(parseFilter("name eq 'O''Brien'")).toEqual(compare('name', 'eq', "O'Brien"));
    expect(parseFilter("name eq ''")).toEqual(compare('name', 'eq', ''));
    expect(parseFilter("name eq 'a and b or (c)'")).toEqual(compare('name', 'eq', 'a and b or (c)'));
    expect(parseFilter('n eq -12.5')).toEqual(compare('n', 'eq', -12.5));
    expect(parseFilter('n eq 1e3')).toEqual(compare('n', 'eq', 1000));
    expect(parseFilter('b eq TRUE')).toEqual(compare('b', 'eq', true));
    expect(parseFilter('b ne false')).toEqual(compare('b', 'ne', false));
    expect(parseFilter('endDate eq Null')).toEqual(compare('endDate', 'eq', null));
    expect(parseFilter("startDate ge '2020-01-31'")).toEqual(compare('startDate', 'ge', '2020-01-31'));
  });

  it('keeps dotted field names as written', () => {
    expect(parseFilter("address.City eq 'Utrecht'")).toEqual(compare('address.City', 'eq', 'Utrecht'));
  });

  it('binds and tighter than or', () => {
    const tree = parseFilter('a eq 1 or b eq 2 and c eq 3');
    expect(tree).toEqual({ kind: 'or', left: compare('a', 'eq', 1), right: { kind: 'and', left: compare('b', 'eq', 2), right: compare('c', 'eq', 3) } });
    const left = parseFilter('a eq 1 and b eq 2 or c eq 3');
    expect(left).toEqual({ kind: 'or', left: { kind: 'and', left: compare('a', 'eq', 1), right: compare('b', 'eq', 2) }, right: compare('c', 'eq', 3) });
  });

  it('groups with parentheses, nested and without spaces', () => {
    const tree: FilterNode = parseFilter('(a eq 1 or b eq 2)and((c eq 3))');
    expect(tree).toEqual({
      kind: 'and',
      left: { kind: 'or', left: compare('a', 'eq', 1), right: compare('b', 'eq', 2) },
      right: compare('c', 'eq', 3),
    });
  });

  it('reads chains left to right', () => {
    expect(parseFilter('a eq 1 or b eq 2 or c eq 3')).toEqual({
      kind: 'or',
      left: { kind: 'or', left: compare('a', 'eq', 1), right: compare('b', 'eq', 2) },
      right: compare('c', 'eq', 3),
    });
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ["name eq 'open", /position 9 has no closing quote/],
    ['name eq Jansen', /Expected a value.*'Jansen' at position 9.*quoted/],
    ['name equals 1', /Expected an operator.*'equals' at position 6/],
    ['name', /Expected an operator.*end of the filter/],
    ['name eq', /Expected a value.*end of the filter/],
    ['(a eq 1', /Expected '\)' to close the '\(' at position 1/],
    ['a eq 1)', /Unexpected '\)' at position 7.*without its/],
    ['a eq 1 b eq 2', /Unexpected 'b' at position 8.*'and' or 'or'/],
    ['a eq 1 and', /Expected a field name.*end of the filter/],
    ['and eq 1 or', /Expected a field name/],
    ["12 eq 'x'", /Expected a field name or '\('.*'12'/],
    ['a eq 2020-01-31', /'2020-01-31' at position 6.*quoted/],
    ['a-b eq 1', /Expected a field name.*'a-b'/],
    ['a eq 1e999', /Expected a value/],
  ])('refuses %j with a QueryError naming where', (text, pattern) => {
    const error = refusal(() => parseFilter(text));
    expect(error.parameter).toBe('filter');
    expect(error.message).toMatch(pattern);
  });
});

describe('parseOrderBy', () => {
  it('reads comma-separated fields with a leading minus for descending, dotted for nested', () => {
    expect(parseOrderBy('lastName,-dateOfBirth,address.city')).toEqual([
      { field: 'lastName', descending: false },
      { field: 'dateOfBirth', descending: true },
      { field: 'address.city', descending: false },
    ]);
  });

  it.each(['', 'a,', ',a', 'a b', '--a', 'a.', 'a;b', '-'])('refuses %j as orderBy', (text) => {
    const error = refusal(() => parseOrderBy(text));
    expect(error.parameter).toBe('orderBy');
    expect(error.message).toContain('comma-separated');
  });
});
