// The memory store against the Store contract, plus what only it promises: reading costs
// nothing, and materializing shares the collections a sandbox did not write.
import { expect, it } from 'vitest';
import { MemoryStore } from '../../../src/sandbox/store/memory.js';
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
