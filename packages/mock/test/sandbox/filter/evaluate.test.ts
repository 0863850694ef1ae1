// The in-memory evaluation of bound filters and sort keys: exactly the semantics in tree.ts.
import { describe, expect, it } from 'vitest';
import { filterFrom, orderFrom } from '#sandbox/filter/bind.js';
import { compareCodePoints, matches, pageOfSorted, sortDocs } from '#sandbox/filter/evaluate.js';
import { fieldTable } from '#sandbox/filter/fields.js';
import type { Doc } from '#sandbox/store/types.js';
import { CollectionScan } from '#sandbox/store/scan.js';
import { metadataFields, nested, scalars } from './fixtures/fields.js';

const table = new Map([...fieldTable(scalars), ...fieldTable(nested), ...fieldTable(metadataFields)]);

const docs: Doc[] = [
  { id: '1', lastName: 'Jansen', employeeNumber: 10, isActive: true, dateOfBirth: '1980-05-01', lastModified: '2024-01-01T12:00:00+01:00', gender: { key: 1, value: 'Man' }, address: { city: 'Utrecht' } },
  { id: '2', lastName: 'de Vries', employeeNumber: 2, isActive: false, dateOfBirth: '1991-12-31', lastModified: '2024-01-01T11:00:00Z', gender: { key: 2, value: 'Vrouw' }, address: null },
  { id: '3', lastName: 'JANSSEN', employeeNumber: null, dateOfBirth: null, lastModified: '2023-06-30T23:59:59.500Z' },
  { id: '4', lastName: null, employeeNumber: 7, isActive: true, address: { city: 'Den Haag' }, hourlyWage: 15.25 },
  { id: '5', employeeNumber: 'not a number', lastName: 42, hourlyWage: 9 },
];

const ids = (text: string) => docs.filter((doc) => matches(doc, filterFrom(text, table))).map((doc) => doc.id);
const order = (text: string) => sortDocs([...docs], orderFrom(text, table)).map((doc) => doc.id);

describe('matches', () => {
  it('compares text case-insensitively; lk is contains', () => {
    expect(ids("lastName eq 'JANSEN'")).toEqual(['1']);
    expect(ids("lastName lk 'jans'")).toEqual(['1', '3']);
    expect(ids("lastName lk 'ANS'")).toEqual(['1', '3']);
    expect(ids("lastName gt 'j'")).toEqual(['1', '3']);
    expect(ids("lastName lk ''")).toEqual(['1', '2', '3']);
  });

  it('null: eq null is null or missing, ne null is present; null never matches a non-null comparison except ne', () => {
    expect(ids('lastName eq null')).toEqual(['4', '5']);
    expect(ids('lastName ne null')).toEqual(['1', '2', '3']);
    expect(ids('employeeNumber eq null')).toEqual(['3', '5']);
    expect(ids('employeeNumber ne 10')).toEqual(['2', '3', '4', '5']);
    expect(ids('employeeNumber lt 100')).toEqual(['1', '2', '4']);
    expect(ids("address.city eq null")).toEqual(['2', '3', '5']);
    expect(ids("address.city ne 'utrecht'")).toEqual(['2', '3', '4', '5']);
  });

  it('compares numbers numerically and booleans', () => {
    expect(ids('employeeNumber ge 7')).toEqual(['1', '4']);
    expect(ids('hourlyWage gt 9.5')).toEqual(['4']);
    expect(ids('isActive eq true')).toEqual(['1', '4']);
    expect(ids('isActive ne true')).toEqual(['2', '3', '5']);
    expect(ids('isActive lt true')).toEqual(['2']);
  });

  it('compares dates as dates and date-times as instants', () => {
    expect(ids("dateOfBirth ge '1990-01-01'")).toEqual(['2']);
    expect(ids("lastModified eq '2024-01-01T11:00:00Z'")).toEqual(['1', '2']);
    expect(ids("lastModified lt '2024-01-01'")).toEqual(['3']);
    expect(ids("lastModified gt '2023-06-30T23:59:59Z'")).toEqual(['1', '2', '3']);
  });

  it('compares a metadata object by its key, and combines with and/or', () => {
    expect(ids('gender eq 2')).toEqual(['2']);
    expect(ids("gender.value eq 'man'")).toEqual(['1']);
    expect(ids("gender eq 1 or address.city lk 'haag' and isActive eq true")).toEqual(['1', '4']);
    expect(ids("(gender eq 1 or address.city lk 'haag') and employeeNumber gt 8")).toEqual(['1']);
  });

  it("matches 'in' exactly: no case folding, null for null or missing", () => {
    const field = { path: ['lastName'], type: 'string' as const };
    const pick = (values: (string | number | null)[]) => docs.filter((doc) => matches(doc, { kind: 'in', field, values })).map((doc) => doc.id);
    expect(pick(['Jansen', 'JANSEN'])).toEqual(['1']);
    expect(pick([null])).toEqual(['4']);
    // A repeated value is no null.
    expect(pick(['Jansen', 'Jansen'])).toEqual(['1']);
    expect(pick([42])).toEqual(['5']);
    expect(pick([])).toEqual([]);
    expect(matches(docs[0]!, { kind: 'true' })).toBe(true);
  });
});

