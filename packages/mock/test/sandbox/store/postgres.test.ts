// The PostgreSQL store against the Store contract (a real server, a database per case), plus
// what only it has to get right: two processes' pools on one database.
import { expect, it } from 'vitest';
import { PostgresStore } from '../../../src/store/postgres.js';
import { UniqueViolation } from '#sandbox/store/types.js';
import { usePostgres } from '../../support/postgres.js';
import { EMPLOYER, collections, seed, storeConformance } from './conformance.js';

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
