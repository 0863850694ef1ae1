// The employee and employment rules on the PostgreSQL store, with two sandbox servers sharing
// one database: the database decides employee number uniqueness under concurrent creates, and
// the state machine, date chains, deletes and the user's filter settings behave as in memory.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { usePostgres } from '../../support/postgres.js';
import { api, BASE, expectRefused, newEmployee, pathOf } from './harness.js';

const postgres = usePostgres();
let a: RunningMock;
let b: RunningMock;
beforeAll(async () => {
  const databaseUrl = await postgres().database('people_rules');
  a = await startMock({ port: 0, mode: 'sandbox', databaseUrl });
  b = await startMock({ port: 0, mode: 'sandbox', databaseUrl });
}, 90_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

it('gives exactly one 201 to 32 concurrent creates with one employee number across two servers', async () => {
  const token = 'people-pg-unique';
  const [atA, atB] = [api({ url: a.url, token }), api({ url: b.url, token })];
  await atA.reset();
  const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => (i % 2 ? atA : atB).post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ employeeNumber: 5151 }))));
  expect(answers.filter((x) => x.status === 201)).toHaveLength(1);
  const refused = answers.filter((x) => x.status === 400);
  expect(refused).toHaveLength(31);
  for (const x of refused) expect(x.body.messages[0].properties).toEqual(['employeeData.employeeNumber']);
  const created = answers.find((x) => x.status === 201)!.body.content;
  expect((await atB.get(`${BASE}/employees/${created.employeeId}`)).body.content.employeeNumber).toBe(5151);
  expect((await atA.get(pathOf('GetEmploymentsByEmployeeId', { employeeId: created.employeeId }))).body._embedded.map((e: any) => e.id)).toEqual([created.employmentId]);
});

it('terminates, revises and reinstates with the date chains, and refuses what it must, changing nothing', async () => {
  const token = 'people-pg-states';
  const [atA, atB] = [api({ url: a.url, token }), api({ url: b.url, token })];
  await atA.reset();
  const id = PEOPLE_IDS.employment;
  const wageOn = async (date: string) =>
    (await atB.get(`${BASE}/${SEED_IDS.employer}/employees/employments/comprehensive?referenceDate=${date}&filter=${encodeURIComponent(`employment.id eq '${id}'`)}`)).body._embedded[0].wage;
  expect((await atA.patch(pathOf('PatchTerminateByEmploymentId', { employmentId: id }), { endDate: '2026-12-31', endOfEmploymentDueToIllness: false })).status).toBe(200);
  expect((await wageOn('2026-06-01')).endDate).toBe('2026-12-31');
  expect(await wageOn('2027-01-01')).toBeNull();
  expect((await atB.patch(pathOf('PatchTerminateByEmploymentId', { employmentId: id }), { endDate: '2026-11-30', endOfEmploymentDueToIllness: true })).status).toBe(200);
  expect((await wageOn('2026-06-01')).endDate).toBe('2026-11-30');
  expect((await atA.patch(pathOf('PatchReinstateByEmploymentId', { employmentId: id }), {})).status).toBe(200);
  expect((await wageOn('2026-06-01')).endDate).toBeNull();
  await expectRefused(atB, () => atB.patch(pathOf('PatchReinstateByEmploymentId', { employmentId: id }), {}), 'endDate');
  await expectRefused(atA, () => atA.delete(`${BASE}/employees/employments/${id}`));
});

it('deletes the last employment with the person, and applies the user\'s filter settings', async () => {
  const token = 'people-pg-delete';
  const [atA, atB] = [api({ url: a.url, token }), api({ url: b.url, token })];
  await atA.reset();
  expect((await atA.delete(`${BASE}/employees/employments/${PEOPLE_IDS.newHireEmployment}`)).status).toBe(200);
  expect((await atB.get(`${BASE}/employees/${PEOPLE_IDS.newHireEmployee}`)).status).toBe(404);

  const all = (await atA.get(`${BASE}/${SEED_IDS.employer}/employees/employments?pageSize=250`)).body;
  const snapshot = await atA.snapshot();
  snapshot.meta[`employmentFilterSettings/token:${token}`] = [{ employerId: SEED_IDS.employer, employmentStatus: 'ended' }];
  await atA.importSnapshot(snapshot);
  await atA.setClock('2026-06-01T00:00:00Z');
  const ended = (await atB.get(`${BASE}/${SEED_IDS.employer}/employees/employments?pageSize=250`)).body;
  expect(ended.totalSize).toBe(all._embedded.filter((e: any) => e.endDate !== null && e.endDate < '2026-06-01').length);
  expect(ended.totalSize).toBeGreaterThan(0);
});
