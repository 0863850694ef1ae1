// --data <dir>: the memory store's sandboxes kept on disk. Every committed write transaction
// is appended to a journal and flushed to disk (fdatasync) before the commit returns, so a
// write the sandbox answered 2xx survives kill -9. At startup the last snapshot plus the
// journal are read back (a torn last record, from a crash mid-write, is dropped) and compacted
// into a new snapshot; the store compacts again when the journal grows past a limit. The
// snapshot holds each sandbox whole, so a sandbox does not change when a newer mock brings
// another seed (only a sandbox first written after the last compaction is replayed on the
// seed of the process that reads the journal).
//
//   <dir>/snapshot.json      {format, generation, sandboxes: {id: {collections, meta, updatedAt}}}
//   <dir>/journal-<n>.log    one JSON record per line: {s, t, c: changes} or {s, t, r: snapshot|null}
//   <dir>/lock               the pid of the process using the directory
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { cloneJson, snapshotOf, stateFromSnapshot, type Change, type CommitLog, type Doc, type SandboxState, type Snapshot } from '@payroll-api/sandbox/engine';

const FORMAT = 'payroll-sandbox-data/1';
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

type JournalRecord =
  | { s: string; t: string; c: Change[] }
  | { s: string; t: string; r: Snapshot | null };

interface SnapshotFile {
  format: typeof FORMAT;
  generation: number;
  sandboxes: Record<string, { collections: Record<string, Doc[]>; meta: Record<string, unknown>; updatedAt: string | null }>;
}

