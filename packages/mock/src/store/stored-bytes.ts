// The bytes one sandbox stores (--max-sandbox-bytes): its documents, its meta and its uploads
// (documents too), as JSON in UTF-8, plus the token rows of its logins. The sandbox's own bytes
// are a running total in its meta, moved by each write's delta inside the write's transaction:
// no write sums the sandbox again, and every store and every instance on one database read the
// same figure. A sandbox without the total (the seed, read before its first write) holds the
// seed's bytes.
import { ACCESS_TOKENS, message, REFRESH_TOKENS, SandboxError, Slices, userSandbox, type Doc, type Snapshot, type Store, type Tx } from '@payroll-api/sandbox/engine';
import { wrapTx } from './wrap-tx.js';

export interface StoredBytesLimit {
  /** Bytes one sandbox may store; 0 no limit. */
  maxBytes: number;
  /** The bytes of the seed (what a sandbox holds before its first write). */
  seedBytes: number;
}

/** The meta key of the running total (left out of exported snapshots, set by imports). */
export const STORED_BYTES_META = 'storedBytes';

/** Bytes of a value as stored: its JSON in UTF-8. */
export function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

const metaEntryBytes = (key: string, value: unknown) => (value === undefined ? 0 : jsonBytes(key) + jsonBytes(value));

/** The bytes of a snapshot's meta, without the running total. */
function metaBytes(snapshot: Snapshot): number {
  let total = 0;
  for (const [key, value] of Object.entries(snapshot.meta ?? {})) if (key !== STORED_BYTES_META) total += metaEntryBytes(key, value);
  return total;
}

/** The bytes a snapshot makes a sandbox store (its documents and meta). */
export function snapshotBytes(snapshot: Snapshot): number {
  let total = metaBytes(snapshot);
  for (const docs of Object.values(snapshot.collections)) for (const doc of docs) total += jsonBytes(doc);
  return total;
}

/** The same, counted in slices (see Slices): an imported snapshot may be the largest body accepted. */
async function snapshotBytesInSlices(snapshot: Snapshot): Promise<number> {
  const slices = new Slices();
  let total = metaBytes(snapshot);
  for (const docs of Object.values(snapshot.collections)) {
    for (const doc of docs) {
      total += jsonBytes(doc);
      const pause = slices.due();
      if (pause) await pause;
    }
  }
  return total;
}

function tooLarge(maxBytes: number, wouldStore: number): SandboxError {
  return new SandboxError(400, [
    message(
      400,
      `This sandbox may store at most ${maxBytes} bytes (the limit --max-sandbox-bytes: its documents, meta and uploads as JSON, and the tokens of its logins); it would store ${wouldStore}. Delete some data, reset the sandbox (POST /__sandbox/reset), or let old logins expire.`,
      ['body'],
    ),
  ]);
}

/** The snapshot as it is imported: its total set from its own bytes; refused beyond the limit. */
export async function withStoredBytes(snapshot: Snapshot, limit: StoredBytesLimit): Promise<Snapshot> {
  const bytes = await snapshotBytesInSlices(snapshot);
  if (bytes > limit.maxBytes) throw tooLarge(limit.maxBytes, bytes);
  return { ...snapshot, meta: { ...snapshot.meta, [STORED_BYTES_META]: bytes } };
}

/** The snapshot as it is exported: without the running total (an import sets its own). */
export function withoutStoredBytes(snapshot: Snapshot): Snapshot {
  if (!Object.hasOwn(snapshot.meta ?? {}, STORED_BYTES_META)) return snapshot;
  const { [STORED_BYTES_META]: _total, ...meta } = snapshot.meta;
  return { ...snapshot, meta };
}

/** The sandbox's own stored bytes, as committed. */
async function ownBytes(store: Store, sandbox: string, limit: StoredBytesLimit): Promise<number> {
  return (await store.transaction(sandbox, 'read', (tx) => tx.getMeta<number>(STORED_BYTES_META))) ?? limit.seedBytes;
}

/**
 * A write transaction that keeps the sandbox's running total: each insert, replace, removal and
 * meta change checks its delta against the limit before it is made (growth only: a sandbox
 * beyond a lowered limit can still shrink) and counts it once made; `commit` stores the total.
 */
export function storedBytesTracker(tx: Tx, limit: StoredBytesLimit): { tx: Tx; commit(): Promise<void> } {
  let total: number | undefined;
  let delta = 0;
  async function check(change: number): Promise<void> {
    total ??= (await tx.getMeta<number>(STORED_BYTES_META)) ?? limit.seedBytes;
    if (change > 0 && total + delta + change > limit.maxBytes) throw tooLarge(limit.maxBytes, total + delta + change);
  }
  async function counted<R>(change: number, write: () => Promise<R>, made: (result: R) => boolean = () => true): Promise<R> {
    await check(change);
    const result = await write();
    if (made(result)) delta += change;
    return result;
  }
  return {
    tx: wrapTx(tx, {
      async setMeta(key: string, value: unknown) {
        if (key === STORED_BYTES_META) return;
        await counted(metaEntryBytes(key, value) - metaEntryBytes(key, await tx.getMeta(key)), () => tx.setMeta(key, value));
      },
      insert: async (collection: string, doc: Doc) => counted(jsonBytes(doc), () => tx.insert(collection, doc)),
      async replace(collection: string, doc: Doc) {
        const before = await tx.get(collection, doc.id);
        return counted(jsonBytes(doc) - jsonBytes(before), () => tx.replace(collection, doc), (replaced) => replaced);
      },
      async remove(collection: string, id: string) {
        const before = await tx.get(collection, id);
        return counted(-jsonBytes(before), () => tx.remove(collection, id), (removed) => removed);
      },
    }),
    async commit() {
      if (delta !== 0 && total !== undefined) await tx.setMeta(STORED_BYTES_META, total + delta);
    },
  };
}

/**
 * A transaction of the internal token sandbox in which every issued token counts towards the
 * sandbox it reaches: a login whose token rows would take that sandbox (its own bytes and the
 * rows of its logins that have not expired) beyond the limit is refused.
 */
export function limitTokenBytes(tx: Tx, store: Store, limit: StoredBytesLimit): Tx {
  return wrapTx(tx, {
    async insert(collection: string, doc: Doc) {
      if (collection === ACCESS_TOKENS || collection === REFRESH_TOKENS) {
        // A hosted token names its sandbox; any other reaches its user's.
        const [field, value] = typeof doc.sandbox === 'string' ? ['sandbox', doc.sandbox] : ['userId', String(doc.userId)];
        let tokens = jsonBytes(doc);
        for (const issued of [ACCESS_TOKENS, REFRESH_TOKENS]) {
          const rows = await tx.find(issued, { where: { kind: 'in', field: { path: [field], type: 'string' }, values: [value] } });
          for (const row of rows.rows) tokens += jsonBytes(row);
        }
        const wouldStore = (await ownBytes(store, typeof doc.sandbox === 'string' ? doc.sandbox : userSandbox(value), limit)) + tokens;
        if (wouldStore > limit.maxBytes) throw tooLarge(limit.maxBytes, wouldStore);
      }
      return tx.insert(collection, doc);
    },
  });
}
