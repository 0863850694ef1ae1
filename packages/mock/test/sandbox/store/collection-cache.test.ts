// The collection cache on its own: when it loads, what it keeps, what it lets go, how commits
// move it on. Its use by the PostgreSQL store (staleness across processes, answers equal to
// SQL's) is in postgres.test.ts and memory-vs-postgres.property.test.ts.
import { describe, expect, it } from 'vitest';
import { CollectionCache, type LoadedCollection } from '../../../src/store/collection-cache.js';

const docs = (...ids: string[]) => ids.map((id) => JSON.stringify({ id, name: `name of ${id}` }));
const byId = { orderBy: [{ field: { path: ['id'], type: 'string' as const }, descending: false }] };

/** A load that counts its calls and reads `texts` at `version`. */
function loader(texts: string[], version: string) {
  const load = async (): Promise<LoadedCollection | undefined> => {
    load.calls++;
    return { version, texts };
  };
  load.calls = 0;
  return load;
}

/** Two asks at one version, the second starting the load, and the load in. */
async function findTwice(cache: CollectionCache, source: string, version: string, collection: string, load: () => Promise<LoadedCollection | undefined>) {
  cache.scanFor(source, version, collection, load);
  const scan = cache.scanFor(source, version, collection, load);
  await cache.idle();
  return scan;
}

