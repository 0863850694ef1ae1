// Fixtures and scenarios against the real engine: factories make complete, valid, deterministic
// entities; a scenario adds them in one step (through the control endpoint and createSandbox)
// and the API then answers them; a bad scenario is refused with every problem and changes
// nothing; a snapshot or a scenario replaces the state or merges into it by id, as asked, and a
// merge that would break a unique field or a relation is refused whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SandboxControlError, type Sandbox, type Scenario } from '../src/index.js';
import { createFixtures, SEED_IDS } from '../src/fixtures.js';
import { call, daysAhead, EMPLOYEES, fixtureProblemPaths, ORIGIN } from './support.js';
import { mergeProblems, mergeSnapshots, snapshotProblems } from '../src/control/snapshot-check.js';
import { MemoryStore } from '../src/store/memory.js';
import { DocSchemas } from '../src/domain/doc-schemas.js';
import { UniqueViolation } from '../src/store/types.js';
import { collectionTable } from '../src/responder/responder.js';
import { RESOURCE_MODULES } from '../src/resources/index.js';
import { seedCollectionNames, seedSnapshot } from '../src/seed/index.js';
import { PEOPLE_IDS } from '../src/seed/people.js';
import { JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';

const JOURNAL_PROFILE = JOURNAL_PROFILE_IDS.wageModelStandard;

const employeesOf = (employerId: string) => `${ORIGIN}/v2/v2/providers/employers/${employerId}/employees`;
const employmentsOf = (employeeId: string) => `${ORIGIN}/v2/v2/providers/employers/employees/${employeeId}/employments`;
const listed = async (sandbox: Sandbox, token: string, url: string) => {
  const res = await call(sandbox, token, url);
  expect(res.status).toBe(200);
  return (await res.json())._embedded as Array<Record<string, unknown>>;
};

/** The example: an employer with three employees, one of them terminated. */
const THREE_EMPLOYEES: Scenario = {
  start: 'empty',
  entities: {
    employers: [{ ref: 'bakery', companyName: 'Bakkerij Het Anker B.V.' }],
    employees: [
      { ref: 'anna', employerRef: 'bakery', personalDetails: { firstName: 'Anna', lastName: 'Visser' } },
      { ref: 'bram', employerRef: 'bakery' },
      { ref: 'cor', employerRef: 'bakery' },
    ],
    employments: [
      { employeeRef: 'anna', startDate: '2020-01-01' },
      { employeeRef: 'bram', startDate: '2021-03-01' },
      { employeeRef: 'cor', startDate: '2019-05-01', endDate: '2026-06-30' },
    ],
  },
};

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('factories', () => {
  it('make complete entities, the same ones from the same seed and calls', () => {
    const make = () => {
      const f = createFixtures({ seed: 'same' });
      const employer = f.employer();
      return { employer, employee: f.employee({ employerId: employer.id }), employment: f.employment() };
    };
    const first = make();
    expect(make()).toEqual(first);
    expect(createFixtures({ seed: 'other' }).employer()).not.toEqual(first.employer);
    expect(first.employee.personalDetails?.formattedName).toMatch(/\S/);
    expect(first.employee.address?.postalCode).toMatch(/^\d{4} [A-Z]{2}$/);
    expect(first.employment.employee?.id).toBe(first.employee.id);
    expect(first.employment.payrollAdministration?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('apply a deep override and keep the rest', () => {
    const employee = createFixtures().employee({ employerId: SEED_IDS.employer, personalDetails: { lastName: 'Kramer' } });
    expect(employee.personalDetails).toMatchObject({ lastName: 'Kramer', formattedName: expect.stringMatching(/ Kramer$/) });
    // Whatever partner the generated data gives, the name given is the name shown.
    for (let i = 0; i < 20; i++) expect(createFixtures({ seed: i }).employee({ personalDetails: { prefix: '', lastName: 'Kok' } }).personalDetails?.formattedName).toMatch(/^[A-Z.]+ Kok$/);
    expect(employee.personalDetails?.dateOfBirth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuse an override that breaks the schema or a rule, naming the field', () => {
    const f = createFixtures();
    const problem = fixtureProblemPaths;
    expect(problem(() => f.employee({ personalDetails: { lastName: 42 as never } }))).toEqual(['personalDetails.lastName']);
    expect(problem(() => f.employer({ companyName: 'x'.repeat(71) }))).toEqual(['companyName']);
    expect(problem(() => f.employee({ employerId: SEED_IDS.employer, employeeNumber: 1001 }))).toEqual(['employeeNumber']);
    expect(problem(() => f.employment({ startDate: '2024-01-01', endDate: '2023-01-01' }))).toContain('endDate');
    expect(problem(() => f.employee({ employerId: '00000000-0000-4000-8000-000000000000' }))).toEqual(['employerId']);
    expect(problem(() => f.costCenter({ code: 'K100' }))).toContain('code');
    expect(problem(() => f.employee({ employerId: SEED_IDS.employer, administrationId: SEED_IDS.employer } as never))).toEqual(['administrationId']);
  });

  it('give the journal entities of a wage model profile', () => {
    const f = createFixtures({ base: 'empty' });
    const entry = f.matrixEntry();
    const made = f.collections();
    expect(made.journalProfiles).toHaveLength(1);
    expect(entry.costCenterId).toBe(made.journalCostCenters![0]!.id);
    expect(entry.costUnitId).toBe(made.journalCostUnits![0]!.id);
  });
});

describe('POST /__sandbox/scenario', () => {
  it('makes an employer with three employees, one of them terminated, and the API answers them', async () => {
    const result = await sandbox.scenario(THREE_EMPLOYEES, { token: 'scenario-a' });
    const employerId = result.refs.bakery!;
    expect(result.added.employees).toEqual([result.refs.anna, result.refs.bram, result.refs.cor]);
    const employees = await listed(sandbox, 'scenario-a', employeesOf(employerId));
    expect(employees).toHaveLength(3);
    expect(employees.map((e) => (e.personalDetails as { lastName: string }).lastName)).toContain('Visser');
    const [ended] = await listed(sandbox, 'scenario-a', employmentsOf(result.refs.cor!));
    expect(ended).toMatchObject({ startDate: '2019-05-01', endDate: '2026-06-30', endOfEmploymentDueToIllness: false });
    // From empty: none of the seed's employees is left.
    expect((await call(sandbox, 'scenario-a', EMPLOYEES)).status).toBe(404);
    // The same scenario gives the same ids.
    expect((await sandbox.scenario(THREE_EMPLOYEES, { token: 'scenario-b' })).refs).toEqual(result.refs);
  });

  it('adds to the seed, under a seeded employer named by id', async () => {
    const before = (await listed(sandbox, 'scenario-c', `${EMPLOYEES}?pageSize=250`)).length;
    const result = await sandbox.scenario({ start: 'seed', entities: { employees: [{ employerId: SEED_IDS.employer, personalDetails: { lastName: 'Nieuw' } }] } }, { token: 'scenario-c' });
    const after = await listed(sandbox, 'scenario-c', `${EMPLOYEES}?pageSize=250`);
    expect(after).toHaveLength(before + 1);
    expect(after.find((e) => e.id === result.added.employees![0])).toMatchObject({ personalDetails: expect.objectContaining({ lastName: 'Nieuw' }) });
  });

  it('refuses a bad scenario with every problem and its path, changing nothing', async () => {
    const token = 'scenario-d';
    const before = await sandbox.snapshot({ token });
    const res = await call(sandbox, token, `${ORIGIN}/__sandbox/scenario`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        start: 'seed',
        entities: {
          employers: [{ ref: 'x', companyName: 7 }],
          employees: [{ employerRef: 'nobody' }, { employerId: SEED_IDS.employer, citizenServiceNumber: '123456788' }, { employerId: SEED_IDS.employer, employeeRef: 'x' }],
        },
      }),
    });
    expect(res.status).toBe(400);
    const { messages } = (await res.json()) as { messages: Array<{ type: string; properties: string[] }> };
    expect(messages.map((m) => m.properties[0])).toEqual(['entities.employers[0].companyName', 'entities.employees[0].employerRef', 'entities.employees[1].citizenServiceNumber', 'entities.employees[2].employeeRef']);
    expect(messages.every((m) => m.type === 'BrokenBusinessRule')).toBe(true);
    expect(await sandbox.snapshot({ token })).toEqual(before);
  });

  it('is the start of createSandbox({ scenario }), and of every reset', async () => {
    const own = await createSandbox({ scenario: THREE_EMPLOYEES });
    const [employer] = (await own.snapshot({ token: 'x' })).collections.employers!;
    expect(await listed(own, 'x', employeesOf(employer!.id))).toHaveLength(3);
    const state = await own.snapshot({ token: 'x' });
    await own.restore({ ...state, collections: { ...state.collections, employees: [], employments: [], employmentRecords: [] } }, { token: 'x' });
    expect(await listed(own, 'x', employeesOf(employer!.id))).toHaveLength(0);
    await own.reset();
    expect(await listed(own, 'x', employeesOf(employer!.id))).toHaveLength(3);
    await own.close();
    await expect(createSandbox({ scenario: { start: 'empty', entities: { employees: [{ employerRef: 'none' }] } } })).rejects.toThrow(/entities\.employees\[0\]\.employerRef/);
  });
});

describe('replace or merge', () => {
  const snapshotOf = (collections: Record<string, unknown[]>) => ({ format: 'payroll-sandbox/1' as const, collections: collections as Record<string, never[]>, meta: {} });
  /** The 400 of a refused import or scenario, and that the sandbox is as it was. */
  async function refusedWhole(token: string, change: () => Promise<unknown>): Promise<string[]> {
    const before = await sandbox.snapshot({ token });
    const error = await change().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SandboxControlError);
    expect((error as SandboxControlError).status).toBe(400);
    expect(await sandbox.snapshot({ token })).toEqual(before);
    return ((error as SandboxControlError).body as { messages: Array<{ description: string }> }).messages.map((m) => m.description);
  }

  it('replace: the state becomes the snapshot, every collection it leaves out emptied', async () => {
    const employee = createFixtures({ seed: 'replace' }).employee({ employerId: SEED_IDS.employer });
    await sandbox.restore(snapshotOf({ employees: [employee] }), { token: 'replace-a' });
    const replaced = await sandbox.snapshot({ token: 'replace-a' });
    expect(replaced.collections.employees).toEqual([employee]);
    expect(replaced.collections.employers ?? []).toHaveLength(0);
    await expect(sandbox.restore(snapshotOf({ employees: [employee] }), { token: 'replace-a', mode: 'sideways' as never })).rejects.toBeInstanceOf(SandboxControlError);
  });

  it('merge: a doc with a stored id replaces it, a new one is added, every other doc and collection stays', async () => {
    const token = 'merge-a';
    const before = await sandbox.snapshot({ token });
    const [first, ...others] = before.collections.employees!;
    const renamed = { ...first!, personalDetails: { ...(first!.personalDetails as object), lastName: 'Samengevoegd' } };
    const added = createFixtures({ seed: 'merge' }).stored.employee({ employerId: SEED_IDS.employer });
    await sandbox.restore(snapshotOf({ employees: [renamed, added] }), { token, mode: 'merge' });
    const after = await sandbox.snapshot({ token });
    expect(after.collections.employees).toEqual([renamed, ...others, added]);
    expect(after.collections.employers).toEqual(before.collections.employers);
    expect(after.collections.employments).toEqual(before.collections.employments);
    // The API answers the replaced one and the others alike.
    const answered = await listed(sandbox, token, `${EMPLOYEES}?pageSize=250`);
    expect(answered.find((e) => e.id === first!.id)).toMatchObject({ personalDetails: expect.objectContaining({ lastName: 'Samengevoegd' }) });
    expect(answered.map((e) => e.id)).toEqual(expect.arrayContaining([added.id, ...others.filter((e) => e.employerId === SEED_IDS.employer).map((e) => e.id)]));
  });

  it('merge: a write that lands while a merge is checked is kept, the merge joins it', async () => {
    const token = 'merge-race';
    const added = createFixtures({ seed: 'race' }).stored.employee({ employerId: SEED_IDS.employer });
    const creating = call(sandbox, token, `${ORIGIN}/journal/providers/wagemodels/journalprofiles/${JOURNAL_PROFILE}/costcenters`, { method: 'POST', body: JSON.stringify({ code: 'RACE1' }) });
    const merging = sandbox.restore(snapshotOf({ employees: [added] }), { token, mode: 'merge' });
    const merged = sandbox.scenario({ entities: { employees: [{ employerId: SEED_IDS.employer, personalDetails: { lastName: 'Gelijktijdig' } }] } }, { token, mode: 'merge' });
    expect((await creating).status).toBe(201);
    await Promise.all([merging, merged]);
    const after = await sandbox.snapshot({ token });
    expect(after.collections.journalCostCenters!.map((doc) => doc.code)).toContain('RACE1');
    expect(after.collections.employees!.map((doc) => doc.id)).toContain(added.id);
    expect(after.collections.employees!.map((doc) => (doc.personalDetails as { lastName: string }).lastName)).toContain('Gelijktijdig');
  });

  it('merge: refused whole when a doc given shares a unique field with a doc kept', async () => {
    const [kept] = (await sandbox.snapshot({ token: 'merge-b' })).collections.employees!;
    const clash = createFixtures({ seed: 'clash', base: 'empty' }).employee();
    const problems = await refusedWhole('merge-b', () =>
      sandbox.restore(snapshotOf({ employees: [{ ...clash, employerId: kept!.employerId, employeeNumber: kept!.employeeNumber }] }), { token: 'merge-b', mode: 'merge' }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^collections\\.employees\\[0\\]: employerId, employeeNumber must be unique .*${kept!.id}`))]);
  });

  it('merge: refused whole when a doc given names a doc the merged state does not hold', async () => {
    const f = createFixtures({ seed: 'dangling' });
    const employee = f.employee({ employerId: SEED_IDS.employer });
    const employment = f.stored.employment({ employeeId: employee.id });
    const photo = f.stored.employeePhoto({ employeeId: employee.id });
    // Without the new employee they name, the employment and the photo would dangle.
    const problems = await refusedWhole('merge-c', () => sandbox.restore(snapshotOf({ employments: [employment], employeePhotos: [photo] }), { token: 'merge-c', mode: 'merge' }));
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^collections\\.employments\\[0\\]\\.employeeId names "${employee.id}", which employees does not hold after the merge`)),
      expect.stringMatching(new RegExp(`^collections\\.employeePhotos\\[0\\]\\.id names "${employee.id}", which employees does not hold`)),
    ]);
    // Given together with what it names, the same docs merge.
    await sandbox.restore({ format: 'payroll-sandbox/1', collections: f.collections(), meta: {} }, { token: 'merge-c', mode: 'merge' });
    expect((await call(sandbox, 'merge-c', `${ORIGIN}/v2/v2/providers/employers/employees/${photo.id}/photo`, { headers: { accept: 'image/png' } })).status).toBe(200);
  });

  it('merge: an employment record and the record it closes, from the factories', async () => {
    const token = 'merge-d';
    const f = createFixtures({ seed: 'record' });
    const raise = f.employmentRecord({ employmentId: PEOPLE_IDS.employment, startDate: '2026-02-01', grossWage: 5100 });
    await sandbox.restore({ format: 'payroll-sandbox/1', collections: f.collections() as Record<string, never[]>, meta: {} }, { token, mode: 'merge' });
    const wage = async (date: string) => ((await listed(sandbox, token, `${ORIGIN}/v2/v2/providers/employers/${SEED_IDS.employer}/employees/employments/comprehensive?referenceDate=${date}&filter=employment.id eq '${PEOPLE_IDS.employment}'`))[0] as { wage: { id: string; endDate: string | null } }).wage;
    expect(await wage('2026-03-01')).toMatchObject({ id: raise.id, grossWage: 5100 });
    expect((await wage('2026-01-15')).endDate).toBe('2026-01-31');
  });

  it('a scenario merged into the current state: no start, the state built so far kept, the clock too', async () => {
    const token = 'merge-e';
    const { refs } = await sandbox.scenario(THREE_EMPLOYEES, { token });
    const clock = await sandbox.clock.set(daysAhead(120), { token });
    const more = await sandbox.scenario({ entities: { employees: [{ ref: 'dirk', employerId: refs.bakery, personalDetails: { lastName: 'Dekker' } }] } }, { token, mode: 'merge' });
    const employees = await listed(sandbox, token, employeesOf(refs.bakery!));
    expect(employees.map((e) => e.id)).toEqual(expect.arrayContaining([refs.anna, refs.bram, refs.cor, more.refs.dirk]));
    expect(employees).toHaveLength(4);
    expect((await sandbox.clock.get({ token })).today).toBe(clock.today);
    // A start is the replace mode's: given with merge, and left out without it, it is refused.
    expect(await refusedWhole(token, () => sandbox.scenario({ start: 'seed', entities: {} }, { token, mode: 'merge' }))).toEqual([expect.stringMatching(/^start is not used with mode=merge/)]);
    expect(await refusedWhole(token, () => sandbox.scenario({ entities: {} }, { token }))).toEqual([expect.stringMatching(/^start must be 'seed' or 'empty'/)]);
  });

  it('the checks compare a unique field as the stores do (a number and its text are one value)', async () => {
    const collections = new Map([['items', { name: 'items', unique: [{ name: 'code-unique', fields: ['code'] }] }]]);
    const snapshot = (docs: Array<{ id: string; code: unknown }>) => ({ format: 'payroll-sandbox/1' as const, collections: { items: docs }, meta: {} });
    const kept = snapshot([{ id: 'a', code: 7 }]);
    const given = snapshot([{ id: 'b', code: '7' }]);
    expect(mergeProblems(mergeSnapshots(kept, given), given, collections)).toEqual([expect.stringMatching(/^collections\.items\[0\]: code must be unique \(code-unique\); the stored doc a has the same/)]);
    // The store refuses the same pair; the snapshot check now says so first (before, the import threw).
    const pair = snapshot([{ id: 'a', code: 7 }, { id: 'b', code: '7' }]);
    const store = new MemoryStore({ seed: kept, collections: [...collections.values()] });
    await expect(store.importSnapshot('s', pair)).rejects.toBeInstanceOf(UniqueViolation);
    await store.close();
    expect(snapshotProblems(pair, collections, new DocSchemas({}))).toEqual(['collections.items[1]: code must be unique (code-unique).']);
  });

  it('every relation the seed holds names a doc it holds', () => {
    const seed = seedSnapshot();
    expect(mergeProblems(seed, seed, collectionTable(RESOURCE_MODULES, seedCollectionNames()))).toEqual([]);
  });
});

