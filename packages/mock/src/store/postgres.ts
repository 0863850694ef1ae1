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
// rides on the connection's next query (openReads).
import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  DATE_TIME_PATTERN,
  SqlParams,
  comparable,
  compileFilter,
  orderTerms,
  plainJsonPath,
  foldCase,
  ordered,
  instantFunctionSql,
  type SqlDialect,
  UniqueViolation,
  type CollectionSpec,
  type Doc,
  type FindQuery,
  type Page,
  CollectionScan,
  type SandboxInfo,
  type Snapshot,
  StoreUnavailable,
  isStoreUnavailable,
  type Store,
  type StoreOptions,
  type Tx,
  type UniqueRule,
} from '@payroll-api/sandbox/engine';
import { CollectionCache, type LoadedCollection } from './collection-cache.js';
import { removeIfIdle } from './idle-reset.js';

/** First key of every advisory lock this store takes (the second is the sandbox's hash). */
const LOCK_SPACE = 0x5a4e4442;
const SCHEMA_LOCK = 0;
const FORMAT = 'payroll-sandbox/1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sandbox_state (
  sandbox text PRIMARY KEY,
  meta jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz
);
-- A sandbox state's generation: new from one sequence on every change of the row (a commit that
-- wrote, an import, a first write), never reused, so that a process can tell whether what it
-- read before is still what the database holds (the answer cache, Tx.version).
CREATE SEQUENCE IF NOT EXISTS sandbox_generation;
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS generation bigint NOT NULL DEFAULT nextval('sandbox_generation');
-- Per collection, the generation of the last commit that wrote it (see CollectionVersions),
-- valid while generations_at is the row's generation.
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS collection_generations jsonb;
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS generations_at bigint;
CREATE TABLE IF NOT EXISTS sandbox_doc (
  sandbox text NOT NULL,
  collection text NOT NULL,
  id text NOT NULL,
  doc jsonb NOT NULL,
  PRIMARY KEY (sandbox, collection, id)
);
-- The sandboxes of one client (ids sharing a prefix) found as a range, whatever the collation.
CREATE INDEX IF NOT EXISTS sandbox_state_in_order ON sandbox_state (sandbox COLLATE "C");
`;

/** Node's socket errors and PostgreSQL's connection exceptions (class 08), shutdown and start-up
 * states (57P01-57P03) and full connection slots: the database cannot be reached now. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed/;

/** The StoreUnavailable a failure to reach the database stands for, or the error as it is. */
export function unreachable(error: unknown): unknown {
  if (isStoreUnavailable(error)) return error;
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const text = typeof e?.message === 'string' ? e.message : '';
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || UNREACHABLE_MESSAGES.test(text)) return new StoreUnavailable(`PostgreSQL cannot be reached (${code || text})`);
  return error;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

interface IndexedRule {
  collection: string;
  rule: UniqueRule;
}

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

export class PostgresStore implements Store {
  private readonly pool: pg.Pool;
  private readonly seedId: string;
  private readonly indexes = new Map<string, IndexedRule>();
  private readonly relationIndexes = new Set<string>();
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
  /** Per collection with unique rules: the condition under which another doc clashes with $4. */
  private readonly clashes = new Map<string, string>();
  private readonly listStatements = new Map<string, string>();
  private dialect: SqlDialect = { foldCollation: '', orderCollation: ' COLLATE "C"' };
  /** Collections read often, parsed, for the finds and gets of reads (undefined: none kept). */
  readonly collectionCache: CollectionCache | undefined;
  /** JSON size of the seed's docs, by collection (see smallInSeed). */
  private readonly seedSizes = new Map<string, number>();

  private constructor(
    private readonly options: PostgresStoreOptions,
    readonly collections: readonly CollectionSpec[],
  ) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10,
      options: '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan',
      // A database that does not answer makes requests fail (503) instead of wait.
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection that breaks must not take the process down; the next query reports it.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => {
      corkQueries(client);
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
        for (const rule of spec.unique ?? []) await client.query(this.uniqueIndexSql(spec.name, rule));
        // The lists and rules that follow a relation select by its field (an id is the key already).
        for (const field of new Set((spec.relations ?? []).map((relation) => relation.field).filter((field) => field !== 'id'))) {
          await client.query(this.relationIndexSql(spec.name, field));
        }
      }
      // Rules and relations that are no longer declared lose their indexes.
      const existing = await client.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'sandbox_doc' AND (indexname LIKE 'sandbox\\_unique\\_%' OR indexname LIKE 'sandbox\\_by\\_%')`,
      );
      for (const { name } of existing.rows) if (!this.indexes.has(name) && !this.relationIndexes.has(name)) await client.query(`DROP INDEX ${name}`);
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

  /** A partial unique index per rule, named by a hash of its definition (names stay short). */
  private uniqueIndexSql(collection: string, rule: UniqueRule): string {
    const name = `sandbox_unique_${createHash('sha256').update(JSON.stringify([collection, rule.fields, !!rule.caseInsensitive])).digest('hex').slice(0, 20)}`;
    this.indexes.set(name, { collection, rule });
    const { keys, conditions } = this.ruleSql(collection, rule, 'doc');
    // The replace's check (see PostgresTx.replace): another doc with the same keys as $4.
    const mine = this.ruleSql(collection, rule, '$4::jsonb').keys;
    const other = this.ruleSql(collection, rule, 'other.doc');
    const clash = `(${[...other.conditions, ...other.keys.map((key, i) => `${key} = ${mine[i]}`)].join(' AND ')})`;
    const known = this.clashes.get(collection);
    this.clashes.set(collection, known ? `${known} OR ${clash}` : clash);
    return `CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON sandbox_doc (sandbox, ${keys.map((key) => `(${key})`).join(', ')}) WHERE ${conditions.join(' AND ')}`;
  }

  /** An index of a collection's docs by a relation field, for the lists that select by it (an
   * `in` filter on a plain field compiles to the same expression; see plainJsonPath). */
  private relationIndexSql(collection: string, field: string): string {
    const expression = plainJsonPath([field]);
    if (!expression || !PLAIN_ID.test(collection)) throw new Error(`The collection ${collection} declares a relation by a field that is no plain field name: ${field}`);
    const name = `sandbox_by_${createHash('sha256').update(JSON.stringify([collection, field])).digest('hex').slice(0, 20)}`;
    this.relationIndexes.add(name);
    return `CREATE INDEX IF NOT EXISTS ${name} ON sandbox_doc (sandbox, (${expression})) WHERE collection = ${quoteLiteral(collection)}`;
  }

  /** A rule's key expressions over a doc (`column`), and the condition of the index's rows. */
  private ruleSql(collection: string, rule: UniqueRule, column: string): { keys: string[]; conditions: string[] } {
    const texts = rule.fields.map((field) => `(${column} #>> ${quoteLiteral(`{${field.split('.').map((s) => `"${s.replaceAll('"', '\\"')}"`).join(',')}}`)})`);
    const keys = texts.map((text) => (rule.caseInsensitive ? foldCase(text, this.dialect) : text));
    const table = column.includes('.') ? `${column.split('.')[0]}.` : '';
    const conditions = [`${table}collection = ${quoteLiteral(collection)}`, ...texts.map((text) => `${text} IS NOT NULL`)];
    return { keys, conditions };
  }

  /** The name to prepare a list query's text under, while there is room (see PREPARED_LISTS). */
  listStatement(text: string): string | undefined {
    let name = this.listStatements.get(text);
    if (name === undefined && this.listStatements.size < PREPARED_LISTS) {
      name = `sandbox_list_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.listStatements.set(text, name);
    }
    return name;
  }

  /** The condition under which another doc of the collection clashes with the doc $4 (undefined: no rules). */
  clashOf(collection: string): string | undefined {
    return this.clashes.get(collection);
  }

  /** The UniqueViolation a PostgreSQL unique violation stands for, or the error as it is. */
  violation(error: unknown, collection: string): unknown {
    const pgError = error as { code?: string; constraint?: string };
    if (pgError?.code !== '23505') return error;
    const indexed = pgError.constraint ? this.indexes.get(pgError.constraint) : undefined;
    if (indexed) return new UniqueViolation(indexed.collection, indexed.rule.name, indexed.rule.fields);
    if (pgError.constraint === 'sandbox_doc_pkey') return new UniqueViolation(collection, 'id', ['id']);
    return error;
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

  async transaction<T>(sandbox: string, mode: 'read' | 'write', fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (mode === 'write') {
      return this.writers.run(sandbox, fn).catch((error: unknown) => {
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
  private async writeBatch(sandbox: string, batch: Writer[]): Promise<void> {
    const answers: Array<() => void> = [];
    try {
      await this.withClient(async (client, unfinished) => {
        const begin = async (commitFirst = false) => {
          const { source, meta, versions } = this.stateOf(sandbox, await openTransaction(client, sandbox, this.seedId, true, commitFirst));
          return { source, meta, wrote: false, metaChanged: false, known: new Map() as PostgresTx['knowledge'], versions, changes: new Map() as Changes };
        };
        let shared = await begin(unfinished);
        for (const writer of batch) {
          const keep = shared.wrote || shared.metaChanged;
          if (keep) await client.query('SAVEPOINT sandbox_writer');
          const tx = new PostgresTx(this, client, sandbox, shared.source, true, shared.meta, undefined, shared.versions, shared.known, shared.changes);
          try {
            const result = await writer.fn(tx);
            shared = { ...shared, source: tx.reads, meta: tx.metaNow, wrote: shared.wrote || tx.written, metaChanged: shared.metaChanged || tx.metaWritten, known: tx.knowledge, changes: tx.changes };
            answers.push(() => writer.resolve(result));
          } catch (error) {
            if (keep) await client.query('ROLLBACK TO SAVEPOINT sandbox_writer');
            else if (tx.written || tx.metaWritten || error instanceof pg.DatabaseError) {
              // Nothing earlier to keep: the transaction starts again for the writers after it.
              await client.query('ROLLBACK');
              shared = await begin();
            }
            writer.reject(error);
          } finally {
            tx.close();
          }
        }
        const recorded = this.recordedVersions(shared);
        const generation = await commitWrites(client, sandbox, { ...shared, generations: recorded && this.generationsAfter(recorded, shared.changes) });
        if (generation !== undefined && recorded) this.advanceCache(recorded, shared.changes, generation);
      });
    } catch (error) {
      for (const writer of batch) writer.reject(error);
      return;
    }
    for (const answer of answers) answer();
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

  /** The versions a batch began with, when its commit records the collections' generations:
   * not when it materialized the sandbox (its collections are then all as new as its state row). */
  private recordedVersions(batch: { source: string; versions: CollectionVersions | undefined }): CollectionVersions | undefined {
    return batch.versions?.source === batch.source ? batch.versions : undefined;
  }

  /** The collection generations a batch's commit stores: what it began with, and the commit's
   * own generation for the collections it changed. */
  private generationsAfter(versions: CollectionVersions, changes: Changes): CommitGenerations {
    const kept: Record<string, number> = {};
    for (const { name } of this.collections) if (!changes.has(name)) kept[name] = versions.generationOf(name);
    return { kept, written: [...changes.keys()] };
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

/** Serializes write transactions on one sandbox across every process sharing the database. */
async function lockSandbox(client: pg.PoolClient, sandbox: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, sandbox]);
}

/** A sandbox id that may be written into SQL text as a literal (the ids this store meets:
 * `token-<hash>`, `user-<uuid>`, `__seed:<hash>`, `__auth`); others go as parameters. */
const PLAIN_ID = /^[\w:.@+-]{1,200}$/;

interface StateRow {
  sandbox: string;
  meta: Record<string, unknown>;
  /** bigint, as text. */
  generation: string;
  collection_generations: Record<string, number> | null;
  /** bigint, as text. */
  generations_at: string | null;
}

const STATE_COLUMNS = 'sandbox, meta, generation, collection_generations, generations_at';

/**
 * The version of each collection of a source's state, as the collection cache keys it: the
 * generation of the last commit that wrote the collection. A commit of this store records
 * them with its generation (generations_at); when the row's generation is another one (an
 * import, a process that does not record them), every collection counts as written then.
 */
class CollectionVersions {
  readonly source: string;
  private readonly generations: Record<string, number> | null;

  constructor(private readonly row: StateRow) {
    this.source = row.sandbox;
    this.generations = row.generations_at === row.generation ? row.collection_generations : null;
  }

  generationOf(collection: string): number {
    const recorded = this.generations?.[collection];
    return typeof recorded === 'number' ? recorded : Number(this.row.generation);
  }

  of(collection: string): string {
    return `${this.source}#${this.generationOf(collection)}`;
  }
}

