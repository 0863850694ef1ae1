// The bound filter tree and sort keys evaluated in memory (the memory store). sql.ts compiles
// the same trees for PostgreSQL; the two must agree row for row, which the property test in
// test/sandbox/store checks. The semantics are those written at the top of tree.ts.
import type { Doc } from '../store/types.js';
import type { BoundFilter, FieldInfo, FieldType, Literal, OrderKey } from './tree.js';

/** The raw JSON value at a path (undefined when any segment is missing). */
export function valueAt(doc: unknown, path: readonly string[]): unknown {
  let current = doc;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A value as it is compared: lower-cased string, number, boolean, date string, instant
 * (milliseconds), or null for null, missing and values of another JSON type than the field's. */
export type Comparable = string | number | boolean | null;

/** The ISO date-times both stores read (the same shape sql.ts's sandbox_instant accepts):
 * a 'T', seconds and up to 6 fraction digits optional, Z or +hh:mm optional. */
export const DATE_TIME_PATTERN =
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,6})?)?(Z|[+-](0\\d|1[0-4]):[0-5]\\d)?$';
const DATE_TIME = new RegExp(DATE_TIME_PATTERN);

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch of an ISO date-time (fractions below a millisecond dropped);
 * without an offset it is read as UTC. Null for anything else, including impossible dates. */
export function instantOf(text: string): number | null {
  if (!DATE_TIME.test(text)) return null;
  const year = Number(text.slice(0, 4));
  if (year === 0 || Number(text.slice(8, 10)) > daysInMonth(year, Number(text.slice(5, 7)))) return null;
  const hasZone = /(Z|[+-]\d{2}:\d{2})$/.test(text);
  return Date.parse(hasZone ? text : `${text}Z`);
}

export function comparableOf(value: unknown, type: FieldType): Comparable {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value.toLowerCase() : null;
    case 'date':
      return typeof value === 'string' ? value : null;
    case 'date-time':
      return typeof value === 'string' ? instantOf(value) : null;
    case 'integer':
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
  }
}

/** The literal of a bound compare in the same space as comparableOf's result. */
function comparableLiteral(value: Literal, type: FieldType): Comparable {
  if (value === null) return null;
  if (type === 'date-time' && typeof value === 'string') return instantOf(value);
  return value;
}

/** Strings by code point (as PostgreSQL's COLLATE "C" on UTF-8), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800-0xDFFF) stand for code points above 0xFFFF: move them above 0xE000-0xFFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Orders two non-null comparables of one field type. */
function compareValues(a: Exclude<Comparable, null>, b: Exclude<Comparable, null>): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  // Only reachable with a literal bind.ts did not convert; never equal, order by type name.
  return compareCodePoints(typeof a, typeof b);
}

type Matcher = (doc: Doc) => boolean;

/** A compare as a function of the doc, its literal converted once. */
function compareMatcher(filter: BoundFilter & { kind: 'compare' }): Matcher {
  const { path, type } = filter.field;
  const read = (doc: Doc) => comparableOf(valueAt(doc, path), type);
  const literal = comparableLiteral(filter.value, type);
  const op = filter.op;
  if (literal === null) {
    if (op === 'eq') return (doc) => read(doc) === null;
    if (op === 'ne') return (doc) => read(doc) !== null;
    return () => false;
  }
  if (op === 'lk') {
    return (doc) => {
      const actual = read(doc);
      return typeof actual === 'string' && typeof literal === 'string' && actual.includes(literal);
    };
  }
  const test = {
    eq: (order: number) => order === 0,
    ne: (order: number) => order !== 0,
    gt: (order: number) => order > 0,
    ge: (order: number) => order >= 0,
    lt: (order: number) => order < 0,
    le: (order: number) => order <= 0,
  }[op];
  return (doc) => {
    const actual = read(doc);
    // A null or missing value matches only ne.
    if (actual === null) return op === 'ne';
    return test(compareValues(actual, literal));
  };
}

/** Exact JSON equality of scalars, as jsonb's = (numbers by value); null for null or missing. */
function inMatcher(filter: BoundFilter & { kind: 'in' }): Matcher {
  const path = filter.field.path;
  const values = new Set<Literal>(filter.values.filter((value) => value !== null));
  const withNull = filter.values.includes(null);
  return (doc) => {
    const actual = valueAt(doc, path);
    if (actual === null || actual === undefined) return withNull;
    return values.has(actual as Literal);
  };
}

