// The PostgreSQL store against the Store contract (a real server, a database per case), plus
// what only it has to get right: two processes' pools on one database.
import { expect, it } from 'vitest';
import pg from 'pg';
import { PostgresStore, type PostgresStoreOptions } from '../../../src/store/postgres/index.js';
import { UniqueViolation, type Store, type Tx } from '#sandbox/store/types.js';
import { MemoryStore } from '#sandbox/store/memory.js';
import { usePostgres } from '../../support/postgres.js';
import { EMPLOYER, OTHER_EMPLOYER, collections, seed, storeConformance } from './conformance.js';

const server = usePostgres();
let databases = 0;

async function freshStore(): Promise<PostgresStore> {
  return PostgresStore.open({ seed, collections, databaseUrl: await server().database(`conformance_${++databases}`) });
}

storeConformance('postgres', freshStore);

it('decides a unique rule across two pools: of many concurrent inserts exactly one succeeds', async () => {
  const url = await server().database('concurrency');
  // Two stores opening one database at once (as two processes starting together) both succeed.
  const [first, second] = await Promise.all([PostgresStore.open({ seed, collections, databaseUrl: url }), PostgresStore.open({ seed, collections, databaseUrl: url })]);
  try {
    const attempts = Array.from({ length: 32 }, (_, n) =>
      (n % 2 ? first : second).transaction('shared', 'write', (tx) =>
        tx.insert('employees', { id: `f0000000-0000-4000-8000-${String(n).padStart(12, '0')}`, employerId: EMPLOYER, employeeNumber: 4242 }),
      ),
    );
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(UniqueViolation);
        expect(outcome.reason).toMatchObject({ rule: 'employeeNumber-per-employer' });
      }
    }
    // Each store reads what the other wrote; the sandbox was materialized once.
    const count = async (store: PostgresStore) => (await store.transaction('shared', 'read', (tx) => tx.find('employees'))).total;
    expect([await count(first), await count(second)]).toEqual([7, 7]);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

it('keeps a transaction usable after a refused write inside it', async () => {
  const store = await freshStore();
  try {
    await store.transaction('usable', 'write', async (tx) => {
      await expect(tx.insert('employees', { id: 'x1', employerId: EMPLOYER, employeeNumber: 1 })).rejects.toBeInstanceOf(UniqueViolation);
      await expect(tx.replace('employees', { id: 'a0000000-0000-4000-8000-000000000002', employerId: EMPLOYER, employeeNumber: 1 })).rejects.toBeInstanceOf(
        UniqueViolation,
      );
      await tx.insert('employees', { id: 'x2', employerId: EMPLOYER, employeeNumber: 2000 });
    });
    expect(await store.transaction('usable', 'read', (tx) => tx.get('employees', 'x2'))).toMatchObject({ employeeNumber: 2000 });
  } finally {
    await store.close();
  }
});

/** A database of its own with a store on it, and a plain client beside the store to look at
 * what it did; both closed after `fn`, which may close the store itself first. */
async function withStoreAndClient(name: string, options: Partial<PostgresStoreOptions>, fn: (db: { url: string; store: PostgresStore; client: pg.Client }) => Promise<void>): Promise<void> {
  const url = await server().database(name);
  const store = await PostgresStore.open({ seed, collections, databaseUrl: url, ...options });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn({ url, store, client });
  } finally {
    await client.end();
    await store.close().catch(() => undefined);
  }
}

