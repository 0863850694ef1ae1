// What a factory returns is what the API serves: each kind made, merged into a sandbox and read
// back through the API equals the factory's result (the journal data the API answers none of:
// the stored doc). The stored doc, with the sandbox's own fields, is `make.stored.<kind>`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../src/index.js';
import { createFixtures, type Factories } from '../src/fixtures.js';
import { call, ORIGIN } from './support.js';
import { SEED_IDS } from '../src/seed/ids.js';

const PAYROLL = `${ORIGIN}/v2/v2/providers`;
const JOURNAL = `${ORIGIN}/journal/providers`;
const TOKEN = 'served';

let sandbox: Sandbox;
let make: Factories;
beforeAll(async () => {
  sandbox = await createSandbox();
  make = createFixtures({ seed: 'served', base: await sandbox.snapshot({ token: TOKEN }) });
});
afterAll(() => sandbox.close());

async function merge() {
  await sandbox.restore({ format: 'payroll-sandbox/1', collections: make.collections(), meta: {} }, { token: TOKEN, mode: 'merge' });
}
async function body(url: string): Promise<Record<string, unknown>> {
  const res = await call(sandbox, TOKEN, url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
/** A detail's content (the contact information is answered without the envelope). */
async function content(url: string): Promise<unknown> {
  const answer = await body(url);
  return 'content' in answer ? answer.content : answer;
}
const item = async (url: string, id: string) => ((await body(url))._embedded as Array<{ id: string }>).find((doc) => doc.id === id);

describe('every factory returns what the API serves', () => {
  it('the organisation and its people', async () => {
    const provider = make.provider();
    const providerLogo = make.providerLogo({ providerId: provider.id });
    const employer = make.employer({ providerId: provider.id });
    const employerLogo = make.employerLogo({ employerId: employer.id });
    const administration = make.administration({ employerId: employer.id });
    const employee = make.employee({ employerId: employer.id, personalDetails: { firstName: 'Anna', lastName: 'Visser' } });
    const employeePhoto = make.employeePhoto({ employeeId: employee.id });
    const employment = make.employment({ employeeId: employee.id, administrationId: administration.id!, startDate: '2020-01-01' });
    const record = make.employmentRecord({ employmentId: employment.id!, startDate: '2024-01-01', grossWage: 4000 });
    const conceptEmployee = make.conceptEmployee({ employerId: employer.id });
    await merge();
    expect(await content(`${PAYROLL}/${provider.id}/contactinformation`)).toEqual(provider);
    expect(await content(`${PAYROLL}/logos/${providerLogo.id}`)).toEqual(providerLogo);
    expect(await content(`${PAYROLL}/employers/${employer.id}`)).toEqual(employer);
    expect(await content(`${PAYROLL}/employers/${employer.id}/logo`)).toEqual(employerLogo);
    expect(await item(`${PAYROLL}/employers/${employer.id}/administrations`, administration.id!)).toEqual(administration);
    expect(await content(`${PAYROLL}/employers/employees/${employee.id}`)).toEqual(employee);
    // The photo is served as the image itself: its bytes and type are the upload's.
    const photo = await call(sandbox, TOKEN, `${PAYROLL}/employers/employees/${employee.id}/photo`, { headers: { accept: employeePhoto.mimeType! } });
    expect({ data: Buffer.from(await photo.arrayBuffer()).toString('base64'), mimeType: photo.headers.get('content-type') }).toEqual(employeePhoto);
    // As the lists show it, the shape its type names (the detail adds the agreement's and wage model's names).
    expect(await item(`${PAYROLL}/employers/employees/${employee.id}/employments`, employment.id!)).toEqual(employment);
    const comprehensive = (await body(`${PAYROLL}/employers/${employer.id}/employees/employments/comprehensive?referenceDate=2024-06-01`))._embedded as Array<{ wage: unknown }>;
    expect(comprehensive[0]!.wage).toEqual(record);
    expect(await content(`${PAYROLL}/employers/conceptemployees/${conceptEmployee.id}`)).toEqual(conceptEmployee);
  });

  it('the journal', async () => {
    const wageModel = make.journalWageModel();
    const profile = make.journalProfile({ wageModelId: wageModel.id });
    const costCenter = make.costCenter({ journalProfileId: profile.id! });
    const costUnit = make.costUnit({ journalProfileId: profile.id! });
    const matrixEntry = make.matrixEntry({ journalProfileId: profile.id!, costCenterId: costCenter.id!, costUnitId: costUnit.id! });
    const payrollAdministration = make.journalPayrollAdministration({ wageModelId: wageModel.id });
    const own = make.administrationJournalProfile({ payrollAdministrationId: payrollAdministration.id });
    const providerProfile = make.providerJournalProfile();
    const link = make.payrollComponentLink({ journalProfileId: profile.id! });
    const journal = make.journal({ journalProfileId: own.id! });
    await merge();
    expect(await item(`${JOURNAL}/wagemodels/${wageModel.id}/journalprofiles`, profile.id!)).toEqual(profile);
    expect(await item(`${JOURNAL}/wagemodels/journalprofiles/${profile.id}/costcenters`, costCenter.id!)).toEqual(costCenter);
    expect(await item(`${JOURNAL}/wagemodels/journalprofiles/${profile.id}/costunits`, costUnit.id!)).toEqual(costUnit);
    expect(await item(`${JOURNAL}/wagemodels/journalprofiles/${profile.id}/costcentercostunitmatrix`, matrixEntry.id!)).toEqual(matrixEntry);
    expect(await content(`${JOURNAL}/payrolladministrations/journalprofiles/${own.id}`)).toEqual(own);
    // What the API answers none of is made as the sandbox stores it.
    const stored = (await sandbox.snapshot({ token: TOKEN })).collections;
    const byId = <T extends { id: string }>(docs: T[] | undefined, id: string) => docs?.find((doc) => doc.id === id);
    expect(byId(stored.journalWageModels, wageModel.id)).toEqual(wageModel);
    expect(byId(stored.journalPayrollAdministrations, payrollAdministration.id)).toEqual(payrollAdministration);
    expect(byId(stored.journalPayrollComponentLinks, link.id)).toEqual(link);
    expect(byId(stored.journals, journal.id)).toEqual(journal);
    // A provider level profile is shown as a wage model level one would be (no operation lists that level).
    expect(providerProfile).toEqual({ id: providerProfile.id, description: byId(stored.journalProfiles, providerProfile.id!)?.description });
  });
});

describe('the fields made from an override follow it', () => {
  it("the README's Anna Visser is served as Anna Visser, her e-mail address made from her name", async () => {
    const token = 'anna';
    const { refs } = await sandbox.scenario(
      {
        start: 'empty',
        entities: {
          employers: [{ ref: 'bakery', companyName: 'Bakkerij Het Anker B.V.' }],
          employees: [{ ref: 'anna', employerRef: 'bakery', personalDetails: { firstName: 'Anna', lastName: 'Visser', gender: { key: 2 } } }],
          employments: [{ ref: 'job', employeeRef: 'anna', startDate: '2020-01-01' }],
        },
      },
      { token },
    );
    const employee = (await (await call(sandbox, token, `${PAYROLL}/employers/employees/${refs.anna}`)).json()).content;
    expect(employee.personalDetails).toMatchObject({ firstName: 'Anna', lastName: 'Visser', prefix: '', initials: expect.stringMatching(/^A\./), formattedName: expect.stringMatching(/^A\.[A-Z.]* Visser$/), title: { key: 2 } });
    const stored = (await sandbox.snapshot({ token })).collections.employees!.find((doc) => doc.id === refs.anna)!;
    expect(stored.emailAddress).toMatch(/^anna\.visser@/);
    const employment = (await (await call(sandbox, token, `${PAYROLL}/employers/employees/employments/${refs.job}`)).json()).content;
    expect(employment.employee.formattedName).toBe(employee.personalDetails.formattedName);
  });

  it("a concept employee's initials and unique name follow the names given", () => {
    const concept = createFixtures({ seed: 'concept' }).stored.conceptEmployee({ employeeData: { personalDetails: { firstName: 'Anna', prefix: 'van', lastName: 'Dijk' } } });
    expect(concept.uniqueName).toBe('Anna van Dijk');
    expect(concept.employeeData?.personalDetails).toMatchObject({ firstName: 'Anna', initials: 'A.', prefix: 'van', lastName: 'Dijk' });
  });
});

describe('a scenario entity that names a stored id patches it', () => {
  it('merges the fields given over the stored entity, keeps the rest, and makes again what they touch', async () => {
    const token = 'patch';
    const { refs } = await sandbox.scenario({ start: 'seed', entities: { employees: [{ ref: 'anna', employerId: SEED_IDS.employer, personalDetails: { firstName: 'Anna', lastName: 'Visser' } }], employments: [{ ref: 'job', employeeRef: 'anna' }] } }, { token });
    const employee = async () => (await (await call(sandbox, token, `${PAYROLL}/employers/employees/${refs.anna}`)).json()).content;
    const before = await employee();
    const patched = await sandbox.scenario({ entities: { employees: [{ id: refs.anna, personalDetails: { lastName: 'Aalders' } }] } }, { token, mode: 'merge' });
    expect(patched.added.employees).toEqual([refs.anna]);
    const after = await employee();
    expect(after.personalDetails).toMatchObject({ firstName: 'Anna', lastName: 'Aalders', initials: before.personalDetails.initials, formattedName: `${before.personalDetails.initials} Aalders` });
    expect(after.employeeNumber).toBe(before.employeeNumber);
    expect({ ...after, personalDetails: { ...after.personalDetails, lastName: 'Visser', formattedName: before.personalDetails.formattedName } }).toEqual(before);
    // The summary its employment carries follows.
    const employment = (await (await call(sandbox, token, `${PAYROLL}/employers/employees/employments/${refs.job}`)).json()).content;
    expect(employment.employee).toMatchObject({ lastName: 'Aalders', formattedName: after.personalDetails.formattedName });
    // A first name given makes the initials again; a bad value is refused naming the field, changing nothing.
    await sandbox.scenario({ entities: { employees: [{ id: refs.anna, personalDetails: { firstName: 'Marloes' } }] } }, { token, mode: 'merge' });
    expect((await employee()).personalDetails).toMatchObject({ firstName: 'Marloes', initials: 'M.', formattedName: 'M. Aalders' });
    await expect(sandbox.scenario({ entities: { employees: [{ id: refs.anna, personalDetails: { lastName: 42 as never } }] } }, { token, mode: 'merge' })).rejects.toThrow(/entities\.employees\[0\]\.personalDetails\.lastName/);
    expect((await employee()).personalDetails.lastName).toBe('Aalders');
  });
});
