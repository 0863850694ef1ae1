// The PostgreSQL store (--database-url): several sandbox processes share one database.
// Every doc is a row (sandbox, collection, id, doc jsonb). The seed is stored once, as the
// sandbox `__seed:<hash of the seed>`; a sandbox that has only read has no rows and reads the
// seed's; its first write copies the seed's rows inside that write's transaction.
// The database decides: write transactions on one sandbox hold a transaction-scoped advisory
// lock on it (across processes), and each UniqueRule is a partial unique expression index,
// whose violation (23505) becomes a UniqueViolation naming the rule.
// Round trips are what a request costs here (see tools/bench/README.md): a transaction opens
// with one (begin, lock, the sandbox's state and meta), meta is read once and written with the
// commit, a replace checks its unique rules inside its UPDATE, and a list carries only the
// page's docs, a relation field is indexed per collection. Writes on one sandbox queue in this
// process before taking a connection, and those that queued together commit together
// (WriteBatches); reads that arrive together share one opening (ReadRounds); a read's COMMIT
// rides on the connection's next query (openReads). Connections pipeline: queries made
// together cost one round trip, and a replace of a doc the transaction knows exists is sent
// without waiting, the last writer's with the COMMIT (PostgresTx.settle); its unique rules are
// then decided by their indexes, and a writer they refuse runs again (DeferredClash).
// The parts: connection.ts (connections and protocol), write-batches.ts and read-rounds.ts
// (transactions and group commit), list-sql.ts and indexes.ts (SQL), transaction.ts (a Tx),
// collection-versions.ts and known-docs.ts (the collection cache's hooks), schema.ts (tables).
import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  DATE_TIME_PATTERN,
  instantFunctionSql,
  type SqlDialect,
  type CollectionSpec,
  type SandboxInfo,
  type Snapshot,
  type Doc,
  isStoreUnavailable,
  type Store,
  type StoreOptions,
  type Tx,
  type TransactionOptions,
  type UniqueRule,
  type ForeseenRead,
} from '@payroll-api/sandbox/engine';
import { CollectionCache, type LoadedCollection } from '../collection-cache.js';
import { removeIfIdle } from '../idle-reset.js';
import { CollectionVersions, generationsAfter, recordedVersions, type Changes } from './collection-versions.js';
import { OPEN_READ_MS, pipelineQueries, openTransaction, STATE_COLUMNS, unreachable, type RoundTrips, type StateRow } from './connection.js';
import { DocIndexes } from './indexes.js';
import { ListStatements } from './list-sql.js';
import { ReadRounds, type OpenedRound } from './read-rounds.js';
import { ANALYZE_AFTER, FORMAT, insertDocs, insertedDocs, LOCK_SPACE, lockSandbox, SCHEMA, SCHEMA_LOCK } from './schema.js';
import { PostgresTx, sendForeseenReads, type KnownDocs, type TxHost } from './transaction.js';
import { commitWrites, WriteBatches, type Writer } from './write-batches.js';


export interface PostgresStoreOptions extends StoreOptions {
  databaseUrl: string;
  /** Connections this process keeps at most (default 10). */
  poolSize?: number;
  /** Told of every failed store operation: 'unavailable' (the database cannot be reached) or 'error'. */
  onError?: (kind: 'unavailable' | 'error') => void;
  /** What the collections kept parsed for lists may add up to, as JSON (see CollectionCache);
   * 0 keeps none. Default 64 MiB. */
  collectionCacheBytes?: number;
}

const DEFAULT_COLLECTION_CACHE_BYTES = 64 * 1024 * 1024;
/** The largest seed collection (as JSON) a write loads into the collection cache. */
const WRITE_LOADS_UP_TO = 32 * 1024;

/** What the writers of a batch hand on to the next (see writeBatch). */
interface Shared {
  source: string;
  meta: Record<string, unknown>;
  wrote: boolean;
  metaChanged: boolean;
  known: PostgresTx['knowledge'];
  versions: CollectionVersions | undefined;
  changes: Changes;
}