it('indexes the relations a collection declares, and a list by one uses its index', async () => {
  const relations = { collections: [...collections, { name: 'employments', relations: [{ field: 'employeeId', collection: 'employees' }] }] };
  await withStoreAndClient('relations', relations, async ({ store, client }) => {
    const employments = Array.from({ length: 3000 }, (_, n) => ({ id: `e${n}`, employeeId: `p${n % 1000}`, kind: n % 3 }));
    await store.importSnapshot('related', { ...seed, collections: { ...seed.collections, employments } });
    const indexes = await client.query<{ name: string; definition: string }>(`SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE indexname LIKE 'sandbox\\_by\\_%'`);
    expect(indexes.rows).toHaveLength(1);
    expect(indexes.rows[0]!.definition).toContain(`((doc -> 'employeeId'::text))) WHERE (collection = 'employments'::text)`);
    const scans = async () => Number((await client.query(`SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = $1`, [indexes.rows[0]!.name])).rows[0]?.idx_scan ?? 0);
    const before = await scans();
    const where = { kind: 'in' as const, field: { path: ['employeeId'], type: 'string' as const }, values: ['p7'] };
    const found = await store.transaction('related', 'read', (tx) => tx.find('employments', { where }));
    expect(found.rows.map((doc) => doc.id).sort()).toEqual(['e1007', 'e2007', 'e7']);
    // A backend's statistics reach the view at the latest when it ends.
    await store.close();
    await expect.poll(scans, { timeout: 5_000, interval: 100 }).toBeGreaterThan(before);
  });
});

it('commits the writers that queue on one sandbox together, each undone alone when it fails', async () => {
  await withStoreAndClient('group_commit', {}, async ({ store, client }) => {
    const generation = async () => Number((await client.query(`SELECT generation FROM sandbox_state WHERE sandbox = 'batched'`)).rows[0]?.generation ?? 0);
    const failure = new Error('refused after writing');
    let seenAfterFailure: unknown = 'not read';
    await store.transaction('batched', 'write', (tx) => tx.setMeta('started', true));
    const before = await generation();
    const writers = Array.from({ length: 20 }, (_, n) =>
      store.transaction('batched', 'write', async (tx) => {
        // What a failed writer wrote is gone for the writers after it, in the database and in what they are told.
        if (n === 6) seenAfterFailure = await tx.get('employees', 'g5');
        await tx.insert('employees', { id: `g${n}`, employerId: EMPLOYER, employeeNumber: 5000 + n });
        if (n === 5) throw failure;
        // Taken by the seed's first employee: refused by its unique rule.
        if (n === 7) await tx.replace('employees', { id: `g${n}`, employerId: EMPLOYER, employeeNumber: 1 });
        await tx.setMeta(`writer${n}`, n);
        return n;
      }),
    );
    const outcomes = await Promise.allSettled(writers);
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 20 }, (_, n) => (n === 5 || n === 7 ? 'rejected' : 'fulfilled')));
    expect((outcomes[5] as PromiseRejectedResult).reason).toBe(failure);
    expect((outcomes[7] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueViolation);
    expect(seenAfterFailure).toBeUndefined();
    // Fewer commits than writers: the 19 that queued behind the first committed as one.
    expect((await generation()) - before).toBeLessThan(5);
    const after = await store.exportSnapshot('batched');
    const ids = after.collections.employees!.map((doc) => doc.id).filter((id) => id.startsWith('g'));
    expect(ids.sort()).toEqual(Array.from({ length: 20 }, (_, n) => `g${n}`).filter((id) => id !== 'g5' && id !== 'g7').sort());
    expect(Object.keys(after.meta ?? {}).filter((key) => key.startsWith('writer'))).toHaveLength(18);
    expect(after.meta).toMatchObject({ started: true, writer0: 0, writer19: 19 });
  });
});

it('commits the writes already queued before it closes', async () => {
  const url = await server().database('close_drains');
  const store = await PostgresStore.open({ seed, collections, databaseUrl: url });
  const writers = Array.from({ length: 12 }, (_, n) => store.transaction(`closing${n % 3}`, 'write', (tx) => tx.insert('employers', { id: `c${n}`, companyName: `Closing ${n}` })));
  await store.close();
  await Promise.all(writers);
  const reopened = await PostgresStore.open({ seed, collections, databaseUrl: url });
  try {
    const counts = await Promise.all([0, 1, 2].map(async (n) => (await reopened.exportSnapshot(`closing${n}`)).collections.employers!.filter((doc) => doc.id.startsWith('c')).length));
    expect(counts).toEqual([4, 4, 4]);
  } finally {
    await reopened.close();
  }
});