describe('CollectionCache', () => {
  it('loads a collection beside its second ask at one version, and answers from it after', async () => {
    const cache = new CollectionCache(1024 * 1024);
    const load = loader(docs('b', 'a', 'c'), 's#1');
    expect(cache.scanFor('s', 's#1', 'items', load)).toBeUndefined();
    expect(load.calls).toBe(0);
    // The second ask goes on without the collection; the load runs beside it.
    expect(cache.scanFor('s', 's#1', 'items', load)).toBeUndefined();
    expect(load.calls).toBe(1);
    await cache.idle();
    const scan = cache.scanFor('s', 's#1', 'items', load);
    expect(scan?.find({ ...byId, limit: 2 }).rows.map((doc) => doc.id)).toEqual(['a', 'b']);
    expect(cache.scanOf('s', 's#1', 'items')).toBe(scan);
    expect(load.calls).toBe(1);
    expect(cache.bytes).toBe(docs('b', 'a', 'c').join('').length);
  });

  it('never answers for another version, and a new version starts over with one ask through SQL', async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a'), 's#1'));
    expect(cache.scanOf('s', 's#1', 'items')).toBeDefined();
    expect(cache.scanOf('s', 's#2', 'items')).toBeUndefined();
    const again = loader(docs('a'), 's#2');
    expect(cache.scanFor('s', 's#2', 'items', again)).toBeUndefined();
    expect(again.calls).toBe(0);
    await findTwice(cache, 's', 's#2', 'items', again);
    expect(again.calls).toBe(1);
    expect(cache.scanOf('s', 's#2', 'items')).toBeDefined();
    // The new version replaced the old one: one entry per collection of a source.
    expect(cache.scanOf('s', 's#1', 'items')).toBeUndefined();
    expect(cache.bytes).toBe(docs('a')[0]!.length);
  });

  it('keeps what a load read at the version it read, whichever that is by then', async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#2', 'items', loader(docs('a'), 's#3'));
    expect(cache.scanOf('s', 's#2', 'items')).toBeUndefined();
    expect(cache.scanOf('s', 's#3', 'items')?.get('a')).toMatchObject({ id: 'a' });
    // The source is gone: nothing kept.
    await findTwice(cache, 't', 't#1', 'items', async () => undefined);
    expect(cache.scanOf('t', 't#1', 'items')).toBeUndefined();
  });

  it('keeps collections of sources apart', async () => {
    const cache = new CollectionCache(1024 * 1024);
    for (const source of ['s', 't']) await findTwice(cache, source, `${source}#1`, 'items', loader(docs(source), `${source}#1`));
    expect(cache.scanOf('s', 's#1', 'items')?.get('s')).toMatchObject({ id: 's' });
    expect(cache.scanOf('t', 't#1', 'items')?.get('s')).toBeUndefined();
    expect(cache.scanOf('s', 's#1', 'other')).toBeUndefined();
  });

  it('starts one load of a collection at a time', async () => {
    const cache = new CollectionCache(1024 * 1024);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.assign(
      async (): Promise<LoadedCollection> => {
        slow.calls++;
        await gate;
        return { version: 's#1', texts: docs('a', 'b') };
      },
      { calls: 0 },
    );
    for (let i = 0; i < 5; i++) expect(cache.scanFor('s', 's#1', 'items', slow)).toBeUndefined();
    for (let i = 0; i < 2; i++) expect(cache.scanFor('s', 's#2', 'items', slow)).toBeUndefined();
    expect(slow.calls).toBe(1);
    release();
    await cache.idle();
    expect(cache.scanFor('s', 's#1', 'items', slow)?.find({}).total).toBe(2);
    expect(slow.calls).toBe(1);
  });

  it('drops a failed load, and the next second ask tries again', async () => {
    const cache = new CollectionCache(1024 * 1024);
    let calls = 0;
    const failing = async (): Promise<LoadedCollection> => {
      calls++;
      throw new Error('connection lost');
    };
    await findTwice(cache, 's', 's#1', 'items', failing);
    expect(cache.scanOf('s', 's#1', 'items')).toBeUndefined();
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a'), 's#1'));
    expect(calls).toBe(1);
    expect(cache.scanOf('s', 's#1', 'items')).toBeDefined();
  });

  it('lets the least recently used collections go beyond its bytes', async () => {
    const one = docs('a')[0]!.length;
    const cache = new CollectionCache(2 * one);
    const keep = (collection: string) => findTwice(cache, 's', 's#1', collection, loader(docs('a'), 's#1'));
    await keep('first');
    await keep('second');
    expect(cache.scanOf('s', 's#1', 'first')).toBeDefined(); // now the most recently used
    await keep('third');
    expect(cache.scanOf('s', 's#1', 'second')).toBeUndefined();
    expect(cache.scanOf('s', 's#1', 'first')).toBeDefined();
    expect(cache.scanOf('s', 's#1', 'third')).toBeDefined();
    expect(cache.bytes).toBe(2 * one);
  });

  it('keeps no collection larger than itself, and tries one again only after many new versions', async () => {
    const texts = docs('a', 'b', 'c');
    const cache = new CollectionCache(texts[0]!.length);
    let calls = 0;
    const at = (version: string) => async () => {
      calls++;
      return { version, texts };
    };
    await findTwice(cache, 's', 's#1', 'items', at('s#1'));
    expect(cache.bytes).toBe(0);
    expect(cache.scanOf('s', 's#1', 'items')).toBeUndefined();
    for (let version = 2; version <= 100; version++) await findTwice(cache, 's', `s#${version}`, 'items', at(`s#${version}`));
    expect(calls).toBe(1);
    await findTwice(cache, 's', 's#101', 'items', at('s#101'));
    expect(calls).toBe(2);
  });

  it("keeps what a write's ask loads only where it fits: a read's pushes the least recently used out", async () => {
    const one = docs('a')[0]!.length;
    const cache = new CollectionCache(2 * one);
    const ask = async (collection: string, evict: boolean) => {
      const load = loader(docs('a'), 's#1');
      cache.scanFor('s', 's#1', collection, load, evict);
      cache.scanFor('s', 's#1', collection, load, evict);
      await cache.idle();
      return cache.scanOf('s', 's#1', collection) !== undefined;
    };
    expect(await ask('first', false)).toBe(true);
    expect(await ask('second', false)).toBe(true);
    expect(await ask('third', false)).toBe(false);
    expect([cache.scanOf('s', 's#1', 'first'), cache.scanOf('s', 's#1', 'second')].every(Boolean)).toBe(true);
    // Refused: a write's asks at this version do not load it again.
    const again = loader(docs('a'), 's#1');
    cache.scanFor('s', 's#1', 'third', again, false);
    expect(again.calls).toBe(0);
    expect(await ask('fourth', true)).toBe(true);
    expect(cache.scanOf('s', 's#1', 'first')).toBeUndefined();
    expect(cache.bytes).toBe(2 * one);
  });

  it("moves an entry on with a commit's changes, and only from the version it holds", async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a', 'b', 'c'), 's#1'));
    const changes = new Map<string, string | null>([
      ['a', JSON.stringify({ id: 'a', name: 'changed' })],
      ['b', null],
      ['d', JSON.stringify({ id: 'd', name: 'new' })],
    ]);
    cache.advance('s', 's#1', 's#5', 'items', changes);
    expect(cache.scanOf('s', 's#1', 'items')).toBeUndefined();
    const moved = cache.scanOf('s', 's#5', 'items')!;
    expect(moved.find(byId).rows).toEqual([
      { id: 'a', name: 'changed' },
      { id: 'c', name: 'name of c' },
      { id: 'd', name: 'new' },
    ]);
    expect(cache.bytes).toBe([JSON.stringify({ id: 'a', name: 'changed' }), docs('c')[0], JSON.stringify({ id: 'd', name: 'new' })].join('').length);
    // A commit from another version than the one kept: nothing moves.
    cache.advance('s', 's#4', 's#6', 'items', new Map());
    expect(cache.scanOf('s', 's#5', 'items')).toBe(moved);
    // A commit that wrote nothing of it after all: the entry moves as it is.
    cache.advance('s', 's#5', 's#7', 'items', undefined);
    expect(cache.scanOf('s', 's#7', 'items')?.find({}).total).toBe(3);
  });

  it('drops an entry it cannot move on, and never throws to the commit', async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a'), 's#1'));
    expect(() => cache.advance('s', 's#1', 's#2', 'items', new Map([['a', '{not json']]))).not.toThrow();
    expect(cache.scanOf('s', 's#1', 'items')).toBeUndefined();
    expect(cache.scanOf('s', 's#2', 'items')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('applies the commits that come while a load runs after it, in order', async () => {
    const cache = new CollectionCache(1024 * 1024);
    let release!: (loaded: LoadedCollection) => void;
    const late = () => new Promise<LoadedCollection>((resolve) => (release = resolve));
    cache.scanFor('s', 's#1', 'items', late);
    cache.scanFor('s', 's#1', 'items', late);
    cache.advance('s', 's#1', 's#2', 'items', new Map([['a', JSON.stringify({ id: 'a', name: 'at 2' })]]));
    cache.advance('s', 's#2', 's#3', 'items', new Map([['b', JSON.stringify({ id: 'b', name: 'at 3' })]]));
    expect(cache.scanOf('s', 's#3', 'items')).toBeUndefined();
    // The load read the collection before both commits.
    release({ version: 's#1', texts: docs('a') });
    await cache.idle();
    expect(cache.scanOf('s', 's#3', 'items')?.find(byId).rows).toEqual([
      { id: 'a', name: 'at 2' },
      { id: 'b', name: 'at 3' },
    ]);
  });

  it('keeps an entry a commit moved on when a load of an older version comes in after it', async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a'), 's#1'));
    cache.advance('s', 's#1', 's#3', 'items', new Map([['a', JSON.stringify({ id: 'a', name: 'at 3' })]]));
    // A reader whose transaction began before that commit (at s#2, another process's) loads.
    await findTwice(cache, 's', 's#2', 'items', loader([JSON.stringify({ id: 'a', name: 'at 2' })], 's#2'));
    expect(cache.scanOf('s', 's#2', 'items')).toBeUndefined();
    expect(cache.scanOf('s', 's#3', 'items')?.get('a')).toMatchObject({ name: 'at 3' });
  });

  it("counts an ask at a commit's version when the commit wrote a collection it did not keep", async () => {
    const cache = new CollectionCache(1024 * 1024);
    const load = loader(docs('a'), 's#2');
    expect(cache.scanFor('s', 's#1', 'items', load)).toBeUndefined();
    cache.advance('s', 's#1', 's#2', 'items', new Map([['a', docs('a')[0]!]]));
    expect(cache.scanFor('s', 's#2', 'items', load)).toBeUndefined();
    await cache.idle();
    expect(load.calls).toBe(1);
    expect(cache.scanOf('s', 's#2', 'items')).toBeDefined();
  });

  it('parses a large load a slice at a time, letting other work run between', async () => {
    const cache = new CollectionCache(64 * 1024 * 1024);
    const texts = Array.from({ length: 2000 }, (_, n) => JSON.stringify({ id: `d${n}`, notes: 'x'.repeat(1000) }));
    const load = loader(texts, 's#1');
    cache.scanFor('s', 's#1', 'items', load);
    cache.scanFor('s', 's#1', 'items', load);
    // Queued before the load's parse begins: it runs at the parse's first pause, before the entry is in.
    const seenBetween = await new Promise<number>((resolve) => setImmediate(() => resolve(cache.bytes)));
    expect(seenBetween).toBe(0);
    await cache.idle();
    expect(cache.scanOf('s', 's#1', 'items')?.find({}).total).toBe(2000);
  });

  it('copies what it answers: a caller that changes a doc changes nothing kept', async () => {
    const cache = new CollectionCache(1024 * 1024);
    await findTwice(cache, 's', 's#1', 'items', loader(docs('a'), 's#1'));
    const scan = cache.scanOf('s', 's#1', 'items')!;
    scan.find({}).rows[0]!.name = 'changed';
    scan.get('a')!.name = 'changed';
    expect(scan.get('a')).toMatchObject({ name: 'name of a' });
  });
});
