// What a PUT of an employee costs on PostgreSQL, in round trips to the database (the cost of a
// write there: see tools/bench/README.md), and that the request still does all it did.
import { expect, it } from 'vitest';
import { createSandbox } from '#sandbox/index.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PostgresStore } from '../../../src/store/postgres/index.js';
import { createStore } from '../../../src/store/index.js';
import { usePostgres } from '../../support/postgres.js';

const server = usePostgres();
const base = 'http://sandbox.test/v2/v2/providers/employers';

it('puts an employee in 4 round trips: the opening, its reads together, its checked update, its employments with the COMMIT', async () => {
  const databaseUrl = await server().database('put_round_trips');
  let store: PostgresStore | undefined;
  const sandbox = await createSandbox({ store: async (options) => (store = (await createStore({ ...options, databaseUrl })) as PostgresStore), log: () => {} });
  try {
    const call = (path: string, init: RequestInit = {}) =>
      sandbox.fetch(`${base}${path}`, { ...init, headers: { Authorization: 'Bearer round-trips', Accept: 'application/json;version=2021-03-29', 'Content-Type': 'application/json' } });
    const page = await (await call(`/${SEED_IDS.employer}/employees?orderBy=-employeeNumber&pageSize=1`)).json();
    const id = page._embedded[0].id as string;
    const employee = (await (await call(`/employees/${id}`)).json()).content;
    const put = async (lastName: string) => {
      const before = store!.roundTrips;
      const response = await call(`/employees/${id}`, { method: 'PUT', body: JSON.stringify({ ...employee, personalDetails: { ...employee.personalDetails, lastName } }) });
      expect(response.status).toBe(200);
      return store!.roundTrips - before;
    };
    // The first writes copy the seed and fill the collection cache with what a PUT reads but never writes.
    for (const name of ['Eerst', 'Tweede', 'Derde']) await put(name);
    await store!.collectionCache?.idle();
    expect(await put('Vierde')).toBe(4);
    // The employments carry the new name, as before.
    const employments = await (await call(`/employees/${id}/employments`)).json();
    expect(employments._embedded.length).toBeGreaterThan(0);
    for (const employment of employments._embedded) expect(JSON.stringify(employment)).toContain('Vierde');
  } finally {
    await sandbox.close();
  }
});
