// One transaction of the PostgreSQL store (see store.ts): gets and lists answered from what it
// read before, from the collection cache, or by SQL; writes that keep what it knows current.
import type pg from 'pg';
import { CollectionScan, UniqueViolation, type Doc, type FindQuery, type ForeseenRead, type Page, type SqlDialect, type Tx } from '@payroll-api/sandbox/engine';
import type { CollectionCache, LoadedCollection } from '../collection-cache.js';
import type { Changes, CollectionVersions } from './collection-versions.js';
import { listAfterWrite, UPDATED_LIST_ROWS, type Known, type KnownList } from './known-docs.js';
import { listSql, openingSourceSql, type ListSql } from './list-sql.js';
import { RETURNING_DOC } from './schema.js';

/** What a transaction asks of its store. */
export interface TxHost {
  readonly collectionCache: CollectionCache | undefined;
  readonly sqlDialect: SqlDialect;
  readonly seedSandbox: string;
  smallInSeed(collection: string): boolean;
  collectionAt(source: string, collection: string): Promise<LoadedCollection | undefined>;
  listStatement(text: string): string | undefined;
  clashOf(collection: string): string | undefined;
  violation(error: unknown, collection: string): unknown;
}

/** A replace of the doc $3 by $4. */
const REPLACE = 'UPDATE sandbox_doc SET doc = $4 WHERE sandbox = $1 AND collection = $2 AND id = $3';

/**
 * A unique rule refused a replace sent without waiting (see PostgresTx.replace): the transaction
 * is undone, and its writer runs again in one whose checked writes are answered where they are
 * made, so that it meets the refusal there, as the memory store's writer does.
 */
export class DeferredClash extends Error {
  constructor(collection: string) {
    super(`A unique rule of ${collection} refused a write sent without waiting; the writer runs again.`);
    this.name = 'DeferredClash';
  }
}

/** What a transaction knows, per collection (see PostgresTx.known). */
export type KnownDocs = Map<string, Map<string, Known>>;

function knownOf(known: KnownDocs, collection: string): Map<string, Known> {
  let entries = known.get(collection);
  if (!entries) known.set(collection, (entries = new Map()));
  return entries;
}

/** A list query's key among what a transaction knows. */
const findKey = (sql: ListSql) => `find:${sql.text}\u0000${JSON.stringify(sql.values)}`;

type ListRow = { doc: string | null; total: string };

/** A list's answer noted as known, and each doc it holds as known too (a get or a replace of
 * it then needs no query): its rows as JSON text and its total. */
function noteList(known: KnownDocs, collection: string, sql: ListSql, query: FindQuery, result: pg.QueryResult<ListRow>): KnownList {
  const rows: string[] = [];
  for (const row of result.rows) if (row.doc !== null) rows.push(row.doc);
  const list: KnownList = sql.whole ? { rows, total: rows.length, whole: { where: query.where, orderBy: query.orderBy } } : { rows, total: Number(result.rows[0]!.total) };
  const entries = knownOf(known, collection);
  entries.set(findKey(sql), list);
  for (const text of rows) {
    const { id } = JSON.parse(text) as Doc;
    if (!entries.has(`get:${id}`)) entries.set(`get:${id}`, text);
  }
  return list;
}

/**
 * Sends the reads a write names before it opens (TransactionOptions.reads) right behind its
 * opening, on its round trip: each reads the sandbox's own rows once it has a state row, else
 * the seed's, as the opening's state says (both under the sandbox's lock). Answers, once the
 * opening told whose rows the transaction reads, what they found as the transaction knows it.
 */