it("commits a read's transaction with the connection's next query, or soon when it stays idle", async () => {
  await withStoreAndClient('open_reads', { poolSize: 1 }, async ({ store, client }) => {
    const names = async () => (await store.transaction('reads', 'read', (tx) => tx.find('employers'))).rows.map((doc) => doc.companyName);
    expect(await names()).toEqual(['Bakkerij de Boer', 'Fietsen BV']);
    // Another connection's write, then a read on the one connection: a new snapshot sees it.
    await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{companyName}', '"Bakkerij Boer"') WHERE collection = 'employers' AND doc ->> 'companyName' = 'Bakkerij de Boer'`);
    expect(await names()).toEqual(['Bakkerij Boer', 'Fietsen BV']);
    await store.transaction('reads', 'write', (tx) => tx.insert('employers', { id: 'e3', companyName: 'Zeilmakerij' }));
    expect(await names()).toContain('Zeilmakerij');
    expect(await store.count()).toBe(1);
    await expect
      .poll(async () => (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`)).rows[0].n, { timeout: 2_000, interval: 25 })
      .toBe(0);
  });
});

it('lets the reads of a sandbox that arrive together share a transaction, never one older than the read', async () => {
  await withStoreAndClient('read_rounds', {}, async ({ url, store, client }) => {
    const commits = async () => Number((await client.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)).rows[0].xact_commit);
    await store.transaction('rounds', 'write', (tx) => tx.setMeta('written', 0));
    const read = () => store.transaction('rounds', 'read', async (tx) => ((await tx.getMeta<number>('written')) ?? -1) + (await tx.find('employers')).total * 0);
    for (let n = 1; n <= 30; n++) {
      const writing = store.transaction('rounds', 'write', (tx) => tx.setMeta('written', n));
      const during = Array.from({ length: 4 }, read);
      await writing;
      // Asked after the write was acknowledged: each sees it.
      const after = await Promise.all(Array.from({ length: 8 }, read));
      expect(after).toEqual(Array.from({ length: 8 }, () => n));
      for (const seen of await Promise.all(during)) expect([n - 1, n]).toContain(seen);
    }
    await store.close();
    // 40 reads at once: far fewer transactions than reads (statistics reach the view once the backends end).
    const shared = await PostgresStore.open({ seed, collections, databaseUrl: url });
    await shared.transaction('rounds', 'read', (tx) => tx.find('employers'));
    const before = await commits();
    const many = await Promise.all(Array.from({ length: 40 }, () => shared.transaction('rounds', 'read', (tx) => tx.find('employers'))));
    expect(many.every((page) => page.total === 2)).toBe(true);
    await shared.close();
    await expect.poll(async () => (await commits()) - before, { timeout: 3_000, interval: 100 }).toBeGreaterThan(0);
    expect((await commits()) - before).toBeLessThan(20);
  });
});

it("answers a read's lists from the collections it keeps, and never once the state moved, in this process or another", async () => {
  await withStoreAndClient('collection_cache', {}, async ({ url, store, client }) => {
    const other = await PostgresStore.open({ seed, collections, databaseUrl: url });
    try {
      const byNumber = { orderBy: [{ field: { path: ['employeeNumber'], type: 'integer' as const }, descending: true }], limit: 2 };
      const names = () => store.transaction('cached', 'read', async (tx) => (await tx.find('employees', byNumber)).rows.map((doc) => `${doc.employeeNumber} ${(doc.name as { lastName: string }).lastName}`));
      await store.transaction('cached', 'write', (tx) => tx.setMeta('materialized', true));
      expect(await names()).toEqual(['6 bakker', '5 Jansen']);
      expect(store.collectionCache?.bytes).toBe(0);
      expect(await names()).toEqual(['6 bakker', '5 Jansen']);
      await store.collectionCache?.idle();
      expect(store.collectionCache?.bytes).toBeGreaterThan(0);
      // Changed behind the store's back (no new generation): the kept collection answers, so the lists come from it.
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{name,lastName}', '"Behind"') WHERE sandbox = 'cached' AND id LIKE '%6'`);
      expect(await names()).toEqual(['6 bakker', '5 Jansen']);
      expect((await store.transaction('cached', 'read', (tx) => tx.get('employees', 'a0000000-0000-4000-8000-000000000006')))?.name).toMatchObject({ lastName: 'bakker' });
      // Another process writes: the next read sees its new state at once.
      await other.transaction('cached', 'write', async (tx) => {
        const doc = (await tx.get('employees', 'a0000000-0000-4000-8000-000000000005'))!;
        await tx.replace('employees', { ...doc, name: { lastName: 'Elsewhere' } });
      });
      expect(await names()).toEqual(['6 Behind', '5 Elsewhere']);
      // This process writes, and a write's own lists never come from the cache: they see the write.
      const listed = await store.transaction('cached', 'write', async (tx) => {
        await tx.remove('employees', 'a0000000-0000-4000-8000-000000000006');
        return (await tx.find('employees', byNumber)).rows.map((doc) => doc.employeeNumber);
      });
      expect(listed).toEqual([5, 4]);
      expect(await names()).toEqual(['5 Elsewhere', '4 de Vries']);
    } finally {
      await other.close();
    }
  });
});

