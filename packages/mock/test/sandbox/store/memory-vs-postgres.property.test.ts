// Property: for generated docs (nulls, missing fields, values of the wrong type, mixed-case and
// non-ASCII text, nested and metadata objects, dates and date-times with offsets, impossible
// dates), generated filters and generated orders, the memory store and the PostgreSQL store
// answer the same page: the same ids in the same order, and the same total. The PostgreSQL store
// answers twice: through SQL (no collection cache) and from its collection cache.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BoundFilter, ComparisonOperator, FieldInfo, Literal, OrderKey } from '#sandbox/filter/tree.js';
import { MemoryStore } from '#sandbox/store/memory.js';
import { PostgresStore } from '../../../src/store/postgres/index.js';
import type { Doc, FindQuery, Snapshot } from '#sandbox/store/types.js';
import { usePostgres } from '../../support/postgres.js';

const server = usePostgres();
const empty: Snapshot = { format: 'payroll-sandbox/1', collections: {}, meta: {} };
let memory: MemoryStore;
let postgres: PostgresStore;
let cached: PostgresStore;

beforeAll(async () => {
  memory = new MemoryStore({ seed: empty, collections: [{ name: 'items' }] });
  postgres = await PostgresStore.open({ seed: empty, collections: [{ name: 'items' }], databaseUrl: server().url, collectionCacheBytes: 0 });
  cached = await PostgresStore.open({ seed: empty, collections: [{ name: 'items' }], databaseUrl: server().url });
});
afterAll(async () => {
  await Promise.all([memory?.close(), postgres?.close(), cached?.close()]);
});

const FIELDS = {
  name: { path: ['name'], type: 'string' },
  city: { path: ['address', 'city'], type: 'string' },
  count: { path: ['count'], type: 'integer' },
  amount: { path: ['amount'], type: 'number' },
  active: { path: ['active'], type: 'boolean' },
  day: { path: ['day'], type: 'date' },
  at: { path: ['at'], type: 'date-time' },
  gender: { path: ['gender', 'key'], type: 'integer' },
} satisfies Record<string, FieldInfo>;
const fieldList: FieldInfo[] = Object.values(FIELDS);

// Case pairs, letters JavaScript and ICU fold alike (final sigma, dotted I, sharp s), astral
// and high BMP characters whose UTF-16 order differs from code point order, quotes and spaces.
const text = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'z', 'Z', 'e', 'é', 'É', 'è', 'ë', 'o', 'Ö', 'ij', '-', 'ß', 'İ', 'Σ', 'σ', 'ς', ' ', "'", '%', '_', '😀', '\uFF01', '0'), maxLength: 5 });
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const date = fc
  .record({ year: fc.integer({ min: 1998, max: 2002 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .map(({ year, month, day }) => `${year}-${pad(month)}-${pad(day)}`);
const dateTime = fc
  .record({
    date,
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 30, 59),
    seconds: fc.constantFrom('', ':00', ':59', ':07.5', ':07.123', ':07.123456'),
    zone: fc.constantFrom('', 'Z', '+01:00', '-05:30', '+14:00'),
  })
  .map(({ date: day, hour, minute, seconds, zone }) => `${day}T${pad(hour)}:${pad(minute)}${seconds}${zone}`);
const wrongType = fc.constantFrom<unknown>('7', 7, true, { key: 1 }, [1]);
/** A value of the field's kind, or null, or missing, or sometimes a value of another JSON type. */
const slot = <T,>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: value.map((v) => ({ value: v as unknown })) }, { weight: 1, arbitrary: fc.constant({ value: null }) }, { weight: 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: wrongType.map((v) => ({ value: v })) });

const docArbitrary = fc
  .record({
    name: slot(text),
    city: slot(text),
    count: slot(fc.integer({ min: -5, max: 5 })),
    amount: slot(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -10, max: 10, noNaN: true }))),
    active: slot(fc.boolean()),
    day: slot(date),
    at: slot(fc.oneof(dateTime, fc.constant('not a date-time'))),
    address: fc.constantFrom('object', 'null', 'missing'),
    gender: slot(fc.integer({ min: 1, max: 3 })),
  })
  .map((slots) => {
    const doc: Record<string, unknown> = {};
    const put = (target: Record<string, unknown>, key: string, holder: { value?: unknown }) => {
      if ('value' in holder) target[key] = holder.value;
    };
    for (const key of ['name', 'count', 'amount', 'active', 'day', 'at'] as const) put(doc, key, slots[key]);
    if (slots.address === 'object') {
      const address: Record<string, unknown> = {};
      put(address, 'city', slots.city);
      doc.address = address;
    } else if (slots.address === 'null') doc.address = null;
    if ('value' in slots.gender) doc.gender = slots.gender.value === null ? null : { key: slots.gender.value, value: 'x' };
    return doc;
  });

