// The behaviour every Store must have, run against each implementation with the same cases
// (memory.test.ts, postgres.test.ts). `open` gives a fresh store over the fixture seed.
import { describe, expect, it } from 'vitest';
import type { FieldInfo } from '#sandbox/filter/tree.js';
import {
  UniqueViolation,
  type CollectionSpec,
  type Doc,
  type Snapshot,
  type Store,
} from '#sandbox/store/types.js';

export const collections: CollectionSpec[] = [
  {
    name: 'employees',
    unique: [{ name: 'employeeNumber-per-employer', fields: ['employerId', 'employeeNumber'] }],
  },
  { name: 'costCenters', unique: [{ name: 'code-per-administration', fields: ['administrationId', 'code'], caseInsensitive: true }] },
  { name: 'employers' },
];

export const EMPLOYER = 'e0000000-0000-4000-8000-000000000001';
export const OTHER_EMPLOYER = 'e0000000-0000-4000-8000-000000000002';

function employee(n: number, employerId = EMPLOYER): Doc {
  return {
    id: `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    employerId,
    employeeNumber: n,
    name: { lastName: ['de Vries', 'Jansen', 'bakker', 'Visser'][n % 4], initials: 'J.' },
    dateOfBirth: `19${70 + n}-0${(n % 9) + 1}-15`,
  };
}

export const seed: Snapshot = {
  format: 'payroll-sandbox/1',
  collections: {
    employers: [{ id: EMPLOYER, companyName: 'Bakkerij de Boer' }, { id: OTHER_EMPLOYER, companyName: 'Fietsen BV' }],
    employees: [1, 2, 3, 4, 5, 6].map((n) => employee(n)),
    costCenters: [{ id: 'c0000000-0000-4000-8000-000000000001', administrationId: 'x1', code: 'ABC' }],
  },
  meta: { clock: { offsetMs: 0 } },
};

const lastName: FieldInfo = { path: ['name', 'lastName'], type: 'string' };
const employeeNumber: FieldInfo = { path: ['employeeNumber'], type: 'integer' };

export function storeConformance(name: string, open: () => Promise<Store>): void {
  describe(`${name}: the Store contract`, () => {
    async function withStore(run: (store: Store) => Promise<void>): Promise<void> {
      const store = await open();
      try {
        await run(store);
      } finally {
        await store.close();
      }
    }

    it('reads the seed in a sandbox never written, and lists it nowhere', () =>
      withStore(async (store) => {
        const page = await store.transaction('fresh', 'read', (tx) => tx.find('employees'));
        expect(page.total).toBe(6);
        expect(await store.transaction('fresh', 'read', (tx) => tx.getMeta('clock'))).toEqual({ offsetMs: 0 });
        expect(await store.list()).toEqual([]);
        // A write transaction that writes nothing does not materialize either.
        await store.transaction('fresh', 'write', (tx) => tx.get('employees', employee(1).id));
        expect(await store.list()).toEqual([]);
      }));

    it('creates, reads, replaces and removes', () =>
      withStore(async (store) => {
        const created = employee(7);
        await store.transaction('crud', 'write', (tx) => tx.insert('employees', created));
        expect(await store.transaction('crud', 'read', (tx) => tx.get('employees', created.id))).toEqual(created);
        const changed = { ...created, name: { lastName: 'Smit', initials: 'P.' } };
        expect(await store.transaction('crud', 'write', (tx) => tx.replace('employees', changed))).toBe(true);
        expect(await store.transaction('crud', 'read', (tx) => tx.get('employees', created.id))).toEqual(changed);
        expect(await store.transaction('crud', 'write', (tx) => tx.replace('employees', employee(99)))).toBe(false);
        expect(await store.transaction('crud', 'write', (tx) => tx.remove('employees', created.id))).toBe(true);
        expect(await store.transaction('crud', 'write', (tx) => tx.remove('employees', created.id))).toBe(false);
        expect(await store.transaction('crud', 'read', (tx) => tx.get('employees', created.id))).toBeUndefined();
        const [info] = await store.list();
        expect(info).toMatchObject({ id: 'crud', materialized: true, docs: 9 });
        expect(typeof info!.updatedAt).toBe('string');
      }));

    it('lists the sandboxes whose id starts with a prefix, and no other', () =>
      withStore(async (store) => {
        for (const id of ['client-a-1', 'client-a-2', 'client-b-1', 'client-a', 'client-a.']) await store.transaction(id, 'write', (tx) => tx.setMeta('note', id));
        expect((await store.list('client-a-')).map((s) => s.id)).toEqual(['client-a-1', 'client-a-2']);
        expect((await store.list('client-c-')).map((s) => s.id)).toEqual([]);
        expect(await store.list()).toHaveLength(5);
      }));

    it('hands out copies: changing a returned or inserted doc changes nothing stored', () =>
      withStore(async (store) => {
        const created = employee(8);
        await store.transaction('copies', 'write', async (tx) => {
          await tx.insert('employees', created);
          created.employeeNumber = 800;
          const read = (await tx.get('employees', created.id))!;
          (read.name as Record<string, unknown>).lastName = 'changed';
          const page = await tx.find('employees');
          page.rows[0]!.employeeNumber = -1;
        });
        const stored = await store.transaction('copies', 'read', (tx) => tx.get('employees', created.id));
        expect(stored).toEqual(employee(8));
        expect((await store.transaction('copies', 'read', (tx) => tx.find('employees'))).rows[0]).toEqual(employee(1));
      }));

    it('rolls a transaction back on a throw: nothing it wrote is kept, and the error comes through', () =>
      withStore(async (store) => {
        await store.transaction('rollback', 'write', (tx) => tx.setMeta('kept', 1));
        const failure = new Error('refused');
        await expect(
          store.transaction('rollback', 'write', async (tx) => {
            await tx.insert('employees', employee(9));
            await tx.remove('employees', employee(1).id);
            await tx.replace('employers', { id: EMPLOYER, companyName: 'changed' });
            await tx.setMeta('kept', 2);
            // Read-your-writes inside the transaction.
            expect((await tx.find('employees')).total).toBe(6);
            throw failure;
          }),
        ).rejects.toBe(failure);
        const after = await store.exportSnapshot('rollback');
        expect(after.collections.employees).toHaveLength(6);
        expect(after.collections.employers).toContainEqual({ id: EMPLOYER, companyName: 'Bakkerij de Boer' });
        expect(after.meta).toEqual({ ...seed.meta, kept: 1 });
        // A first write that fails leaves the sandbox unmaterialized.
        await expect(
          store.transaction('never', 'write', async (tx) => {
            await tx.insert('employees', employee(10));
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect((await store.list()).map((info) => info.id)).toEqual(['rollback']);
      }));

    it('refuses a taken id or unique field set with UniqueViolation naming the rule', () =>
      withStore(async (store) => {
        const violation = (run: () => Promise<unknown>) => run().then(() => null, (error: unknown) => error);
        const duplicateId = await violation(() => store.transaction('u', 'write', (tx) => tx.insert('employees', employee(1))));
        expect(duplicateId).toBeInstanceOf(UniqueViolation);
        expect(duplicateId).toMatchObject({ collection: 'employees', rule: 'id', fields: ['id'] });

        const sameNumber = { ...employee(20), employeeNumber: 3 };
        const clash = await violation(() => store.transaction('u', 'write', (tx) => tx.insert('employees', sameNumber)));
        expect(clash).toMatchObject({ collection: 'employees', rule: 'employeeNumber-per-employer', fields: ['employerId', 'employeeNumber'] });

        // Another employer, a missing or null field: not constrained.
        await store.transaction('u', 'write', async (tx) => {
          await tx.insert('employees', { ...employee(21, OTHER_EMPLOYER), employeeNumber: 3 });
          await tx.insert('employees', { ...employee(22), employeeNumber: null });
          await tx.insert('employees', { ...employee(23), employeeNumber: null });
          const { employeeNumber: _dropped, ...withoutNumber } = employee(24);
          await tx.insert('employees', withoutNumber as Doc);
        });
        // Replacing a doc with its own values is no clash; taking another's is.
        await store.transaction('u', 'write', (tx) => tx.replace('employees', { ...employee(2), initials: 'X.' }));
        const replaceClash = await violation(() =>
          store.transaction('u', 'write', (tx) => tx.replace('employees', { ...employee(2), employeeNumber: 1 })),
        );
        expect(replaceClash).toMatchObject({ rule: 'employeeNumber-per-employer' });

        // Case-insensitive rules compare lower-cased text.
        const code = await violation(() =>
          store.transaction('u', 'write', (tx) => tx.insert('costCenters', { id: 'c2', administrationId: 'x1', code: 'abc' })),
        );
        expect(code).toMatchObject({ collection: 'costCenters', rule: 'code-per-administration' });
        await store.transaction('u', 'write', (tx) => tx.insert('costCenters', { id: 'c3', administrationId: 'x2', code: 'abc' }));

        // A clash inside one transaction rolls back the whole transaction.
        await expect(
          store.transaction('u', 'write', async (tx) => {
            await tx.insert('employees', { ...employee(30), employeeNumber: 300 });
            await tx.insert('employees', { ...employee(31), employeeNumber: 300 });
          }),
        ).rejects.toBeInstanceOf(UniqueViolation);
        expect(await store.transaction('u', 'read', (tx) => tx.get('employees', employee(30).id))).toBeUndefined();
      }));

    it('keeps unique rules exact through many writes of one transaction: a key freed by a replace or a removal may be taken, a held one may not', () =>
      withStore(async (store) => {
        const violation = (run: () => Promise<unknown>) => run().then(() => null, (error: unknown) => error);
        // Enough writes of one collection that a store may look keys up rather than scan (a merged snapshot).
        const many = Array.from({ length: 40 }, (_, i) => employee(100 + i));
        await store.transaction('bulk', 'write', async (tx) => {
          for (const doc of many) await tx.insert('employees', doc);
          // Employee 100 moves to number 1000; its old number is then free for employee 101.
          await tx.replace('employees', { ...many[0]!, employeeNumber: 1000 });
          await tx.replace('employees', { ...many[1]!, employeeNumber: 100 });
          // A removed doc frees its number too.
          await tx.remove('employees', many[2]!.id);
          await tx.insert('employees', { ...employee(200), employeeNumber: 102 });
        });
        const numbers = (await store.transaction('bulk', 'read', (tx) => tx.find('employees', { where: { kind: 'in', field: employeeNumber, values: [100, 101, 102, 1000] } }))).rows;
        expect(Object.fromEntries(numbers.map((doc) => [doc.employeeNumber, doc.id]))).toEqual({ 100: many[1]!.id, 102: employee(200).id, 1000: many[0]!.id });

        const taken = await violation(() =>
          store.transaction('bulk', 'write', async (tx) => {
            for (const doc of Array.from({ length: 40 }, (_, i) => employee(300 + i))) await tx.insert('employees', doc);
            // Held since the transaction before (by employee 101, once 100's), and held within this one.
            await tx.replace('employees', { ...employee(300), employeeNumber: 100 });
          }),
        );
        expect(taken).toMatchObject({ collection: 'employees', rule: 'employeeNumber-per-employer' });
        const takenHere = await violation(() =>
          store.transaction('bulk', 'write', async (tx) => {
            for (const doc of Array.from({ length: 40 }, (_, i) => employee(400 + i))) await tx.insert('employees', doc);
            await tx.insert('employees', { ...employee(500), employeeNumber: 439 });
          }),
        );
        expect(takenHere).toMatchObject({ rule: 'employeeNumber-per-employer' });
        expect(await store.transaction('bulk', 'read', (tx) => tx.get('employees', employee(400).id))).toBeUndefined();
      }));

    it('finds with a filter, an order and a page; ties by id', () =>
      withStore(async (store) => {
        const page = await store.transaction('find', 'read', (tx) =>
          tx.find('employees', {
            where: { kind: 'compare', field: lastName, op: 'ne', value: 'jansen' },
            orderBy: [{ field: lastName, descending: false }],
            offset: 1,
            limit: 3,
          }),
        );
        // Last names: 1 Jansen, 2 bakker, 3 Visser, 4 de Vries, 5 Jansen, 6 bakker.
        expect(page.total).toBe(4);
        expect(page.rows.map((doc) => doc.employeeNumber)).toEqual([6, 4, 3]);
        const fixed = await store.transaction('find', 'read', (tx) =>
          tx.find('employees', {
            where: { kind: 'in', field: employeeNumber, values: [5, 2, 77] },
            orderBy: [{ field: employeeNumber, descending: true }],
          }),
        );
        expect(fixed.rows.map((doc) => doc.employeeNumber)).toEqual([5, 2]);
        const past = await store.transaction('find', 'read', (tx) => tx.find('employees', { offset: 50, limit: 10 }));
        expect(past).toEqual({ rows: [], total: 6 });
        expect((await store.transaction('find', 'read', (tx) => tx.find('nothing-stored-here'))).total).toBe(0);
      }));

    it('keeps sandboxes apart', () =>
      withStore(async (store) => {
        await store.transaction('alice', 'write', async (tx) => {
          await tx.insert('employees', employee(40));
          await tx.setMeta('clock', { offsetMs: 1000 });
        });
        await store.transaction('bob', 'write', (tx) => tx.remove('employees', employee(1).id));
        const count = (sandbox: string) => store.transaction(sandbox, 'read', async (tx) => (await tx.find('employees')).total);
        expect([await count('alice'), await count('bob'), await count('carol')]).toEqual([7, 5, 6]);
        expect(await store.transaction('bob', 'read', (tx) => tx.getMeta('clock'))).toEqual({ offsetMs: 0 });
        // The same unique values in two sandboxes do not clash.
        await store.transaction('bob', 'write', (tx) => tx.insert('employees', employee(40)));
        expect((await store.list()).map((info) => info.id)).toEqual(['alice', 'bob']);
      }));

    it('resets to the seed', () =>
      withStore(async (store) => {
        await store.transaction('r', 'write', async (tx) => {
          await tx.remove('employees', employee(1).id);
          await tx.setMeta('clock', { offsetMs: 5 });
        });
        await store.reset('r');
        expect(await store.exportSnapshot('r')).toEqual(await store.exportSnapshot('never-written'));
        expect(await store.list()).toEqual([]);
        await store.reset('not-there');
      }));

    it('exports and imports snapshots that round-trip', () =>
      withStore(async (store) => {
        const exported = await store.exportSnapshot('source');
        expect(sorted(exported)).toEqual(sorted(seed));
        const imported: Snapshot = {
          format: 'payroll-sandbox/1',
          collections: { employees: [employee(50), employee(51)], other: [{ id: 'x', nested: { list: [1, 'a', null] } }] },
          meta: { clock: { offsetMs: 9 } },
        };
        await store.importSnapshot('target', imported);
        expect(sorted(await store.exportSnapshot('target'))).toEqual(sorted(imported));
        expect((await store.transaction('target', 'read', (tx) => tx.find('employees'))).total).toBe(2);
        expect(await store.transaction('target', 'read', (tx) => tx.find('employers'))).toEqual({ rows: [], total: 0 });
        // An import that breaks a rule is refused and changes nothing.
        const broken: Snapshot = { ...imported, collections: { employees: [employee(60), { ...employee(61), employeeNumber: 60 }] } };
        await expect(store.importSnapshot('target', broken)).rejects.toBeInstanceOf(UniqueViolation);
        expect(sorted(await store.exportSnapshot('target'))).toEqual(sorted(imported));
        const twice: Snapshot = { ...imported, collections: { employers: [{ id: 'same' }, { id: 'same' }] } };
        await expect(store.importSnapshot('target', twice)).rejects.toMatchObject({ collection: 'employers', rule: 'id' });
        expect(sorted(await store.exportSnapshot('target'))).toEqual(sorted(imported));
        // The source is untouched.
        expect((await store.list()).map((info) => info.id)).toEqual(['target']);
      }));

    it('serializes write transactions on one sandbox', () =>
      withStore(async (store) => {
        await store.transaction('serial', 'write', (tx) => tx.setMeta('counter', 0));
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.transaction('serial', 'write', async (tx) => {
              const value = (await tx.getMeta<number>('counter'))!;
              await new Promise((resolve) => setTimeout(resolve, 1));
              await tx.setMeta('counter', value + 1);
            }),
          ),
        );
        expect(await store.transaction('serial', 'read', (tx) => tx.getMeta('counter'))).toBe(20);
      }));
  });
}

/** A snapshot with its collections' docs in id order (stores need not keep insertion order). */
export function sorted(snapshot: Snapshot): Snapshot {
  const collections: Record<string, Doc[]> = {};
  for (const [name, docs] of Object.entries(snapshot.collections)) {
    if (docs.length > 0) collections[name] = [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  return { ...snapshot, collections };
}