export class PostgresStore implements Store, TxHost {
  private readonly pool: pg.Pool;
  private readonly seedId: string;
  private readonly indexes = new DocIndexes(() => this.dialect);
  /** Idle connections whose last read's transaction is still open: its COMMIT goes in front of
   * the next BEGIN on the connection (one round trip less per read), or within
   * OPEN_READ_MS when the connection stays idle (an open snapshot holds back vacuum). */
  private readonly openReads = new Set<pg.PoolClient>();
  private readonly commitIdle = setInterval(() => {
    for (const client of this.openReads) client.query('COMMIT').catch(() => undefined);
    this.openReads.clear();
  }, OPEN_READ_MS);
  private readonly writers = new WriteBatches((sandbox, batch) => this.writeBatch(sandbox, batch));
  private readonly readers = new ReadRounds((sandbox) => this.openRound(sandbox));
  private readonly listStatements = new ListStatements();
  private dialect: SqlDialect = { foldCollation: '', orderCollation: ' COLLATE "C"' };
  /** Collections read often, parsed, for the finds and gets of reads (undefined: none kept). */
  readonly collectionCache: CollectionCache | undefined;
  private readonly trips: RoundTrips = { count: 0 };
  /** JSON size of the seed's docs, by collection (see smallInSeed). */
  private readonly seedSizes = new Map<string, number>();

