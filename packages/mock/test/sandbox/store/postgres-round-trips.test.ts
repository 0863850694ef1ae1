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
interface Puts {
  store: PostgresStore;
  ids: string[];
  /** The first employee as read. */
  employee: Record<string, unknown> & { personalDetails: Record<string, unknown> };
  put(lastName: string): Promise<number>;
  get(path: string, init?: RequestInit): Promise<Response>;
}

async function withPuts(name: string, collectionCacheBytes: number | undefined, fn: (puts: Puts) => Promise<void>): Promise<void> {
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
    await fn({ store: store!, ids, employee, put, get });
    // The employments carry the last name put, as they always did.
    const employments = await (await get(`/employees/${ids[0]}/employments`)).json();
    expect(employments._embedded.length).toBeGreaterThan(0);
    for (const employment of employments._embedded) expect(JSON.stringify(employment)).toContain('Laatste');
  } finally {
    await sandbox.close();
  }
}

it('puts an employee in 2 round trips: the opening with its reads, its updates with the stamp and the COMMIT', async () => {
  await withPuts('put_round_trips', undefined, async ({ store, ids, put, get }) => {
    expect(await put('Vierde')).toBe(2);
    // Once reads have loaded the employees and the employments too: the same two, the reads answered by the collection cache.
    for (const id of ids) for (const path of [`/employees/${id}`, `/employees/${id}/employments`]) expect((await get(path)).status).toBe(200);
    await store.collectionCache?.idle();
    expect(await put('Vijfde')).toBe(2);
    expect(await put('Laatste')).toBe(2);
  });
});

it('puts an employee in 3 round trips without the collection cache: the employer and its administrations read together', async () => {
  await withPuts('put_round_trips_uncached', 0, async ({ put }) => {
    expect(await put('Laatste')).toBe(3);
  });
});

/** The sandbox as its reads answer it: the employees and the employments of the seed's employer. */
async function stateOf(get: Puts['get'], ids: string[]): Promise<string[]> {
  return Promise.all(ids.flatMap((id) => [`/employees/${id}`, `/employees/${id}/employments`]).map(async (path) => (await get(path)).text()));
}

it('answers a PUT whose employee number is taken with the memory store\'s 400, alone or among others, and keeps nothing of it', async () => {
  const memory = await createSandbox({ log: () => {} });
  try {
    await withPuts('put_clash', undefined, async ({ ids, employee, put, get }) => {
      const other = (await (await get(`/employees/${ids[1]}`)).json()).content as { employeeNumber: number };
      const clash = JSON.stringify({ ...employee, employeeNumber: other.employeeNumber, personalDetails: { ...employee.personalDetails, lastName: 'Botsing' } });
      const putClash = () => get(`/employees/${ids[0]}`, { method: 'PUT', body: clash });
      const expected = await (await memory.fetch(`${base}/employees/${ids[0]}`, { method: 'PUT', body: clash, headers: { Authorization: 'Bearer put_clash', Accept: 'application/json;version=2021-03-29', 'Content-Type': 'application/json;version=2021-03-29' } })).json();
      expect(expected.messages?.[0]?.text ?? JSON.stringify(expected)).toContain('employee number');

      // Alone: a batch of its own, its update sent with the COMMIT; the COMMIT met an undone
      // transaction, and the PUT ran again to meet the refusal where it is made.
      const before = await stateOf(get, ids);
      const refused = await putClash();
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual(expected);
      expect(await stateOf(get, ids)).toEqual(before);

      // Among others of the same sandbox: the first refused one begins the batch (undone with
      // the transaction), the second runs in a savepoint after a kept write (undone alone); the
      // others are kept, in order.
      const body = (lastName: string) => JSON.stringify({ ...employee, personalDetails: { ...employee.personalDetails, lastName } });
      const putName = (lastName: string) => get(`/employees/${ids[0]}`, { method: 'PUT', body: body(lastName) });
      const answers = await Promise.all([putName('Een'), putClash(), putName('Twee'), putClash(), putName('Drie')]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 400, 200, 400, 200]);
      for (const answer of [answers[1]!, answers[3]!]) expect(await answer.json()).toEqual(expected);
      const now = (await (await get(`/employees/${ids[0]}`)).json()).content;
      expect(now.employeeNumber).toBe(employee.employeeNumber);
      expect(now.personalDetails.lastName).toBe('Drie');
      const employments = await (await get(`/employees/${ids[0]}/employments`)).text();
      expect(employments).toContain('Drie');
      expect(employments).not.toContain('Botsing');
      await put('Laatste');
    });
  } finally {
    await memory.close();
  }
});