export function sendForeseenReads(host: TxHost, client: pg.PoolClient, sandbox: string, reads: readonly ForeseenRead[]): Promise<(source: string) => KnownDocs> {
  const opening = { sandbox, seed: host.seedSandbox };
  const answers = reads.map((read) => {
    if ('id' in read) {
      return client.query<{ doc: string }>({
        name: 'sandbox_get_opening',
        text: `SELECT doc::text AS doc FROM sandbox_doc WHERE sandbox = ${openingSourceSql('$1', '$2')} AND collection = $3 AND id = $4`,
        values: [sandbox, host.seedSandbox, read.collection, read.id],
      });
    }
    const { text, values } = listSql(opening, read.collection, read.query, host.sqlDialect);
    return client.query<ListRow>({ name: host.listStatement(text), text, values });
  });
  return Promise.all(answers).then((results) => (source) => {
    const known: KnownDocs = new Map();
    reads.forEach((read, n) => {
      const result = results[n]!;
      if ('id' in read) knownOf(known, read.collection).set(`get:${read.id}`, (result.rows[0] as { doc: string } | undefined)?.doc ?? null);
      // Known under the key of the list the transaction makes (over its source).
      else noteList(known, read.collection, listSql(source, read.collection, read.query, host.sqlDialect), read.query, result as pg.QueryResult<ListRow>);
    });
    return known;
  });
}

export class PostgresTx implements Tx {
  private closed = false;
  /** Whether this transaction has written (the sandbox's updated_at is stamped at commit). */
  private wrote = false;
  /** Whether `meta` changed (written at commit). */
  private metaChanged = false;
  /** What this transaction has read or written, per collection: the same get or list again is
   * answered from here (its snapshot or its lock keeps it true) until it writes the collection.
   * A writer of a batch starts from a copy of what the writers before it left (the lock is held
   * throughout), and its copy is dropped with it when it fails. */
  private readonly known: KnownDocs;

  constructor(
    private readonly store: TxHost,
    private readonly client: pg.PoolClient,
    readonly sandbox: string,
    /** Whose rows this transaction reads: the seed's until the sandbox is materialized. */
    private source: string,
    private readonly writable: boolean,
    /** The sandbox's meta as this transaction sees it (read when it began). */
    private meta: Record<string, unknown>,
    /** A read's state, by its source and generation (Tx.version). */
    readonly version: string | undefined,
    /** The versions of the source's collections when the transaction began (the collection cache's keys). */
    private readonly versions: CollectionVersions | undefined,
    known?: ReadonlyMap<string, ReadonlyMap<string, Known>>,
    /** The changes of the writers before it in its batch. */
    changed?: Changes,
    /** Queries of its batch sent just before it (its savepoint): its first query rides on them;
     * they are answered by settle. */
    private readonly ahead: Promise<unknown>[] = [],
    /** Whether a replace checked by a unique rule may be sent without waiting too (a writer run
     * again after a DeferredClash answers each where it is made). */
    private readonly checksWait = false,
  ) {
    this.known = new Map([...(known ?? [])].map(([collection, entries]) => [collection, new Map(entries)]));
    this.changed = new Map([...(changed ?? [])].map(([collection, docs]) => [collection, new Map(docs)]));
  }

  /** Its batch's changes so far, per collection: the doc as stored by id, or null (removed). */
  private readonly changed: Map<string, Map<string, string | null>>;
  /** Replaces sent without waiting for their answer (see replace), in the order sent; `checked`:
   * a unique rule of its collection may refuse it. */
  private sent: Array<{ collection: string; id: string; checked: boolean; stored: Promise<string | undefined> }> = [];
  /** The collection whose unique rule refused a replace sent without waiting (see DeferredClash). */
  private clashIn: string | undefined;

  /** Whether a unique rule refused a replace sent without waiting: its writer must run again. */
  get clashed(): boolean {
    return this.clashIn !== undefined;
  }

  /** Whether queries of it are still on their way (see settle). */
  get unsettled(): boolean {
    return this.sent.length > 0 || this.ahead.length > 0;
  }

  /** Waits for its queries on their way and notes the docs they stored; throws the first failure
   * (the transaction is then undone, as if the write had thrown where it was made). */
  async settle(): Promise<void> {
    if (this.clashIn !== undefined) throw new DeferredClash(this.clashIn);
    const ahead = this.ahead.splice(0);
    if (ahead.length > 0) await Promise.all(ahead);
    await this.settleWrites();
  }

