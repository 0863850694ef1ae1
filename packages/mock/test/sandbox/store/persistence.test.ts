// --data: committed writes survive a restart and kill -9; a torn last journal record is
// dropped; one process per directory.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.js';
import { MemoryStore } from '#sandbox/store/memory.js';
import { DataDirectory } from '../../../src/store/data-directory.js';
import type { Store } from '#sandbox/store/types.js';
import { collections, seed, sorted, storeConformance } from './conformance.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-data-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => path.join(root, `dir-${++dirs}`);
const open = (dataDir: string) => createStore({ seed, collections, dataDir });

storeConformance('memory kept in a directory', () => open(newDir()));

describe('--data', () => {
  it('keeps committed writes, resets, imports and meta across a restart', async () => {
    const dir = newDir();
    let store: Store = await open(dir);
    await store.transaction('kept', 'write', async (tx) => {
      await tx.insert('employees', { id: 'new-1', employeeNumber: 501 });
      await tx.remove('employers', 'e0000000-0000-4000-8000-000000000002');
      await tx.setMeta('clock', { offsetMs: 77 });
      await tx.setMeta('nothing', null);
    });
    await store.transaction('kept', 'write', (tx) => tx.setMeta('clock', undefined));
    await expect(store.transaction('kept', 'write', async (tx) => {
      await tx.insert('employees', { id: 'rolled-back' });
      throw new Error('refused');
    })).rejects.toThrow('refused');
    await store.transaction('was-reset', 'write', (tx) => tx.insert('employers', { id: 'x' }));
    await store.reset('was-reset');
    const imported = { format: 'payroll-sandbox/1' as const, collections: { employers: [{ id: 'only' }] }, meta: { a: 1 } };
    await store.importSnapshot('imported', imported);
    const before = { kept: await store.exportSnapshot('kept'), list: await store.list() };
    expect(before.kept.meta).toEqual({ nothing: null });
    await store.close();

    store = await open(dir);
    expect(await store.exportSnapshot('kept')).toEqual(before.kept);
    expect(sorted(await store.exportSnapshot('imported'))).toEqual(sorted(imported));
    expect(await store.list()).toEqual(before.list);
    expect(before.list.map((info) => info.id)).toEqual(['imported', 'kept']);
    await store.close();
  });

  it('drops a torn last record and refuses a damaged journal', async () => {
    const dir = newDir();
    const store = await open(dir);
    await store.transaction('t', 'write', (tx) => tx.setMeta('n', 1));
    await store.close();
    const journal = fs.readdirSync(dir).find((name) => name.startsWith('journal-'))!;
    fs.appendFileSync(path.join(dir, journal), '{"s":"t","t":"2026-01-01T00:00:00.000Z","c":[{"op":"meta","key":"n","val');
    const reopened = await open(dir);
    expect(await reopened.transaction('t', 'read', (tx) => tx.getMeta('n'))).toBe(1);
    await reopened.close();
    const next = fs.readdirSync(dir).find((name) => name.startsWith('journal-'))!;
    fs.writeFileSync(path.join(dir, next), 'not json\n{"s":"t","t":"2026-01-01T00:00:00.000Z","c":[]}\n');
    await expect(open(dir)).rejects.toThrow(/record 1 is not valid JSON; the journal is damaged|record 1 is not valid JSON/);
  });

  it('lets one process use a directory at a time', async () => {
    const dir = newDir();
    const store = await open(dir);
    await expect(open(dir)).rejects.toThrow(/in use by process/);
    await store.close();
    await (await open(dir)).close();
  });

  it('compacts the journal into the snapshot when asked, keeping every write', async () => {
    const dir = newDir();
    const { log, restored } = await DataDirectory.open(dir, seed);
    Object.defineProperty(log, 'needsCompaction', { get: () => true });
    const store = new MemoryStore({ seed, collections, log, restored });
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => store.transaction(`s${n % 3}`, 'write', (tx) => tx.insert('employers', { id: `c${n}` }))),
    );
    await store.close();
    const reopened = await open(dir);
    const counts = await Promise.all([0, 1, 2].map((n) => reopened.transaction(`s${n}`, 'read', async (tx) => (await tx.find('employers')).total)));
    expect(counts).toEqual([2 + 4, 2 + 3, 2 + 3]);
    await reopened.close();
  });

  it('keeps every write that returned when the process is killed with SIGKILL', async () => {
    const dir = newDir();
    const packageDir = path.resolve(import.meta.dirname, '../../..');
    // Inside the package, so that the bundle finds the package's dependencies.
    const script = path.join(packageDir, 'node_modules/.cache', `data-writer-${process.pid}.mjs`);
    execFileSync(path.join(packageDir, 'node_modules/.bin/esbuild'), [
      path.join(packageDir, 'test/support/data-writer.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      `--outfile=${script}`,
      '--log-level=warning',
    ]);
    const child = spawn(process.execPath, [script, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        // Killed while it keeps writing: the last record may be half written.
        if ((out.match(/committed/g) ?? []).length >= 60) resolve();
      });
      child.on('exit', () => {
        fs.rmSync(script, { force: true });
        reject(new Error(`the writer exited early: ${err}`));
      });
    });
    child.kill('SIGKILL');
    fs.rmSync(script, { force: true });
    expect(await exited).toBe('SIGKILL');
    const acknowledged = Math.max(...[...out.matchAll(/committed (\d+)/g)].map((match) => Number(match[1])));
    const store = await open(dir);
    const docs = (await store.exportSnapshot('crash')).collections.employees!;
    const last = (await store.transaction('crash', 'read', (tx) => tx.getMeta<number>('last')))!;
    expect(last).toBeGreaterThanOrEqual(acknowledged);
    for (let n = 1; n <= last; n++) expect(docs.some((doc) => doc.id === `written-${n}`)).toBe(true);
    expect(docs.filter((doc) => doc.id.startsWith('written-'))).toHaveLength(last);
    await store.close();
  });
});
