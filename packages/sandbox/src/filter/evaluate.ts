// The bound filter tree and sort keys evaluated in memory (the memory store). sql.ts compiles
// the same trees for PostgreSQL; the two must agree row for row, which the property test in
// test/sandbox/store checks. The semantics are those written at the top of tree.ts.
import type { BoundFilter, Doc, FieldInfo, FieldType, Literal, OrderKey } from './tree.js';
import { daysInMonth } from '../util/dates.js';

/** The raw JSON value at a path (undefined when any segment is missing). */
export function valueAt(doc: unknown, path: readonly string[]): unknown {
  let current = doc;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** valueAt for one path, as a function (lists read the same path of every doc). */
export function readerOf(path: readonly string[]): (doc: unknown) => unknown {
  if (path.length === 1) {
    const [first] = path as [string];
    return (doc) => (doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>)[first] : undefined);
  }
  if (path.length === 2) {
    const [first, second] = path as [string, string];
    return (doc) => {
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
      const inner = (doc as Record<string, unknown>)[first];
      return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>)[second] : undefined;
    };
  }
  return (doc) => valueAt(doc, path);
}

/** A value as it is compared: lower-cased string, number, boolean, date string, instant
 * (milliseconds), or null for null, missing and values of another JSON type than the field's. */
export type Comparable = string | number | boolean | null;

/** The ISO date-times both stores read (the same shape sql.ts's sandbox_instant accepts):
 * a 'T', seconds and up to 6 fraction digits optional, Z or +hh:mm optional. */
export const DATE_TIME_PATTERN =
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,6})?)?(Z|[+-](0\\d|1[0-4]):[0-5]\\d)?$';
const DATE_TIME = new RegExp(DATE_TIME_PATTERN);

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

/** The collation strings are ordered with: Dutch (CLDR's, ICU tertiary strength, so 'Éclair'
 * comes before 'Zon'), ties broken by code point. The PostgreSQL store orders with the matching
 * ICU collation (sql.ts's SqlDialect.orderCollation, "nl-x-icu"), which breaks ties the same way.
 * The contract names no collation: the description marks the choice as a contract gap. */
export const ORDER_LOCALE = 'nl';
const DUTCH = new Intl.Collator(ORDER_LOCALE);
export function compareText(a: string, b: string): number {
  return DUTCH.compare(a, b) || compareCodePoints(a, b);
}

/** Orders two non-null comparables of one field type. */
function compareValues(a: Exclude<Comparable, null>, b: Exclude<Comparable, null>): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  // Only reachable with a literal bind.ts did not convert; never equal, order by type name.
  return compareCodePoints(typeof a, typeof b);
}

/** The values of fields for every doc of a scan, by the doc's position in it: as stored (raw)
 * or as compared (comparableOf). The memory store keeps them per committed collection, so that
 * a list reads arrays of values rather than every doc's nested objects. */
export interface ScanColumns {
  raw(path: readonly string[]): readonly unknown[];
  comparable(field: FieldInfo): readonly Comparable[];
  /** Every position in sortDocs's order by `orderBy`, when the scan keeps it (see CollectionScan). */
  orderOf?(orderBy: readonly OrderKey[]): Int32Array | undefined;
}

/** Reads one field of a doc at a position of a scan: from its column, or from the doc itself. */
type Read<T> = (doc: Doc, position: number) => T;

function rawRead(path: readonly string[], columns: ScanColumns | undefined): Read<unknown> {
  if (columns) {
    const column = columns.raw(path);
    return (_doc, position) => column[position];
  }
  return readerOf(path);
}

function comparableRead(field: FieldInfo, columns: ScanColumns | undefined): Read<Comparable> {
  if (columns) {
    const column = columns.comparable(field);
    return (_doc, position) => column[position]!;
  }
  const value = readerOf(field.path);
  return (doc) => comparableOf(value(doc), field.type);
}

type Matcher = (doc: Doc, position: number) => boolean;