  /** Notes the docs of the replaces on their way as stored, once answered: what the transaction
   * knows is read after that. */
  private async settleWrites(): Promise<void> {
    if (this.sent.length === 0) return;
    const sent = this.sent;
    this.sent = [];
    // Every answer is waited for: a failure is thrown only once none of them is on its way.
    const outcomes = await Promise.allSettled(sent.map((write) => write.stored));
    const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (failed >= 0) {
      const reason = (outcomes[failed] as PromiseRejectedResult).reason as unknown;
      const { checked, collection } = sent[failed]!;
      if (checked && this.store.violation(reason, collection) instanceof UniqueViolation) this.clashIn = collection;
      throw this.clashIn === undefined ? reason : new DeferredClash(this.clashIn);
    }
    sent.forEach(({ collection, id }, n) => {
      const stored = (outcomes[n] as PromiseFulfilledResult<string | undefined>).value;
      if (stored === undefined) throw new Error(`Sandbox ${this.sandbox}: ${collection} ${id} was gone when replaced, though this transaction had read it under the sandbox's lock.`);
      this.noteWrite(collection, id, stored);
    });
  }

  close(): void {
    this.closed = true;
  }

  /** Whose rows it reads now (the sandbox's own once it wrote). */
  get reads(): string {
    return this.source;
  }

  /** The sandbox's meta as this transaction left it. */
  get metaNow(): Record<string, unknown> {
    return this.meta;
  }

  /** What it knows of the state it leaves (see known). */
  get knowledge(): ReadonlyMap<string, ReadonlyMap<string, Known>> {
    return this.known;
  }

  /** Its batch's changes, this writer's included. */
  get changes(): Changes {
    return this.changed;
  }

  /** Whether it wrote a doc. */
  get written(): boolean {
    return this.wrote;
  }

  /** Whether it changed the meta. */
  get metaWritten(): boolean {
    return this.metaChanged;
  }

  async count(): Promise<number> {
    this.check(false);
    await this.settleWrites();
    const result = await this.client.query<{ n: string }>({ name: 'sandbox_count', text: 'SELECT count(*) AS n FROM sandbox_doc WHERE sandbox = $1', values: [this.source] });
    return Number(result.rows[0]!.n);
  }

  async get(collection: string, id: string): Promise<Doc | undefined> {
    this.check(false);
    await this.settleWrites();
    const kept = this.keptScan(collection);
    if (kept) return kept.get(id);
    const key = `get:${id}`;
    let known = this.known.get(collection)?.get(key) as string | null | undefined;
    if (known === undefined) {
      const result = await this.client.query<{ doc: string }>({
        name: 'sandbox_get_text',
        text: 'SELECT doc::text AS doc FROM sandbox_doc WHERE sandbox = $1 AND collection = $2 AND id = $3',
        values: [this.source, collection, id],
      });
      known = result.rows[0]?.doc ?? null;
      this.remember(collection, key, known);
    }
    return known === null ? undefined : (JSON.parse(known) as Doc);
  }

  /** Whether the doc exists, as this transaction or the collection cache knows without a query. */
  private holds(collection: string, id: string): boolean {
    const known = this.known.get(collection)?.get(`get:${id}`);
    if (known !== undefined) return typeof known === 'string';
    const version = this.cachedVersion(collection);
    return version !== undefined && this.store.collectionCache?.scanOf(this.source, version, collection)?.has(id) === true;
  }

  /** The collection as the collection cache keeps it, when it may answer for it here (see
   * cachedVersion); asking counts towards loading it (see CollectionCache.scanFor). */
  private keptScan(collection: string): CollectionScan | undefined {
    const cache = this.store.collectionCache;
    const version = this.cachedVersion(collection);
    if (cache === undefined || version === undefined) return undefined;
    const { source } = this;
    // A write asks for (and so loads) small collections only: loading a large one costs more
    // than the round trips it would save a writer.
    if (this.writable && !this.store.smallInSeed(collection)) return cache.scanOf(source, version, collection);
    return cache.scanFor(source, version, collection, () => this.store.collectionAt(source, collection), !this.writable);
  }