it('keeps a collection across writes to the others, by its own generation, and lets writes read it until they write it', async () => {
  await withStoreAndClient('collection_versions', {}, async ({ url, store, client }) => {
    const other = await PostgresStore.open({ seed, collections, databaseUrl: url });
    try {
      const sandbox = 'versions';
      const employer = 'e0000000-0000-4000-8000-000000000001';
      const lastNames = (tx: Tx) => tx.find('employees', { orderBy: [{ field: { path: ['employeeNumber'], type: 'integer' as const }, descending: false }] }).then((page) => page.rows.map((doc) => (doc.name as { lastName: string }).lastName).join(','));
      const read = <T,>(fn: (tx: Tx) => Promise<T>) => store.transaction(sandbox, 'read', fn);
      await store.transaction(sandbox, 'write', async (tx) => {
        const doc = (await tx.get('employers', employer))!;
        await tx.replace('employers', { ...doc, companyName: 'First' });
      });
      // Kept: employees and employers, then both changed behind the store's back (no new generation).
      for (let i = 0; i < 2; i++) await read((tx) => Promise.all([lastNames(tx), tx.find('employers')]));
      await store.collectionCache?.idle();
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{name,lastName}', '"Behind"') WHERE sandbox = $1 AND collection = 'employees'`, [sandbox]);
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{companyName}', '"Behind"') WHERE sandbox = $1 AND collection = 'employers'`, [sandbox]);
      const before = 'Jansen,bakker,Visser,de Vries,Jansen,bakker';
      expect(await read(lastNames)).toBe(before);
      // Another process writes employers and the meta: employees stay kept, employers do not.
      await other.transaction(sandbox, 'write', async (tx) => {
        const doc = (await tx.get('employers', employer))!;
        await tx.replace('employers', { ...doc, companyName: 'Second' });
        await tx.setMeta('note', 'written');
      });
      expect(await read(lastNames)).toBe(before);
      expect(await read(async (tx) => (await tx.get('employers', employer))?.companyName)).toBe('Second');
      // A write reads a kept collection until it writes it, then its own writes.
      const seen = await store.transaction(sandbox, 'write', async (tx) => {
        const first = await lastNames(tx);
        const doc = (await tx.get('employees', 'a0000000-0000-4000-8000-000000000001'))!;
        await tx.replace('employees', { ...doc, name: { lastName: 'Mine' } });
        return [first, await lastNames(tx)];
      });
      expect(seen).toEqual([before, 'Mine,Behind,Behind,Behind,Behind,Behind']);
      // Its commit moved the kept collection on with its change (the change behind the store's back is not one).
      const kept = 'Mine,bakker,Visser,de Vries,Jansen,bakker';
      expect(await read(lastNames)).toBe(kept);
      // A generation renewed without the collections' (an import, or a process that does not record them): nothing kept holds.
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{name,lastName}', '"Again"') WHERE sandbox = $1 AND collection = 'employees'`, [sandbox]);
      expect(await read(lastNames)).toBe(kept);
      await client.query(`UPDATE sandbox_state SET generation = nextval('sandbox_generation') WHERE sandbox = $1`, [sandbox]);
      expect(await read(lastNames)).toBe('Again,Again,Again,Again,Again,Again');
    } finally {
      await other.close();
    }
  });
});

