// The in-memory store. Committed state is immutable and shared: a sandbox that has only read
// has no state of its own and reads the seed; its first committing write transaction gets a
// state whose untouched collections are still the seed's (one Map copy per collection written),
// so materializing a sandbox costs a few Map copies, not a copy of the seed.
// A write transaction works on a draft and swaps it in on success; a throw drops the draft.
// Write transactions on one sandbox are queued; reads never wait (they see the last commit).
import { cloneJson } from './clone.js';
import { CollectionScan } from './scan.js';
import { ruleKey } from './rule-key.js';
import { runInSlices, Slices } from '../util/slices.js';
import {
  UniqueViolation,
  type Doc,
  type FindQuery,
  type Page,
  type SandboxInfo,
  type Snapshot,
  type Store,
  type StoreOptions,
  type Tx,
  type UniqueRule,
} from './types.js';

/** One committed state of a sandbox; never mutated once committed. */
export interface SandboxState {
  collections: ReadonlyMap<string, ReadonlyMap<string, Doc>>;
  meta: Readonly<Record<string, unknown>>;
  updatedAt: string | null;
}

/** One committed change, as the persistence journal (--data) records it. */
export type Change =
  | { op: 'put'; collection: string; doc: Doc }
  | { op: 'delete'; collection: string; id: string }
  /** Without `value`: the key is removed. */
  | { op: 'meta'; key: string; value?: unknown };

/** Where committed changes go before a commit returns (see persistence.ts); absent in pure memory. */
export interface CommitLog {
  commit(sandbox: string, changes: readonly Change[], updatedAt: string): Promise<void>;
  replace(sandbox: string, state: SandboxState | null): Promise<void>;
  /** True when the log would rather start over from a snapshot of every sandbox. */
  readonly needsCompaction: boolean;
  compact(states: ReadonlyMap<string, SandboxState>): Promise<void>;
  close(): Promise<void>;
}

const EMPTY: ReadonlyMap<string, Doc> = new Map();

/** Scans of committed collections (never mutated: a write copies the collection's Map), so that
 * the next list of the same collection reads the columns built for the last one. */
const committedScans = new WeakMap<ReadonlyMap<string, Doc>, CollectionScan>();

/** Per rule, the id holding each unique key of a collection. */
type KeyIndex = Map<string, string>[];

/** The unique keys of committed collections (see committedScans): built once, then handed on
 * from commit to commit, so that a write looks its keys up instead of reading every doc. */
const committedKeys = new WeakMap<ReadonlyMap<string, Doc>, KeyIndex>();

function keyIndexOf(docs: ReadonlyMap<string, Doc>, rules: readonly UniqueRule[]): KeyIndex {
  return rules.map((rule) => {
    const ids = new Map<string, string>();
    for (const doc of docs.values()) {
      const key = ruleKey(doc, rule);
      if (key !== null) ids.set(key, doc.id);
    }
    return ids;
  });
}

/** `owned`: nobody else holds the snapshot's docs, so they are kept instead of copied. */
export function stateFromSnapshot(snapshot: Snapshot, updatedAt: string | null, owned = false): SandboxState {
  const collections = new Map<string, Map<string, Doc>>();
  for (const [name, docs] of Object.entries(snapshot.collections)) {
    const byId = new Map<string, Doc>();
    for (const doc of docs) byId.set(doc.id, owned ? doc : cloneJson(doc));
    collections.set(name, byId);
  }
  return { collections, meta: owned ? (snapshot.meta ?? {}) : cloneJson(snapshot.meta ?? {}), updatedAt };
}

export function snapshotOf(state: SandboxState): Snapshot {
  const collections: Record<string, Doc[]> = {};
  for (const [name, docs] of state.collections) collections[name] = [...docs.values()].map(cloneJson);
  return { format: 'payroll-sandbox/1', collections, meta: cloneJson({ ...state.meta }) };
}

/** Checks a whole state against the rules (import), one doc at a time (a caller may pause
 * between them): answers the first clash found, if any. */