/** A compare as a function of the doc, its literal converted once. */
function compareMatcher(filter: BoundFilter & { kind: 'compare' }, columns: ScanColumns | undefined): Matcher {
  const read = comparableRead(filter.field, columns);
  const literal = comparableLiteral(filter.value, filter.field.type);
  const op = filter.op;
  if (literal === null) {
    if (op === 'eq') return (doc, position) => read(doc, position) === null;
    if (op === 'ne') return (doc, position) => read(doc, position) !== null;
    return () => false;
  }
  if (op === 'lk') {
    return (doc, position) => {
      const actual = read(doc, position);
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
  return (doc, position) => {
    const actual = read(doc, position);
    // A null or missing value matches only ne.
    if (actual === null) return op === 'ne';
    return test(compareValues(actual, literal));
  };
}

/** Exact JSON equality of scalars, as jsonb's = (numbers by value); null for null or missing. */
function inMatcher(filter: BoundFilter & { kind: 'in' }, columns: ScanColumns | undefined): Matcher {
  const read = rawRead(filter.field.path, columns);
  const values = new Set<Literal>(filter.values.filter((value) => value !== null));
  const withNull = filter.values.includes(null);
  return (doc, position) => {
    const actual = read(doc, position);
    if (actual === null || actual === undefined) return withNull;
    return values.has(actual as Literal);
  };
}

/** The filter as one function, to run over many docs (by their positions in `columns` when given). */
export function matcherOf(filter: BoundFilter, columns?: ScanColumns): Matcher {
  switch (filter.kind) {
    case 'true':
      return () => true;
    case 'and': {
      const [left, right] = [matcherOf(filter.left, columns), matcherOf(filter.right, columns)];
      return (doc, position) => left(doc, position) && right(doc, position);
    }
    case 'or': {
      const [left, right] = [matcherOf(filter.left, columns), matcherOf(filter.right, columns)];
      return (doc, position) => left(doc, position) || right(doc, position);
    }
    case 'in':
      return inMatcher(filter, columns);
    case 'compare':
      return compareMatcher(filter, columns);
  }
}

export function matches(doc: Doc, filter: BoundFilter): boolean {
  return matcherOf(filter)(doc, 0);
}

/** A doc with its sort keys read once. */
interface Keyed {
  doc: Doc;
  position: number;
  keys: Comparable[];
}

/** The keyed doc, written into `into` when given (the heap below reuses what it drops). */
function keyedOf(doc: Doc, position: number, reads: readonly Read<Comparable>[], into?: Keyed): Keyed {
  const keyed = into ?? { doc, position, keys: new Array<Comparable>(reads.length) };
  keyed.doc = doc;
  keyed.position = position;
  for (let i = 0; i < reads.length; i++) keyed.keys[i] = reads[i]!(doc, position);
  return keyed;
}

/** The order of sortDocs over keyed docs: a total order, ids being unique. */
function keyedComparator(orderBy: readonly OrderKey[]): (a: Keyed, b: Keyed) => number {
  const descending = orderBy.map((key) => key.descending);
  return (a, b) => {
    for (let i = 0; i < descending.length; i++) {
      const x = a.keys[i]!;
      const y = b.keys[i]!;
      if (x === y) continue;
      const order = x === null ? 1 : y === null ? -1 : compareValues(x, y);
      if (order !== 0) return descending[i] ? -order : order;
    }
    return a.doc.id === b.doc.id ? 0 : compareCodePoints(a.doc.id, b.doc.id);
  };
}

/** Sorts docs in place by the keys (nulls last ascending, first descending), then by id. */
export function sortDocs(docs: Doc[], orderBy: readonly OrderKey[] = []): Doc[] {
  const reads = orderBy.map((key) => comparableRead(key.field, undefined));
  const keyed = docs.map((doc, position) => keyedOf(doc, position, reads));
  keyed.sort(keyedComparator(orderBy));
  for (let i = 0; i < keyed.length; i++) docs[i] = keyed[i]!.doc;
  return docs;
}

/** Every position of `docs` in sortDocs's order (the columns' values when given). */
export function sortedPositions(docs: readonly Doc[], orderBy: readonly OrderKey[], columns?: ScanColumns): Int32Array {
  const reads = orderBy.map((key) => comparableRead(key.field, columns));
  const keyed = new Array<Keyed>(docs.length);
  for (let i = 0; i < docs.length; i++) keyed[i] = keyedOf(docs[i]!, i, reads);
  keyed.sort(keyedComparator(orderBy));
  const order = new Int32Array(keyed.length);
  for (let i = 0; i < keyed.length; i++) order[i] = keyed[i]!.position;
  return order;
}

/** Rows [offset, wanted) of the docs at `positions` (all when absent), read off their order. */
function pageInOrder(docs: readonly Doc[], order: Int32Array, positions: readonly number[] | undefined, offset: number, wanted: number): Doc[] {
  const page: Doc[] = [];
  if (!positions) {
    for (let i = offset; i < wanted; i++) page.push(docs[order[i]!]!);
    return page;
  }
  const chosen = new Uint8Array(docs.length);
  for (let i = 0; i < positions.length; i++) chosen[positions[i]!] = 1;
  let seen = 0;
  for (let i = 0; i < order.length && seen < wanted; i++) {
    if (chosen[order[i]!] === 0) continue;
    if (seen >= offset) page.push(docs[order[i]!]!);
    seen++;
  }
  return page;
}

/** Which docs of a scan a page is chosen from: their positions (all when absent), and the scan's columns. */
export interface Chosen {
  positions?: readonly number[];
  columns: ScanColumns;
}

/** Rows [offset, offset + limit) in sortDocs's order of `docs` (or of the docs at `chosen`'s
 * positions). A page far smaller than the matches (25 of 10,000) is picked with a bounded heap of
 * the first offset + limit, not a sort of all of them. */
export function pageOfSorted(docs: readonly Doc[], orderBy: readonly OrderKey[] = [], offset = 0, limit?: number, chosen?: Chosen): Doc[] {
  const positions = chosen?.positions;
  const count = positions ? positions.length : docs.length;
  if (offset >= count || limit === 0) return [];
  const wanted = limit === undefined ? count : Math.min(count, offset + limit);
  const order = chosen?.columns.orderOf?.(orderBy);
  if (order) return pageInOrder(docs, order, positions, offset, wanted);
  const compare = keyedComparator(orderBy);
  const reads = orderBy.map((key) => comparableRead(key.field, chosen?.columns));
  const keyedAt = (i: number, into?: Keyed): Keyed => {
    const position = positions ? positions[i]! : i;
    return keyedOf(docs[position]!, position, reads, into);
  };
  let kept: Keyed[];
  if (wanted * 4 >= count) {
    kept = new Array<Keyed>(count);
    for (let i = 0; i < count; i++) kept[i] = keyedAt(i);
    kept.sort(compare);
  } else {
    // A max-heap (the last of the kept docs on top) holding the first `wanted` docs seen so far.
    const heap: Keyed[] = [];
    let spare: Keyed | undefined;
    for (let i = 0; i < count; i++) {
      const item = keyedAt(i, spare);
      spare = undefined;
      if (heap.length < wanted) {
        let at = heap.push(item) - 1;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (compare(heap[parent]!, item) >= 0) break;
          heap[at] = heap[parent]!;
          at = parent;
        }
        heap[at] = item;
      } else if (compare(item, heap[0]!) >= 0) {
        spare = item;
      } else {
        spare = heap[0];
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