/** What a commit records of its collections (see CollectionVersions). */
interface CommitGenerations {
  /** The collections it did not write, with their generations. */
  kept: Record<string, number>;
  written: string[];
}

/**
 * Begins the transaction and reads the state of the sandbox and of the seed (whether the
 * sandbox is materialized, and the meta it reads). A write first takes the sandbox's lock, so
 * that its state is read after every earlier writer committed. For plain ids this is one round
 * trip: a simple query of several statements, each with its own snapshot.
 */
async function openTransaction(client: pg.PoolClient, sandbox: string, seed: string, write: boolean, commitFirst: boolean): Promise<StateRow[]> {
  const begin = `${commitFirst ? 'COMMIT;' : ''}${write ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'}`;
  const stateSql = (a: string, b: string) => `SELECT ${STATE_COLUMNS} FROM sandbox_state WHERE sandbox IN (${a}, ${b})`;
  if (PLAIN_ID.test(sandbox) && PLAIN_ID.test(seed)) {
    const lock = write ? `SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${quoteLiteral(sandbox)}));` : '';
    const results = (await client.query(`${begin};${lock}${stateSql(quoteLiteral(sandbox), quoteLiteral(seed))}`)) as unknown as pg.QueryResult<StateRow>[];
    return results[results.length - 1]!.rows;
  }
  await client.query(begin);
  if (write) await lockSandbox(client, sandbox);
  return (await client.query<StateRow>(stateSql('$1', '$2'), [sandbox, seed])).rows;
}

