// The store interface: what the sandbox engine asks of storage, implemented in memory
// (memory.ts, optionally persisted with --data) and in PostgreSQL (the mock's store/postgres/). Both stores
// evaluate the same bound filter tree (../filter/tree.ts), so a list answers the same page
// from either.
import type { BoundFilter, Doc, OrderKey } from '../filter/tree.js';

/** A stored entity: a JSON object with a string id (a uuid for every API resource); defined where filters read it. */
export type { Doc };

/** A uniqueness rule within one sandbox, over dotted field paths of one collection's docs. */
export interface UniqueRule {
  /** Reported in UniqueViolation, e.g. 'employeeNumber-per-employer'. */
  name: string;
  /** Dotted paths, e.g. ['employerId', 'employeeNumber']. Docs where any of them is null or missing are not constrained. */
  fields: string[];
  /** Compare string values case-insensitively (lower-cased), as the journal codes do. */
  caseInsensitive?: boolean;
}

/** A collection the engine stores, declared once by its resource module. */
export interface CollectionSpec {
  name: string;
  unique?: UniqueRule[];
  /** The stored fields that name a doc of another collection (by its id; null or missing names
   * none, unless `required`), checked when a merge adds or replaces docs so that it cannot leave
   * one dangling; a `required` relation must name one (every doc, or the docs the predicate
   * holds for: a journal entity's administration at payroll administration level only), so a
   * merged doc is never an orphan. */
  relations?: Array<{ field: string; collection: string; required?: boolean | ((doc: Doc) => boolean) }>;
  /** The component schema every stored doc satisfies (fields beyond it allowed: stored docs
   * are supersets), checked on snapshot import and by the robustness tests. */
  schema?: { api: 'payroll' | 'journal'; component: string };
}

export interface FindQuery {
  /** Only docs matching this tree. */
  where?: BoundFilter;
  /** Sort keys, applied in order; ties are always broken by id ascending, so pages are stable. */
  orderBy?: OrderKey[];
  /** Rows to skip (paging: (pageNumber - 1) * pageSize). */
  offset?: number;
  /** Rows to return at most; undefined for all. */
  limit?: number;
  /** The rows are only read (a list makes its items from them): a store may hand back the docs it
   * holds, frozen, instead of copies. */
  readOnly?: boolean;
}

export interface Page {
  rows: Doc[];
  /** Docs matching `where`, regardless of offset and limit. */
  total: number;
}

/** One transaction on one sandbox. Docs handed out are copies: mutate them, then replace(). */
export interface Tx {
  readonly sandbox: string;
  /** In a read transaction, what names the committed state it reads: the same object (compared
   * by identity) or string (by value) for as long as nothing of the sandbox changes, and never
   * again after. Stores that cannot promise that leave it out, and their reads are never
   * answered from the answer cache. */
  readonly version?: object | string;
  /** Docs the sandbox holds now, in every collection (limits); optional for other stores. */
  count?(): Promise<number>;
  get(collection: string, id: string): Promise<Doc | undefined>;
  /** Whether the doc is there, without a copy of it (stores that leave it out are asked `get`). */
  has?(collection: string, id: string): Promise<boolean>;
  find(collection: string, query?: FindQuery): Promise<Page>;
  /** Throws UniqueViolation when a UniqueRule (or the id) is already taken. */
  insert(collection: string, doc: Doc): Promise<void>;
  /** Replaces the doc with the same id; throws UniqueViolation; returns false when there is none. */
  replace(collection: string, doc: Doc): Promise<boolean>;
  /** Returns false when there is none. */
  remove(collection: string, id: string): Promise<boolean>;
  /** Per-sandbox settings that are not entities (the clock, user filter settings, ...). */
  getMeta<T = unknown>(key: string): Promise<T | undefined>;
  setMeta(key: string, value: unknown): Promise<void>;
}

export class UniqueViolation extends Error {
  constructor(
    readonly collection: string,
    /** The UniqueRule's name, or 'id'. */
    readonly rule: string,
    readonly fields: string[],
  ) {
    super(`${collection}: ${rule} is not unique (${fields.join(', ')})`);
    this.name = 'UniqueViolation';
  }
}

/** The whole state of one sandbox, as exported and imported (and as the seed is given). */
export interface Snapshot {
  format: 'payroll-sandbox/1';
  collections: Record<string, Doc[]>;
  meta: Record<string, unknown>;
}

export interface SandboxInfo {
  id: string;
  /** False while the sandbox has only read (it then reads the seed: copy on write). */
  materialized: boolean;
  /** Docs held of its own (0 while not materialized). */
  docs: number;
  updatedAt: string | null;
}

/** A get or find a transaction is known to make, named before it opens (see TransactionOptions). */
export type ForeseenRead = { collection: string; id: string } | { collection: string; query: FindQuery };

export interface TransactionOptions {
  /** Reads the transaction will likely make: a store whose transaction opens with a round trip
   * may send them with it (PostgreSQL). A hint only: the transaction still makes each read, and
   * gets the same answer either way. */
  reads?: readonly ForeseenRead[];
}

export interface Store {
  /**
   * Runs `fn` as one transaction on `sandbox`: all of it or nothing. A throw rolls back every
   * write and is rethrown. A sandbox id never seen before reads the seed; its first write
   * copies the seed (copy on write). Write transactions on one sandbox are serialized.
   */
  transaction<T>(sandbox: string, mode: 'read' | 'write', fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Back to the seed (drops the sandbox's own data and meta). */
  reset(sandbox: string): Promise<void>;
  exportSnapshot(sandbox: string): Promise<Snapshot>;
  /** Replaces the sandbox's state with the snapshot (validated by the caller). */
  importSnapshot(sandbox: string, snapshot: Snapshot): Promise<void>;
  /** Materialized sandboxes (ids starting with '__' are internal and not listed); with `prefix`,
   * those whose id starts with it only (a client's, found without reading the others). */
  list(prefix?: string): Promise<SandboxInfo[]>;
  close(): Promise<void>;
}

export interface StoreOptions {
  seed: Snapshot;
  /** The seed was made for this store alone (generated, not given by a caller): it may be kept
   * as it is instead of copied. */
  seedOwned?: boolean;
  collections: CollectionSpec[];
}

/** Thrown by a store that cannot reach its storage (a database that is down or restarting):
 * the pipeline answers 503 with Retry-After, and nothing of the request was applied. */
export class StoreUnavailable extends Error {
  /** Set so that the check survives two copies of this module (bundles of several entries). */
  readonly storeUnavailable = true;

  constructor(
    reason: string,
    /** What Retry-After says. */
    readonly retryAfterSeconds = 2,
  ) {
    super(`The store is unavailable: ${reason}`);
    this.name = 'StoreUnavailable';
  }
}

export function isStoreUnavailable(error: unknown): error is StoreUnavailable {
  return typeof error === 'object' && error !== null && (error as { storeUnavailable?: unknown }).storeUnavailable === true;
}
