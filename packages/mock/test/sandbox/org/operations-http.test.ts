// Every operation of the organisation side (providers, employers, administrations, concept
// employees, metadata and defaults) answered from the seed over HTTP, each answer checked
// against its response schema: POSTs create what later GETs and lists return, PUTs replace,
// DELETEs remove, logos come back byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { AGREEMENTS, payGradeKey, payScaleKey } from '#sandbox/domain/reference-data.js';
import { OrgClient } from './harness.js';

let running: RunningMock;
let client: OrgClient;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  client = new OrgClient(running.url, 'org-operations');
});
afterAll(async () => {
  await running?.close();
});

const E = ORG_IDS.employers;
const PA = ORG_IDS.payrollAdministrations;
const provider = { providerId: ORG_IDS.provider };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

describe('provider', () => {
  it('lists the one provider of the user', async () => {
    const answer = await client.call('GetProvidersByUser');
    expect(answer.status).toBe(200);
    expect(answer.body._embedded).toEqual([{ id: ORG_IDS.provider, name: 'Administratiekantoor Het Rekenhuis B.V.' }]);
  });

  it('answers the contact information without envelope', async () => {
    const answer = await client.call('GetProviderContactInformationByProviderId', { params: provider });
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBeUndefined();
    expect(answer.body.address.postalCode).toMatch(/^\d{4} [A-Z]{2}$/);
    expect(answer.body.address.country).toEqual({ key: 1, value: 'Nederland', isoCode: 'NL' });
  });

  it('serves its logo, the same with any caching version', async () => {
    const plain = await client.call('GetProviderLogo', { params: provider });
    const versioned = await client.call('GetProviderLogoAndVersion', { params: { ...provider, version: '0d9b3f1e-8a47-4c2b-9e6d-5f1a2b3c4d5e' } });
    expect(plain.status).toBe(200);
    expect(versioned.body).toEqual(plain.body);
    expect(plain.body.content.id).toBe(ORG_IDS.providerLogos.standard);
    expect(Buffer.from(plain.body.content.data, 'base64').toString('utf8')).toContain('<svg');
  });

  it('creates, reads, lists, replaces and deletes a logo', async () => {
    const created = await client.call('PostProviderLogoByProviderId', { params: provider, body: { attribute: 'mail', name: 'Logo voor e-mail', data: PNG, mimeType: 'image/png' } });
    expect(created.status).toBe(201);
    const logoId = created.body.content.id as string;
    expect(created.body.content).toEqual({ id: logoId, attribute: 'mail', name: 'Logo voor e-mail', data: PNG, mimeType: 'image/png' });
    expect((await client.call('GetProviderLogoByLogoId', { params: { logoId } })).body.content).toEqual(created.body.content);
    expect((await client.call('GetProviderLogoOnlyByLogoId', { params: { logoId } })).body).toEqual({ data: PNG, mimeType: 'image/png' });
    const list = await client.call('GetProviderLogosByProviderId', { params: provider, query: { filter: "attribute eq 'mail'" } });
    expect(list.body._embedded).toEqual([created.body.content]);
    const replaced = await client.call('PutProviderLogoByLogoId', { params: { logoId }, body: { attribute: 'mail', name: 'Nieuw', data: PNG, mimeType: 'image/gif' } });
    expect(replaced.body.content).toEqual({ id: logoId, attribute: 'mail', name: 'Nieuw', data: PNG, mimeType: 'image/gif' });
    const removed = await client.call('DeleteProviderLogoByLogoId', { params: { logoId } });
    expect(removed.status).toBe(200);
    expect(removed.body.content).toEqual({});
    expect((await client.call('GetProviderLogoByLogoId', { params: { logoId } })).status).toBe(404);
  });

  it('serves the deviating provider logo of an employer, 404 for an employer without', async () => {
    const own = await client.call('GetProviderLogoByEmployerId', { params: { employerId: E.bakkerijDeKorenschoof } });
    expect(own.body.content.id).toBe(ORG_IDS.providerLogos.bakkerij);
    const versioned = await client.call('GetProviderLogoByEmployerIdAndVersion', { params: { employerId: E.bakkerijDeKorenschoof, version: '0d9b3f1e-8a47-4c2b-9e6d-5f1a2b3c4d5e' } });
    expect(versioned.body).toEqual(own.body);
    expect((await client.call('GetProviderLogoByEmployerId', { params: { employerId: E.vanDerMeerBouwgroep } })).status).toBe(404);
  });
});