interface OpenedRound {
  client: pg.PoolClient;
  state: StateRow[];
}

/** The readers of one sandbox that share one transaction (see ReadRounds). */
class ReadRound {
  readonly opened: Promise<OpenedRound>;
  private open!: (opening: Promise<OpenedRound>) => void;
  private members = 0;
  private lost = false;
  /** Whether the opening failed (the round reported it to onError). */
  openingFailed = false;

  constructor() {
    this.opened = new Promise<OpenedRound>((resolve, reject) => {
      this.open = (opening) => opening.then(resolve, (error: unknown) => {
        this.openingFailed = true;
        reject(error);
      });
    });
  }

  start(opening: Promise<OpenedRound>): void {
    this.open(opening);
  }

  enter(): this {
    this.members++;
    return this;
  }

  /** One reader is done; the last hands the connection back (`lost`: it failed to reach the database). */
  leave(lost: boolean, release: (client: pg.PoolClient, lost: boolean) => void): void {
    this.lost ||= lost;
    if (--this.members > 0) return;
    this.opened.then(
      ({ client }) => release(client, this.lost),
      () => undefined,
    );
  }
}

/**
 * Reads of one sandbox share the opening of their transaction. Those that arrive while an
 * opening is on its way to the database make the next round, sent when it is back: a round's
 * snapshot is taken after each of its readers arrived (none reads a state older than when it
 * asked), and under load one round trip opens many reads, most of them answered again from the
 * answer cache without a query. A round's readers query on its one connection, one after
 * another, while the next round opens on another.
 */