function* firstViolation(state: SandboxState, rules: ReadonlyMap<string, UniqueRule[]>): Generator<void, UniqueViolation | null> {
  for (const [name, docs] of state.collections) {
    for (const rule of rules.get(name) ?? []) {
      const seen = new Set<string>();
      for (const doc of docs.values()) {
        yield;
        const key = ruleKey(doc, rule);
        if (key === null) continue;
        if (seen.has(key)) return new UniqueViolation(name, rule.name, rule.fields);
        seen.add(key);
      }
    }
  }
  return null;
}

interface Entry {
  /** Undefined while the sandbox reads the seed. */
  state: SandboxState | undefined;
  /** The end of the queue of write transactions. */
  tail: Promise<void>;
  queued: number;
}

export interface MemoryStoreOptions extends StoreOptions {
  log?: CommitLog;
  /** Sandboxes restored from disk (--data). */
  restored?: Map<string, SandboxState>;
}

export class MemoryStore implements Store {
  private readonly seed: SandboxState;
  private readonly rules = new Map<string, UniqueRule[]>();
  private readonly entries = new Map<string, Entry>();
  private readonly log: CommitLog | undefined;
  private logging = 0;
  private readonly drained: (() => void)[] = [];
  private compaction: Promise<void> | undefined;

  constructor(options: MemoryStoreOptions) {
    this.seed = stateFromSnapshot(options.seed, null, options.seedOwned);
    for (const spec of options.collections) this.rules.set(spec.name, spec.unique ?? []);
    this.log = options.log;
    for (const [id, state] of options.restored ?? []) this.entries.set(id, { state, tail: Promise.resolve(), queued: 0 });
  }

  async transaction<T>(sandbox: string, mode: 'read' | 'write', fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (mode === 'read') {
      const tx = new MemoryTx(sandbox, this.stateOf(sandbox), this.rules, false);
      try {
        return await fn(tx);
      } finally {
        tx.close();
      }
    }
    return this.exclusive(sandbox, async (entry) => {
      const tx = new MemoryTx(sandbox, entry.state ?? this.seed, this.rules, true);
      let result: T;
      try {
        result = await fn(tx);
      } finally {
        tx.close();
      }
      if (tx.changes.length > 0) {
        const updatedAt = new Date().toISOString();
        await this.logged(() => this.log?.commit(sandbox, tx.changes, updatedAt), () => (entry.state = tx.result(updatedAt)));
      }
      return result;
    });
  }

  async reset(sandbox: string): Promise<void> {
    await this.exclusive(sandbox, async (entry) => {
      if (entry.state === undefined) return;
      await this.logged(() => this.log?.replace(sandbox, null), () => (entry.state = undefined));
    });
  }

  async exportSnapshot(sandbox: string): Promise<Snapshot> {
    return snapshotOf(this.stateOf(sandbox));
  }

  /** The state is built and checked in slices (see Slices): a large import lets other requests run. */
  async importSnapshot(sandbox: string, snapshot: Snapshot): Promise<void> {
    const slices = new Slices();
    const collections = new Map<string, Map<string, Doc>>();
    for (const [name, docs] of Object.entries(snapshot.collections)) {
      const byId = new Map<string, Doc>();
      for (const doc of docs) {
        if (byId.has(doc.id)) throw new UniqueViolation(name, 'id', ['id']);
        byId.set(doc.id, cloneJson(doc));
        const pause = slices.due();
        if (pause) await pause;
      }
      collections.set(name, byId);
    }
    const state: SandboxState = { collections, meta: cloneJson(snapshot.meta ?? {}), updatedAt: new Date().toISOString() };
    const violation = await runInSlices(firstViolation(state, this.rules), slices);
    if (violation) throw violation;
    await this.exclusive(sandbox, async (entry) => {
      await this.logged(() => this.log?.replace(sandbox, state), () => (entry.state = state));
    });
  }

