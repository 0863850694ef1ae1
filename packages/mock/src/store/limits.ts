// Limits per sandbox: a write that would leave a sandbox holding more docs than --max-entities,
// more uploaded bytes (photos, logos: the decoded `data` of the upload collections) than
// --max-upload-bytes, or more stored bytes than --max-sandbox-bytes, is refused (400 naming the
// limit) and changes nothing; so is a snapshot beyond any of them. The internal sandboxes
// ('__auth': tokens and clients) are not limited themselves, but a login's token rows count
// towards the stored bytes of the sandbox they reach.
import { message, SandboxError, tenantPrefixOf, type CollectionSpec, type Doc, type LoadedApi, type Snapshot, type Tx } from '@payroll-api/sandbox/engine';
import { wrapTx } from './wrap-tx.js';
import type { OperatedStore } from './index.js';
import { limitTokenBytes, storedBytesTracker, withoutStoredBytes, withStoredBytes, type StoredBytesLimit } from './stored-bytes.js';

export interface SandboxLimits {
  maxEntities: number;
  /** Sandboxes one client of a hosted sandbox may hold (0: no limit). */
  maxSandboxesPerClient?: number;
  maxUploadBytes: number;
  /** Bytes one sandbox may store (documents, meta, uploads and its logins' tokens), with the
   * bytes of the seed every sandbox starts from (0: no limit). */
  stored?: StoredBytesLimit;
  /** Collections whose docs hold uploaded files (see uploadCollections). */
  uploadCollections: ReadonlySet<string>;
}

/** Bytes a base64 text decodes to (padded or not). */
export function decodedBytes(base64: string): number {
  let padding = 0;
  while (padding < 2 && base64.charCodeAt(base64.length - 1 - padding) === 61 /* = */) padding++;
  return Math.floor(((base64.length - padding) * 3) / 4);
}

/** The uploaded bytes a doc holds: its base64 `data`. */
function uploadBytesOf(doc: Doc | undefined): number {
  return typeof doc?.data === 'string' ? decodedBytes(doc.data) : 0;
}

/**
 * The collections that store uploaded files: those whose stored schema has a `data` property
 * with `contentEncoding: base64` (the description's Base64FileUpload and the logos built on it).
 */
export function uploadCollections(collections: readonly CollectionSpec[], apis: readonly LoadedApi[]): Set<string> {
  const found = new Set<string>();
  for (const spec of collections) {
    const doc = apis.find((api) => api.name === spec.schema?.api)?.doc;
    const schemas = (doc?.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
    if (spec.schema && schemas && holdsBase64Data(schemas[spec.schema.component], schemas, new Set())) found.add(spec.name);
  }
  return found;
}

function holdsBase64Data(node: unknown, schemas: Record<string, unknown>, seen: Set<unknown>): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  const schema = node as { $ref?: unknown; properties?: Record<string, { contentEncoding?: unknown }>; allOf?: unknown[] };
  if (typeof schema.$ref === 'string') return holdsBase64Data(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas, seen);
  if (schema.properties?.data?.contentEncoding === 'base64') return true;
  return (schema.allOf ?? []).some((part) => holdsBase64Data(part, schemas, seen));
}