class ReadRounds {
  private readonly slots = new Map<string, { flying: number; next?: ReadRound }>();

  constructor(private readonly open: (sandbox: string) => Promise<OpenedRound>) {}

  join(sandbox: string): ReadRound {
    let slot = this.slots.get(sandbox);
    if (!slot) this.slots.set(sandbox, (slot = { flying: 0 }));
    if (slot.next) return slot.next.enter();
    const round = new ReadRound().enter();
    if (slot.flying >= OPENINGS_IN_FLIGHT) slot.next = round;
    else this.launch(sandbox, slot, round);
    return round;
  }

  private launch(sandbox: string, slot: { flying: number; next?: ReadRound }, round: ReadRound): void {
    slot.flying++;
    round.start(this.open(sandbox));
    const landed = () => {
      slot.flying--;
      const next = slot.next;
      slot.next = undefined;
      if (next) this.launch(sandbox, slot, next);
      else if (slot.flying === 0 && this.slots.get(sandbox) === slot) this.slots.delete(sandbox);
    };
    void round.opened.then(landed, landed);
  }
}

/** Openings of one sandbox's read rounds on their way at once; readers arriving meanwhile wait
 * for the next round. One measured best: more rounds in flight make smaller rounds. */
const OPENINGS_IN_FLIGHT = 1;