  private constructor(
    private readonly options: PostgresStoreOptions,
    readonly collections: readonly CollectionSpec[],
  ) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10,
      options: '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan',
      // The queries a transaction makes together go out together (see pipelineQueries).
      pipeline: true,
      // A database that does not answer makes requests fail (503) instead of wait.
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection that breaks must not take the process down; the next query reports it.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => {
      pipelineQueries(client, this.trips);
      // A connection lost while checked out (between two queries of a transaction) says so on
      // its next query, which then fails (503); the event itself must not be an uncaught error.
      client.on('error', () => undefined);
    });
    this.commitIdle.unref?.();
    const hash = createHash('sha256').update(JSON.stringify(options.seed)).digest('hex').slice(0, 24);
    this.seedId = `__seed:${hash}`;
    const cacheBytes = options.collectionCacheBytes ?? DEFAULT_COLLECTION_CACHE_BYTES;
    this.collectionCache = cacheBytes > 0 ? new CollectionCache(cacheBytes) : undefined;
  }

  /** Connects, creates what is missing (safe with several processes starting at once) and stores the seed once. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options, options.collections);
    try {
      await store.prepare();
    } catch (error) {
      clearInterval(store.commitIdle);
      await store.pool.end();
      throw error;
    }
    return store;
  }

  private async prepare(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_SPACE, SCHEMA_LOCK]);
      const icu = await client.query<{ collname: string }>(`SELECT collname FROM pg_collation WHERE collname IN ('und-x-icu', 'nl-x-icu')`);
      const has = (name: string) => icu.rows.some((row) => row.collname === name);
      // The order's collation: Dutch where the server has it (root ICU orders Latin text alike), as the memory store orders.
      const order = has('nl-x-icu') ? 'nl-x-icu' : has('und-x-icu') ? 'und-x-icu' : 'C';
      this.dialect = { foldCollation: has('und-x-icu') ? ' COLLATE "und-x-icu"' : '', orderCollation: ` COLLATE "${order}"` };
      await client.query(SCHEMA);
      await client.query(instantFunctionSql(DATE_TIME_PATTERN));
      for (const spec of this.collections) {
        for (const rule of spec.unique ?? []) await client.query(this.indexes.uniqueIndexSql(spec.name, rule));
        // The lists and rules that follow a relation select by its field (an id is the key already).
        for (const field of new Set((spec.relations ?? []).map((relation) => relation.field).filter((field) => field !== 'id'))) {
          await client.query(this.indexes.relationIndexSql(spec.name, field));
        }
      }
      // Rules and relations that are no longer declared lose their indexes.
      const existing = await client.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'sandbox_doc' AND (indexname LIKE 'sandbox\\_unique\\_%' OR indexname LIKE 'sandbox\\_by\\_%')`,
      );
      for (const { name } of existing.rows) if (!this.indexes.declares(name)) await client.query(`DROP INDEX ${name}`);
      const seeded = await client.query('SELECT 1 FROM sandbox_state WHERE sandbox = $1', [this.seedId]);
      if (!seeded.rowCount) {
        await insertDocs(client, this.seedId, this.options.seed.collections);
        await client.query('INSERT INTO sandbox_state (sandbox, meta, updated_at) VALUES ($1, $2, now())', [this.seedId, this.options.seed.meta ?? {}]);
        // Statistics of the seed's rows and the indexes' expressions from the start: without
        // them the planner guesses, and picks the wrong relation index for a list.
        await client.query('ANALYZE sandbox_doc');
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The name to prepare a list query's text under (see ListStatements). */
  listStatement(text: string): string | undefined {
    return this.listStatements.nameOf(text);
  }

  clashOf(collection: string): string | undefined {
    return this.indexes.clashOf(collection);
  }

  violation(error: unknown, collection: string): unknown {
    return this.indexes.violation(error, collection);
  }

  rulesOf(collection: string): UniqueRule[] {
    return this.collections.find((spec) => spec.name === collection)?.unique ?? [];
  }

  get sqlDialect(): SqlDialect {
    return this.dialect;
  }

  get seedSandbox(): string {
    return this.seedId;
  }

  get seedMeta(): Record<string, unknown> {
    return this.options.seed.meta ?? {};
  }

  async transaction<T>(sandbox: string, mode: 'read' | 'write', fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (mode === 'write') {
      return this.writers.run(sandbox, fn, options.reads).catch((error: unknown) => {
        // A writer's own query can fail on a lost connection before the batch notices: the
        // raw error is an outage all the same (503), never a 500.
        if (isStoreUnavailable(error) || !isStoreUnavailable(unreachable(error))) throw error;
        throw this.failed(error);
      });
    }
    const round = this.readers.join(sandbox);
    let broken = false;
    try {
      const { client, state } = await round.opened;
      const { source, meta, generation, versions } = this.stateOf(sandbox, state);
      // A read sees one state of the database: its source's generation names it (see SCHEMA).
      const tx = new PostgresTx(this, client, sandbox, source, false, meta, generation === undefined ? undefined : `${source}#${generation}`, versions);
      try {
        return await fn(tx);
      } finally {
        tx.close();
      }
    } catch (error) {
      const mapped = unreachable(error);
      if (!isStoreUnavailable(mapped)) throw error;
      broken = true;
      // A failed opening was reported once, by the round.
      throw round.openingFailed ? mapped : this.failed(error);
    } finally {
      // The last reader of a round hands its connection back; the read's COMMIT goes with the
      // connection's next query (see openReads).
      round.leave(broken, (client, lost) => {
        if (!lost) this.openReads.add(client);
        client.release(lost);
      });
    }
  }

  /** A read round's connection and its transaction, begun with the sandbox's and the seed's state. */
  private async openRound(sandbox: string): Promise<OpenedRound> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failed(error);
    }
    try {
      return { client, state: await openTransaction(client, sandbox, this.seedId, false, this.openReads.delete(client)) };
    } catch (error) {
      // In an unknown state: the connection goes, not back to the pool.
      client.release(true);
      throw isStoreUnavailable(unreachable(error)) ? this.failed(error) : error;
    }
  }

  /** Whose rows a transaction reads (the seed's until the sandbox is materialized), the meta it
   * sees, the generation of that state and the versions of its collections. */
  private stateOf(sandbox: string, state: StateRow[]): { source: string; meta: Record<string, unknown>; generation: string | undefined; versions: CollectionVersions | undefined } {
    const own = state.find((row) => row.sandbox === sandbox);
    const seedRow = state.find((row) => row.sandbox === this.seedId);
    const row = own ?? seedRow;
    return { source: own ? sandbox : this.seedId, meta: own?.meta ?? seedRow?.meta ?? this.seedMeta, generation: row?.generation, versions: row && new CollectionVersions(row) };
  }

  /**
   * One batch of writers of a sandbox (see WriteBatches) in one transaction: the lock and the
   * state are taken once, each writer runs in turn (in a savepoint of its own once an earlier one
   * wrote: at most MAX_BATCH - 1 nested, within what PostgreSQL keeps cheaply), and one COMMIT
   * makes them all durable before any is answered. A writer that throws is undone alone and gets
   * its error; a database that cannot be reached fails them all.
   */
  private async writeBatch(sandbox: string, batch: Writer[], checksWait = false): Promise<void> {
    const answers: Array<() => void> = [];
    /** Writers a unique rule refused in a replace sent without waiting (see DeferredClash): undone,
     * they run again once this batch is committed, each checked write answered where it is made. */
    const again: Writer[] = [];
    try {
      await this.withClient(async (client, unfinished) => {
        /** Opens the transaction, with the reads its first writer names (see sendForeseenReads). */
        const begin = async (commitFirst: boolean, reads: readonly ForeseenRead[] | undefined): Promise<Shared> => {
          let foreseen: Promise<(source: string) => KnownDocs> | undefined;
          const state = await openTransaction(client, sandbox, this.seedId, true, commitFirst, () => {
            foreseen = reads && reads.length > 0 ? sendForeseenReads(this, client, sandbox, reads) : undefined;
            foreseen?.catch(() => undefined);
          });
          const { source, meta, versions } = this.stateOf(sandbox, state);
          let known: KnownDocs = new Map();
          if (foreseen) {
            try {
              known = (await foreseen)(source);
            } catch (error) {
              if (isStoreUnavailable(unreachable(error))) throw error;
              // A read that fails undoes the transaction: it begins again without them, and the
              // writer meets the failure (if it is one) where it makes the read itself.
              await client.query('ROLLBACK');
              return begin(false, undefined);
            }
          }
          return { source, meta, wrote: false, metaChanged: false, known, versions, changes: new Map() as Changes };
        };
        let shared = await begin(unfinished, batch[0]?.reads);
        /** The last writer, when its writes on their way ride with the COMMIT (see below). */
        let riding: { tx: PostgresTx; writer: Writer; answer: () => void } | undefined;
        for (const [index, writer] of batch.entries()) {
          const keep = shared.wrote || shared.metaChanged;
          // The writer's first query rides on its savepoint (both answered by its settle).
          const ahead = keep ? [client.query('SAVEPOINT sandbox_writer')] : [];
          for (const query of ahead) query.catch(() => undefined);
          const tx = new PostgresTx(this, client, sandbox, shared.source, true, shared.meta, undefined, shared.versions, shared.known, shared.changes, ahead, checksWait);
          try {
            const result = await writer.fn(tx);
            // The last writer's writes on their way go with the COMMIT when nothing before it is
            // kept: if one fails, the transaction (which holds only this writer's writes) is
            // undone, as when it fails here. Otherwise they are answered before the next writer.
            const last = index === batch.length - 1;
            if (keep || !last || !tx.unsettled) await tx.settle();
            shared = { ...shared, source: tx.reads, meta: tx.metaNow, wrote: shared.wrote || tx.written, metaChanged: shared.metaChanged || tx.metaWritten, known: tx.knowledge, changes: tx.changes };
            const answer = () => writer.resolve(result);
            if (tx.unsettled) riding = { tx, writer, answer };
            else answers.push(answer);
          } catch (error) {
            if (keep) await client.query('ROLLBACK TO SAVEPOINT sandbox_writer');
            else if (tx.written || tx.metaWritten || error instanceof pg.DatabaseError) {
              // Nothing earlier to keep: the transaction starts again for the writers after it.
              await client.query('ROLLBACK');
              shared = await begin(false, batch[index + 1]?.reads);
            }
            if (tx.clashed) again.push(writer);
            else writer.reject(error);
          } finally {
            tx.close();
          }
        }
        const recorded = recordedVersions(shared);
        const committing = commitWrites(client, sandbox, { ...shared, generations: recorded && generationsAfter(this.collections, recorded, shared.changes) });
        if (riding) {
          try {
            // Its changes (shared.changes) are noted as stored here, before the cache moves on.
            await riding.tx.settle();
          } catch (error) {
            // The COMMIT met an undone transaction: nothing of the batch was written.
            await committing.catch(() => undefined);
            await client.query('ROLLBACK');
            if (riding.tx.clashed) again.push(riding.writer);
            else riding.writer.reject(error);
            return;
          }
          answers.push(riding.answer);
        }
        const generation = await committing;
        if (generation !== undefined && recorded) this.advanceCache(recorded, shared.changes, generation);
      });
    } catch (error) {
      for (const writer of batch) writer.reject(error);
      return;
    }
    for (const answer of answers) answer();
    if (again.length > 0) await this.writeBatch(sandbox, again, true);
  }

  async reset(sandbox: string): Promise<void> {
    await this.inTransaction('write', async (client) => {
      await lockSandbox(client, sandbox);
      await client.query('DELETE FROM sandbox_doc WHERE sandbox = $1', [sandbox]);
      await client.query('DELETE FROM sandbox_state WHERE sandbox = $1', [sandbox]);
    });
  }

  /** Resets the sandbox unless it was written since `cutoff` (the idle sweep, idle-reset.ts). */
  async resetIfIdle(sandbox: string, cutoff: Date): Promise<boolean> {
    return this.inTransaction('write', async (client) => {
      await lockSandbox(client, sandbox);
      return removeIfIdle(client, sandbox, cutoff);
    });
  }

  async exportSnapshot(sandbox: string): Promise<Snapshot> {
    return this.inTransaction('read', async (client) => {
      const state = await client.query<{ meta: Record<string, unknown> }>('SELECT meta FROM sandbox_state WHERE sandbox = $1', [sandbox]);
      const source = state.rowCount ? sandbox : this.seedId;
      const meta = state.rows[0]?.meta ?? this.seedMeta;
      const rows = await client.query<{ collection: string; doc: Doc }>(
        'SELECT collection, doc FROM sandbox_doc WHERE sandbox = $1 ORDER BY collection, id COLLATE "C"',
        [source],
      );
      const collections: Record<string, Doc[]> = {};
      for (const row of rows.rows) (collections[row.collection] ??= []).push(row.doc);
      return { format: FORMAT, collections, meta };
    });
  }

  async importSnapshot(sandbox: string, snapshot: Snapshot): Promise<void> {
    await this.inTransaction('write', async (client) => {
      await lockSandbox(client, sandbox);
      await client.query('DELETE FROM sandbox_doc WHERE sandbox = $1', [sandbox]);
      try {
        await insertDocs(client, sandbox, snapshot.collections);
      } catch (error) {
        // The primary key's message names the collection: Key (sandbox, collection, id)=(s, employees, 1).
        const collection = (error as { detail?: string }).detail?.match(/\)=\([^,]*, ([^,]*),/)?.[1] ?? '';
        throw this.violation(error, collection);
      }
      await client.query(
        `INSERT INTO sandbox_state (sandbox, meta, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (sandbox) DO UPDATE SET meta = EXCLUDED.meta, updated_at = EXCLUDED.updated_at, generation = nextval('sandbox_generation')`,
        [sandbox, snapshot.meta ?? {}],
      );
      // The planner's row counts follow a large import at once (lists of it are planned right).
      if (insertedDocs(snapshot) >= ANALYZE_AFTER) await client.query('ANALYZE sandbox_doc');
    });
  }

  /** Answers when the database does (readiness). */
  async ping(): Promise<void> {
    try {
      await this.withClient((client, unfinished) => this.settledQuery(client, unfinished, 'SELECT 1'));
    } catch (error) {
      throw this.failed(error);
    }
  }

  /** Materialized sandboxes, counted (metrics). */
  async count(): Promise<number> {
    try {
      const result = await this.withClient((client, unfinished) => this.settledQuery<{ n: string }>(client, unfinished, `SELECT count(*) AS n FROM sandbox_state WHERE left(sandbox, 2) <> '__'`));
      return Number(result.rows[0]!.n);
    } catch (error) {
      throw this.failed(error);
    }
  }

  /** The error to throw for a failure, reported to onError. */
  private failed(error: unknown): unknown {
    const mapped = unreachable(error);
    this.options.onError?.(isStoreUnavailable(mapped) ? 'unavailable' : 'error');
    return mapped;
  }

  async list(prefix = ''): Promise<SandboxInfo[]> {
    // The ids from the prefix up to (not with) the prefix's last character moved on by one: a
    // range the index reads, so that one client's list never counts another client's docs.
    const upTo = prefix === '' ? undefined : `${prefix.slice(0, -1)}${String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1)}`;
    const result = await this.withClient(async (client, unfinished) => {
      if (unfinished) await client.query('COMMIT');
      return client.query<{ sandbox: string; docs: string; updated_at: Date | null }>(
        `SELECT s.sandbox, s.updated_at, (SELECT count(*) FROM sandbox_doc d WHERE d.sandbox = s.sandbox) AS docs
         FROM sandbox_state s WHERE left(s.sandbox, 2) <> '__' ${upTo === undefined ? '' : 'AND s.sandbox COLLATE "C" >= $1 AND s.sandbox COLLATE "C" < $2'} ORDER BY s.sandbox COLLATE "C"`,
        upTo === undefined ? [] : [prefix, upTo],
      );
    });
    return result.rows.map((row) => ({
      id: row.sandbox,
      materialized: true,
      docs: Number(row.docs),
      updatedAt: row.updated_at ? row.updated_at.toISOString() : null,
    }));
  }

  /** A query (without parameters) outside any transaction, on a connection whose open read (if
   * any) is committed first, in the same round trip. */
  private async settledQuery<R extends pg.QueryResultRow>(client: pg.PoolClient, unfinished: boolean, text: string): Promise<pg.QueryResult<R>> {
    if (!unfinished) return client.query<R>(text);
    const results = (await client.query(`COMMIT;${text}`)) as unknown as Array<pg.QueryResult<R>>;
    return results[results.length - 1]!;
  }

  /** After a batch's commit at `generation`: the kept collections it changed move to that
   * generation with its changes (what they hold in the database now), so the reads after a write
   * need no load. */
  private advanceCache(versions: CollectionVersions, changes: Changes, generation: string): void {
    const cache = this.collectionCache;
    if (!cache) return;
    for (const [collection, docs] of changes) cache.advance(versions.source, versions.of(collection), `${versions.source}#${generation}`, collection, docs);
  }

  /** A source's collection as it is now: its version and every doc as JSON, read in a read
   * transaction of its own (the collection cache's loads); undefined when the source is gone. */
  async collectionAt(source: string, collection: string): Promise<LoadedCollection | undefined> {
    return this.inTransaction('read', async (client) => {
      const state = await client.query<StateRow>({ name: 'sandbox_state_of', text: `SELECT ${STATE_COLUMNS} FROM sandbox_state WHERE sandbox = $1`, values: [source] });
      const row = state.rows[0];
      if (!row) return undefined;
      const docs = await client.query<{ doc: string }>({ name: 'sandbox_collection_text', text: 'SELECT doc::text AS doc FROM sandbox_doc WHERE sandbox = $1 AND collection = $2', values: [source, collection] });
      return { version: new CollectionVersions(row).of(collection), texts: docs.rows.map((r) => r.doc) };
    });
  }

  /** Whether the seed's docs of the collection are small enough for a write to load it into the
   * collection cache (see PostgresTx.keptScan). */
  smallInSeed(collection: string): boolean {
    let bytes = this.seedSizes.get(collection);
    if (bytes === undefined) this.seedSizes.set(collection, (bytes = JSON.stringify(this.options.seed.collections[collection] ?? []).length));
    return bytes <= WRITE_LOADS_UP_TO;
  }

  /** Round trips to the database so far (see pipelineQueries): what a request costs here. */
  get roundTrips(): number {
    return this.trips.count;
  }

  /** JSON size of the collections kept (metrics). */
  cachedBytes(): number {
    return this.collectionCache?.bytes ?? 0;
  }

  /** Closes the pool once the writes already queued are committed (none acknowledged is lost). */
  async close(): Promise<void> {
    await this.writers.idle();
    await this.collectionCache?.idle();
    clearInterval(this.commitIdle);
    this.collectionCache?.clear();
    await this.pool.end();
  }

  /** One transaction on one connection: committed when `fn` returns, rolled back when it throws. */
  private inTransaction<T>(mode: 'read' | 'write', fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (client, unfinished) => {
      await client.query(`${unfinished ? 'COMMIT;' : ''}${mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN'}`);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    });
  }

  /** One connection for `fn`, which begins and commits its transaction; rolled back when it
   * throws. `unfinished`: the connection's last read is still open, and `fn` commits it first. */
  private async withClient<T>(fn: (client: pg.PoolClient, unfinished: boolean) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failed(error);
    }
    let broken = false;
    try {
      return await fn(client, this.openReads.delete(client));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      const mapped = unreachable(error);
      // A connection that failed goes, not back to the pool.
      if (isStoreUnavailable(mapped)) {
        broken = true;
        throw this.failed(error);
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
