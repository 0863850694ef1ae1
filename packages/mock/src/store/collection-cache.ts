// Collections this process reads often, kept parsed at the state they were read in, so that a
// list of them runs its filter, order and page here instead of in PostgreSQL's jsonb functions
// (a 10,000-employee filtered page: about a millisecond here, about 18 ms as SQL), and a get or
// a list of them costs no round trip.
//
// An entry is one collection of one source (a sandbox, or the seed) at one version: the
// generation of the last commit that wrote that collection (CollectionVersions in postgres/collection-versions.ts).
// A generation never comes back, so an entry is right for as long as a transaction sees its
// collection at that version, in this process or any other one on the same database: nothing
// here needs telling. A write to one collection leaves the entries of the others standing, and
// a commit of this process moves the entries of those it wrote on with its changes (advance).
// A collection is loaded on its second ask at one version (a get or a list; a commit that wrote
// it carries an ask over), so one written elsewhere between every two reads never pays for a
// load it would not use. The load runs beside the requests, in a transaction of its own: until
// it is in, they go on through SQL, so the cache never makes one wait.
import { CollectionScan, type Doc } from '@payroll-api/sandbox/engine';

/** A collection as a load read it: its version then, and its docs' JSON. */
export interface LoadedCollection {
  version: string;
  texts: string[];
}

interface Entry {
  version: string;
  scan: CollectionScan;
  /** Each doc's JSON size, by id, and their sum. */
  sizes: Map<string, number>;
  bytes: number;
}

/** Collections whose first ask at a version (or refusal) is remembered, at most (oldest forgotten first). */
const SEEN_LIMIT = 10_000;
/** Asks at new versions after which a collection not admitted is tried again. */
const RETRY_REFUSED_AFTER = 100;

export class CollectionCache {
  /** By source and collection, least recently used first (a hit moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  /** The version at which a collection was asked for once, by source and collection. */
  private readonly seen = new Map<string, string>();
  /** Collections a load brought that were not kept (larger than the whole cache, or a write's
   * that would have pushed others out): asks at new versions left before trying again. */
  private readonly refused = new Map<string, number>();
  /** Loads under way, by source and collection (one at a time each). */
  private readonly loading = new Map<string, Promise<void>>();
  /** Commits to apply once the load under way of their collection is in, in order. */
  private readonly queued = new Map<string, Promise<void>>();
  private held = 0;

  /** @param maxBytes what the kept collections' JSON may add up to (about what the parsed docs take) */
  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /** The collection's scan at `version` (`source#generation`), when it is kept. */
  scanOf(source: string, version: string, collection: string): CollectionScan | undefined {
    const key = keyOf(source, collection);
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.scan;
  }