  /** The collection's version, when the collection cache may answer for it here: in a read, and
   * in a write while its batch has neither changed the collection nor made the sandbox's first
   * copy (the sandbox's lock keeps the rest as committed). */
  private cachedVersion(collection: string): string | undefined {
    if (this.versions === undefined || this.versions.source !== this.source || this.changed.has(collection)) return undefined;
    return this.versions.of(collection);
  }

  private remember(collection: string, key: string, value: Known): void {
    knownOf(this.known, collection).set(key, value);
  }

  /** A write to the collection: what was read of it no longer holds, but the written doc (as
   * stored) does; and the change, for the collection cache (see PostgresStore.advanceCache). */
  private noteWrite(collection: string, id: string, json: string | null): void {
    const known = this.known.get(collection);
    // Gets of other docs still hold; lists of every match are brought up to date; pages are dropped.
    for (const [key, value] of known ?? []) {
      if (key.startsWith('get:')) continue;
      const list = value as KnownList;
      if (list.whole && list.rows.length < UPDATED_LIST_ROWS) known!.set(key, listAfterWrite(list as KnownList & { whole: FindQuery }, id, json));
      else known!.delete(key);
    }
    this.remember(collection, `get:${id}`, json);
    this.changesOf(collection).set(id, json);
  }

  private changesOf(collection: string): Map<string, string | null> {
    let changed = this.changed.get(collection);
    if (!changed) this.changed.set(collection, (changed = new Map()));
    return changed;
  }

  /** A list (see list-sql.ts), or what this transaction or the collection cache knows of it. */
  async find(collection: string, query: FindQuery = {}): Promise<Page> {
    this.check(false);
    await this.settleWrites();
    const kept = this.keptScan(collection);
    if (kept) return kept.find(query);
    const sql = listSql(this.source, collection, query, this.store.sqlDialect);
    let known = this.known.get(collection)?.get(findKey(sql)) as KnownList | undefined;
    if (known === undefined) {
      const result = await this.client.query<ListRow>({ name: this.store.listStatement(sql.text), text: sql.text, values: sql.values });
      known = noteList(this.known, collection, sql, query, result);
    }
    return { rows: known.rows.map((json) => JSON.parse(json) as Doc), total: known.total };
  }

  async insert(collection: string, doc: Doc): Promise<void> {
    await this.materialize();
    await this.settleWrites();
    const values = [this.sandbox, collection, doc.id, JSON.stringify(doc)];
    const insert = 'INSERT INTO sandbox_doc (sandbox, collection, id, doc) VALUES ($1, $2, $3, $4)';
    const inserted = await this.client.query<{ doc: string }>({ name: 'sandbox_insert', text: `${insert} ON CONFLICT DO NOTHING ${RETURNING_DOC}`, values });
    // Nothing inserted: run it again where it may fail, to learn which constraint it breaks.
    const stored = inserted.rows[0] ?? (await this.savepoint(collection, () => this.client.query<{ doc: string }>(`${insert} ${RETURNING_DOC}`, values))).rows[0]!;
    this.noteWrite(collection, doc.id, stored.doc);
  }

  async replace(collection: string, doc: Doc): Promise<boolean> {
    await this.materialize();
    const values = [this.sandbox, collection, doc.id, JSON.stringify(doc)];
    const checked = this.store.clashOf(collection) !== undefined;
    if ((!checked || !this.checksWait) && this.holds(collection, doc.id)) {
      // It exists (read under the sandbox's lock), so only a unique rule can refuse it: it is sent
      // without waiting, and its answer comes with the transaction's next query or its COMMIT
      // (settle). A refusal by a unique rule's index (no check in the statement) undoes the
      // transaction, and its writer runs again (DeferredClash); the COMMIT sent behind it then
      // meets an undone transaction and keeps nothing. Marked changed at once: the commit
      // records which collections were written.
      const stored = this.client.query<{ doc: string }>({ name: 'sandbox_replace', text: `${REPLACE} ${RETURNING_DOC}`, values }).then((result) => result.rows[0]?.doc);
      stored.catch(() => undefined);
      this.sent.push({ collection, id: doc.id, checked, stored });
      this.changesOf(collection).set(doc.id, values[3] as string);
      return true;
    }
    await this.settleWrites();
    const stored = await this.update(collection, values);
    // Not replaced: there is no such doc (what was known of the collection still holds).
    if (stored !== undefined) this.noteWrite(collection, doc.id, stored);
    return stored !== undefined;
  }