/** Commits a write transaction; one that wrote stamps updated_at, renews the generation, records
 * the generations of the collections (see CollectionVersions) and stores the meta in the
 * COMMIT's round trip, and answers its new generation. */
async function commitWrites(client: pg.PoolClient, sandbox: string, writes: { wrote: boolean; metaChanged: boolean; meta: Record<string, unknown>; generations: CommitGenerations | undefined }): Promise<string | undefined> {
  if (!writes.wrote && !writes.metaChanged) {
    await client.query('COMMIT');
    return undefined;
  }
  const meta = writes.metaChanged ? ', meta = $2::jsonb' : '';
  const { generations } = writes;
  const recorded = generations
    ? `collection_generations = ${quoteLiteral(JSON.stringify(generations.kept))}::jsonb || (SELECT coalesce(jsonb_object_agg(c, next.n), '{}') FROM jsonb_array_elements_text(${quoteLiteral(JSON.stringify(generations.written))}::jsonb) AS c), generations_at = next.n`
    : 'collection_generations = NULL, generations_at = NULL';
  const update = `UPDATE sandbox_state SET updated_at = now(), generation = next.n, ${recorded}${meta} FROM (SELECT nextval('sandbox_generation') AS n) AS next WHERE sandbox = $1 RETURNING next.n AS generation`;
  if (PLAIN_ID.test(sandbox)) {
    const values = [quoteLiteral(sandbox), quoteLiteral(JSON.stringify(writes.meta))];
    const [updated] = (await client.query(`${update.replace(/\$(\d)/g, (_, n: string) => values[Number(n) - 1]!)};COMMIT`)) as unknown as pg.QueryResult<{ generation: string }>[];
    return updated!.rows[0]?.generation;
  }
  const updated = await client.query<{ generation: string }>(update, writes.metaChanged ? [sandbox, JSON.stringify(writes.meta)] : [sandbox]);
  await client.query('COMMIT');
  return updated.rows[0]?.generation;
}

/** Writers of one sandbox in one batch at most (each after the first writing one holds a savepoint). */
const MAX_BATCH = 32;

interface Writer {
  fn: (tx: Tx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Write transactions of this process on one sandbox, one after another: a writer waits here, not
 * holding a connection while it waits for the sandbox's lock. The writers that arrive while a
 * batch runs make the next batch (group commit: one lock, one state, one COMMIT for them all).
 */
class WriteBatches {
  private readonly queues = new Map<string, Writer[]>();
  private readonly drained: Array<() => void> = [];

  constructor(private readonly execute: (sandbox: string, batch: Writer[]) => Promise<void>) {}

  run<T>(sandbox: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const writer: Writer = { fn, resolve: resolve as (value: unknown) => void, reject };
      const queue = this.queues.get(sandbox);
      if (queue) queue.push(writer);
      else {
        const started = [writer];
        this.queues.set(sandbox, started);
        void this.drain(sandbox, started);
      }
    });
  }

  /** Resolves once no writer of this process is queued or running. */
  idle(): Promise<void> {
    return this.queues.size === 0 ? Promise.resolve() : new Promise((resolve) => this.drained.push(resolve));
  }

  private async drain(sandbox: string, queue: Writer[]): Promise<void> {
    while (queue.length > 0) await this.execute(sandbox, queue.splice(0, MAX_BATCH));
    this.queues.delete(sandbox);
    if (this.queues.size === 0) for (const resolve of this.drained.splice(0)) resolve();
  }
}

/**
 * node-postgres writes a parameterized query as five messages (parse, bind, describe, execute,
 * sync), one socket write each; corked, they leave in one write. A query is written
 * synchronously when the connection is idle (else when it gets its turn, as before).
 */
function corkQueries(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    stream.cork!();
    try {
      return query(...args);
    } finally {
      stream.uncork!();
    }
  }) as typeof client.query;
}