export function limitSandboxes(store: OperatedStore, limits: SandboxLimits): OperatedStore {
  const { maxEntities, maxUploadBytes, uploadCollections: uploads } = limits;
  const stored = limits.stored && limits.stored.maxBytes > 0 ? limits.stored : undefined;
  const tooMany = (wouldHold: number) =>
    new SandboxError(400, [message(400, `This sandbox may hold at most ${maxEntities} entities (the limit --max-entities); it would hold ${wouldHold}. Delete some, or reset the sandbox (POST /__sandbox/reset).`, ['body'])]);
  const tooLarge = (wouldHold: number) =>
    new SandboxError(400, [
      message(400, `This sandbox may hold at most ${maxUploadBytes} bytes of uploaded files (the limit --max-upload-bytes); it would hold ${wouldHold}. Delete some uploads, or reset the sandbox (POST /__sandbox/reset).`, ['data']),
    ]);

  /** Uploaded bytes the sandbox holds, leaving out one doc (the one being replaced). */
  async function uploadedBytes(tx: Tx, except: { collection: string; id: string }): Promise<number> {
    let total = 0;
    for (const collection of uploads) {
      for (const doc of (await tx.find(collection)).rows) if (collection !== except.collection || doc.id !== except.id) total += uploadBytesOf(doc);
    }
    return total;
  }

  /** Refuses a write of an upload that would take the sandbox beyond the byte limit. */
  async function checkUpload(tx: Tx, collection: string, doc: Doc): Promise<void> {
    const bytes = uploadBytesOf(doc);
    if (bytes === 0 || !uploads.has(collection)) return;
    const wouldHold = (await uploadedBytes(tx, { collection, id: doc.id })) + bytes;
    if (wouldHold > maxUploadBytes) throw tooLarge(wouldHold);
  }

  const maxSandboxes = limits.maxSandboxesPerClient ?? 0;
  /** Client sandboxes known to hold data (they may be written without counting again). */
  const held = new Set<string>();

  /** Refuses the first write of a client's new sandbox beyond the client's number of sandboxes. */
  async function checkNewSandbox(sandbox: string): Promise<void> {
    const prefix = maxSandboxes > 0 ? tenantPrefixOf(sandbox) : undefined;
    if (prefix === undefined || held.has(sandbox)) return;
    const own = await store.list(prefix);
    if (own.some((s) => s.id === sandbox)) {
      if (held.size >= 100_000) held.clear();
      held.add(sandbox);
      return;
    }
    if (own.length >= maxSandboxes) {
      throw new SandboxError(400, [
        message(400, `This client holds ${own.length} sandboxes, the most it may (the limit --max-sandboxes); a user of the client who has none yet cannot write. Remove one (the operator's DELETE /__operator/sandboxes/{id}, or POST /__sandbox/reset with its token), or log in as a user who has one.`, ['body']),
      ]);
    }
  }

  return {
    async transaction(sandbox, mode, fn, options) {
      if (mode === 'read') return store.transaction(sandbox, mode, fn, options);
      if (sandbox.startsWith('__')) return stored ? store.transaction(sandbox, mode, (tx) => fn(limitTokenBytes(tx, store, stored)), options) : store.transaction(sandbox, mode, fn, options);
      await checkNewSandbox(sandbox);
      return store.transaction(sandbox, mode, async (given) => {
        const bytes = stored && storedBytesTracker(given, stored);
        const tx = bytes?.tx ?? given;
        let held: number | undefined;
        const limited = wrapTx(tx, {
          async insert(collection: string, doc: Doc) {
            held ??= tx.count ? await tx.count() : 0;
            if (held >= maxEntities) throw tooMany(held + 1);
            await checkUpload(tx, collection, doc);
            await tx.insert(collection, doc);
            held++;
          },
          async replace(collection: string, doc: Doc) {
            await checkUpload(tx, collection, doc);
            return tx.replace(collection, doc);
          },
          async remove(collection: string, id: string) {
            const removed = await tx.remove(collection, id);
            if (removed && held !== undefined) held--;
            return removed;
          },
        });
        const result = await fn(limited);
        await bytes?.commit();
        return result;
      }, options);
    },
    reset(sandbox) {
      held.delete(sandbox);
      return store.reset(sandbox);
    },
    resetIfIdle: store.resetIfIdle && ((sandbox, cutoff) => (held.delete(sandbox), store.resetIfIdle!(sandbox, cutoff))),
    exportSnapshot: async (sandbox) => (stored ? withoutStoredBytes(await store.exportSnapshot(sandbox)) : store.exportSnapshot(sandbox)),
    async importSnapshot(sandbox: string, given: Snapshot) {
      let snapshot = given;
      if (!sandbox.startsWith('__')) {
        await checkNewSandbox(sandbox);
        const docs = Object.values(snapshot.collections).reduce((total, list) => total + list.length, 0);
        if (docs > maxEntities) throw tooMany(docs);
        let bytes = 0;
        for (const collection of uploads) for (const doc of snapshot.collections[collection] ?? []) bytes += uploadBytesOf(doc);
        if (bytes > maxUploadBytes) throw tooLarge(bytes);
        if (stored) snapshot = await withStoredBytes(snapshot, stored);
      }
      return store.importSnapshot(sandbox, snapshot);
    },
    list: (prefix) => store.list(prefix),
    close: () => store.close(),
    ping: store.ping?.bind(store),
    count: store.count?.bind(store),
    cachedBytes: store.cachedBytes?.bind(store),
  };
}
