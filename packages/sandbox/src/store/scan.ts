// A collection as a list reads it, and the find a list runs over it. The memory store keeps one
// per committed collection; the PostgreSQL store of @payroll-api/mock keeps some in its
// collection cache. Both answer a find here, so they agree with each other by construction.
import { comparableOf, matcherOf, pageOfSorted, readerOf, sortedPositions, type Comparable, type ScanColumns } from '../filter/evaluate.js';
import type { FieldInfo, OrderKey } from '../filter/tree.js';
import { cloneJson, freezeJson } from './clone.js';
import type { Doc, FindQuery, Page } from './types.js';

/** Orders a scan keeps (each an Int32Array of its docs' positions). */
const KEPT_ORDERS = 8;

/** A collection's docs in an array and, on demand, the values of the fields its filters and
 * orderBy read, one array per field (see ScanColumns). The docs are never changed. */
export class CollectionScan implements ScanColumns {
  readonly docs: readonly Doc[];
  private readonly columns = new Map<string, unknown[]>();
  /** The orders lists have asked for: null once asked, the positions from the second ask on. */
  private readonly orders = new Map<string, Int32Array | null>();
  private byId: Map<string, Doc> | undefined;

  constructor(docs: Iterable<Doc>) {
    this.docs = [...docs];
  }

  raw(path: readonly string[]): readonly unknown[] {
    return this.column(`raw\u0000${path.join('\u0000')}`, readerOf(path));
  }

  comparable(field: FieldInfo): readonly Comparable[] {
    const read = readerOf(field.path);
    return this.column(`${field.type}\u0000${field.path.join('\u0000')}`, (doc) => comparableOf(read(doc), field.type)) as Comparable[];
  }

  /**
   * Every position in the order `orderBy` gives (then by id), kept from the second list that asks
   * for it: a scan read once (a transaction's own, after its write) is not sorted whole, and a
   * shared one is sorted once per order for all the lists that follow. A few orders are kept.
   */
  orderOf(orderBy: readonly OrderKey[]): Int32Array | undefined {
    const key = orderBy.map((term) => `${term.descending ? '-' : '+'}${term.field.type}\u0000${term.field.path.join('\u0000')}`).join('\u0001');
    const known = this.orders.get(key);
    if (known) return known;
    if (known === undefined) {
      if (this.orders.size >= KEPT_ORDERS) this.orders.delete(this.orders.keys().next().value as string);
      this.orders.set(key, null);
      return undefined;
    }
    const order = sortedPositions(this.docs, orderBy, this);
    this.orders.set(key, order);
    return order;
  }

  /** A copy of the doc with this id. */
  get(id: string): Doc | undefined {
    const doc = this.docById().get(id);
    return doc === undefined ? undefined : cloneJson(doc);
  }

  /** Whether it holds a doc with this id (nothing copied). */
  has(id: string): boolean {
    return this.docById().has(id);
  }

  private docById(): Map<string, Doc> {
    if (!this.byId) this.byId = new Map(this.docs.map((doc) => [doc.id, doc]));
    return this.byId;
  }

  /** The matching docs' page, copied (or frozen when only read), and their total. */
  find(query: FindQuery = {}): Page {
    let positions: number[] | undefined;
    if (query.where) {
      const matches = matcherOf(query.where, this);
      positions = [];
      for (let i = 0; i < this.docs.length; i++) if (matches(this.docs[i]!, i)) positions.push(i);
    }
    // Only the page's rows are ordered in full and copied.
    const rows = pageOfSorted(this.docs, query.orderBy, query.offset ?? 0, query.limit, { positions, columns: this });
    const handOut = query.readOnly ? freezeJson : cloneJson;
    for (let i = 0; i < rows.length; i++) rows[i] = handOut(rows[i]!);
    return { rows, total: positions ? positions.length : this.docs.length };
  }

  private column(key: string, read: (doc: Doc) => unknown): unknown[] {
    let values = this.columns.get(key);
    if (!values) {
      values = new Array<unknown>(this.docs.length);
      for (let i = 0; i < this.docs.length; i++) values[i] = read(this.docs[i]!);
      this.columns.set(key, values);
    }
    return values;
  }
}
