// What a PUT of an employee costs on PostgreSQL, in round trips to the database (the cost of a
// write there: see tools/bench/README.md), and that the request still does all it did.
import { expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '#sandbox/index.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PostgresStore } from '../../../src/store/postgres/index.js';
import { OPEN_READ_MS } from '../../../src/store/postgres/connection.js';
import { createStore } from '../../../src/store/index.js';
import { usePostgres } from '../../support/postgres.js';

const server = usePostgres();
const base = 'http://sandbox.test/v2/v2/providers/employers';

/** A sandbox on a database of its own, its store, and a PUT of an employee that answers the
 * round trips it took. */
async function withPuts(name: string, collectionCacheBytes: number | undefined, fn: (puts: { store: PostgresStore; ids: string[]; put(lastName: string): Promise<number>; get(path: string): Promise<Response> }) => Promise<void>): Promise<void> {
  const databaseUrl = await server().database(name);
  let store: PostgresStore | undefined;
  const sandbox: Sandbox = await createSandbox({ store: async (options) => (store = (await createStore({ ...options, databaseUrl, collectionCacheBytes })) as PostgresStore), log: () => {} });
  try {
    const get = (path: string, init: RequestInit = {}) =>
      sandbox.fetch(`${base}${path}`, { ...init, headers: { Authorization: `Bearer ${name}`, Accept: 'application/json;version=2021-03-29', 'Content-Type': 'application/json;version=2021-03-29' } });
    const page = await (await get(`/${SEED_IDS.employer}/employees?orderBy=-employeeNumber&pageSize=2`)).json();
    const ids = page._embedded.map((employee: { id: string }) => employee.id) as string[];
    const employee = (await (await get(`/employees/${ids[0]}`)).json()).content;
    const put = async (lastName: string) => {
      // The reads' open transactions are committed first (on their own round trips, at most OPEN_READ_MS later).
      await new Promise((resolve) => setTimeout(resolve, 3 * OPEN_READ_MS));
      const before = store!.roundTrips;
      const response = await get(`/employees/${ids[0]}`, { method: 'PUT', body: JSON.stringify({ ...employee, personalDetails: { ...employee.personalDetails, lastName } }) });
      expect(response.status).toBe(200);
      return store!.roundTrips - before;
    };
    // The first writes copy the seed and fill the collection cache with what a PUT reads but never writes.
    for (const lastName of ['Eerst', 'Tweede', 'Derde']) await put(lastName);
    await store!.collectionCache?.idle();
    await fn({ store: store!, ids, put, get });
    // The employments carry the last name put, as they always did.
    const employments = await (await get(`/employees/${ids[0]}/employments`)).json();
    expect(employments._embedded.length).toBeGreaterThan(0);
    for (const employment of employments._embedded) expect(JSON.stringify(employment)).toContain('Laatste');
  } finally {
    await sandbox.close();
  }
}

it('puts an employee in 3 round trips: the opening with its reads, its checked update, its employments with the COMMIT', async () => {
  await withPuts('put_round_trips', undefined, async ({ store, ids, put, get }) => {
    expect(await put('Vierde')).toBe(3);
    // Once reads have loaded the employees and the employments too: the same three, the reads answered by the collection cache.
    for (const id of ids) for (const path of [`/employees/${id}`, `/employees/${id}/employments`]) expect((await get(path)).status).toBe(200);
    await store.collectionCache?.idle();
    expect(await put('Vijfde')).toBe(3);
    expect(await put('Laatste')).toBe(3);
  });
});

it('puts an employee in 4 round trips without the collection cache: the employer and its administrations read together', async () => {
  await withPuts('put_round_trips_uncached', 0, async ({ put }) => {
    expect(await put('Laatste')).toBe(4);
  });
});