it('lets the writers of a batch read a kept collection until one of them writes it', async () => {
  await withStoreAndClient('batch_and_cache', {}, async ({ store }) => {
    for (let i = 0; i < 2; i++) await store.transaction('batch', 'write', (tx) => tx.setMeta('written', i));
    for (let i = 0; i < 2; i++) await store.transaction('batch', 'read', (tx) => tx.find('employees'));
    await store.collectionCache?.idle();
    const failure = new Error('refused after writing');
    const totals = await Promise.allSettled(
      Array.from({ length: 10 }, (_, n) =>
        store.transaction('batch', 'write', async (tx) => {
          const { total } = await tx.find('employees');
          await tx.insert('employees', { id: `b${n}`, employerId: EMPLOYER, employeeNumber: 7000 + n });
          if (n === 3) throw failure;
          return total;
        }),
      ),
    );
    // Each writer counts the seed's six and the inserts of the writers before it that stood.
    expect(totals.map((t) => (t.status === 'fulfilled' ? t.value : 'failed'))).toEqual([6, 7, 8, 'failed', 9, 10, 11, 12, 13, 14]);
    expect((await store.transaction('batch', 'read', (tx) => tx.find('employees'))).total).toBe(15);
  });
});

it("loads a collection for the cache with the version the collection has: a write to another leaves it", async () => {
  await withStoreAndClient('collection_loads', {}, async ({ store, client }) => {
    const write = (collection: 'employees' | 'employers', id: string) =>
      store.transaction('loads', 'write', async (tx) => {
        const doc = (await tx.get(collection, id))!;
        await tx.replace(collection, { ...doc, touched: true });
      });
    expect(await store.collectionAt('loads', 'employees')).toBeUndefined();
    // The first write copies the seed; the second records the collections' generations.
    await write('employees', 'a0000000-0000-4000-8000-000000000001');
    await write('employees', 'a0000000-0000-4000-8000-000000000001');
    const generationOfEmployees = async () => (await client.query(`SELECT collection_generations -> 'employees' AS n FROM sandbox_state WHERE sandbox = 'loads'`)).rows[0].n as number;
    const first = await store.collectionAt('loads', 'employees');
    expect(first?.version).toBe(`loads#${await generationOfEmployees()}`);
    expect(first?.texts.map((text) => (JSON.parse(text) as { employeeNumber: number }).employeeNumber).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    await write('employers', 'e0000000-0000-4000-8000-000000000001');
    expect((await store.collectionAt('loads', 'employees'))?.version).toBe(first?.version);
    await write('employees', 'a0000000-0000-4000-8000-000000000002');
    const next = await store.collectionAt('loads', 'employees');
    expect(next?.version).not.toBe(first?.version);
    expect(next?.version).toBe(`loads#${await generationOfEmployees()}`);
  });
});

it("moves a kept collection on with this process's writes: the next read needs no load, and reads as SQL does", async () => {
  await withStoreAndClient('collection_advance', {}, async ({ url, store, client }) => {
    const plain = await PostgresStore.open({ seed, collections, databaseUrl: url, collectionCacheBytes: 0 });
    try {
      const sandbox = 'advance';
      const all = (on: PostgresStore) => on.transaction(sandbox, 'read', (tx) => tx.find('employees', { orderBy: [{ field: { path: ['employeeNumber'], type: 'integer' as const }, descending: false }] }));
      for (let i = 0; i < 2; i++) await store.transaction(sandbox, 'write', (tx) => tx.setMeta('written', i));
      for (let i = 0; i < 2; i++) await all(store);
      await store.collectionCache?.idle();
      // Behind the store's back: proof that what follows comes from the kept collection.
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{name,initials}', '"B."') WHERE sandbox = $1 AND id LIKE '%6'`, [sandbox]);
      await store.transaction(sandbox, 'write', async (tx) => {
        const doc = (await tx.get('employees', 'a0000000-0000-4000-8000-000000000001'))!;
        await tx.replace('employees', { ...doc, name: { lastName: 'Written', initials: 'W.' }, zeta: 1, alpha: [1.50, { b: 2, a: 1 }] });
        await tx.remove('employees', 'a0000000-0000-4000-8000-000000000002');
        await tx.insert('employees', { id: 'a0000000-0000-4000-8000-000000000099', employerId: EMPLOYER, employeeNumber: 99 });
      });
      const cached = await all(store);
      expect(cached.rows.map((doc) => doc.employeeNumber)).toEqual([1, 3, 4, 5, 6, 99]);
      expect(cached.rows.find((doc) => doc.employeeNumber === 6)?.name).toMatchObject({ initials: 'J.' });
      // Docs as SQL reads them (PostgreSQL's key order and numbers), but for the change behind its back.
      await client.query(`UPDATE sandbox_doc SET doc = jsonb_set(doc, '{name,initials}', '"J."') WHERE sandbox = $1 AND id LIKE '%6'`, [sandbox]);
      expect(JSON.stringify(cached.rows)).toBe(JSON.stringify((await all(plain)).rows));
    } finally {
      await plain.close();
    }
  });
});

it('brings the lists of every match a write read up to date with its writes, as the memory store answers them', async () => {
  await withStoreAndClient('lists_after_writes', { collectionCacheBytes: 0 }, async ({ store }) => {
    const memory = new MemoryStore({ seed, collections });
    const byName = { where: { kind: 'in' as const, field: { path: ['employerId'], type: 'string' as const }, values: [EMPLOYER] }, orderBy: [{ field: { path: ['name', 'lastName'], type: 'string' as const }, descending: true }] };
    const id = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const run = (on: Store) =>
      on.transaction('lists', 'write', async (tx) => {
        const ids = async () => (await tx.find('employees', byName)).rows.map((doc) => `${doc.employeeNumber}:${(doc.name as { lastName?: string } | undefined)?.lastName}`);
        const seen = [await ids()];
        const third = (await tx.get('employees', id(3)))!;
        await tx.replace('employees', { ...third, name: { lastName: 'Zwart' } });
        seen.push(await ids());
        await tx.remove('employees', id(4));
        await tx.insert('employees', { id: id(50), employerId: EMPLOYER, employeeNumber: 50, name: { lastName: 'Aalders' } });
        await tx.insert('employees', { id: id(51), employerId: 'someone else', employeeNumber: 51, name: { lastName: 'Zz' } });
        seen.push(await ids());
        // Moved out of the filter by a write.
        await tx.replace('employees', { ...third, employerId: 'someone else' });
        seen.push(await ids());
        return seen;
      });
    try {
      const fromPostgres = await run(store);
      expect(fromPostgres).toEqual(await run(memory));
      expect(fromPostgres[3]).not.toContain('3:Zwart');
      const after = await store.transaction('lists', 'read', (tx) => tx.find('employees', byName));
      expect(after.rows.map((doc) => `${doc.employeeNumber}:${(doc.name as { lastName?: string }).lastName}`)).toEqual(fromPostgres[3]);
    } finally {
      await memory.close();
    }
  });
});

it('lets writes load small collections into the cache, and only reads large ones', async () => {
  const padded = Array.from({ length: 60 }, (_, n) => ({ id: `p${n}`, employerId: EMPLOYER, employeeNumber: 9000 + n, notes: 'x'.repeat(600) }));
  const large = { ...seed, collections: { ...seed.collections, employees: [...seed.collections.employees!, ...padded] } };
  const url = await server().database('write_loads');
  const store = await PostgresStore.open({ seed: large, collections, databaseUrl: url });
  try {
    expect(store.smallInSeed('employers')).toBe(true);
    expect(store.smallInSeed('employees')).toBe(false);
    for (let i = 0; i < 2; i++) await store.transaction('loads', 'write', (tx) => tx.setMeta('written', i));
    const ask = (mode: 'read' | 'write') => store.transaction('loads', mode, async (tx) => [await tx.find('employees'), await tx.find('employers')]);
    for (let i = 0; i < 3; i++) await ask('write');
    await store.collectionCache?.idle();
    const employers = JSON.stringify(seed.collections.employers!.map((doc) => ({ companyName: doc.companyName, id: doc.id }))).length;
    expect(store.collectionCache?.bytes).toBeGreaterThan(0);
    expect(store.collectionCache?.bytes).toBeLessThan(2 * employers);
    for (let i = 0; i < 2; i++) await ask('read');
    await store.collectionCache?.idle();
    expect(store.collectionCache?.bytes).toBeGreaterThan(60 * 600);
  } finally {
    await store.close();
  }
});

it('keeps no collections with a collection cache of 0', async () => {
  await withStoreAndClient('no_collection_cache', { collectionCacheBytes: 0 }, async ({ store }) => {
    expect(store.collectionCache).toBeUndefined();
    for (let i = 0; i < 3; i++) expect((await store.transaction('plain', 'read', (tx) => tx.find('employees'))).total).toBe(6);
  });
});

it('sends a replace of a doc it read without waiting for it, a lone writer\'s with its COMMIT, and undoes only the writer of one the database refuses', async () => {
  await withStoreAndClient('sent_replaces', { collectionCacheBytes: 0 }, async ({ store }) => {
    const sandbox = 'sent';
    const rename = (id: string, companyName: string) => async (tx: Tx) => tx.replace('employers', { ...(await tx.get('employers', id))!, companyName });
    const names = async () => (await store.exportSnapshot(sandbox)).collections.employers!.map((doc) => doc.companyName);
    await store.transaction(sandbox, 'write', (tx) => tx.setMeta('materialized', true));
    const before = store.roundTrips;
    expect(await store.transaction(sandbox, 'write', rename(EMPLOYER, 'Bakkerij Boer'))).toBe(true);
    // The opening, the get, then the replace with the COMMIT.
    expect(store.roundTrips - before).toBe(3);
    expect(await names()).toEqual(['Bakkerij Boer', 'Fietsen BV']);
    // PostgreSQL's jsonb refuses a NUL character: the lone writer gets the refusal, and nothing of it is kept.
    const refused = { code: '22P05' };
    await expect(
      store.transaction(sandbox, 'write', async (tx) => {
        await tx.setMeta('refused', true);
        return rename(EMPLOYER, 'Nul\u0000')(tx);
      }),
    ).rejects.toMatchObject(refused);
    expect((await store.exportSnapshot(sandbox)).meta).not.toHaveProperty('refused');
    // In a batch (the writers after the first queue behind it): refused as the last writer with
    // nothing before it to keep, and between two writers that are kept.
    const outcomes = await Promise.allSettled([
      store.transaction(sandbox, 'write', rename(EMPLOYER, 'Eerste')),
      store.transaction(sandbox, 'write', async (tx) => (await tx.find('employers')).total),
      store.transaction(sandbox, 'write', rename(OTHER_EMPLOYER, 'Nul\u0000')),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason.code))).toEqual([true, 2, '22P05']);
    expect(await names()).toEqual(['Eerste', 'Fietsen BV']);
    const kept = await Promise.allSettled([
      store.transaction(sandbox, 'write', rename(EMPLOYER, 'Tweede')),
      store.transaction(sandbox, 'write', rename(EMPLOYER, 'Derde')),
      store.transaction(sandbox, 'write', rename(OTHER_EMPLOYER, 'Nul\u0000')),
      store.transaction(sandbox, 'write', rename(OTHER_EMPLOYER, 'Fietsen NV')),
    ]);
    expect(kept.map((o) => (o.status === 'fulfilled' ? o.value : o.reason.code))).toEqual([true, true, '22P05', true]);
    expect(await names()).toEqual(['Derde', 'Fietsen NV']);
    // What the writes read after them is what they stored.
    expect(await store.transaction(sandbox, 'write', async (tx) => (await tx.find('employers')).rows.map((doc) => doc.companyName))).toEqual(['Derde', 'Fietsen NV']);
  });
});