  async list(prefix = ''): Promise<SandboxInfo[]> {
    const infos: SandboxInfo[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.state === undefined || id.startsWith('__') || !id.startsWith(prefix)) continue;
      let docs = 0;
      for (const collection of entry.state.collections.values()) docs += collection.size;
      infos.push({ id, materialized: true, docs, updatedAt: entry.state.updatedAt });
    }
    return infos.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async close(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.tail));
    await this.compaction;
    await this.log?.close();
  }

  /** Writes to the log, then applies the change in memory. A compaction of the log waits for
   * the writes in between (so its snapshot holds every logged change) and holds new ones. */
  private async logged(write: () => Promise<void> | undefined, apply: () => void): Promise<void> {
    while (this.compaction) await this.compaction;
    this.logging++;
    try {
      await write();
      apply();
    } finally {
      if (--this.logging === 0) for (const resolve of this.drained.splice(0)) resolve();
    }
    if (this.log?.needsCompaction && !this.compaction) {
      this.compaction = this.compact().finally(() => (this.compaction = undefined));
    }
  }

  private async compact(): Promise<void> {
    while (this.logging > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    const states = new Map<string, SandboxState>();
    for (const [id, entry] of this.entries) if (entry.state) states.set(id, entry.state);
    await this.log?.compact(states);
  }

  private stateOf(sandbox: string): SandboxState {
    return this.entries.get(sandbox)?.state ?? this.seed;
  }

  /** Runs `fn` when every earlier write of the sandbox has finished. */
  private async exclusive<T>(sandbox: string, fn: (entry: Entry) => Promise<T>): Promise<T> {
    let entry = this.entries.get(sandbox);
    if (!entry) {
      entry = { state: undefined, tail: Promise.resolve(), queued: 0 };
      this.entries.set(sandbox, entry);
    }
    const previous = entry.tail;
    let release!: () => void;
    entry.tail = new Promise<void>((resolve) => (release = resolve));
    entry.queued++;
    try {
      await previous;
      return await fn(entry);
    } finally {
      entry.queued--;
      release();
      // A sandbox that never committed leaves nothing behind.
      if (entry.queued === 0 && entry.state === undefined) this.entries.delete(sandbox);
    }
  }
}

/** One transaction: reads its base state; a write transaction copies what it changes. */
class MemoryTx implements Tx {
  readonly changes: Change[] = [];
  private collections: Map<string, ReadonlyMap<string, Doc>> | undefined;
  private readonly owned = new Set<string>();
  /** Per collection written: its own copy of the committed key index (see keyIndex). */
  private readonly keyIndexes = new Map<string, KeyIndex>();
  private meta: Record<string, unknown> | undefined;
  private closed = false;

  constructor(
    readonly sandbox: string,
    private readonly base: SandboxState,
    private readonly rules: ReadonlyMap<string, UniqueRule[]>,
    private readonly writable: boolean,
  ) {}

  close(): void {
    this.closed = true;
  }

  /** A read sees one committed state, never mutated: its identity is the version (see Tx.version). */
  get version(): object | undefined {
    return this.writable ? undefined : this.base;
  }

  /** The state it leaves, committed: its key indexes go with the collections they index. */
  result(updatedAt: string): SandboxState {
    const collections = this.collections ?? this.base.collections;
    for (const [collection, index] of this.keyIndexes) {
      const docs = collections.get(collection);
      if (docs) committedKeys.set(docs, index);
    }
    return { collections, meta: this.meta ?? this.base.meta, updatedAt };
  }

  async count(): Promise<number> {
    this.check(false);
    let docs = 0;
    for (const collection of (this.collections ?? this.base.collections).values()) docs += collection.size;
    return docs;
  }

  async get(collection: string, id: string): Promise<Doc | undefined> {
    this.check(false);
    const doc = this.read(collection)?.get(id);
    return doc === undefined ? undefined : cloneJson(doc);
  }

  async has(collection: string, id: string): Promise<boolean> {
    this.check(false);
    return this.read(collection)?.has(id) ?? false;
  }

  async find(collection: string, query: FindQuery = {}): Promise<Page> {
    this.check(false);
    return this.scanOf(collection).find(query);
  }

  async insert(collection: string, doc: Doc): Promise<void> {
    this.check(true);
    if (this.read(collection)?.has(doc.id)) throw new UniqueViolation(collection, 'id', ['id']);
    this.put(collection, doc);
  }

  async replace(collection: string, doc: Doc): Promise<boolean> {
    this.check(true);
    if (!this.read(collection)?.has(doc.id)) return false;
    this.put(collection, doc);
    return true;
  }

