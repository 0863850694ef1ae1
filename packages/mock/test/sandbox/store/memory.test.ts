// The memory store against the Store contract, plus what only it promises: reading costs
// nothing, and materializing shares the collections a sandbox did not write.
import { expect, it } from 'vitest';
import { MemoryStore } from '#sandbox/store/memory.js';
import { collections, seed, storeConformance } from './conformance.js';

storeConformance('memory', async () => new MemoryStore({ seed, collections }));

it('a first write copies only the collection it writes', async () => {
  const store = new MemoryStore({ seed, collections });
  const internals = store as unknown as { entries: Map<string, { state: { collections: Map<string, unknown> } }> };
  const seedState = (store as unknown as { seed: { collections: Map<string, unknown> } }).seed;
  await store.transaction('s', 'write', (tx) => tx.remove('employers', 'e0000000-0000-4000-8000-000000000002'));
  const state = internals.entries.get('s')!.state;
  expect(state.collections.get('employees')).toBe(seedState.collections.get('employees'));
  expect(state.collections.get('employers')).not.toBe(seedState.collections.get('employers'));
  // Reads from many sandboxes leave nothing behind.
  for (let i = 0; i < 100; i++) await store.transaction(`reader-${i}`, 'read', (tx) => tx.find('employees'));
  expect(internals.entries.size).toBe(1);
});

it('keeps a transaction usable after a refused write inside it', async () => {
  const store = new MemoryStore({ seed, collections });
  await store.transaction('usable', 'write', async (tx) => {
    await expect(tx.insert('employees', { id: 'x1', employerId: seed.collections.employees![0]!.employerId, employeeNumber: 1 })).rejects.toThrow('not unique');
    await tx.insert('employees', { id: 'x2', employeeNumber: 2000 });
  });
  expect(await store.transaction('usable', 'read', (tx) => tx.get('employees', 'x2'))).toEqual({ id: 'x2', employeeNumber: 2000 });
});