const docsArbitrary = fc.array(docArbitrary, { maxLength: 25 }).map((docs) =>
  // Ids of mixed case and length, so that the tie-break order is tested too.
  docs.map((doc, i) => ({ ...doc, id: `${i % 3 === 0 ? 'ID' : 'id'}-${(i * 7919) % 101}` }) as Doc),
);

function literalFor(field: FieldInfo): fc.Arbitrary<Literal> {
  switch (field.type) {
    case 'string':
      return text.map((value) => value.toLowerCase());
    case 'integer':
      return fc.integer({ min: -5, max: 5 });
    case 'number':
      return fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -10, max: 10, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'date':
      return date;
    case 'date-time':
      return fc.date({ min: new Date('1997-12-31T00:00:00Z'), max: new Date('2003-01-01T00:00:00Z'), noInvalidDate: true }).map((value) => value.toISOString());
  }
}

const compareArbitrary: fc.Arbitrary<BoundFilter> = fc.constantFrom(...fieldList).chain((field) => {
  const ops: ComparisonOperator[] = field.type === 'string' ? ['eq', 'ne', 'lk', 'gt', 'ge', 'lt', 'le'] : ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
  return fc.oneof(
    fc.record({ op: fc.constantFrom(...ops), value: literalFor(field) }).map(({ op, value }) => ({ kind: 'compare' as const, field, op, value })),
    fc.constantFrom<ComparisonOperator>('eq', 'ne').map((op) => ({ kind: 'compare' as const, field, op, value: null })),
    fc.array(fc.oneof(literalFor(field), fc.constant(null)), { maxLength: 3 }).map((values) => ({ kind: 'in' as const, field, values })),
  );
});

const filterArbitrary: fc.Arbitrary<BoundFilter> = fc.letrec<{ filter: BoundFilter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    compareArbitrary,
    fc.constant<BoundFilter>({ kind: 'true' }),
    fc.record({ kind: fc.constantFrom<'and' | 'or'>('and', 'or'), left: tie('filter'), right: tie('filter') }),
  ),
})).filter;

const orderArbitrary: fc.Arbitrary<OrderKey[]> = fc.array(
  fc.record({ field: fc.constantFrom(...fieldList), descending: fc.boolean() }),
  { maxLength: 3 },
);

const queryArbitrary: fc.Arbitrary<FindQuery> = fc.record(
  { where: filterArbitrary, orderBy: orderArbitrary, offset: fc.integer({ min: 0, max: 12 }), limit: fc.integer({ min: 1, max: 30 }) },
  { requiredKeys: ['orderBy'] },
);

let run = 0;

it('the memory and PostgreSQL stores answer the same pages', async () => {
  await fc.assert(
    fc.asyncProperty(docsArbitrary, fc.array(queryArbitrary, { minLength: 1, maxLength: 6 }), async (docs, queries) => {
      const sandbox = `property-${++run}`;
      const snapshot: Snapshot = { format: 'payroll-sandbox/1', collections: { items: docs }, meta: {} };
      await Promise.all([memory.importSnapshot(sandbox, snapshot), postgres.importSnapshot(sandbox, snapshot)]);
      // Two finds at one state: the second starts loading the collection into the cache.
      for (let i = 0; i < 2; i++) await cached.transaction(sandbox, 'read', (tx) => tx.find('items'));
      await cached.collectionCache?.idle();
      expect(cached.collectionCache?.scanOf(sandbox, (await cached.transaction(sandbox, 'read', async (tx) => tx.version)) as string, 'items')).toBeDefined();
      for (const query of queries) {
        const [fromMemory, fromPostgres, fromCache] = await Promise.all([
          memory.transaction(sandbox, 'read', (tx) => tx.find('items', query)),
          postgres.transaction(sandbox, 'read', (tx) => tx.find('items', query)),
          cached.transaction(sandbox, 'read', (tx) => tx.find('items', query)),
        ]);
        const expected = { ids: fromMemory.rows.map((doc) => doc.id), total: fromMemory.total };
        expect({ ids: fromPostgres.rows.map((doc) => doc.id), total: fromPostgres.total }).toEqual(expected);
        expect({ ids: fromCache.rows.map((doc) => doc.id), total: fromCache.total }).toEqual(expected);
      }
      await Promise.all([memory.reset(sandbox), postgres.reset(sandbox)]);
    }),
    { numRuns: 150 },
  );
}, 60_000);
