// The factories of the provider, logos, photos, employment records and the journal's own data,
// through the real engine: each is made by a scenario, then read back through the API, whose
// answer must validate against the description; the rules the API applies to them (unique
// descriptions, uses that block a delete) see them; a bad override names its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type Scenario } from '../src/index.js';
import { createFixtures, SEED_IDS } from '../src/fixtures.js';
import { answerProblems, call, fixtureProblemPaths, ORIGIN } from './support.js';
import { PEOPLE_IDS } from '../src/seed/people.js';
import { COST_CENTER_IDS, COST_UNIT_IDS, JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';
import { ORG_IDS } from '../src/seed/organisation.js';

const PAYROLL = `${ORIGIN}/v2/v2/providers`;
const JOURNAL = `${ORIGIN}/journal/providers`;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A provider's office with everything hanging under it, from empty. */
const OFFICE: Scenario = {
  start: 'empty',
  seed: 'office',
  entities: {
    providers: [{ ref: 'office', name: 'Salarisbureau De Balans B.V.' }],
    providerLogos: [{ ref: 'logo', providerRef: 'office', attribute: 'kantoor' }],
    employers: [{ ref: 'shop', providerRef: 'office', companyName: 'Bakkerij Het Anker B.V.' }],
    employerLogos: [{ employerRef: 'shop' }],
    administrations: [{ ref: 'payroll', employerRef: 'shop' }],
    employees: [{ ref: 'anna', employerRef: 'shop', personalDetails: { firstName: 'Anna', lastName: 'Visser' } }],
    employeePhotos: [{ employeeRef: 'anna' }],
    employments: [{ ref: 'job', employeeRef: 'anna', administrationRef: 'payroll', startDate: '2020-01-01' }],
    employmentRecords: [{ ref: 'raise', employmentRef: 'job', startDate: '2024-01-01', grossWage: 4000 }],
    journalWageModels: [{ ref: 'model', providerRef: 'office' }],
    journalPayrollAdministrations: [{ ref: 'pa', administrationRef: 'payroll', wageModelRef: 'model' }],
    providerJournalProfiles: [{ ref: 'top', providerRef: 'office', description: 'Kantoorbreed' }],
    journalProfiles: [{ ref: 'profile', wageModelRef: 'model' }],
    administrationJournalProfiles: [
      { ref: 'deviation', payrollAdministrationRef: 'pa', deviatesFromRef: 'profile', description: 'Afwijkend profiel' },
      { ref: 'own', payrollAdministrationRef: 'pa' },
    ],
    costCenters: [{ ref: 'center', journalProfileRef: 'profile', code: 'K1' }],
    payrollComponentLinks: [{ journalProfileRef: 'profile', costCenterRef: 'center' }],
    journals: [{ journalProfileRef: 'own' }],
  },
};

let sandbox: Sandbox;
let refs: Record<string, string>;
beforeAll(async () => {
  sandbox = await createSandbox();
  refs = (await sandbox.scenario(OFFICE, { token: 'office' })).refs;
});
afterAll(async () => {
  await sandbox.close();
});

/** The answer of a GET, checked: its status, and its body against the operation's success schema. */
async function read(url: string, operationId: string, token = 'office'): Promise<Record<string, unknown>> {
  const res = await call(sandbox, token, url);
  expect(res.status, `${operationId} ${url}`).toBe(200);
  expect(await answerProblems(sandbox, res, operationId)).toEqual([]);
  return (await res.json()) as Record<string, unknown>;
}

/** The codes of a refusal, its body checked against the operation's 400 schema. */
async function codes(res: Response, operationId: string): Promise<unknown[]> {
  expect(res.status).toBe(400);
  expect(await answerProblems(sandbox, res, operationId)).toEqual([]);
  return ((await res.json()) as { messages: Array<{ code: unknown }> }).messages.map((m) => m.code);
}

/** The paths of the problems a scenario posted as JSON is refused with (its own token: nothing else sees it). */
async function refusedScenarioPaths(scenario: unknown): Promise<string[]> {
  const res = await call(sandbox, 'refused-scenario', `${ORIGIN}/__sandbox/scenario`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(scenario),
  });
  expect(res.status).toBe(400);
  const { messages } = (await res.json()) as { messages: Array<{ properties: string[] }> };
  return messages.map((m) => m.properties[0]!);
}