/** How long an idle connection keeps its last read's transaction open at most (see openReads). */
const OPEN_READ_MS = 50;

/** Distinct list queries (filter and order shapes) kept prepared on each connection, at most:
 * PostgreSQL then plans a shape once instead of on every list. */
const PREPARED_LISTS = 100;

/** Docs in an import from which on the planner's statistics are refreshed with it. */
const ANALYZE_AFTER = 5_000;

/** A write's docs as PostgreSQL stores them: the text it answers for a read of them. */
const RETURNING_DOC = 'RETURNING doc::text AS doc';

/** A batch's changes per collection: each doc written, by id, as stored (null: removed). */
type Changes = ReadonlyMap<string, ReadonlyMap<string, string | null>>;

/** Docs as their JSON text (what PostgreSQL sends): each reader parses a copy of its own. A
 * list of every match (no page) keeps its query: a write to the collection updates it. */
type Known = string | null | KnownList;

interface KnownList {
  rows: string[];
  total: number;
  whole?: FindQuery;
}

/** Matches of a list kept up to date by the writes after it, at most (a longer one is dropped). */
const UPDATED_LIST_ROWS = 1_000;

/** A list of every match, after the doc `id` was written as `json` (null: removed). */
function listAfterWrite(list: KnownList & { whole: FindQuery }, id: string, json: string | null): KnownList {
  const texts = new Map<string, string>();
  const docs: Doc[] = [];
  const keep = (text: string, doc: Doc) => {
    texts.set(doc.id, text);
    docs.push(doc);
  };
  for (const text of list.rows) {
    const doc = JSON.parse(text) as Doc;
    if (doc.id !== id) keep(text, doc);
  }
  if (json !== null) keep(json, JSON.parse(json) as Doc);
  const rows = new CollectionScan(docs).find(list.whole).rows.map((doc) => texts.get(doc.id)!);
  return { rows, total: rows.length, whole: list.whole };
}

function insertedDocs(snapshot: Snapshot): number {
  return Object.values(snapshot.collections).reduce((total, docs) => total + docs.length, 0);
}

async function insertDocs(client: pg.PoolClient, sandbox: string, collections: Record<string, Doc[]>): Promise<void> {
  const rows = Object.entries(collections).flatMap(([collection, docs]) => docs.map((doc) => ({ collection, doc })));
  // In batches: one parameter holds a batch as JSON (a 10,000-doc snapshot is a few statements).
  for (let start = 0; start < rows.length; start += 2000) {
    await client.query(
      `INSERT INTO sandbox_doc (sandbox, collection, id, doc)
       SELECT $1, row.collection, row.doc ->> 'id', row.doc FROM jsonb_to_recordset($2::jsonb) AS row(collection text, doc jsonb)`,
      [sandbox, JSON.stringify(rows.slice(start, start + 2000))],
    );
  }
}

class PostgresTx implements Tx {
  private closed = false;
  /** Whether this transaction has written (the sandbox's updated_at is stamped at commit). */
  private wrote = false;
  /** Whether `meta` changed (written at commit). */
  private metaChanged = false;
  /** What this transaction has read or written, per collection: the same get or list again is
   * answered from here (its snapshot or its lock keeps it true) until it writes the collection.
   * A writer of a batch starts from a copy of what the writers before it left (the lock is held
   * throughout), and its copy is dropped with it when it fails. */
  private readonly known: Map<string, Map<string, Known>>;

  constructor(
    private readonly store: PostgresStore,
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
  ) {
    this.known = new Map([...(known ?? [])].map(([collection, entries]) => [collection, new Map(entries)]));
    this.changed = new Map([...(changed ?? [])].map(([collection, docs]) => [collection, new Map(docs)]));
  }