/** A change applied to a state, copying only the collections it touches. */
export function applyChanges(state: SandboxState, changes: readonly Change[], updatedAt: string): SandboxState {
  const collections = new Map(state.collections);
  const owned = new Set<string>();
  let meta: Record<string, unknown> | undefined;
  const own = (name: string) => {
    if (!owned.has(name)) {
      collections.set(name, new Map(collections.get(name) ?? []));
      owned.add(name);
    }
    return collections.get(name) as Map<string, Doc>;
  };
  for (const change of changes) {
    if (change.op === 'put') own(change.collection).set(change.doc.id, change.doc);
    else if (change.op === 'delete') own(change.collection).delete(change.id);
    else {
      meta ??= { ...state.meta };
      if ('value' in change) meta[change.key] = change.value;
      else delete meta[change.key];
    }
  }
  return { collections, meta: meta ?? state.meta, updatedAt };
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function takeLock(dir: string): string {
  const lock = path.join(dir, 'lock');
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return lock;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number(fs.readFileSync(lock, 'utf8'));
  let alive = holder === process.pid;
  if (Number.isInteger(holder) && holder > 0 && !alive) {
    try {
      process.kill(holder, 0);
      alive = true;
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  if (alive) throw new Error(`--data ${dir} is in use by process ${holder}; one process per data directory.`);
  fs.writeFileSync(lock, String(process.pid));
  return lock;
}

/** Reads the journal's records; a torn or partial last record is dropped, any other bad one is an error. */
function readJournal(file: string): JournalRecord[] {
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const records: JournalRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    try {
      records.push(JSON.parse(line) as JournalRecord);
    } catch (error) {
      const isLast = lines.slice(i + 1).every((rest) => rest === '');
      if (isLast) break;
      throw new Error(`${file}: record ${i + 1} is not valid JSON (${(error as Error).message}); the journal is damaged.`);
    }
  }
  return records;
}

export class DataDirectory implements CommitLog {
  private pending: { text: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;
  private failure: Error | undefined;
  private bytes = 0;

  private constructor(
    private readonly dir: string,
    private generation: number,
    private journal: fsp.FileHandle,
    private readonly lock: string,
  ) {}

  /** Opens (creating) the directory: the sandboxes it holds, compacted into a fresh snapshot. */
  static async open(dir: string, seed: Snapshot): Promise<{ log: DataDirectory; restored: Map<string, SandboxState> }> {
    fs.mkdirSync(dir, { recursive: true });
    const lock = takeLock(dir);
    const snapshotFile = path.join(dir, 'snapshot.json');
    let generation = 0;
    const restored = new Map<string, SandboxState>();
    if (fs.existsSync(snapshotFile)) {
      const file = JSON.parse(fs.readFileSync(snapshotFile, 'utf8')) as SnapshotFile;
      if (file.format !== FORMAT) throw new Error(`${snapshotFile}: format ${String(file.format)} is not ${FORMAT}.`);
      generation = file.generation;
      for (const [id, sandbox] of Object.entries(file.sandboxes)) {
        restored.set(id, stateFromSnapshot({ format: 'payroll-sandbox/1', collections: sandbox.collections, meta: sandbox.meta }, sandbox.updatedAt));
      }
    }
    const seedState = stateFromSnapshot(seed, null);
    for (const record of readJournal(path.join(dir, `journal-${generation}.log`))) {
      if ('c' in record) restored.set(record.s, applyChanges(restored.get(record.s) ?? seedState, record.c, record.t));
      else if (record.r === null) restored.delete(record.s);
      else restored.set(record.s, stateFromSnapshot(record.r, record.t));
    }
    const next = generation + 1;
    await writeSnapshot(dir, next, restored);
    const journal = await fsp.open(path.join(dir, `journal-${next}.log`), 'a');
    await syncDirectory(dir);
    for (const name of fs.readdirSync(dir)) if (/^journal-\d+\.log$/.test(name) && name !== `journal-${next}.log`) fs.rmSync(path.join(dir, name));
    return { log: new DataDirectory(dir, next, journal, lock), restored };
  }

  commit(sandbox: string, changes: readonly Change[], updatedAt: string): Promise<void> {
    return this.append({ s: sandbox, t: updatedAt, c: [...changes] });
  }

  replace(sandbox: string, state: SandboxState | null): Promise<void> {
    return this.append({ s: sandbox, t: state?.updatedAt ?? new Date().toISOString(), r: state ? snapshotOf(state) : null });
  }

  get needsCompaction(): boolean {
    return this.bytes > COMPACT_AFTER_BYTES;
  }

  /** Writes every sandbox to a new snapshot and starts a new journal; no commit may run meanwhile. */
  async compact(states: ReadonlyMap<string, SandboxState>): Promise<void> {
    const next = this.generation + 1;
    await writeSnapshot(this.dir, next, states);
    const journal = await fsp.open(path.join(this.dir, `journal-${next}.log`), 'a');
    await syncDirectory(this.dir);
    await this.journal.close();
    await fsp.rm(path.join(this.dir, `journal-${this.generation}.log`), { force: true });
    this.journal = journal;
    this.generation = next;
    this.bytes = 0;
  }

  async close(): Promise<void> {
    while (this.flushing) await new Promise((resolve) => setImmediate(resolve));
    await this.journal.close();
    fs.rmSync(this.lock, { force: true });
  }

  private append(record: JournalRecord): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const text = `${JSON.stringify(record)}\n`;
    return new Promise((resolve, reject) => {
      this.pending.push({ text, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Writes what is pending in one write and one fdatasync (commits arriving meanwhile share the next). */
  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        if (this.failure) throw this.failure;
        const text = batch.map((entry) => entry.text).join('');
        await this.journal.write(text);
        await this.journal.datasync();
        this.bytes += Buffer.byteLength(text);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        // A journal that failed to take a record may hold part of it: no later record may follow.
        this.failure ??= new Error(`--data ${this.dir}: writing the journal failed (${(error as Error).message}); writes are refused until a restart.`);
        for (const entry of batch) entry.reject(this.failure);
      }
    }
    this.flushing = false;
  }
}

async function writeSnapshot(dir: string, generation: number, states: ReadonlyMap<string, SandboxState>): Promise<void> {
  const file: SnapshotFile = { format: FORMAT, generation, sandboxes: {} };
  for (const [id, state] of states) {
    const { collections, meta } = snapshotOf(state);
    file.sandboxes[id] = { collections, meta: cloneJson(meta), updatedAt: state.updatedAt };
  }
  const temporary = path.join(dir, 'snapshot.json.tmp');
  const handle = await fsp.open(temporary, 'w');
  try {
    await handle.writeFile(JSON.stringify(file));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(temporary, path.join(dir, 'snapshot.json'));
  await syncDirectory(dir);
}
