// The employment rules (contract §2.1 date chains, §2.6, §3 states, §4.3 Employment, §7
// warnings), each by its own scenario through HTTP against the running sandbox; each ends by
// showing that a refused request changed nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { api, BASE, expectRefused, pathOf, type Api } from './harness.js';

let running: RunningMock;
let client: Api;
const TOKEN = 'people-employments';
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  client = api({ url: running.url, token: TOKEN });
});
afterAll(async () => {
  await running?.close();
});
beforeEach(async () => {
  await client.reset();
});

const employmentPath = (id: string) => `${BASE}/employees/employments/${id}`;
const get = async (id: string) => (await client.get(employmentPath(id))).body.content;
const terminate = (id: string, body: Record<string, unknown>) => client.patch(pathOf('PatchTerminateByEmploymentId', { employmentId: id }), body);
const reinstate = (id: string) => client.patch(pathOf('PatchReinstateByEmploymentId', { employmentId: id }), {});
const comprehensive = async (id: string, query = '') =>
  (await client.get(`${BASE}/${SEED_IDS.employer}/employees/employments/comprehensive?filter=${encodeURIComponent(`employment.id eq '${id}'`)}${query}`)).body;
const notifications = async () => (await client.state()).employmentNotifications ?? [];
const wages = async (id: string) => ((await client.state()).employmentRecords ?? []).filter((r) => r.employmentId === id && r.section === 'wage').sort((a, b) => (a.startDate < b.startDate ? -1 : 1));