it('takes one round trip per further writer of a batch that updates a doc with a unique rule and another it read', async () => {
  await withStoreAndClient('batch_round_trips', { collectionCacheBytes: 0 }, async ({ store }) => {
    const sandbox = 'batch_trips';
    const employee = 'a0000000-0000-4000-8000-000000000001';
    // As a PUT of an employee: its reads together, the update a unique rule checks, then the other doc.
    const put = (n: number) => (tx: Tx) =>
      Promise.all([tx.get('employees', employee), tx.get('employers', EMPLOYER)]).then(async ([person, employer]) => {
        await tx.replace('employees', { ...person!, name: { lastName: `Writer ${n}` } });
        return tx.replace('employers', { ...employer!, companyName: `Writer ${n}` });
      });
    await store.transaction(sandbox, 'write', (tx) => tx.setMeta('materialized', true));
    const before = store.roundTrips;
    // The first writer makes a batch of its own; the three queued behind it make the next.
    const written = await Promise.all([1, 2, 3, 4].map((n) => store.transaction(sandbox, 'write', put(n))));
    expect(written).toEqual([true, true, true, true]);
    // A lone writer: the opening, its reads, both updates with the COMMIT (3). The batch: the
    // opening, the first writer's reads, its two updates, then per further writer its savepoint
    // with both updates (1 each), and the COMMIT.
    expect(store.roundTrips - before).toBe(3 + (1 + 1 + 1 + 2 * 1 + 1));
    const after = await store.exportSnapshot(sandbox);
    expect(after.collections.employers!.find((doc) => doc.id === EMPLOYER)?.companyName).toBe('Writer 4');
    expect(after.collections.employees!.find((doc) => doc.id === employee)?.name).toEqual({ lastName: 'Writer 4' });
  });
});