  /**
   * The collection's scan at `version`, when it is kept. When it is not, and this is the second
   * time the collection is asked for at this version, `load` starts beside the caller: it reads
   * the collection's version and docs' JSON in a transaction of its own (undefined: the source
   * is gone), and they are kept at that version, whichever it is by then. A failed load is
   * dropped; the next second ask tries again. A write's ask (`evict` false) loads what fits
   * beside the kept collections and pushes none out: many sandboxes written by turns would
   * otherwise load collections that are pushed out before any read uses them.
   */
  scanFor(source: string, version: string, collection: string, load: () => Promise<LoadedCollection | undefined>, evict = true): CollectionScan | undefined {
    const kept = this.scanOf(source, version, collection);
    if (kept) return kept;
    const key = keyOf(source, collection);
    if (this.loading.has(key)) return undefined;
    if (this.seen.get(key) !== version) {
      this.seen.delete(key);
      this.seen.set(key, version);
      if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.keys().next().value!);
      const left = this.refused.get(key);
      if (left !== undefined) {
        if (left <= 1) this.refused.delete(key);
        else this.refused.set(key, left - 1);
      }
      return undefined;
    }
    if (this.refused.has(key)) return undefined;
    const loaded = load()
      .then((found) => {
        if (found !== undefined) return this.keep(key, found.version, found.texts, evict);
      })
      .catch(() => undefined)
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loaded);
    return undefined;
  }

  /**
   * A commit of this process wrote the collection, at version `from`, and left it at `to` with
   * `changes` (each doc as stored by id, null: removed; none: the commit changed no doc of it):
   * a kept entry at `from` moves to `to` holding what the database holds now.
   */
  advance(source: string, from: string, to: string, collection: string, changes: ReadonlyMap<string, string | null> | undefined): void {
    const key = keyOf(source, collection);
    // Runs after a commit: whatever goes wrong here drops the entry, never the commit's answer.
    const apply = () => {
      try {
        this.advanceNow(key, from, to, changes);
      } catch {
        this.forget(key);
      }
    };
    // A load under way may have read the collection before this commit: it goes first.
    const before = this.queued.get(key) ?? this.loading.get(key);
    if (before === undefined) return apply();
    const after = before.then(apply);
    this.queued.set(key, after);
    void after.finally(() => {
      if (this.queued.get(key) === after) this.queued.delete(key);
    });
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  private advanceNow(key: string, from: string, to: string, changes: ReadonlyMap<string, string | null> | undefined): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== from) {
      // Not kept: the ask at `from` still counts at `to` (a collection this process writes
      // between every two asks loads on the next one).
      if (entry === undefined && this.seen.get(key) === from) this.seen.set(key, to);
      return;
    }
    let bytes = entry.bytes;
    const sizes = new Map(entry.sizes);
    const docs: Doc[] = [];
    for (const doc of entry.scan.docs) if (!changes?.has(doc.id)) docs.push(doc);
    for (const [id, text] of changes ?? []) {
      bytes -= sizes.get(id) ?? 0;
      sizes.delete(id);
      if (text === null) continue;
      docs.push(JSON.parse(text) as Doc);
      sizes.set(id, text.length);
      bytes += text.length;
    }
    this.forget(key);
    this.put(key, { version: to, scan: new CollectionScan(docs), sizes, bytes });
  }

  /** Resolves when the loads under way are in (or dropped), and the commits queued behind them applied. */
  async idle(): Promise<void> {
    while (this.loading.size > 0 || this.queued.size > 0) await Promise.all([...this.loading.values(), ...this.queued.values()]);
  }

  /** Drops everything (the store closes). */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.queued.clear();
    this.seen.clear();
    this.refused.clear();
    this.held = 0;
  }

  private async keep(key: string, version: string, texts: string[], evict: boolean): Promise<void> {
    let bytes = 0;
    for (const text of texts) bytes += text.length;
    if (!this.admits(key, version, bytes, evict)) return;
    const docs = await parseInSlices(texts);
    // Asked again: the cache may have changed while the docs were parsed.
    if (!this.admits(key, version, bytes, evict)) return;
    this.forget(key);
    const sizes = new Map(docs.map((doc, i) => [doc.id, texts[i]!.length]));
    this.put(key, { version, scan: new CollectionScan(docs), sizes, bytes });
  }

  /** Whether a load's collection at `version`, of `bytes`, is to be kept. */
  private admits(key: string, version: string, bytes: number, evict: boolean): boolean {
    const previous = this.entries.get(key);
    // A commit of this process may have moved the entry on while the load ran.
    if (previous && generationOf(previous.version) > generationOf(version)) return false;
    const room = this.maxBytes - this.held + (previous?.bytes ?? 0);
    if (bytes <= this.maxBytes && (evict || bytes <= room)) return true;
    // Not kept; loading it again on every second ask would cost more than it saves.
    this.refused.set(key, RETRY_REFUSED_AFTER);
    if (this.refused.size > SEEN_LIMIT) this.refused.delete(this.refused.keys().next().value!);
    return false;
  }

  /** Keeps an entry, letting the least recently used go beyond the bytes. */
  private put(key: string, entry: Entry): void {
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.held += entry.bytes;
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxBytes) break;
      this.forget(oldest);
    }
  }
}

/** JSON text parsed per turn of the event loop at most: a large collection's load lets the
 * requests around it run while it is parsed (10,000 employees are about 15 MB). */
const PARSE_SLICE_CHARS = 256 * 1024;

async function parseInSlices(texts: readonly string[]): Promise<Doc[]> {
  const docs = new Array<Doc>(texts.length);
  let chars = 0;
  for (let i = 0; i < texts.length; i++) {
    docs[i] = JSON.parse(texts[i]!) as Doc;
    chars += texts[i]!.length;
    if (chars >= PARSE_SLICE_CHARS) {
      chars = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return docs;
}

/** The generation a version (`source#generation`) names; generations only grow. */
function generationOf(version: string): number {
  return Number(version.slice(version.lastIndexOf('#') + 1));
}

function keyOf(source: string, collection: string): string {
  return `${source}\u0000${collection}`;
}