describe('control requests checked against the control description', () => {
  const control = (token: string | undefined, path: string, init: RequestInit = {}) =>
    sandbox.fetch(`${ORIGIN}/__sandbox${path}`, { ...init, headers: { accept: 'application/json', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const fields = async (res: Response) => ((await res.json()) as { messages: Array<{ properties: string[] }> }).messages.map((m) => m.properties[0]);

  it('refuses a query parameter, a body field or a list the description does not allow, naming it', async () => {
    const mode = await control('checked', '/snapshot?mode=sideways', { method: 'PUT', body: JSON.stringify({ format: 'payroll-sandbox/1', collections: {} }) });
    expect(mode.status).toBe(400);
    expect(await fields(mode)).toEqual(['mode']);
    const list = await control('checked', '/scenario', { method: 'POST', body: JSON.stringify({ start: 'seed', entities: { bosses: [] } }) });
    expect(list.status).toBe(400);
    expect(await fields(list)).toEqual(['entities.bosses']);
    const start = await control('checked', '/scenario', { method: 'POST', body: JSON.stringify({ start: 'later', entities: {} }) });
    expect(await fields(start)).toEqual(['start']);
    const settings = await control('checked', '/settings', { method: 'PUT', body: JSON.stringify({ unknownFields: 'loud' }) });
    expect(await fields(settings)).toEqual(['unknownFields']);
  });

  it('leaves what it does not describe to the handlers: no token, an unknown path, a body that is not JSON', async () => {
    expect((await control(undefined, '/scenario', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await control('checked', '/nothing-here')).status).toBe(404);
    const notJson = await control('checked', '/scenario', { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { messages: Array<{ description: string }> }).messages[0]!.description).toMatch(/not valid JSON/);
  });
});