it("answers a write's foreseen reads (sent with its opening) as it reads them itself, from the seed and from its own rows, and one that fails changes nothing of the write", async () => {
  const store = await freshStore();
  const id = 'a0000000-0000-4000-8000-000000000001';
  const byEmployer = { where: { kind: 'in' as const, field: { path: ['employerId'], type: 'string' as const }, values: [EMPLOYER] } };
  const reads = [
    { collection: 'employees', id },
    { collection: 'employees', query: byEmployer },
  ];
  /** What a write reads of the employee and its employer's employees, and the round trips it took. */
  const readInWrite = async (sandbox: string, foreseen: boolean) => {
    // The collection cache loads what a read lists in the background: counted apart from the write's own round trips.
    await store.collectionCache?.idle();
    const before = store.roundTrips;
    const read = await store.transaction(sandbox, 'write', async (tx) => ({ doc: await tx.get('employees', id), list: await tx.find('employees', byEmployer) }), foreseen ? { reads } : {});
    return { read, roundTrips: store.roundTrips - before };
  };
  try {
    for (const materialized of [false, true]) {
      if (materialized) await store.transaction('foreseen', 'write', (tx) => tx.insert('employees', { id: 'own', employerId: EMPLOYER, employeeNumber: 3000 }));
      const plain = await readInWrite('foreseen', false);
      const foreseen = await readInWrite('foreseen', true);
      expect(foreseen.read).toEqual(plain.read);
      expect(foreseen.read.list.rows.some((doc) => doc.id === 'own')).toBe(materialized);
      // The opening, the get, the list, the COMMIT (a read right after the sandbox's own write may
      // take one or two more, as work that write left goes out); with the reads foreseen, the opening carries them.
      expect(plain.roundTrips).toBeGreaterThanOrEqual(4);
      expect(foreseen.roundTrips).toBe(2);
    }
    // PostgreSQL refuses a NUL in text: the read fails, the transaction begins again without it.
    const written = await store.transaction('foreseen', 'write', async (tx) => {
      await tx.insert('employees', { id: 'after-failed-read', employerId: EMPLOYER, employeeNumber: 3001 });
      return 'written';
    }, { reads: [{ collection: 'employees', id: 'nul\u0000id' }] });
    expect(written).toBe('written');
    expect(await store.transaction('foreseen', 'read', (tx) => tx.get('employees', 'after-failed-read'))).toMatchObject({ employeeNumber: 3001 });
  } finally {
    await store.close();
  }
});