/** The filter as one function, to run over many docs. */
export function matcherOf(filter: BoundFilter): Matcher {
  switch (filter.kind) {
    case 'true':
      return () => true;
    case 'and': {
      const [left, right] = [matcherOf(filter.left), matcherOf(filter.right)];
      return (doc) => left(doc) && right(doc);
    }
    case 'or': {
      const [left, right] = [matcherOf(filter.left), matcherOf(filter.right)];
      return (doc) => left(doc) || right(doc);
    }
    case 'in':
      return inMatcher(filter);
    case 'compare':
      return compareMatcher(filter);
  }
}

export function matches(doc: Doc, filter: BoundFilter): boolean {
  return matcherOf(filter)(doc);
}

const ABOVE_SURROGATES_START = /[\uD800-\uFFFF]/;

/** A string whose UTF-16 order (JavaScript's <) is the code point order of `text` (compareCodePoints):
 * units from 0xD800 up are moved as compareCodePoints moves them. Most text has none and is returned as is. */
function codePointOrdered(text: string): string {
  if (!ABOVE_SURROGATES_START.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out += unit < 0xd800 ? text[i] : String.fromCharCode(unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);
  }
  return out;
}

/** A doc with its sort keys read once (strings made comparable with <), its id last. */
interface Keyed {
  doc: Doc;
  keys: (Exclude<Comparable, null> | null)[];
  id: string;
}

function keyedOf(doc: Doc, orderBy: readonly OrderKey[]): Keyed {
  const keys = new Array<Exclude<Comparable, null> | null>(orderBy.length);
  for (let i = 0; i < orderBy.length; i++) {
    const key = orderBy[i]!;
    const value = comparableOf(valueAt(doc, key.field.path), key.field.type);
    keys[i] = typeof value === 'string' ? codePointOrdered(value) : value;
  }
  return { doc, keys, id: codePointOrdered(doc.id) };
}

/** The order of sortDocs over keyed docs: a total order, ids being unique. */
function keyedComparator(orderBy: readonly OrderKey[]): (a: Keyed, b: Keyed) => number {
  const descending = orderBy.map((key) => key.descending);
  return (a, b) => {
    for (let i = 0; i < descending.length; i++) {
      const x = a.keys[i] ?? null;
      const y = b.keys[i] ?? null;
      if (x === y) continue;
      let order: number;
      if (x === null || y === null) order = x === null ? 1 : -1;
      else if (typeof x === 'string' && typeof y === 'string') order = x < y ? -1 : 1;
      else order = compareValues(x, y);
      if (order !== 0) return descending[i] ? -order : order;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** Sorts docs in place by the keys (nulls last ascending, first descending), then by id. */
export function sortDocs(docs: Doc[], orderBy: readonly OrderKey[] = []): Doc[] {
  const keyed = docs.map((doc) => keyedOf(doc, orderBy));
  keyed.sort(keyedComparator(orderBy));
  for (let i = 0; i < keyed.length; i++) docs[i] = keyed[i]!.doc;
  return docs;
}

/** docs[offset, offset + limit) in sortDocs's order. A page far smaller than the matches (25 of
 * 10,000) is picked with a bounded heap of the first offset + limit, not a sort of all of them. */
export function pageOfSorted(docs: readonly Doc[], orderBy: readonly OrderKey[] = [], offset = 0, limit?: number): Doc[] {
  if (offset >= docs.length || limit === 0) return [];
  const wanted = limit === undefined ? docs.length : Math.min(docs.length, offset + limit);
  const compare = keyedComparator(orderBy);
  let kept: Keyed[];
  if (wanted * 4 >= docs.length) {
    kept = docs.map((doc) => keyedOf(doc, orderBy));
    kept.sort(compare);
  } else {
    // A max-heap (the last of the kept docs on top) holding the first `wanted` docs seen so far.
    const heap: Keyed[] = [];
    for (const doc of docs) {
      const item = keyedOf(doc, orderBy);
      if (heap.length < wanted) {
        let at = heap.push(item) - 1;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (compare(heap[parent]!, item) >= 0) break;
          heap[at] = heap[parent]!;
          at = parent;
        }
        heap[at] = item;
      } else if (compare(item, heap[0]!) < 0) {
        let at = 0;
        for (;;) {
          const left = 2 * at + 1;
          if (left >= wanted) break;
          const right = left + 1;
          const larger = right < wanted && compare(heap[right]!, heap[left]!) > 0 ? right : left;
          if (compare(heap[larger]!, item) <= 0) break;
          heap[at] = heap[larger]!;
          at = larger;
        }
        heap[at] = item;
      }
    }
    kept = heap.sort(compare);
  }
  const end = Math.min(kept.length, wanted);
  const page = new Array<Doc>(end - offset);
  for (let i = offset; i < end; i++) page[i - offset] = kept[i]!.doc;
  return page;
}