describe('sortDocs', () => {
  it('orders text case-insensitively, nulls last ascending and first descending, ties by id', () => {
    expect(order('lastName')).toEqual(['2', '1', '3', '4', '5']);
    expect(order('-lastName')).toEqual(['4', '5', '3', '1', '2']);
    expect(order('isActive,-employeeNumber')).toEqual(['2', '1', '4', '3', '5']);
    expect(order('lastModified')).toEqual(['3', '1', '2', '4', '5']);
    expect(order('-address.city')).toEqual(['2', '3', '5', '1', '4']);
    expect(sortDocs([...docs].reverse()).map((doc) => doc.id)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('compares strings by code point, as PostgreSQL\'s "C" collation', () => {
    const astral = '\u{1F600}';
    const high = '\uFF01';
    expect(high < astral).toBe(false);
    expect(compareCodePoints(high, astral)).toBeLessThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('Z', 'a')).toBeLessThan(0);
  });
});

describe('pageOfSorted', () => {
  // Text around the surrogates (U+D800-DFFF) and above them, where UTF-16 order and code point order differ.
  const texts = ['a', 'B', '\uFF01', '\u{1F600}', '\uE000x', '\uD7FF', 'ab', '', 'Z\u{10000}', 'z'];
  const many: Doc[] = Array.from({ length: 200 }, (_, i) => ({
    id: `${texts[i % texts.length]}-${String((i * 37) % 200).padStart(3, '0')}`,
    lastName: i % 7 === 0 ? null : texts[(i * 3) % texts.length],
    employeeNumber: i % 5 === 0 ? null : (i * 13) % 17,
    isActive: i % 3 === 0,
  }));

  it('gives the rows of sortDocs\'s order, small pages picked without sorting every doc', () => {
    for (const orderBy of ['', 'lastName', '-lastName,employeeNumber', 'isActive,-employeeNumber', '-isActive,lastName,-employeeNumber']) {
      const keys = orderBy ? orderFrom(orderBy, table) : [];
      const sorted = sortDocs([...many].reverse(), keys).map((doc) => doc.id);
      for (const [offset, limit] of [[0, 1], [0, 25], [3, 7], [25, 25], [190, 25], [199, 1], [200, 5], [0, 200], [0, undefined], [10, undefined]] as const) {
        const page = pageOfSorted(many, keys, offset, limit).map((doc) => doc.id);
        expect(page, `orderBy '${orderBy}', offset ${offset}, limit ${limit}`).toEqual(sorted.slice(offset, limit === undefined ? undefined : offset + limit));
      }
    }
  });

  it('gives the same pages from an order a scan keeps as from sorting anew, with and without a filter', () => {
    const scan = new CollectionScan(many);
    for (const orderBy of ['', 'lastName', '-lastName,employeeNumber', '-isActive,lastName,-employeeNumber']) {
      const keys = orderBy ? orderFrom(orderBy, table) : [];
      for (const filter of [undefined, 'isActive eq true', "lastName lk 'a'", 'employeeNumber gt 100']) {
        const where = filter ? filterFrom(filter, table) : undefined;
        const matching = sortDocs(many.filter((doc) => !where || matches(doc, where)), keys).map((doc) => doc.id);
        for (const [offset, limit] of [[0, 1], [0, 25], [3, 7], [190, 25], [0, undefined]] as const) {
          // The first ask sorts as a one-off list would; the scan keeps the order from the second.
          for (let ask = 0; ask < 3; ask++) {
            const page = scan.find({ where, orderBy: keys, offset, limit, readOnly: true });
            expect(page.rows.map((doc) => doc.id), `orderBy '${orderBy}', filter ${filter}, offset ${offset}, limit ${limit}, ask ${ask}`).toEqual(matching.slice(offset, limit === undefined ? undefined : offset + limit));
            expect(page.total).toBe(matching.length);
          }
        }
      }
      expect(scan.orderOf(keys)).toBeInstanceOf(Int32Array);
    }
  });

  it('orders ids and text by code point, as sortDocs and PostgreSQL do', () => {
    const docsOf = (values: string[]) => values.map((id) => ({ id }));
    const values = ['\u{1F600}', '\uFF01', 'b', '\uE000', 'a'];
    expect(pageOfSorted(docsOf(values), [], 0, 1).map((doc) => doc.id)).toEqual(['a']);
    expect(pageOfSorted(docsOf([...values, ...texts.map((t) => `${t}!`)]), [], 0, 3).map((doc) => doc.id)).toEqual(['!', 'B!', 'Z\u{10000}!']);
    expect(pageOfSorted(docsOf(values), []).map((doc) => doc.id)).toEqual(['a', 'b', '\uE000', '\uFF01', '\u{1F600}']);
  });
});