describe('terminate, terminate again, reinstate (contract §3)', () => {
  it('ends the employment and its open dated records, revises on a second call, and reinstating reverses it all (employment-terminate, employment-reinstate-ended)', async () => {
    const id = PEOPLE_IDS.employment;
    const openBefore = (await wages(id)).at(-1)!;
    expect(openBefore.endDate).toBeNull();

    const first = await terminate(id, { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, endOfEmploymentReason: { key: 8 }, endOfEmploymentReasonTaxAuthorities: { key: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.content).toEqual({});
    const ended = await get(id);
    expect(ended.endDate).toBe('2026-12-31');
    expect(ended.endOfEmploymentReasonTaxAuthorities).toEqual({ key: 2, value: 'Ontslag op initiatief werknemer' });
    expect(ended.endOfEmploymentDueToIllness).toBe(false);
    expect((await wages(id)).at(-1)!.endDate).toBe('2026-12-31');

    expect((await terminate(id, { endDate: '2026-11-30', endOfEmploymentDueToIllness: true })).status).toBe(200);
    expect((await get(id)).endDate).toBe('2026-11-30');
    expect((await get(id)).endOfEmploymentDueToIllness).toBe(true);
    expect((await wages(id)).at(-1)!.endDate).toBe('2026-11-30');

    expect((await reinstate(id)).status).toBe(200);
    const active = await get(id);
    expect([active.endDate, active.endOfEmploymentReason, active.endOfEmploymentReasonTaxAuthorities, active.endOfEmploymentDueToIllness]).toEqual([null, null, null, null]);
    expect((await wages(id)).at(-1)!.endDate).toBeNull();
  });

  it('reinstating an active employment is refused (employment-reinstate-active)', async () => {
    await expectRefused(client, () => reinstate(PEOPLE_IDS.employment), 'endDate');
  });

  it('reinstates a seeded ended employment, reopening its records', async () => {
    const id = PEOPLE_IDS.endedEmployment;
    expect((await wages(id)).at(-1)!.endDate).toBe('2025-06-30');
    expect((await reinstate(id)).status).toBe(200);
    expect((await get(id)).endDate).toBeNull();
    expect((await wages(id)).at(-1)!.endDate).toBeNull();
  });

  it('needs endOfEmploymentDueToIllness with an end date (terminate-illness-mandatory)', async () => {
    await expectRefused(client, () => terminate(PEOPLE_IDS.employment, { endDate: '2026-12-31' }));
  });

  it('refuses an end date before the start date (terminate-before-start)', async () => {
    await expectRefused(client, () => terminate(PEOPLE_IDS.employment, { endDate: '2015-01-31', endOfEmploymentDueToIllness: false }), 'endDate');
  });

  it('refuses a reason key the employment metadata does not offer', async () => {
    await expectRefused(client, () => terminate(PEOPLE_IDS.employment, { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, endOfEmploymentReasonTaxAuthorities: { key: 77 } }), 'endOfEmploymentReasonTaxAuthorities');
  });
});

describe('createMdvEntry (contract §3, §7 warnings)', () => {
  it('makes a draft employment-ended notification only when the employment had no end date before (terminate-mdv-entry)', async () => {
    const id = PEOPLE_IDS.employment;
    const answer = await terminate(id, { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, createMdvEntry: true });
    expect(answer.body.messages).toEqual([]);
    expect((await notifications()).map((n) => [n.employmentId, n.status, n.endDate])).toEqual([[id, 'draft', '2026-12-31']]);
    expect((await terminate(id, { endDate: '2026-11-30', endOfEmploymentDueToIllness: false, createMdvEntry: true })).status).toBe(200);
    expect(await notifications()).toHaveLength(1);
  });

  it('answers 200 with a Warning when the employer lacks the notification module, and makes none (terminate-mdv-without-module)', async () => {
    const answer = await terminate(PEOPLE_IDS.noNotificationModuleEmployment, { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, createMdvEntry: true });
    expect(answer.status).toBe(200);
    expect(answer.body.messages).toHaveLength(1);
    expect(answer.body.messages[0]).toMatchObject({ type: 'Warning', properties: ['createMdvEntry'] });
    expect(answer.body.messages[0].description).toMatch(/ignored/);
    expect(await notifications()).toEqual([]);
    expect((await get(PEOPLE_IDS.noNotificationModuleEmployment)).endDate).toBe('2026-12-31');
  });
});

describe('PatchCorrectStartDateByEmploymentId', () => {
  it('moves the start and the dependent dated records (correct-start-date)', async () => {
    const id = PEOPLE_IDS.employment;
    expect((await get(id)).startDate).toBe('2016-04-01');
    expect((await client.patch(pathOf('PatchCorrectStartDateByEmploymentId', { employmentId: id }), { startDate: '2016-03-01' })).status).toBe(200);
    const moved = await get(id);
    expect(moved.startDate).toBe('2016-03-01');
    expect(moved.startDateContractOfIndefiniteDuration).toBe('2016-03-01');
    expect((await wages(id))[0]!.startDate).toBe('2016-03-01');
    const line = (await comprehensive(id, '&referenceDate=2016-03-15'))._embedded[0];
    expect(line.wage.startDate).toBe('2016-03-01');
    expect(line.workinghours.startDate).toBe('2016-03-01');
  });

  it('refuses a start after the end date (correct-start-after-end)', async () => {
    await expectRefused(client, () => client.patch(pathOf('PatchCorrectStartDateByEmploymentId', { employmentId: PEOPLE_IDS.endedEmployment }), { startDate: '2025-07-01' }), 'startDate');
  });

  it('refuses a start past a later record of a linked chain', async () => {
    await expectRefused(client, () => client.patch(pathOf('PatchCorrectStartDateByEmploymentId', { employmentId: PEOPLE_IDS.employment }), { startDate: '2018-06-01' }), 'startDate');
  });
});

describe('PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId', () => {
  const patch = (id: string, body: unknown) => client.patch(pathOf('PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId', { employmentId: id }), body);

  it('links an employment to another of the same employee (linked-employment)', async () => {
    const answer = await patch(PEOPLE_IDS.twoEmploymentsNonPayroll, { employmentCategoryType: { key: 2 }, linkedEmployment: PEOPLE_IDS.twoEmploymentsPayroll });
    expect(answer.status).toBe(200);
    expect(answer.body.content.linkedEmployment).toBe(PEOPLE_IDS.twoEmploymentsPayroll);
    expect(answer.body.content.employmentCategoryType).toEqual({ key: 2, value: 'Nevendienstverband' });
  });

  it('refuses a link to itself and to another person\'s employment', async () => {
    await expectRefused(client, () => patch(PEOPLE_IDS.twoEmploymentsPayroll, { employmentCategoryType: { key: 1 }, linkedEmployment: PEOPLE_IDS.twoEmploymentsPayroll }), 'linkedEmployment');
    await expectRefused(client, () => patch(PEOPLE_IDS.twoEmploymentsPayroll, { employmentCategoryType: { key: 1 }, linkedEmployment: PEOPLE_IDS.employment }), 'linkedEmployment');
  });
});

describe('delete (contract §4.3)', () => {
  const info = async (id: string) => (await client.get(pathOf('GetDeleteEmploymentInformationByEmploymentId', { employmentId: id }))).body.content;

  it('refuses to delete an employment with processed payroll results, as the delete information says (delete-processed-results)', async () => {
    const described = await info(PEOPLE_IDS.employment);
    expect(described.canBeDeleted).toBe(false);
    expect(described.validations.find((v: any) => v.rule === 'noProcessedPayrollResults').holds).toBe(false);
    await expectRefused(client, () => client.delete(employmentPath(PEOPLE_IDS.employment)));
  });

  it('refuses to delete an employment another employment is linked to', async () => {
    await client.patch(pathOf('PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId', { employmentId: PEOPLE_IDS.twoEmploymentsPayroll }), { employmentCategoryType: { key: 1 }, linkedEmployment: PEOPLE_IDS.twoEmploymentsNonPayroll });
    expect((await info(PEOPLE_IDS.twoEmploymentsNonPayroll)).validations.find((v: any) => v.rule === 'notLinkedByAnotherEmployment').holds).toBe(false);
    await expectRefused(client, () => client.delete(employmentPath(PEOPLE_IDS.twoEmploymentsNonPayroll)));
  });

  it('deletes an employment and keeps the person who has another one', async () => {
    expect((await info(PEOPLE_IDS.twoEmploymentsNonPayroll))).toMatchObject({ canBeDeleted: true, deletesEmployee: false });
    expect((await client.delete(employmentPath(PEOPLE_IDS.twoEmploymentsNonPayroll))).status).toBe(200);
    expect((await client.get(employmentPath(PEOPLE_IDS.twoEmploymentsNonPayroll))).status).toBe(404);
    expect((await client.get(`${BASE}/employees/${PEOPLE_IDS.twoEmploymentsEmployee}`)).status).toBe(200);
  });

  it('deleting the person\'s last employment deletes the person too (delete-last-employment)', async () => {
    expect((await info(PEOPLE_IDS.newHireEmployment))).toMatchObject({ canBeDeleted: true, deletesEmployee: true });
    const answer = await client.delete(employmentPath(PEOPLE_IDS.newHireEmployment));
    expect(answer.status).toBe(200);
    expect(answer.body.content).toEqual({});
    const person = await client.get(`${BASE}/employees/${PEOPLE_IDS.newHireEmployee}`);
    expect(person.status).toBe(404);
    expect(person.raw.length).toBe(0);
    expect(((await client.state()).employmentRecords ?? []).some((r) => r.employmentId === PEOPLE_IDS.newHireEmployment)).toBe(false);
  });
});

describe('GetEmploymentsComprehensiveByEmployerId (contract §2.1 date chains, §4.1, §4.3)', () => {
  it('shows the record valid on the reference date (comprehensive-reference-date)', async () => {
    const all = await wages(PEOPLE_IDS.employment);
    expect(all.length).toBeGreaterThan(2);
    const [early, later] = [all[0]!, all[2]!];
    expect((await comprehensive(PEOPLE_IDS.employment, `&referenceDate=${early.startDate}`))._embedded[0].wage.grossWage).toBe(early.data.grossWage);
    expect((await comprehensive(PEOPLE_IDS.employment, `&referenceDate=${later.startDate}`))._embedded[0].wage.grossWage).toBe(later.data.grossWage);
    expect((await comprehensive(PEOPLE_IDS.employment, '&referenceDate=2010-01-01'))._embedded[0].wage).toBeNull();
  });

  it('defaults the reference date to the sandbox\'s today', async () => {
    await client.setClock(`${(await wages(PEOPLE_IDS.employment))[1]!.startDate}T10:00:00Z`);
    const line = (await comprehensive(PEOPLE_IDS.employment))._embedded[0];
    expect(line.wage.id).toBe((await wages(PEOPLE_IDS.employment))[1]!.id);
  });

  it('with includeHistoricAndFutureData, answers one line per period, covering every record (comprehensive-historic)', async () => {
    const all = await wages(PEOPLE_IDS.employment);
    const body = await comprehensive(PEOPLE_IDS.employment, '&includeHistoricAndFutureData=true');
    expect(body.totalSize).toBe(1);
    expect(body._embedded.length).toBe(all.length);
    expect(body._embedded.map((l: any) => l.wage.id)).toEqual(all.map((w) => w.id));
  });

  it('with removeEmptyLines and X-ReportInput, leaves out employments without data for the selected sections (comprehensive-remove-empty-lines)', async () => {
    const report = JSON.stringify({ fields: [{ fieldName: 'employee.employeeNumber', reportColumnName: 'Nummer' }, { fieldName: 'wage.grossWage', reportColumnName: 'Brutoloon' }] });
    const list = (query: string) => client.get(`${BASE}/${SEED_IDS.employer}/employees/employments/comprehensive?referenceDate=2026-06-01&pageSize=250${query}`, { headers: { 'X-ReportInput': report } });
    const full = (await list('')).body;
    const trimmed = (await list('&removeEmptyLines=true')).body;
    expect(full._embedded.some((l: any) => l.employment.id === PEOPLE_IDS.twoEmploymentsNonPayroll)).toBe(true);
    expect(trimmed._embedded.some((l: any) => l.employment.id === PEOPLE_IDS.twoEmploymentsNonPayroll)).toBe(false);
    expect(trimmed._embedded.every((l: any) => l.wage !== null)).toBe(true);
    expect(trimmed.totalSize).toBe(trimmed._embedded.length);
    expect(trimmed.totalSize).toBeLessThan(full.totalSize);
  });

  it('refuses a filter on a field it does not offer', async () => {
    await expectRefused(client, () => client.get(`${BASE}/${SEED_IDS.employer}/employees/employments/comprehensive?filter=${encodeURIComponent('wage.grossWage gt 3000')}`), 'filter');
  });
});

describe('the user\'s filter settings (contract §4.3 GetEmploymentsByEmployerId)', () => {
  it('lists only the employments matching the settings stored for the user; the default is none (employment-user-filter-settings)', async () => {
    const list = async (minimized = false) => (await client.get(`${BASE}/${SEED_IDS.employer}/employees/employments${minimized ? '/minimized' : ''}?pageSize=250`)).body;
    const all = await list();
    expect(all._embedded.some((e: any) => e.endDate !== null)).toBe(true);
    const snapshot = await client.snapshot();
    snapshot.meta[`employmentFilterSettings/token:${TOKEN}`] = [{ employerId: SEED_IDS.employer, employmentStatus: 'active' }];
    await client.importSnapshot(snapshot);
    await client.setClock('2026-06-01T00:00:00Z');
    const filtered = await list();
    expect(filtered.totalSize).toBe(all._embedded.filter((e: any) => e.endDate === null || e.endDate >= '2026-06-01').length);
    expect(filtered._embedded.every((e: any) => e.endDate === null || e.endDate >= '2026-06-01')).toBe(true);
    expect((await list(true)).totalSize).toBe(filtered.totalSize);
    const other = api({ url: running.url, token: 'people-other-user' });
    expect((await other.get(`${BASE}/${SEED_IDS.employer}/employees/employments?pageSize=1`)).body.totalSize).toBe(all.totalSize);
  });
});

describe('GetEmploymentByEmploymentId and PutEmploymentByEmploymentId', () => {
  it('replaces the editable fields (employment-put)', async () => {
    const current = await get(PEOPLE_IDS.employment);
    const answer = await client.put(employmentPath(PEOPLE_IDS.employment), { typeOfEmployee: { key: 1 }, employmentDurationType: { key: 1 }, incomeRelationshipNumber: 3, temporaryTaxExemption: { key: 1 }, namePayslip: 'A. Bakker', isOnCallEmployment: false }, { version: '2019-12-16' });
    expect(answer.status).toBe(200);
    const after = await get(PEOPLE_IDS.employment);
    expect(after.incomeRelationshipNumber).toBe(3);
    expect(after.namePayslip).toBe('A. Bakker');
    expect(after.employmentDurationType).toEqual({ key: 1, value: 'Bepaalde tijd' });
    expect(after.employmentContractType).toBeNull();
    expect(after.startDate).toBe(current.startDate);
    expect(after.payrollId).toBe(current.payrollId);
  });

  it('refuses a metadata key the context does not offer', async () => {
    await expectRefused(client, () => client.put(employmentPath(PEOPLE_IDS.employment), { typeOfEmployee: { key: 99 }, employmentDurationType: { key: 1 }, incomeRelationshipNumber: 1, temporaryTaxExemption: { key: 1 } }, { version: '2019-12-16' }), 'typeOfEmployee');
  });

  it('lists an employee\'s employments', async () => {
    const list = await client.get(pathOf('GetEmploymentsByEmployeeId', { employeeId: PEOPLE_IDS.twoEmploymentsEmployee }));
    expect(list.body._embedded.map((e: any) => e.id).sort()).toEqual([PEOPLE_IDS.twoEmploymentsNonPayroll, PEOPLE_IDS.twoEmploymentsPayroll].sort());
    expect(list.body._embedded.find((e: any) => e.id === PEOPLE_IDS.twoEmploymentsNonPayroll).administration.administrationType).toBe('nonPayrollAdministration');
  });
});
