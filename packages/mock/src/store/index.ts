// The store the sandbox runs on, chosen by the command line: in memory (the default), in
// memory kept in a directory (--data <dir>), or PostgreSQL (--database-url), shared by
// several processes.
import { MemoryStore, type Store, type StoreOptions } from '@payroll-api/sandbox/engine';
import { DataDirectory } from './data-directory.js';
import { PostgresStore } from './postgres/index.js';

export interface CreateStoreOptions extends StoreOptions {
  /** Keep the memory store's sandboxes in this directory across restarts (--data). */
  dataDir?: string;
  /** Store every sandbox in this PostgreSQL database (--database-url). */
  databaseUrl?: string;
  /** PostgreSQL: told of every store operation that failed (metrics). */
  onError?: (kind: 'unavailable' | 'error') => void;
  /** PostgreSQL: bytes (as JSON) of collections kept parsed for lists; 0 none (--collection-cache). */
  collectionCacheBytes?: number;
}

/** What the server asks of a store beyond the engine's interface (PostgreSQL answers both). */
export interface OperatedStore extends Store {
  /** Resolves when the storage answers (readiness); absent: always ready (memory). */
  ping?(): Promise<void>;
  /** Sandboxes holding data of their own. */
  count?(): Promise<number>;
  /** Resets the sandbox unless it was written since `cutoff`, checked atomically with the reset
   * (PostgreSQL: under the sandbox's lock, whichever instance writes); whether it did. Absent:
   * the sweep checks and resets in turn (one process, memory). */
  resetIfIdle?(sandbox: string, cutoff: Date): Promise<boolean>;
  /** JSON size of the collections it keeps parsed for lists (PostgreSQL's collection cache). */
  cachedBytes?(): number;
}

/** How many sandboxes hold data of their own. */
export async function sandboxCount(store: OperatedStore): Promise<number> {
  return store.count ? store.count() : (await store.list()).length;
}

export async function createStore(options: CreateStoreOptions): Promise<OperatedStore> {
  const { dataDir, databaseUrl, onError, collectionCacheBytes, ...storeOptions } = options;
  if (databaseUrl !== undefined && dataDir !== undefined) {
    throw new Error('--data and --database-url exclude each other: PostgreSQL keeps the data itself.');
  }
  if (databaseUrl !== undefined) return PostgresStore.open({ ...storeOptions, databaseUrl, onError, collectionCacheBytes });
  if (dataDir !== undefined) {
    const { log, restored } = await DataDirectory.open(dataDir, storeOptions.seed);
    return new MemoryStore({ ...storeOptions, log, restored });
  }
  return new MemoryStore(storeOptions);
}