it('lists read the values kept for a committed collection, and see every write', async () => {
  const store = new MemoryStore({ seed, collections });
  const byNumber = {
    where: { kind: 'compare' as const, field: { path: ['employeeNumber'], type: 'integer' as const }, op: 'ge' as const, value: 5000 },
    orderBy: [{ field: { path: ['employeeNumber'], type: 'integer' as const }, descending: true }],
  };
  const numbers = (sandbox: string) => store.transaction(sandbox, 'read', async (tx) => (await tx.find('employees', byNumber)).rows.map((doc) => doc.employeeNumber));
  expect(await numbers('kept')).toEqual([]);
  await store.transaction('kept', 'write', async (tx) => {
    await tx.insert('employees', { id: 'k1', employeeNumber: 5001 });
    // The transaction's own writes show in its lists.
    expect((await tx.find('employees', byNumber)).rows.map((doc) => doc.employeeNumber)).toEqual([5001]);
    await tx.insert('employees', { id: 'k2', employeeNumber: 5002 });
    expect((await tx.find('employees', byNumber)).rows.map((doc) => doc.employeeNumber)).toEqual([5002, 5001]);
  });
  expect(await numbers('kept')).toEqual([5002, 5001]);
  await store.transaction('kept', 'write', async (tx) => {
    await tx.replace('employees', { id: 'k1', employeeNumber: 4000 });
    await tx.insert('employees', { id: 'k3', employeeNumber: 6000 });
  });
  expect(await numbers('kept')).toEqual([6000, 5002]);
  await store.transaction('kept', 'write', (tx) => tx.remove('employees', 'k2'));
  expect(await numbers('kept')).toEqual([6000]);
  // A rolled-back write leaves the lists as they were; other sandboxes still read the seed.
  await expect(
    store.transaction('kept', 'write', async (tx) => {
      await tx.insert('employees', { id: 'k4', employeeNumber: 7000 });
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  expect(await numbers('kept')).toEqual([6000]);
  expect(await numbers('other')).toEqual([]);
});

it('hands out a list read only as the docs it holds, frozen, and every other read as copies', async () => {
  const store = new MemoryStore({ seed, collections });
  const [held] = await store.transaction('frozen', 'read', async (tx) => (await tx.find('employees', { limit: 1, readOnly: true })).rows);
  expect(Object.isFrozen(held)).toBe(true);
  expect(() => {
    (held as Record<string, unknown>).employeeNumber = -1;
  }).toThrow(TypeError);
  const [again] = await store.transaction('frozen', 'read', async (tx) => (await tx.find('employees', { limit: 1, readOnly: true })).rows);
  expect(again).toBe(held);
  const [copy] = await store.transaction('frozen', 'read', async (tx) => (await tx.find('employees', { limit: 1 })).rows);
  expect(copy).toEqual(held);
  expect(Object.isFrozen(copy)).toBe(false);
  copy!.employeeNumber = -1;
  expect(await store.transaction('frozen', 'read', (tx) => tx.get('employees', held!.id))).toEqual(held);
});

it('imports a large snapshot in slices: a timer set as it starts runs before it is done, and the docs are exactly those given', async () => {
  const store = new MemoryStore({ seed, collections });
  const employees = Array.from({ length: 40_000 }, (_, n) => ({ id: `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`, employerId: 'e0000000-0000-4000-8000-000000000001', employeeNumber: 100_000 + n }));
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  const timerRanFirst = await store.importSnapshot('large', { format: 'payroll-sandbox/1', collections: { employees }, meta: {} }).then(() => timerRan);
  expect(timerRanFirst).toBe(true);
  const stored = await store.transaction('large', 'read', (tx) => tx.find('employees'));
  expect(stored.total).toBe(employees.length);
  expect(await store.transaction('large', 'read', (tx) => tx.get('employees', employees[123]!.id))).toEqual(employees[123]);
});

it("looks a write's unique keys up: the collection's keys are read once, not by every write, and stay exact from commit to commit", async () => {
  let keysRead = 0;
  // Docs whose unique field counts its reads (the store keeps a seed it owns as given).
  const counted = (n: number) => Object.defineProperty({ id: `item-${n}` }, 'code', { enumerable: true, get: () => (keysRead++, `code-${n}`) });
  const store = new MemoryStore({
    seed: { format: 'payroll-sandbox/1', collections: { items: Array.from({ length: 50 }, (_, n) => counted(n)) }, meta: {} },
    seedOwned: true,
    collections: [{ name: 'items', unique: [{ name: 'code', fields: ['code'] }] }],
  });
  for (let n = 0; n < 10; n++) await store.transaction('keys', 'write', (tx) => tx.replace('items', { id: `item-${n}`, code: `new-${n}` }));
  // Each key once for the index, and each replaced doc's own key once more (it gives it up).
  expect(keysRead).toBe(50 + 10);
  // A key given up in an earlier commit may be taken; one taken there may not.
  await store.transaction('keys', 'write', (tx) => tx.replace('items', { id: 'item-20', code: 'code-0' }));
  await expect(store.transaction('keys', 'write', (tx) => tx.replace('items', { id: 'item-21', code: 'new-1' }))).rejects.toThrow('not unique');
});

it('checks the unique rules of collections the seed does not hold, each by its own rules', async () => {
  const store = new MemoryStore({
    seed: { format: 'payroll-sandbox/1', collections: {}, meta: {} },
    collections: [
      { name: 'one', unique: [{ name: 'a', fields: ['a'] }] },
      { name: 'two', unique: [{ name: 'b', fields: ['b'] }, { name: 'c', fields: ['c'] }] },
    ],
  });
  await store.transaction('s', 'write', (tx) => tx.insert('one', { id: '1', a: 'x' }));
  await store.transaction('s', 'write', (tx) => tx.insert('two', { id: '1', b: 'x', c: 'y' }));
  await expect(store.transaction('s', 'write', (tx) => tx.insert('two', { id: '2', b: 'z', c: 'y' }))).rejects.toThrow('not unique');
});
