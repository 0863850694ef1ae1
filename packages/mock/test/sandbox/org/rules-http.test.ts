// The organisation side's rules (issue 13, contract §2.1, §2.3, §2.4, §2.8, §4.1, §8), each by
// its own scenario through HTTP against the running sandbox, each ending with a refused
// request that changed nothing. Every scenario runs in a sandbox of its own (its own token),
// with the memory store and with PostgreSQL (where the database decides uniqueness).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { seedUuid } from '#sandbox/domain/reference-data.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';
import { OrgClient } from './harness.js';

let running: RunningMock;

const E = ORG_IDS.employers;
const PA = ORG_IDS.payrollAdministrations;
const provider = { providerId: ORG_IDS.provider };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

async function sandbox(name: string): Promise<OrgClient> {
  const client = new OrgClient(running.url, `org-rule-${name}`);
  await client.reset();
  return client;
}

const newEmployer = (companyName: string) => ({
  companyName,
  chamberOfCommerceNumber: '68750110',
  legalForm: { key: 1 },
  sbi: { key: 1050 },
  address: { street: 'Oudegracht', houseNumber: 250, postalCode: '3511 NX', city: 'Utrecht', country: { key: 1 }, province: { key: 7 } },
});

function rules(): void {
  describe('PostEmployerByProviderId assigns the employerNumber (§2.4)', () => {
    it('numbers new employers after the highest one; the new employer is read back and listed', async () => {
      const client = await sandbox('employer-number');
      const first = await client.call('PostEmployerByProviderId', { params: provider, body: newEmployer('Koffiebranderij Utrecht B.V.') });
      expect(first.status).toBe(201);
      expect(first.body.content).toMatchObject({ employerNumber: 10006, companyName: 'Koffiebranderij Utrecht B.V.', sbi: { key: 1050, value: 'Boekhoudkantoren', sbiCode: '69203' } });
      const second = await client.call('PostEmployerByProviderId', { params: provider, body: newEmployer('Theehuis Utrecht B.V.') });
      expect(second.body.content.employerNumber).toBe(10007);
      await client.makeVisible(first.body.content.id);
      await client.makeVisible(second.body.content.id);
      const read = await client.call('GetEmployerByEmployerId', { params: { employerId: first.body.content.id } });
      expect(read.body.content).toEqual(first.body.content);
      const listed = await client.call('GetEmployersMinimizedByProviderId', { params: provider, query: { filter: 'employerNumber ge 10006', orderBy: '-employerNumber' } });
      expect(listed.body._embedded.map((e: any) => e.companyName)).toEqual(['Theehuis Utrecht B.V.', 'Koffiebranderij Utrecht B.V.']);

      // Refused: no companyName; nothing is created and no number is used up.
      const { companyName: _name, ...nameless } = newEmployer('x');
      await client.expectRefusedUnchanged('PostEmployerByProviderId', { params: provider, body: nameless }, 400, 'companyName');
      const third = await client.call('PostEmployerByProviderId', { params: provider, body: newEmployer('Bakkerij Oudegracht B.V.') });
      expect(third.body.content.employerNumber).toBe(10008);
    });
  });

  describe('a new employer is visible only after it is added to a team, and a few minutes later (§2.4)', () => {
    it('refuses it (403, step 5) and leaves it out of lists until then; the clock skips the delay', async () => {
      const client = await sandbox('employer-visibility');
      const created = await client.call('PostEmployerByProviderId', { params: provider, body: newEmployer('Brouwerij Vecht B.V.') });
      expect(created.status).toBe(201);
      const employerId = created.body.content.id as string;
      const params = { employerId };
      const listed = async () => (await client.call('GetEmployersByUserId', { query: { pageSize: '100' } })).body._embedded.map((e: any) => e.id);
      const minimized = async () => (await client.call('GetEmployersMinimizedByProviderId', { params: provider, query: { pageSize: '100' } })).body._embedded.map((e: any) => e.id);
      const expectHidden = async (reason: string) => {
        for (const operationId of ['GetEmployerByEmployerId', 'GetAdministrationsByEmployerId', 'GetEmployeesByEmployerId']) {
          const refused = await client.call(operationId, { params, unchecked: true });
          expect(refused.status, operationId).toBe(403);
          expect(refused.headers.get('x-sandbox-authorization')).toBe(`step=5; reason=${reason}`);
          expect(refused.body.message).toContain(employerId);
        }
        expect(await listed()).not.toContain(employerId);
        expect(await minimized()).not.toContain(employerId);
        // The seeded employers stay as they were.
        expect(await listed()).toContain(E.vanDerMeerBouwgroep);
      };

      await expectHidden('employer-not-in-team');
      expect((await client.teams())[employerId]).toEqual({ addedAt: null, visibleFrom: null, visible: false });
      // Time alone does not help: it must be added to the team first.
      await client.advanceClock({ hours: 1 });
      await expectHidden('employer-not-in-team');

      const added = await client.addToTeam(employerId);
      expect(added.visible).toBe(false);
      expect(Date.parse(added.visibleFrom!) - Date.parse(added.addedAt!)).toBe(5 * 60_000);
      await expectHidden('employer-not-visible-yet');
      await client.advanceClock({ minutes: 4 });
      await expectHidden('employer-not-visible-yet');
      // Adding it again does not restart the delay.
      expect(await client.addToTeam(employerId)).toEqual(added);

      await client.advanceClock({ minutes: 1 });
      expect((await client.call('GetEmployerByEmployerId', { params })).body.content).toEqual(created.body.content);
      expect((await client.call('GetAdministrationsByEmployerId', { params })).status).toBe(200);
      expect(await listed()).toContain(employerId);
      expect(await minimized()).toContain(employerId);
      expect((await client.teams())[employerId]!.visible).toBe(true);
    });

    it('holds for a model user with every employer too, and the team endpoint refuses an unknown employer', async () => {
      const admin = new OrgClient(running.url, 'sandbox-user-admin');
      await admin.reset();
      const created = await admin.call('PostEmployerByProviderId', { params: provider, body: newEmployer('Kaasmakerij Gouda B.V.') });
      expect(created.status).toBe(201);
      const params = { employerId: created.body.content.id as string };
      expect((await admin.call('GetEmployerByEmployerId', { params, unchecked: true })).status).toBe(403);
      await admin.makeVisible(params.employerId);
      expect((await admin.call('GetEmployerByEmployerId', { params })).status).toBe(200);
      const unknown = await fetch(`${running.url}/__sandbox/authorization/teams/${seedUuid('no-such-employer')}`, { method: 'PUT', headers: { Authorization: 'Bearer sandbox-user-admin' } });
      expect(unknown.status).toBe(404);
    });
  });

  describe('GetChildEmployersByEmployerId honours includeParent (§4.3)', () => {
    it('lists the children without the parent by default, with it on includeParent=true, and follows a changed parent', async () => {
      const client = await sandbox('child-employers');
      const params = { employerId: E.vanDerMeerBouwgroep };
      const children = await client.call('GetChildEmployersByEmployerId', { params, query: { orderBy: 'employerNumber' } });
      expect(children.body._embedded).toEqual([
        { id: E.vanDerMeerInfra, employerNumber: 10002, companyName: 'Van der Meer Infra B.V.', providerSettings: { parentEmployerForConsolidatedOverviews: 10001 } },
        { id: E.vanDerMeerVastgoed, employerNumber: 10003, companyName: 'Van der Meer Vastgoed B.V.', providerSettings: { parentEmployerForConsolidatedOverviews: 10001 } },
      ]);
      const withParent = await client.call('GetChildEmployersByEmployerId', { params, query: { includeParent: 'true', orderBy: 'employerNumber' } });
      expect(withParent.body._embedded.map((e: any) => e.id)).toEqual([E.vanDerMeerBouwgroep, E.vanDerMeerInfra, E.vanDerMeerVastgoed]);
      expect((await client.call('GetChildEmployersByEmployerId', { params, query: { includeParent: 'false' } })).body.totalSize).toBe(2);
      expect((await client.call('GetChildEmployersByEmployerId', { params: { employerId: E.zorgcentrumDeLinde } })).body.totalSize).toBe(0);

      // A PUT that moves Vastgoed under the bakery takes it out of the Bouwgroep's children.
      const vastgoed = (await client.call('GetEmployerByEmployerId', { params: { employerId: E.vanDerMeerVastgoed } })).body.content;
      const { id: _id, employerNumber: _number, ...editable } = vastgoed;
      await client.call('PutEmployerByEmployerId', { params: { employerId: E.vanDerMeerVastgoed }, body: { ...editable, providerSettings: { ...editable.providerSettings, parentEmployerForConsolidatedOverviews: 10004 } } });
      expect((await client.call('GetChildEmployersByEmployerId', { params })).body._embedded.map((e: any) => e.id)).toEqual([E.vanDerMeerInfra]);
      expect((await client.call('GetChildEmployersByEmployerId', { params: { employerId: E.bakkerijDeKorenschoof } })).body._embedded.map((e: any) => e.id)).toEqual([E.vanDerMeerVastgoed]);

      // Refused: includeParent must be a boolean; an unknown employer is a 404.
      await client.expectRefusedUnchanged('GetChildEmployersByEmployerId', { params, query: { includeParent: 'yes' } }, 400, 'includeParent');
      await client.expectRefusedUnchanged('GetChildEmployersByEmployerId', { params: { employerId: '00000000-0000-4000-8000-000000000000' } }, 404);
    });
  });

  describe('concept employees are created with validations off (§2.8)', () => {
    it('needs only a uniqueName of 1..255 characters', async () => {
      const client = await sandbox('concept-validations');
      const params = { employerId: E.vanDerMeerBouwgroep };
      const bare = await client.call('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'Nieuwe collega' } });
      expect(bare.status).toBe(201);
      expect(bare.body.content).toMatchObject({ uniqueName: 'Nieuwe collega', employmentData: null, wageData: null });
      // An employee number another employee already has, a start without end: no employee rules apply.
      const partial = await client.call('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'x'.repeat(255), employeeData: { employeeNumber: 1, personalDetails: { lastName: 'Visser' } } } });
      expect(partial.status).toBe(201);
      const listed = await client.call('GetConceptEmployeesByEmployerId', { params, query: { filter: "uniqueName eq 'Nieuwe collega'" } });
      expect(listed.body._embedded).toEqual([bare.body.content]);

      await client.expectRefusedUnchanged('PostConceptEmployeeByEmployerId', { params, body: { employeeData: { personalDetails: { lastName: 'Visser' } } } }, 400, 'uniqueName');
      await client.expectRefusedUnchanged('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: '' } }, 400, 'uniqueName');
      await client.expectRefusedUnchanged('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'x'.repeat(256) } }, 400, 'uniqueName');
    });
  });

  describe("a concept employee's read-only ids (§2.8)", () => {
    it('gives the employee part the concept GUID and each dated section a record id, which a PUT keeps', async () => {
      const client = await sandbox('concept-ids');
      const params = { employerId: E.vanDerMeerBouwgroep };
      const sent = { uniqueName: 'Nieuwe collega', employeeData: { id: '00000000-0000-4000-8000-000000000001', personalDetails: { lastName: 'Visser' } }, fiscalData: { id: '00000000-0000-4000-8000-000000000002', startDate: '2027-01-01', applyPayrollTaxDeduction: true }, workingHoursData: null };
      const created = (await client.call('PostConceptEmployeeByEmployerId', { params, body: sent })).body.content;
      // The promoted employee keeps the concept employee's GUID: the employee part has it, whatever was sent.
      expect(created.employeeData.id).toBe(created.id);
      expect(created.fiscalData.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.fiscalData.id).not.toBe(sent.fiscalData.id);
      expect(created.workingHoursData).toBeNull();

      const conceptEmployeeId = created.id;
      const { id: _id, ...body } = created;
      const put = await client.call('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...body, fiscalData: { ...body.fiscalData, applyPayrollTaxDeduction: false }, workingHoursData: { startDate: '2027-01-01', averageHoursPerWeek: 32 } } });
      expect(put.status).toBe(200);
      const read = (await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content;
      expect(read.employeeData.id).toBe(conceptEmployeeId);
      expect(read.fiscalData).toMatchObject({ id: created.fiscalData.id, applyPayrollTaxDeduction: false });
      expect(read.workingHoursData.id).toMatch(/^[0-9a-f-]{36}$/);

      // The minimized PUT rewrites the employee part and keeps its id.
      await client.call('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body: { personalDetails: { lastName: 'Visser-de Boer' }, contactInformation: { mobilePhoneNumber: '06 11 22 33 44' } } });
      expect((await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content.employeeData.id).toBe(conceptEmployeeId);
    });
  });

  describe('the minimized and full views of a concept employee stay consistent (§2.8)', () => {
    it('shows a PUT of either view in the other', async () => {
      const client = await sandbox('concept-views');
      const conceptEmployeeId = ORG_IDS.conceptEmployees.mohamedElAmrani;
      const minimizedBody = {
        personalDetails: { firstName: 'Mohamed', initials: 'M.', lastName: 'El Amrani', dateOfBirth: '1989-11-02', gender: { key: 1 } },
        contactInformation: { mobilePhoneNumber: '06 11 22 33 44' },
        identityDocument: { typeOfDocument: { key: 1 }, documentIdentification: 'NXC4R7H21' },
        address: { street: 'Stationsplein', houseNumber: 9, postalCode: '3818 LE', city: 'Amersfoort', country: { key: 1 } },
        iban: 'NL44RABO0123456789',
        applyPayrollTaxDeduction: false,
      };
      const put = await client.call('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body: minimizedBody });
      expect(put.status).toBe(200);
      const full = (await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content;
      expect(full.employeeData.contactInformation).toEqual({ mobilePhoneNumber: '06 11 22 33 44' });
      expect(full.employeeData.identityDocument).toEqual({ typeOfDocument: { key: 1, value: 'Paspoort' }, documentIdentification: 'NXC4R7H21' });
      expect(full.employeeData.address.city).toBe('Amersfoort');
      expect(full.employeeData.personalDetails.aowDate).toBeDefined();
      expect(full.fiscalData.applyPayrollTaxDeduction).toBe(false);
      // The answer is the whole concept employee, as the description says.
      expect(put.body.content).toEqual(full);
      const minimizedView = (await client.call('GetConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content;
      expect(minimizedView).toMatchObject({ iban: minimizedBody.iban, applyPayrollTaxDeduction: false, contactInformation: minimizedBody.contactInformation, personalDetails: { lastName: 'El Amrani' } });

      // The full PUT (body not shown by the contract: the sandbox takes the full shape) shows in the minimized view.
      const { id: _id, ...fullBody } = full;
      fullBody.employeeData = { ...full.employeeData, address: null, personalDetails: { ...full.employeeData.personalDetails, lastName: 'El Amrani-Bakker' } };
      fullBody.fiscalData = { ...full.fiscalData, applyPayrollTaxDeduction: true };
      const putFull = await client.call('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: fullBody });
      expect(putFull.status).toBe(200);
      const minimized = (await client.call('GetConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content;
      expect(minimized).toMatchObject({ address: null, iban: 'NL44RABO0123456789', applyPayrollTaxDeduction: true });
      expect(minimized.personalDetails.lastName).toBe('El Amrani-Bakker');

      await client.expectRefusedUnchanged('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...fullBody, uniqueName: '' }, unchecked: true }, 400, 'uniqueName');
      await client.expectRefusedUnchanged('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...fullBody, wageData: 'hoog' }, unchecked: true }, 400, 'wageData');
      const wrongType = { ...fullBody, employeeData: { ...fullBody.employeeData, personalDetails: { lastName: 5 } } };
      await client.expectRefusedUnchanged('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: wrongType, unchecked: true }, 400, 'employeeData.personalDetails.lastName');
      await client.expectRefusedUnchanged('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...fullBody, surname: 'Bakker' }, unchecked: true }, 400, 'surname');
      await client.expectRefusedUnchanged('PutConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId }, body: [fullBody], unchecked: true }, 400, 'body');
      await client.expectRefusedUnchanged('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...minimizedBody, iban: 'NL44 RABO 0123 4567 89' } }, 400, 'iban');
    });

    it('keeps a minimized PUT without contact information valid in both views', async () => {
      const client = await sandbox('concept-no-contact');
      const conceptEmployeeId = ORG_IDS.conceptEmployees.mohamedElAmrani;
      const body = { personalDetails: { firstName: 'Mohamed', initials: 'M.', lastName: 'El Amrani', dateOfBirth: '1989-11-02', gender: { key: 1 } }, iban: null };
      expect((await client.call('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body })).status).toBe(200);
      // The minimized view shows none as null; the full view's employee part, whose contact
      // information is never null, leaves it out. Both answers are checked against their schemas.
      expect((await client.call('GetConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content.contactInformation).toBeNull();
      const full = (await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content;
      expect(full.employeeData).not.toHaveProperty('contactInformation');
      expect((await client.call('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body: { ...body, contactInformation: null } })).status).toBe(200);
      expect((await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } })).body.content.employeeData).not.toHaveProperty('contactInformation');
    });
  });

  describe('logos follow §8: attribute ≤ 10, name ≤ 50; an unknown logo is a 404', () => {
    it('accepts the limits, refuses one character more, and answers 404 for unknown logos', async () => {
      const client = await sandbox('logo-limits');
      const atLimit = { attribute: 'a'.repeat(10), name: 'n'.repeat(50), data: PNG, mimeType: 'image/png' };
      const created = await client.call('PostProviderLogoByProviderId', { params: provider, body: atLimit });
      expect(created.status).toBe(201);
      const logoId = created.body.content.id as string;
      await client.expectRefusedUnchanged('PostProviderLogoByProviderId', { params: provider, body: { ...atLimit, attribute: 'a'.repeat(11) } }, 400, 'attribute');
      await client.expectRefusedUnchanged('PutProviderLogoByLogoId', { params: { logoId }, body: { ...atLimit, name: 'n'.repeat(51) } }, 400, 'name');
      await client.expectRefusedUnchanged('PostProviderLogoByProviderId', { params: provider, body: { ...atLimit, data: 'not base64!' } }, 400, 'data');
      await client.expectRefusedUnchanged('PostEmployerLogoByEmployerId', { params: { employerId: E.vanDerMeerInfra }, body: { data: PNG, mimeType: 'text/plain' } }, 400, 'mimeType');
      const unknown = { logoId: '00000000-0000-4000-8000-000000000000' };
      for (const operationId of ['GetProviderLogoByLogoId', 'GetProviderLogoOnlyByLogoId', 'DeleteProviderLogoByLogoId']) {
        await client.expectRefusedUnchanged(operationId, { params: unknown }, 404);
      }
      await client.expectRefusedUnchanged('PutProviderLogoByLogoId', { params: unknown, body: atLimit }, 404);
      await client.expectRefusedUnchanged('GetEmployerLogoByEmployerId', { params: { employerId: E.vanDerMeerInfra } }, 404);
    });
  });

  describe('metadata keys are checked against the options of their context (§2.1, §4.1)', () => {
    it('accepts what the metadata endpoint lists in the context and refuses the rest, naming the field', async () => {
      const client = await sandbox('metadata-keys');
      const params = { employerId: E.bakkerijDeKorenschoof };
      const metadata = await client.call('GetConceptEmployeeMetadataByPayrollAdministrationId', { params: { payrollAdministrationId: PA.bakkerijFourWeekly } });
      const departments = metadata.body.content.find((f: any) => f.field === 'organizationalEntityData.department').options;
      expect(departments.map((o: any) => o.value)).toEqual(['Bakkerij', 'Winkel', 'Bezorging']);
      const accepted = await client.call('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'Broodbakker nacht', organizationalEntityData: { department: { key: departments[0].key } } } });
      expect(accepted.status).toBe(201);
      expect(accepted.body.content.organizationalEntityData.department).toEqual(departments[0]);

      // A department of another employer is no option here; neither is a gender key that does not exist.
      const otherDepartment = seedUuid(`department:${E.vanDerMeerBouwgroep}:10`);
      await client.expectRefusedUnchanged('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'Verkeerde afdeling', organizationalEntityData: { department: { key: otherDepartment } } } }, 400, 'organizationalEntityData.department');
      await client.expectRefusedUnchanged('PostConceptEmployeeByEmployerId', { params, body: { uniqueName: 'Onbekend geslacht', employeeData: { personalDetails: { gender: { key: 99 } } } } }, 400, 'employeeData.personalDetails.gender');
      await client.expectRefusedUnchanged('PutEmployerByEmployerId', { params, body: { companyName: 'Bakkerij De Korenschoof B.V.', sbi: { key: 424242 } } }, 400, 'sbi');
      await client.expectRefusedUnchanged('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId: ORG_IDS.conceptEmployees.pietBakker }, body: { personalDetails: { lastName: 'Bakker' }, address: { country: { key: 77 } } } }, 400, 'address.country');
    });
  });

  describe('defaults return the fully expanded GET shape, dated values as of the sandbox clock (§4.1)', () => {
    it('answers every field, null without default, and the CAO term valid on the clock date or the last known one', async () => {
      const client = await sandbox('defaults');
      const params = { payrollAdministrationId: PA.bakkerijFourWeekly };
      await client.setClock('2023-06-01T08:00:00Z');
      const in2023 = (await client.call('GetConceptEmployeeDefaultsByPayrollAdministrationId', { params })).body.content;
      expect(in2023.id).toBeNull();
      expect(in2023.uniqueName).toBeNull();
      expect(in2023.employeeData.personalDetails).toMatchObject({ firstName: null, gender: null, nationality: { key: 1, value: 'Nederlandse' } });
      expect(in2023.employeeData.deviatingPostalAddress).toMatchObject({ street: null, poBox: null, country: null });
      expect(in2023.wageData).toMatchObject({ payrollPeriodType: { key: 2, value: 'Vier weken' }, grossWage: null, payScale: null });
      expect(in2023.otherPayrollVariablesData.payrollProperties.collectiveLaborAgreementCodeHiringEmployer.value).toBe('CAO Bakkersbedrijf 2022-2024');
      await client.setClock('2028-01-15T08:00:00Z');
      const in2028 = (await client.call('GetConceptEmployeeDefaultsByPayrollAdministrationId', { params })).body.content;
      expect(in2028.otherPayrollVariablesData.payrollProperties.collectiveLaborAgreementCodeHiringEmployer.value).toBe('CAO Bakkersbedrijf 2025-2027');

      const periodDefaults = (await client.call('GetPayrollPeriodDataDefaultsByEmploymentId', { params: { employmentId: (await firstEmploymentOf(client, E.bakkerijDeKorenschoof, PA.bakkerijFourWeekly)) } })).body.content;
      expect(periodDefaults.payrollPeriod).toEqual({ year: 2028, periodNumber: 1, periodStartDate: '2028-01-01', periodEndDate: '2028-01-28' });
      expect(periodDefaults).toHaveProperty('payslipText', null);

      // Non-payroll administrations have metadata but no defaults.
      await client.expectRefusedUnchanged('GetConceptEmployeeDefaultsByPayrollAdministrationId', { params: { payrollAdministrationId: ORG_IDS.nonPayrollAdministrations.bakkerijHr } }, 404);
      await client.expectRefusedUnchanged('GetConceptEmployeePayGradeValuesByPayGradeKey', { params: { ...params, payScaleKey: seedUuid('x'), payGradeKey: seedUuid('y') } }, 404);
    });
  });

  /** An active employment of the employer in the payroll administration (read through the employments list). */
}

describe('with the memory store', () => {
  beforeAll(async () => {
    running = await startMock({ port: 0, mode: 'sandbox' });
  });
  afterAll(async () => {
    await running?.close();
  });
  rules();
});

describe('with the PostgreSQL store', () => {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
    running = await startMock({ port: 0, mode: 'sandbox', databaseUrl: postgres.url });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    postgres?.stop();
  });
  rules();
});

async function firstEmploymentOf(client: OrgClient, employerId: string, payrollAdministrationId: string): Promise<string> {
  const filter = `endDate eq null and payrollAdministration.id eq '${payrollAdministrationId}'`;
  const response = await fetch(`${client.url}/v2/v2/providers/employers/${employerId}/employees/employments?pageSize=1&filter=${encodeURIComponent(filter)}`, {
    headers: { Authorization: `Bearer ${client.token}`, Accept: 'application/json;version=2019-12-16' },
  });
  const body = (await response.json()) as { _embedded: Array<{ id: string }> };
  return body._embedded[0]!.id;
}
