// orderBy on nested fields (dotted paths, as the filter names them) through HTTP, on the
// memory store and on PostgreSQL: both sort the same way and answer the same pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { realBundle } from '../../fixtures/fixture.js';
import { usePostgres } from '../../support/postgres.js';
import { newestName, valueAt } from '../../support/renamed-bundle.js';
import { api, BASE, type Api } from '../people/harness.js';

const postgres = usePostgres();
let memory: RunningMock;
let database: RunningMock;
const clients: Record<string, Api> = {};
beforeAll(async () => {
  const databaseUrl = await postgres().database('order_nested');
  [memory, database] = await Promise.all([startMock({ port: 0, mode: 'sandbox' }), startMock({ port: 0, mode: 'sandbox', databaseUrl })]);
  clients.memory = api({ url: memory.url, token: 'order-nested' });
  clients.postgres = api({ url: database.url, token: 'order-nested' });
}, 90_000);
afterAll(async () => {
  await Promise.all([memory?.close(), database?.close()]);
});

type Row = Record<string, any>;
/** The employee's last name at the newest version, which the lists below answer. */
const LAST_NAME = newestName(realBundle('payroll'), 'employee', 'personalDetails.lastName');
const lastNameOf = (row: Row) => valueAt(row, LAST_NAME) as string;
const employeesPath = (orderBy: string, pageSize = 250) => `${BASE}/${SEED_IDS.employer}/employees?orderBy=${encodeURIComponent(orderBy)}&pageSize=${pageSize}`;
/** The sandbox's string order: case-insensitive, then by code point; nulls last ascending. */
const byText = (a: string | null | undefined, b: string | null | undefined) => {
  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

describe.each(['memory', 'postgres'])('orderBy with dotted field paths (%s store)', (store) => {
  it('sorts employees by their last name, ascending and descending, ties by id', async () => {
    const client = clients[store]!;
    const up = await client.get(employeesPath(LAST_NAME));
    expect(up.status).toBe(200);
    const rows: Row[] = up.body._embedded;
    expect(rows.length).toBeGreaterThan(20);
    const names = rows.map(lastNameOf);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBeGreaterThan(5);
    for (let i = 1; i < rows.length; i++) {
      const order = byText(names[i - 1], names[i]);
      expect(order <= 0, `${names[i - 1]} before ${names[i]}`).toBe(true);
      if (order === 0) expect(rows[i - 1]!.id < rows[i]!.id).toBe(true);
    }
    const down = await client.get(employeesPath(`-${LAST_NAME}`));
    const downNames = down.body._embedded.map(lastNameOf);
    for (let i = 1; i < downNames.length; i++) expect(byText(downNames[i - 1], downNames[i]) >= 0).toBe(true);
  });

  it('takes the production example -companyName,address.houseNumber on employers', async () => {
    const answer = await clients[store]!.get(`${BASE}?orderBy=${encodeURIComponent('-companyName,address.houseNumber')}`);
    expect(answer.status).toBe(200);
    const names = answer.body._embedded.map((e: Row) => e.companyName as string);
    expect(names.length).toBeGreaterThan(2);
    for (let i = 1; i < names.length; i++) expect(byText(names[i - 1], names[i]) >= 0).toBe(true);
  });

  it('refuses an unknown nested field and a malformed path with a 400 naming orderBy', async () => {
    for (const orderBy of ['personalDetails.salary', 'personalDetails..lastName', 'personalDetails.-lastName']) {
      const answer = await clients[store]!.get(employeesPath(orderBy));
      expect(answer.status, orderBy).toBe(400);
      expect(answer.body.messages[0].properties).toEqual(['orderBy']);
    }
  });
});

it('answers the same pages from memory and from PostgreSQL for a nested order', async () => {
  for (const orderBy of [`${LAST_NAME},-employeeNumber`, '-address.city,personalDetails.dateOfBirth']) {
    for (const page of [1, 2, 3]) {
      const path = `${employeesPath(orderBy, 17)}&pageNumber=${page}`;
      const [fromMemory, fromPostgres] = await Promise.all([clients.memory!.get(path), clients.postgres!.get(path)]);
      expect(fromMemory.status).toBe(200);
      expect(fromPostgres.body._embedded.map((e: Row) => e.id)).toEqual(fromMemory.body._embedded.map((e: Row) => e.id));
    }
  }
});