  /** Replaces the doc $3 with $4: the doc as stored, or undefined when there is none. */
  private async update(collection: string, values: unknown[]): Promise<string | undefined> {
    const update = REPLACE;
    const clash = this.store.clashOf(collection);
    if (clash === undefined) return (await this.client.query<{ doc: string }>({ name: 'sandbox_replace', text: `${update} ${RETURNING_DOC}`, values })).rows[0]?.doc;
    // The sandbox's lock is held, so no other writer can take a unique value between this check
    // and the update: the update applies unless it would clash. Then (rarely) it runs again in a
    // savepoint, where the index names the rule and the transaction stays usable.
    const checked = await this.client.query<{ doc: string }>({
      name: `sandbox_replace_${collection}`,
      text: `${update} AND NOT EXISTS (SELECT 1 FROM sandbox_doc other WHERE other.sandbox = $1 AND other.id <> $3 AND (${clash})) ${RETURNING_DOC}`,
      values,
    });
    if (checked.rowCount === 1) return checked.rows[0]!.doc;
    return (await this.savepoint(collection, () => this.client.query<{ doc: string }>(`${update} ${RETURNING_DOC}`, values))).rows[0]?.doc;
  }

  async remove(collection: string, id: string): Promise<boolean> {
    await this.materialize();
    await this.settleWrites();
    const result = await this.client.query({
      name: 'sandbox_remove',
      text: 'DELETE FROM sandbox_doc WHERE sandbox = $1 AND collection = $2 AND id = $3',
      values: [this.sandbox, collection, id],
    });
    this.noteWrite(collection, id, null);
    return result.rowCount === 1;
  }

  async getMeta<T = unknown>(key: string): Promise<T | undefined> {
    this.check(false);
    return Object.hasOwn(this.meta, key) ? (JSON.parse(JSON.stringify(this.meta[key])) as T) : undefined;
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    await this.materialize();
    this.meta = { ...this.meta };
    if (value === undefined) delete this.meta[key];
    else this.meta[key] = JSON.parse(JSON.stringify(value));
    this.metaChanged = true;
  }

  /** Runs a write that may break a unique index so that the transaction stays usable. */
  private async savepoint<R>(collection: string, run: () => Promise<R>): Promise<R> {
    await this.client.query('SAVEPOINT sandbox_write');
    try {
      const result = await run();
      await this.client.query('RELEASE SAVEPOINT sandbox_write');
      return result;
    } catch (error) {
      await this.client.query('ROLLBACK TO SAVEPOINT sandbox_write');
      throw this.store.violation(error, collection);
    }
  }

  /** Before the first write: the sandbox gets its own copy of the seed (the advisory lock is held). */
  private async materialize(): Promise<void> {
    this.check(true);
    this.wrote = true;
    if (this.source === this.sandbox) return;
    await this.client.query(
      `INSERT INTO sandbox_doc (sandbox, collection, id, doc) SELECT $1, collection, id, doc FROM sandbox_doc WHERE sandbox = $2`,
      [this.sandbox, this.store.seedSandbox],
    );
    await this.client.query(`INSERT INTO sandbox_state (sandbox, meta, updated_at) VALUES ($1, $2, now())`, [this.sandbox, JSON.stringify(this.meta)]);
    this.source = this.sandbox;
  }

  private check(write: boolean): void {
    // A writer that caught the clash goes no further: it runs again (see DeferredClash).
    if (this.clashIn !== undefined) throw new DeferredClash(this.clashIn);
    if (this.closed) throw new Error('The transaction has ended; use the Tx of the running transaction.');
    if (write && !this.writable) throw new Error(`Sandbox ${this.sandbox}: a read transaction cannot write.`);
  }
}