  /** Its batch's changes so far, per collection: the doc as stored by id, or null (removed). */
  private readonly changed: Map<string, Map<string, string | null>>;

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
    const result = await this.client.query<{ n: string }>({ name: 'sandbox_count', text: 'SELECT count(*) AS n FROM sandbox_doc WHERE sandbox = $1', values: [this.source] });
    return Number(result.rows[0]!.n);
  }

  async get(collection: string, id: string): Promise<Doc | undefined> {
    this.check(false);
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
    let known = this.known.get(collection);
    if (!known) this.known.set(collection, (known = new Map()));
    known.set(key, value);
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
    let changed = this.changed.get(collection);
    if (!changed) this.changed.set(collection, (changed = new Map()));
    changed.set(id, json);
  }

  /** The matching docs' ids and sort keys are gathered first; only the page's docs are read
   * whole, and the total comes with them (one row without a doc for a page past the end). */
  async find(collection: string, query: FindQuery = {}): Promise<Page> {
    this.check(false);
    const kept = this.keptScan(collection);
    if (kept) return kept.find(query);
    const params = new SqlParams();
    const dialect = this.store.sqlDialect;
    // A collection named in the text (they are the store's own names) lets the planner use the
    // partial indexes of that collection in a prepared statement's generic plan too.
    const sandboxSql = params.add(this.source);
    const collectionSql = PLAIN_ID.test(collection) ? quoteLiteral(collection) : params.add(collection);
    const scope = `sandbox = ${sandboxSql} AND collection = ${collectionSql}`;
    const where = query.where ? `${scope} AND ${compileFilter(query.where, params, dialect)}` : scope;
    const keys = (query.orderBy ?? []).map((key, i) => ({ sql: `${ordered(comparable(key.field, params, dialect), key.field, dialect)} AS k${i}`, value: `k${i}`, descending: key.descending }));
    const columns = ['id', ...keys.map((key) => key.sql)].join(', ');
    let paging = '';
    if (query.limit !== undefined) paging += ` LIMIT ${params.add(query.limit)}`;
    if (query.offset) paging += ` OFFSET ${params.add(query.offset)}`;
    const pageKeys = keys.map((key) => ({ value: `page.${key.value}`, descending: key.descending }));
    // Every match wanted (a rule's or a relation's lookup): read in one pass, counted as read.
    const whole = paging === '';
    const text = whole
      ? `SELECT ${['doc::text AS doc', ...keys.map((key) => key.sql)].join(', ')} FROM sandbox_doc WHERE ${where} ORDER BY ${orderTerms(keys)}`
      : `WITH matches AS MATERIALIZED (SELECT ${columns} FROM sandbox_doc WHERE ${where}),
       page AS (SELECT * FROM matches ORDER BY ${orderTerms(keys)}${paging})
       SELECT (SELECT count(*) FROM matches) AS total, d.doc::text AS doc
       FROM (SELECT 1) AS one
       LEFT JOIN (page JOIN sandbox_doc d ON d.sandbox = ${sandboxSql} AND d.collection = ${collectionSql} AND d.id = page.id) ON TRUE
       ORDER BY ${orderTerms(pageKeys, 'page.id')}`;
    const key = `find:${text}\u0000${JSON.stringify(params.values)}`;
    let known = this.known.get(collection)?.get(key) as KnownList | undefined;
    if (known === undefined) {
      const result = await this.client.query<{ doc: string | null; total: string }>({ name: this.store.listStatement(text), text, values: params.values });
      const rows: string[] = [];
      for (const row of result.rows) if (row.doc !== null) rows.push(row.doc);
      known = whole ? { rows, total: rows.length, whole: { where: query.where, orderBy: query.orderBy } } : { rows, total: Number(result.rows[0]!.total) };
      this.remember(collection, key, known);
    }
    return { rows: known.rows.map((json) => JSON.parse(json) as Doc), total: known.total };
  }

  async insert(collection: string, doc: Doc): Promise<void> {
    await this.materialize();
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
    const stored = await this.update(collection, values);
    // Not replaced: there is no such doc (what was known of the collection still holds).
    if (stored !== undefined) this.noteWrite(collection, doc.id, stored);
    return stored !== undefined;
  }

  /** Replaces the doc $3 with $4: the doc as stored, or undefined when there is none. */
  private async update(collection: string, values: unknown[]): Promise<string | undefined> {
    const update = 'UPDATE sandbox_doc SET doc = $4 WHERE sandbox = $1 AND collection = $2 AND id = $3';
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
    if (this.closed) throw new Error('The transaction has ended; use the Tx of the running transaction.');
    if (write && !this.writable) throw new Error(`Sandbox ${this.sandbox}: a read transaction cannot write.`);
  }
}