describe('employers', () => {
  it('lists full and minimized employers, by user and by provider, with filter and order', async () => {
    const full = await client.call('GetEmployersByUserId', { query: { orderBy: 'employerNumber' } });
    expect(full.body._embedded.map((e: any) => e.employerNumber)).toEqual([10001, 10002, 10003, 10004, 10005]);
    expect(full.body._embedded[0]).not.toHaveProperty('modules');
    const minimized = await client.call('GetEmployersMinimizedByUserId', { query: { filter: "address.city eq 'Zwolle'" } });
    expect(minimized.body._embedded).toEqual([
      {
        id: E.zorgcentrumDeLinde,
        employerNumber: 10005,
        companyName: 'Stichting Zorgcentrum De Linde',
        address: { street: 'Assendorperstraat', houseNumber: 101, postalCode: '8012 DH', city: 'Zwolle' },
        providerSettings: { administrationNumber: 'LIN-001', groupCode: 300 },
        contactInformation: { phoneNumber: '038 421 90 00' },
        contact: { name: 'Wim Kuipers', phoneNumber: '038 421 90 15' },
        branch: { key: 30, value: 'Zorg en welzijn' },
      },
    ]);
    // A metadata field named bare compares its key.
    const bakeries = await client.call('GetEmployersByUserId', { query: { filter: 'branch eq 14 or sbi.sbiCode eq \'87101\'', orderBy: '-companyName' } });
    expect(bakeries.body._embedded.map((e: any) => e.companyName)).toEqual(['Stichting Zorgcentrum De Linde', 'Bakkerij De Korenschoof B.V.']);
    const byProvider = await client.call('GetEmployersMinimizedByProviderId', { params: provider, query: { pageSize: '2', pageNumber: '3' } });
    expect(byProvider.body).toMatchObject({ totalSize: 5, pageSize: 2, totalPages: 3, currentPage: 3 });
    expect(byProvider.body._embedded).toHaveLength(1);
  });

  it('answers the add-employer wizard information', async () => {
    const answer = await client.call('GetInformationForAddEmployerWizardByProviderId', { params: provider });
    expect(answer.body.content).toEqual({ isAuthorizedToManageEmployerAuthorizationGroups: true, isAuthorizedToManageEmployerModules: true, isAuthorizedToAddPayrollAdministrations: true });
  });

  it('replaces an employer with PUT, keeping id and employerNumber', async () => {
    const before = (await client.call('GetEmployerByEmployerId', { params: { employerId: E.vanDerMeerVastgoed } })).body.content;
    const body = { companyName: 'Van der Meer Vastgoedbeheer B.V.', chamberOfCommerceNumber: null, branch: { key: 40 }, address: { street: 'Lange Viestraat', houseNumber: 2, postalCode: '3511 BK', city: 'Utrecht', country: { key: 1 } } };
    const answer = await client.call('PutEmployerByEmployerId', { params: { employerId: E.vanDerMeerVastgoed }, body });
    expect(answer.status).toBe(200);
    expect(answer.body.content).toEqual({
      id: before.id,
      employerNumber: before.employerNumber,
      companyName: 'Van der Meer Vastgoedbeheer B.V.',
      chamberOfCommerceNumber: null,
      branch: { key: 40, value: 'Zakelijke dienstverlening' },
      address: { street: 'Lange Viestraat', houseNumber: 2, postalCode: '3511 BK', city: 'Utrecht', country: { key: 1, value: 'Nederland', isoCode: 'NL' } },
    });
    expect((await client.call('GetEmployerByEmployerId', { params: { employerId: E.vanDerMeerVastgoed } })).body.content).toEqual(answer.body.content);
  });

  it('stores, serves and deletes the employer logo', async () => {
    const employerId = E.vanDerMeerInfra;
    expect((await client.call('GetEmployerLogoByEmployerId', { params: { employerId } })).status).toBe(404);
    const posted = await client.call('PostEmployerLogoByEmployerId', { params: { employerId }, body: { data: PNG, mimeType: 'image/png' } });
    expect(posted.status).toBe(201);
    const logo = await client.call('GetEmployerLogoByEmployerId', { params: { employerId } });
    expect(logo.body.content).toEqual({ data: PNG, mimeType: 'image/png' });
    const versioned = await client.call('GetEmployerLogoByEmployerIdAndVersion', { params: { employerId, version: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' } });
    expect(versioned.body).toEqual(logo.body);
    expect((await client.call('DeleteEmployerLogoByEmployerId', { params: { employerId } })).body.content).toEqual({});
    expect((await client.call('GetEmployerLogoByEmployerId', { params: { employerId } })).status).toBe(404);
    expect((await client.call('DeleteEmployerLogoByEmployerId', { params: { employerId } })).status).toBe(404);
  });
});

describe('administrations', () => {
  it('lists the payroll and non-payroll administrations of an employer', async () => {
    const answer = await client.call('GetAdministrationsByEmployerId', { params: { employerId: E.vanDerMeerBouwgroep }, query: { orderBy: 'clientNumber' } });
    expect(answer.body._embedded.map((a: any) => [a.clientNumber, a.isPayrollAdministration])).toEqual([
      [40211, true],
      [40212, true],
      [40219, false],
    ]);
    expect(answer.body._embedded[0]).not.toHaveProperty('collectiveLaborAgreement');
  });

  it('lists every administration of the token, ended ones with their endDate', async () => {
    const all = await client.call('GetAdministrationsByBearerToken', { query: { filter: 'isPayrollAdministration eq false' } });
    expect(all.body.totalSize).toBe(2);
    const ended = await client.call('GetAdministrationsByBearerToken', { query: { filter: 'endDate ne null' } });
    expect(ended.body._embedded.map((a: any) => [a.id, a.endDate])).toEqual([[PA.vastgoedMonthlyEnded, '2023-12-31']]);
  });
});

describe('concept employees', () => {
  it('lists them per employer, and answers the full and minimized views', async () => {
    const list = await client.call('GetConceptEmployeesByEmployerId', { params: { employerId: E.vanDerMeerBouwgroep }, query: { orderBy: 'uniqueName' } });
    expect(list.body._embedded.map((c: any) => c.uniqueName)).toEqual(['Lotte Janssen', 'Mohamed El Amrani', 'Sanne de Vries']);
    const conceptEmployeeId = ORG_IDS.conceptEmployees.sanneDeVries;
    const full = await client.call('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } });
    expect(full.body.content.employeeData.personalDetails.formattedName).toBe('S. de Vries');
    const minimized = await client.call('GetConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId } });
    expect(minimized.body.content).toMatchObject({ iban: 'NL91ABNA0417164300', applyPayrollTaxDeduction: true, personalDetails: full.body.content.employeeData.personalDetails });
  });
});

describe('metadata and defaults', () => {
  it('lists the employee, employment and wage options of an employment context', async () => {
    const employee = await client.call('GetEmployeeMetadataByEmployeeId', { params: { employeeId: PEOPLE_IDS.employee } });
    expect(employee.body.content.map((f: any) => f.field)).toContain('personalDetails.gender');
    const employment = await client.call('GetEmploymentMetadataByEmploymentId', { params: { employmentId: PEOPLE_IDS.employment } });
    const fields = employment.body.content.map((f: any) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['endOfEmploymentReason', 'endOfEmploymentReasonTaxAuthorities', 'employmentCategoryType']));
    const wage = await client.call('GetWageMetadataByEmploymentId', { params: { employmentId: PEOPLE_IDS.employment } });
    expect(wage.body.content.find((f: any) => f.field === 'payScale').options.length).toBeGreaterThan(0);
  });

  it('proposes the payroll period of today and the cost center and unit in force', async () => {
    const employments = seedSnapshot().collections.employments ?? [];
    const allocated = employments.find((e) => (e.journalAllocation as any)?.allocationBasedOnActualHours?.costCenter && (e.journalAllocation as any).allocationBasedOnActualHours.costUnit)!;
    const answer = await client.call('GetPayrollPeriodDataDefaultsByEmploymentId', { params: { employmentId: allocated.id } });
    const expected = (allocated.journalAllocation as any).allocationBasedOnActualHours;
    expect(answer.body.content.costCenter).toMatchObject({ key: expected.costCenter.key, code: expected.costCenter.code });
    expect(answer.body.content.costUnit).toMatchObject({ key: expected.costUnit.key });
    expect(answer.body.content.payrollPeriod.periodStartDate <= new Date().toISOString().slice(0, 10)).toBe(true);
    const withPeriodData = employments.find((e) => !e.journalAllocation && Array.isArray(e.payrollPeriodData) && (e.payrollPeriodData as any[])[0]?.costCenter)!;
    const fromPeriodData = await client.call('GetPayrollPeriodDataDefaultsByEmploymentId', { params: { employmentId: withPeriodData.id } });
    expect(fromPeriodData.body.content.costCenter).toEqual({ key: (withPeriodData.payrollPeriodData as any[])[0].costCenter.key });
  });

  it('lists the payroll administrations a job applicant can be placed in (not ended ones)', async () => {
    const answer = await client.call('GetJobApplicantMetadataByEmployerId', { params: { employerId: E.vanDerMeerVastgoed } });
    expect(answer.body.content).toEqual([{ field: 'payrollAdministration', options: [] }]);
    const bouwgroep = await client.call('GetJobApplicantMetadataByEmployerId', { params: { employerId: E.vanDerMeerBouwgroep } });
    expect(bouwgroep.body.content[0].options.map((o: any) => o.key).sort()).toEqual([PA.bouwgroepFourWeekly, PA.bouwgroepMonthly].sort());
  });

  it('answers the job applicant and concept employee metadata of a payroll administration, and pay grades of a pay scale', async () => {
    const applicant = await client.call('GetJobApplicantMetadataByPayrollAdministrationId', { params: { payrollAdministrationId: PA.bakkerijFourWeekly } });
    const payScales = applicant.body.content.find((f: any) => f.field === 'wageData.payScale').options;
    expect(payScales.map((o: any) => o.value)).toEqual(['CAO Bakkersbedrijf - schaal B', 'CAO Bakkersbedrijf - schaal D']);
    const concept = await client.call('GetConceptEmployeeMetadataByPayrollAdministrationId', { params: { payrollAdministrationId: ORG_IDS.nonPayrollAdministrations.bakkerijHr } });
    expect(concept.status).toBe(200);
    const grades = await client.call('GetJobApplicantPayGradeMetadataBySalaryScaleTypeId', { params: { id: payScales[0].key } });
    expect(grades.body.content[0].options.map((o: any) => o.value)).toEqual(['Trede 0', 'Trede 1', 'Trede 2']);
    const byKey = await client.call('GetConceptEmployeePayGradeMetadataByPayScaleKey', { params: { payrollAdministrationId: PA.bakkerijFourWeekly, payScaleKey: payScales[0].key } });
    expect(byKey.body.content).toEqual(grades.body.content);
    expect((await client.call('GetConceptEmployeePayGradeMetadataByPayScaleKey', { params: { payrollAdministrationId: PA.deLindeMonthly, payScaleKey: payScales[0].key } })).status).toBe(404);
    expect((await client.call('GetJobApplicantPayGradeMetadataBySalaryScaleTypeId', { params: { id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
  });

  it('answers the dated values of a pay grade on the measure date', async () => {
    const scale = AGREEMENTS.bakery!.payScales[0]!;
    const params = { payrollAdministrationId: PA.bakkerijFourWeekly, payScaleKey: payScaleKey('bakery', scale), payGradeKey: payGradeKey('bakery', scale, 'Trede 1') };
    const in2024 = await client.call('GetConceptEmployeePayGradeValuesByPayGradeKey', { params, query: { date: '2024-06-01' } });
    expect(in2024.body.content[0].options).toEqual([expect.objectContaining({ key: params.payGradeKey, value: 'Trede 1', startDate: '2024-01-01', endDate: '2024-12-31', grossWage: 2215 })]);
    const before = await client.call('GetConceptEmployeePayGradeValuesByPayGradeKey', { params, query: { date: '2020-01-01' } });
    expect(before.body.content[0].options).toEqual([]);
  });
});