describe('a scenario of every new kind, read back through the API', () => {
  it('the provider and its logo', async () => {
    expect(await read(`${PAYROLL}/${refs.office}/contactinformation`, 'GetProviderContactInformationByProviderId')).toMatchObject({ id: refs.office, name: 'Salarisbureau De Balans B.V.' });
    const { content } = (await read(`${PAYROLL}/logos/${refs.logo}`, 'GetProviderLogoByLogoId')) as { content: { attribute: string; mimeType: string; data: string } };
    expect(content).toMatchObject({ id: refs.logo, attribute: 'kantoor', mimeType: 'image/png' });
    expect([...Buffer.from(content.data, 'base64').subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it('the employer logo and the employee photo', async () => {
    const { content } = (await read(`${PAYROLL}/employers/${refs.shop}/logo`, 'GetEmployerLogoByEmployerId')) as { content: { mimeType: string; data: string } };
    expect(content.mimeType).toBe('image/png');
    expect([...Buffer.from(content.data, 'base64').subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const photo = await call(sandbox, 'office', `${PAYROLL}/employers/employees/${refs.anna}/photo`, { headers: { accept: 'image/png' } });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toMatch(/^image\/png/);
    expect([...new Uint8Array(await photo.arrayBuffer()).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it('the employment record, appended to the wage chain (the record before it ends the day before)', async () => {
    const url = (date: string) => `${PAYROLL}/employers/${refs.shop}/employees/employments/comprehensive?referenceDate=${date}`;
    const wageOn = async (date: string) => ((await read(url(date), 'GetEmploymentsComprehensiveByEmployerId'))._embedded as Array<{ wage: { id: string; grossWage: number; startDate: string; endDate: string | null } }>)[0]!.wage;
    expect(await wageOn('2024-06-01')).toMatchObject({ id: refs.raise, grossWage: 4000, startDate: '2024-01-01', endDate: null });
    const before = await wageOn('2023-06-01');
    expect(before.id).not.toBe(refs.raise);
    expect(before.endDate).toBe('2023-12-31');
  });

  it('a record of an ended employment ends with it, and reopens when the employment is reinstated', async () => {
    const token = 'ended-record';
    const { refs: ended } = await sandbox.scenario(
      { start: 'seed', seed: 'ended', entities: { employments: [{ ref: 'job', employeeId: PEOPLE_IDS.newHireEmployee, startDate: '2021-01-01', endDate: '2026-06-30' }], employmentRecords: [{ ref: 'raise', employmentRef: 'job', grossWage: 3900 }] } },
      { token },
    );
    const wage = async (date: string) => {
      const res = await call(sandbox, token, `${PAYROLL}/employers/${SEED_IDS.employer}/employees/employments/comprehensive?referenceDate=${date}&filter=employment.id eq '${ended.job}'`);
      expect(await answerProblems(sandbox, res, 'GetEmploymentsComprehensiveByEmployerId')).toEqual([]);
      return ((await res.json()) as { _embedded: Array<{ wage: { id: string; startDate: string; endDate: string | null } | null }> })._embedded[0]!.wage;
    };
    expect(await wage('2026-03-01')).toMatchObject({ id: ended.raise, startDate: '2022-01-01', endDate: '2026-06-30' });
    const reinstated = await call(sandbox, token, `${PAYROLL}/employers/employees/employments/${ended.job}/reinstate`, { method: 'PATCH', body: '{}' });
    expect(reinstated.status).toBe(200);
    expect(await wage('2030-01-01')).toMatchObject({ id: ended.raise, endDate: null });
  });

  it('a provider made has every module, as the seed\'s has: a user\'s token reaches its wage model level', async () => {
    const token = 'sandbox-user-admin';
    const made = await sandbox.scenario({ start: 'seed', entities: { providers: [{ ref: 'p' }], journalWageModels: [{ ref: 'w', providerRef: 'p' }], journalProfiles: [{ ref: 'j', wageModelRef: 'w' }] } }, { token });
    const res = await call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${made.refs.j}/costcenters`);
    expect(res.headers.get('x-sandbox-authorization')).toBeNull();
    expect(res.status).toBe(200);
    expect(await answerProblems(sandbox, res, 'GetCostCentersAtWageModelLevelByJournalProfileId')).toEqual([]);
  });

  it('the wage model, its profile and the payroll administration profiles', async () => {
    const { _embedded } = await read(`${JOURNAL}/wagemodels/${refs.model}/journalprofiles`, 'GetJournalProfilesByWageModelId');
    expect((_embedded as Array<{ id: string }>).map((p) => p.id)).toEqual([refs.profile]);
    expect((await read(`${JOURNAL}/payrolladministrations/journalprofiles/${refs.deviation}`, 'GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId')).content).toEqual({ id: refs.deviation, description: 'Afwijkend profiel' });
  });

  it('the rules see them: a provider level description, a payroll component link and a journal', async () => {
    const post = await call(sandbox, 'office', `${JOURNAL}/payrolladministrations/${refs.pa}/journalProfiles`, { method: 'POST', body: JSON.stringify({ description: 'Kantoorbreed' }) });
    expect(await codes(post, 'PostJournalProfileByPayrollAdministrationId')).toEqual(['API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_ProviderLevel']);
    const center = await call(sandbox, 'office', `${JOURNAL}/wagemodels/journalprofiles/costcenters/${refs.center}`, { method: 'DELETE' });
    expect(await codes(center, 'DeleteCostCenterAtWageModelLevelByCostCenterId')).toEqual(['API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_WageModelLevel']);
    const own = await call(sandbox, 'office', `${JOURNAL}/payrolladministrations/journalprofiles/${refs.own}`, { method: 'DELETE' });
    expect(await codes(own, 'DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId')).toEqual(['API_Journal_PayrollAdministrationJournalProfile_InUse_Journal']);
    expect((await call(sandbox, 'office', `${JOURNAL}/payrolladministrations/journalprofiles/${refs.deviation}`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('cost centers, cost units and matrix entries at payroll administration level', () => {
  const PROFILE = JOURNAL_PROFILE_IDS.wageModelStandard;
  const ADMINISTRATION = ORG_IDS.payrollAdministrations.bouwgroepMonthly;

  it('a deviation, an addition and a matrix entry: the rules of that level see them', async () => {
    const token = 'administration-level';
    const { refs: made } = await sandbox.scenario(
      {
        start: 'seed',
        entities: {
          costCenters: [
            { ref: 'parent', journalProfileId: PROFILE, code: 'K950' },
            { ref: 'deviation', journalProfileId: PROFILE, payrollAdministrationId: ADMINISTRATION, deviatesFromRef: 'parent' },
            { ref: 'addition', journalProfileId: PROFILE, payrollAdministrationId: ADMINISTRATION, code: 'K-UTR' },
          ],
          costUnits: [{ ref: 'unit', journalProfileId: PROFILE, code: 'D950' }],
          matrixEntries: [{ journalProfileId: PROFILE, payrollAdministrationId: ADMINISTRATION, costCenterRef: 'parent', costUnitRef: 'unit' }],
        },
      },
      { token },
    );
    const remove = (what: string, id: string) => call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${what}/${id}`, { method: 'DELETE' });
    expect(await codes(await remove('costcenters', made.parent!), 'DeleteCostCenterAtWageModelLevelByCostCenterId')).toEqual([
      'API_Journal_WageModelCostCenter_InUse_CostCenterAtPayrollAdministrationLevel',
      'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_PayrollAdministrationLevel',
    ]);
    expect(await codes(await remove('costunits', made.unit!), 'DeleteCostUnitAtWageModelLevelByCostUnitId')).toEqual(['API_Journal_WageModelCostUnit_InUse_CostUnitCostCenterMatrix_PayrollAdministrationLevel']);
    const post = await call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${PROFILE}/costcenters`, { method: 'POST', body: JSON.stringify({ code: 'k-utr' }) });
    expect(await codes(post, 'PostCostCenterAtWageModelLevelByJournalProfileId')).toEqual(['API_Journal_WageModelCostCenter_Code_NotUnique_PayrollAdministrationLevel']);
    // Only the wage model level is listed.
    const { _embedded } = await read(`${JOURNAL}/wagemodels/journalprofiles/${PROFILE}/costcenters`, 'GetCostCentersAtWageModelLevelByJournalProfileId', token);
    expect((_embedded as Array<{ id: string }>).map((c) => c.id)).toContain(made.parent);
    expect((_embedded as Array<{ id: string }>).map((c) => c.id)).not.toContain(made.deviation);
  });

  it('refuse what that level does not allow, naming the field', () => {
    const f = createFixtures({ seed: 'levels' });
    const parent = f.costCenter({ journalProfileId: PROFILE });
    f.costCenter({ journalProfileId: PROFILE, payrollAdministrationId: ADMINISTRATION, deviatesFromId: parent.id });
    expect(fixtureProblemPaths(() => f.costCenter({ journalProfileId: PROFILE, payrollAdministrationId: ADMINISTRATION, deviatesFromId: parent.id }))).toEqual(['deviatesFromId']);
    expect(fixtureProblemPaths(() => f.costCenter({ journalProfileId: PROFILE, deviatesFromId: parent.id }))).toEqual(['deviatesFromId']);
    expect(fixtureProblemPaths(() => f.costUnit({ journalProfileId: PROFILE, payrollAdministrationId: ORG_IDS.payrollAdministrations.bouwgroepFourWeekly, deviatesFromId: COST_UNIT_IDS.unused, code: 'D999' }))).toEqual(['code']);
    // The bakery's administration uses another wage model than the profile.
    expect(fixtureProblemPaths(() => f.costUnit({ journalProfileId: PROFILE, payrollAdministrationId: ORG_IDS.payrollAdministrations.bakkerijFourWeekly }))).toEqual(['payrollAdministrationId']);
    expect(fixtureProblemPaths(() => f.matrixEntry({ journalProfileId: PROFILE, costCenterId: COST_CENTER_IDS.administrationAddition, costUnitId: COST_UNIT_IDS.unused }))).toEqual(['costCenterId']);
  });
});

describe('cost centers, cost units and matrix entries of a provider level profile and of a payroll administration\'s own', () => {
  const ADMINISTRATION = ORG_IDS.payrollAdministrations.bouwgroepMonthly;
  const P = JOURNAL_PROFILE_IDS;
  const costCenters = `${JOURNAL}/wagemodels/journalprofiles/${P.wageModelStandard}/costcenters`;

  it('at provider level: the codes they take are refused at wage model level, and no wage model list shows them', async () => {
    const token = 'provider-level';
    const { refs: made } = await sandbox.scenario(
      {
        start: 'seed',
        entities: {
          providerJournalProfiles: [{ ref: 'top', providerId: SEED_IDS.provider, description: 'Concernbreed' }],
          costCenters: [{ ref: 'hq', journalProfileRef: 'top', code: 'K-HQ' }],
          costUnits: [{ ref: 'group', journalProfileRef: 'top', code: 'D-HQ' }],
        },
      },
      { token },
    );
    const stored = (await sandbox.snapshot({ token })).collections;
    expect(stored.journalCostCenters?.find((c) => c.id === made.hq)).toMatchObject({ level: 'provider', journalProfileId: made.top, providerId: SEED_IDS.provider, wageModelId: null, payrollAdministrationId: null });
    const post = (what: string, code: string) => call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${P.wageModelStandard}/${what}`, { method: 'POST', body: JSON.stringify({ code }) });
    expect(await codes(await post('costcenters', 'k-hq '), 'PostCostCenterAtWageModelLevelByJournalProfileId')).toEqual(['API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel']);
    expect(await codes(await post('costunits', 'D-HQ'), 'PostCostUnitAtWageModelLevelByJournalProfileId')).toEqual(['API_Journal_WageModelCostUnit_Code_NotUnique_ProviderLevel']);
    const rename = await call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/costcenters/${COST_CENTER_IDS.unused}`, { method: 'PATCH', body: JSON.stringify({ code: 'K-HQ' }) });
    expect(await codes(rename, 'PatchCostCenterAtWageModelLevelByJournalProfileId')).toEqual(['API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel']);
    // The contract reads cost centers at wage model level only.
    const { _embedded } = await read(costCenters, 'GetCostCentersAtWageModelLevelByJournalProfileId', token);
    expect((_embedded as Array<{ id: string }>).map((c) => c.id)).not.toContain(made.hq);
    expect((await call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${made.top}/costcenters`)).status).toBe(404);
  });

  it("of an administration's own profile: at its level and administration, linked in its matrix, deleted with the profile", async () => {
    const token = 'own-profile';
    const { refs: made } = await sandbox.scenario(
      {
        start: 'seed',
        entities: {
          administrationJournalProfiles: [{ ref: 'own', payrollAdministrationId: ADMINISTRATION, description: 'Vestiging Zwolle' }],
          costCenters: [{ ref: 'center', journalProfileRef: 'own', code: 'Z-01' }],
          costUnits: [{ ref: 'unit', journalProfileRef: 'own', code: 'Z-02' }],
          matrixEntries: [{ ref: 'entry', journalProfileRef: 'own' }],
        },
      },
      { token },
    );
    const owned = async () => {
      const { collections } = await sandbox.snapshot({ token });
      return { centers: collections.journalCostCenters?.filter((c) => c.journalProfileId === made.own), units: collections.journalCostUnits?.filter((c) => c.journalProfileId === made.own), matrix: collections.journalMatrixEntries?.filter((c) => c.journalProfileId === made.own) };
    };
    const at = { level: 'payrollAdministration', journalProfileId: made.own, payrollAdministrationId: ADMINISTRATION };
    expect(await owned()).toEqual({
      centers: [expect.objectContaining({ ...at, id: made.center, code: 'Z-01', deviatesFromId: null })],
      units: [expect.objectContaining({ ...at, id: made.unit, code: 'Z-02', deviatesFromId: null })],
      matrix: [expect.objectContaining({ ...at, id: made.entry, costCenterId: made.center, costUnitId: made.unit })],
    });
    const profile = `${JOURNAL}/payrolladministrations/journalprofiles/${made.own}`;
    expect((await read(profile, 'GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', token)).content).toEqual({ id: made.own, description: 'Vestiging Zwolle' });
    // The contract has no read of an own profile's cost centers: the wage model level path refuses the profile.
    expect((await call(sandbox, token, `${JOURNAL}/wagemodels/journalprofiles/${made.own}/costcenters`)).status).toBe(404);
    // Deleting the administration's own profile deletes what it owns.
    expect((await call(sandbox, token, profile, { method: 'DELETE' })).status).toBe(200);
    expect(await owned()).toEqual({ centers: [], units: [], matrix: [] });
  });

  it('refuse what those levels do not have, naming the field', () => {
    const f = createFixtures({ seed: 'other-levels' });
    const paths = fixtureProblemPaths;
    expect(f.stored.costCenter({ journalProfileId: P.ownUnused })).toMatchObject({ level: 'payrollAdministration', payrollAdministrationId: ADMINISTRATION });
    expect(f.stored.costUnit({ journalProfileId: P.providerStandard })).toMatchObject({ level: 'provider', payrollAdministrationId: null });
    expect(paths(() => f.costCenter({ journalProfileId: P.providerStandard, payrollAdministrationId: ADMINISTRATION }))).toEqual(['payrollAdministrationId']);
    expect(paths(() => f.costCenter({ journalProfileId: P.ownUnused, payrollAdministrationId: ORG_IDS.payrollAdministrations.bouwgroepFourWeekly }))).toEqual(['payrollAdministrationId']);
    expect(paths(() => f.costCenter({ journalProfileId: P.ownUnused, payrollAdministrationId: ADMINISTRATION, deviatesFromId: COST_CENTER_IDS.unused }))).toEqual(['deviatesFromId']);
    // A profile that deviates owns nothing; its own codes are unique within an own profile.
    expect(paths(() => f.costCenter({ journalProfileId: P.deviationUnused }))).toEqual(['journalProfileId']);
    expect(paths(() => f.costUnit({ journalProfileId: P.ownUnused, code: 'u200' }))).toEqual(['code']);
    // The contract shows no matrix at provider level; an own profile's matrix links its own entities only.
    expect(paths(() => f.matrixEntry({ journalProfileId: P.providerStandard }))).toEqual(['journalProfileId']);
    expect(paths(() => f.matrixEntry({ journalProfileId: P.ownUnused, costCenterId: COST_CENTER_IDS.unused, costUnitId: COST_UNIT_IDS.ownUnused }))).toEqual(['costCenterId']);
  });

  it('a scenario names a provider level profile for cost centers, not for a matrix entry', async () => {
    const paths = await refusedScenarioPaths({ start: 'seed', entities: { providerJournalProfiles: [{ ref: 'top' }], costCenters: [{ journalProfileRef: 'top' }], matrixEntries: [{ journalProfileRef: 'top' }] } });
    expect(paths).toEqual(['entities.matrixEntries[0].journalProfileRef']);
  });
});

describe('the new factories', () => {
  it('are deterministic from the seed, images included', () => {
    const make = (seed: string) => {
      const f = createFixtures({ seed });
      return [f.provider(), f.providerLogo(), f.employerLogo(), f.employeePhoto(), f.employmentRecord(), f.journalWageModel(), f.journalPayrollAdministration(), f.providerJournalProfile(), f.administrationJournalProfile(), f.payrollComponentLink(), f.journal()];
    };
    const first = make('same');
    expect(make('same')).toEqual(first);
    expect(make('other')[1]).not.toEqual(first[1]);
  });

  it('join what exists without breaking a one-each rule: an employer without a logo, an administration the journal does not know', () => {
    const f = createFixtures();
    const logo = f.employerLogo();
    expect(logo.id).not.toBe(SEED_IDS.employer);
    const administration = f.journalPayrollAdministration();
    expect(f.collections().administrations?.map((a) => a.id)).toEqual([administration.id]);
  });

  it('refuse a bad override, naming the field', () => {
    const f = createFixtures();
    const paths = fixtureProblemPaths;
    expect(paths(() => f.employeePhoto({ mimeType: 'image/gif' }))).toEqual(['mimeType']);
    expect(paths(() => f.providerLogo({ attribute: 'a'.repeat(11), data: 'not base64!' }))).toEqual(['data', 'attribute']);
    expect(paths(() => f.employerLogo({ employerId: SEED_IDS.employer }))).toEqual(['employerId']);
    expect(paths(() => f.employmentRecord({ startDate: '1990-01-01' }))).toContain('startDate');
    expect(paths(() => f.employmentRecord({ section: 'employee' as never }))).toEqual(['section']);
    expect(paths(() => f.employmentRecord({ grossWage: 'veel' as never }))).toEqual(['grossWage']);
    expect(paths(() => f.journalPayrollAdministration({ wageModelId: SEED_IDS.employer }))).toEqual(['wageModelId']);
    const own = f.administrationJournalProfile();
    expect(paths(() => f.administrationJournalProfile({ deviatesFromJournalProfileId: own.id }))).toEqual(['deviatesFromJournalProfileId']);
    expect(paths(() => f.administrationJournalProfile({ description: 'Journaalprofiel loonmodel' }))).toEqual(['description']);
    expect(paths(() => f.journal({ journalProfileId: own.id, year: 'dit jaar' as never }))).toEqual(['year']);
    expect(paths(() => f.journal({ journalProfileId: SEED_IDS.wageModel }))).toEqual(['journalProfileId']);
    expect(paths(() => f.payrollComponentLink({ costCenterId: createFixtures({ seed: 2 }).costCenter().id }))).toEqual(['costCenterId']);
    expect(paths(() => f.provider({ providerId: SEED_IDS.provider } as never))).toEqual(['providerId']);
  });

  it('refuse a ref of the wrong kind in a scenario, with its path', async () => {
    const paths = await refusedScenarioPaths({ start: 'empty', entities: { journalWageModels: [{ ref: 'model' }], journals: [{ journalProfileRef: 'model' }], employeePhotos: [{ employerRef: 'model' }] } });
    expect(paths).toEqual(['entities.employeePhotos[0].employerRef', 'entities.journals[0].journalProfileRef']);
  });
});