  async remove(collection: string, id: string): Promise<boolean> {
    this.check(true);
    if (!this.read(collection)?.has(id)) return false;
    this.unindex(collection, id);
    this.write(collection).delete(id);
    this.changes.push({ op: 'delete', collection, id });
    return true;
  }

  async getMeta<T = unknown>(key: string): Promise<T | undefined> {
    this.check(false);
    const meta = this.meta ?? this.base.meta;
    return Object.hasOwn(meta, key) ? cloneJson(meta[key] as T) : undefined;
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    this.check(true);
    const copy = cloneJson(value);
    this.meta ??= { ...this.base.meta };
    if (copy === undefined) delete this.meta[key];
    else this.meta[key] = copy;
    this.changes.push(copy === undefined ? { op: 'meta', key } : { op: 'meta', key, value: copy });
  }

  private put(collection: string, doc: Doc): void {
    const copy = cloneJson(doc);
    const rules = this.rules.get(collection) ?? [];
    const index = rules.length > 0 ? this.keyIndex(collection, rules) : undefined;
    const keys = rules.map((rule) => ruleKey(copy, rule));
    keys.forEach((key, r) => {
      const holder = key === null ? undefined : index![r]!.get(key);
      if (holder !== undefined && holder !== copy.id) throw new UniqueViolation(collection, rules[r]!.name, rules[r]!.fields);
    });
    if (index) {
      this.unindex(collection, copy.id);
      keys.forEach((key, r) => {
        if (key !== null) index[r]!.set(key, copy.id);
      });
    }
    this.write(collection).set(copy.id, copy);
    this.changes.push({ op: 'put', collection, doc: copy });
  }

  /**
   * The collection's unique keys (per rule, the id holding each), as this transaction leaves
   * them: on its first write of the collection, a copy of the committed collection's index
   * (built once per committed collection that has none), which its commit hands on. A
   * collection it removed from first is its own already, and indexed as it is.
   */
  private keyIndex(collection: string, rules: readonly UniqueRule[]): KeyIndex {
    let index = this.keyIndexes.get(collection);
    if (index) return index;
    const docs = this.read(collection) ?? EMPTY;
    if (this.owned.has(collection)) index = keyIndexOf(docs, rules);
    else {
      let committed = committedKeys.get(docs);
      if (!committed) {
        committed = keyIndexOf(docs, rules);
        // EMPTY stands for every absent collection, whatever its rules: its index is not kept.
        if (docs !== EMPTY) committedKeys.set(docs, committed);
      }
      index = committed.map((ids) => new Map(ids));
    }
    this.keyIndexes.set(collection, index);
    return index;
  }

  /** Drops the keys the stored doc `id` holds from the collection's key index, if it has one. */
  private unindex(collection: string, id: string): void {
    const index = this.keyIndexes.get(collection);
    const before = index && this.read(collection)?.get(id);
    if (!before) return;
    (this.rules.get(collection) ?? []).forEach((rule, r) => {
      const key = ruleKey(before, rule);
      if (key !== null && index[r]!.get(key) === id) index[r]!.delete(key);
    });
  }

  /** A committed collection's scan is shared; one this transaction has written is its own. */
  private scanOf(collection: string): CollectionScan {
    const source = this.read(collection) ?? EMPTY;
    if (this.owned.has(collection)) return new CollectionScan(source.values());
    let scan = committedScans.get(source);
    if (!scan) {
      scan = new CollectionScan(source.values());
      committedScans.set(source, scan);
    }
    return scan;
  }

  private read(collection: string): ReadonlyMap<string, Doc> | undefined {
    return (this.collections ?? this.base.collections).get(collection);
  }

  /** The collection's own copy in this transaction, made on its first write. */
  private write(collection: string): Map<string, Doc> {
    this.collections ??= new Map(this.base.collections);
    if (!this.owned.has(collection)) {
      this.collections.set(collection, new Map(this.collections.get(collection) ?? []));
      this.owned.add(collection);
    }
    return this.collections.get(collection) as Map<string, Doc>;
  }

  private check(write: boolean): void {
    if (this.closed) throw new Error('The transaction has ended; use the Tx of the running transaction.');
    if (write && !this.writable) throw new Error(`Sandbox ${this.sandbox}: a read transaction cannot write.`);
  }
}

