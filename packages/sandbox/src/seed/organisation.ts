// The organisation side of the seed: the provider (an accounting office) with its contact
// information and logos, its employers (one with child employers), their payroll and
// non-payroll administrations, employer logos and concept employees. Deterministic: the same
// code gives the same data. Metadata objects are taken from the reference data, so that what
// the seed holds is what the metadata endpoints offer.
//
// Internal fields (stored, never shown by the API; the list projections drop them):
// employers carry providerId, referenceProfile (their departments, functions, ... in the
// reference data), modules (the platform modules they have enabled, read by the
// employment-notification rule and the authorization model) and providerLogoId (their
// deviating provider logo); administrations carry collectiveLaborAgreement and
// payrollPeriodType; concept employees carry employerId and iban.
import { toBase64, utf8 } from '../util/bytes.js';
import type { Doc } from '../store/types.js';
import { SEED_IDS } from './ids.js';
import { computeEmployee } from '../resources/employments/model.js';
import { option, ORG_COLLECTIONS } from './reference-data.js';

export const ORG_IDS = {
  provider: SEED_IDS.provider,
  employers: {
    /** The README's employer; parent of the two below for consolidated overviews. */
    vanDerMeerBouwgroep: SEED_IDS.employer,
    vanDerMeerInfra: '5c0ee75d-6aed-4b4a-9ee4-8ef282a5be8b',
    vanDerMeerVastgoed: '796856d2-feb9-4a4f-8420-611da285f915',
    bakkerijDeKorenschoof: '427ea237-ef96-4898-9719-c4292dfe772a',
    /** Has no employment-notification module. */
    zorgcentrumDeLinde: '4eaccc5e-6a7e-47ba-b96f-e846cd92bf4b',
  },
  payrollAdministrations: {
    bouwgroepMonthly: '71aa87ab-61df-4f4d-8597-3c97c06bd815',
    bouwgroepFourWeekly: '742c0cc6-acf6-414a-a88e-40a85c6dbde4',
    infraFourWeekly: '3fc20ecf-7144-4a67-9657-0403f93c87c3',
    /** Ended on 2023-12-31 (the employer moved its payroll to the Bouwgroep's four-weekly administration). */
    vastgoedMonthlyEnded: 'dc0632d7-0acf-4753-b0e4-3695869341e8',
    bakkerijFourWeekly: '16c0c1ce-5628-4bd4-84fd-49e9778befca',
    deLindeMonthly: '38a4ac09-6978-47bf-be24-42e1d0a98c53',
  },
  nonPayrollAdministrations: {
    bouwgroepHr: 'feb92ca1-bc33-446c-8274-04fae5a3c4a7',
    bakkerijHr: '7b7fc7cd-a0b2-4690-bef8-cf2136b3658f',
  },
  providerLogos: {
    standard: 'd4a76d94-1ce3-4fc9-9a38-ba73ac2049d0',
    payslip: '756aeaaa-29b7-4d47-b488-d048c7f1b89d',
    /** The deviating provider logo of the bakery's payslips. */
    bakkerij: 'f9b0a2b8-b399-4fb2-9763-ee5124531f0c',
  },
  conceptEmployees: {
    sanneDeVries: 'ae153f9b-4d92-4e36-8284-26fcaf52bb85',
    mohamedElAmrani: 'a56fa546-c789-4ab0-8239-07a8ed3bb4ba',
    lotteJanssen: 'c13d505d-bf20-4141-b40e-7d186b301bc0',
    pietBakker: 'e05dc737-bcbb-47ee-b4f5-6e2194180e54',
  },
} as const;

/** Every payroll administration of the seed (the journal's payroll administrations are these). */
export const PAYROLL_ADMINISTRATION_IDS: readonly string[] = Object.values(ORG_IDS.payrollAdministrations);

/** Platform modules an employer can have enabled (internal field `modules` of an employer). */
export const MODULES = {
  payroll: 'payroll',
  hr: 'hr',
  employeeSelfService: 'employee-self-service',
  /** Needed for createMdvEntry on PatchTerminateByEmploymentId (draft employment-ended notifications). */
  employmentNotification: 'employment-notification',
  journal: 'journal',
} as const;

/** The modules a new employer (PostEmployerByProviderId) starts with. */
export const DEFAULT_MODULES: readonly string[] = [MODULES.payroll, MODULES.hr];

/** A small SVG logo, base64 encoded as the API carries logos. */
export function svgLogo(text: string, colour: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60"><rect width="240" height="60" rx="8" fill="${colour}"/><text x="120" y="38" font-family="Arial" font-size="20" fill="#ffffff" text-anchor="middle">${text}</text></svg>`;
  return toBase64(utf8(svg));
}

/** A Dutch RSIN (9 digits passing the 11-test) from its first eight digits. */
export function rsin(firstEight: string): string {
  for (let bump = 0; bump < 10; bump++) {
    const digits = String(Number(firstEight) + bump).padStart(8, '0');
    const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (9 - i), 0);
    const check = sum % 11;
    if (check < 10) return digits + String(check);
  }
  throw new Error(`no RSIN from ${firstEight}`);
}

export interface EmployerSeed {
  id: string;
  employerNumber: number;
  companyName: string;
  chamberOfCommerceNumber: string;
  sbi: number;
  legalForm: number;
  branch: number;
  administrationNumber: string;
  groupCode: number;
  parent?: number;
  contact: { name: string; phoneNumber: string; function: string };
  phoneNumber: string;
  website: string;
  address: { street: string; houseNumber: number; houseNumberAddition?: string; postalCode: string; city: string; province: number };
  poBox?: { poBox: number; postalCode: string; city: string };
  referenceProfile: string;
  modules: string[];
  providerLogoId?: string;
}

const E = ORG_IDS.employers;

const EMPLOYERS: EmployerSeed[] = [
  {
    id: E.vanDerMeerBouwgroep,
    employerNumber: 10001,
    companyName: 'Van der Meer Bouwgroep B.V.',
    chamberOfCommerceNumber: '30187264',
    sbi: 402,
    legalForm: 3,
    branch: 10,
    administrationNumber: 'VDM-001',
    groupCode: 100,
    contact: { name: 'Jeroen van der Meer', phoneNumber: '030 241 77 10', function: 'Algemeen directeur' },
    phoneNumber: '030 241 77 00',
    website: 'https://www.vandermeerbouwgroep.nl',
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'K', postalCode: '3439 LD', city: 'Nieuwegein', province: 10 },
    poBox: { poBox: 1402, postalCode: '3430 BK', city: 'Nieuwegein' },
    referenceProfile: 'construction',
    modules: [MODULES.payroll, MODULES.hr, MODULES.employeeSelfService, MODULES.employmentNotification, MODULES.journal],
  },
  {
    id: E.vanDerMeerInfra,
    employerNumber: 10002,
    companyName: 'Van der Meer Infra B.V.',
    chamberOfCommerceNumber: '30211847',
    sbi: 405,
    legalForm: 3,
    branch: 10,
    administrationNumber: 'VDM-002',
    groupCode: 100,
    parent: 10001,
    contact: { name: 'Marloes Hendriks', phoneNumber: '030 241 77 20', function: 'Bedrijfsleider' },
    phoneNumber: '030 241 77 00',
    website: 'https://www.vandermeerinfra.nl',
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'M', postalCode: '3439 LD', city: 'Nieuwegein', province: 10 },
    referenceProfile: 'installation',
    modules: [MODULES.payroll, MODULES.hr, MODULES.employmentNotification, MODULES.journal],
  },
  {
    id: E.vanDerMeerVastgoed,
    employerNumber: 10003,
    companyName: 'Van der Meer Vastgoed B.V.',
    chamberOfCommerceNumber: '30264519',
    sbi: 987,
    legalForm: 3,
    branch: 50,
    administrationNumber: 'VDM-003',
    groupCode: 100,
    parent: 10001,
    contact: { name: 'Jeroen van der Meer', phoneNumber: '030 241 77 10', function: 'Directeur' },
    phoneNumber: '030 241 77 00',
    website: 'https://www.vandermeervastgoed.nl',
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'N', postalCode: '3439 LD', city: 'Nieuwegein', province: 10 },
    referenceProfile: 'realEstate',
    modules: [MODULES.payroll, MODULES.hr],
  },
  {
    id: E.bakkerijDeKorenschoof,
    employerNumber: 10004,
    companyName: 'Bakkerij De Korenschoof B.V.',
    chamberOfCommerceNumber: '17092356',
    sbi: 312,
    legalForm: 3,
    branch: 14,
    administrationNumber: 'KOR-001',
    groupCode: 200,
    contact: { name: 'Ellen Verbeek', phoneNumber: '040 212 45 60', function: 'Eigenaar' },
    phoneNumber: '040 212 45 00',
    website: 'https://www.dekorenschoof.nl',
    address: { street: 'Stratumseind', houseNumber: 32, postalCode: '5611 ET', city: 'Eindhoven', province: 11 },
    referenceProfile: 'bakery',
    modules: [MODULES.payroll, MODULES.hr, MODULES.employeeSelfService, MODULES.employmentNotification],
    providerLogoId: ORG_IDS.providerLogos.bakkerij,
  },
  {
    id: E.zorgcentrumDeLinde,
    employerNumber: 10005,
    companyName: 'Stichting Zorgcentrum De Linde',
    chamberOfCommerceNumber: '41018372',
    sbi: 1188,
    legalForm: 5,
    branch: 30,
    administrationNumber: 'LIN-001',
    groupCode: 300,
    contact: { name: 'Wim Kuipers', phoneNumber: '038 421 90 15', function: 'Manager bedrijfsvoering' },
    phoneNumber: '038 421 90 00',
    website: 'https://www.zorgcentrumdelinde.nl',
    address: { street: 'Assendorperstraat', houseNumber: 101, postalCode: '8012 DH', city: 'Zwolle', province: 5 },
    referenceProfile: 'care',
    modules: [MODULES.payroll, MODULES.hr, MODULES.employeeSelfService],
  },
];

export function employerDoc(seed: EmployerSeed): Doc {
  const netherlands = option('country', 1);
  return {
    id: seed.id,
    employerNumber: seed.employerNumber,
    companyName: seed.companyName,
    chamberOfCommerceNumber: seed.chamberOfCommerceNumber,
    sbi: option('sbi', seed.sbi),
    legalForm: option('legalForm', seed.legalForm),
    branch: option('branch', seed.branch),
    providerSettings: {
      administrationNumber: seed.administrationNumber,
      groupCode: seed.groupCode,
      ...(seed.parent === undefined ? {} : { parentEmployerForConsolidatedOverviews: seed.parent }),
      sendEmailWhenSalarySlipIsAvailable: true,
    },
    contact: seed.contact,
    contactInformation: { faxNumber: '', phoneNumber: seed.phoneNumber, website: seed.website },
    address: {
      street: seed.address.street,
      houseNumber: seed.address.houseNumber,
      ...(seed.address.houseNumberAddition ? { houseNumberAddition: seed.address.houseNumberAddition } : {}),
      postalCode: seed.address.postalCode,
      city: seed.address.city,
      country: netherlands,
      province: option('province', seed.address.province),
    },
    deviatingPostalAddress: seed.poBox ? { poBox: seed.poBox.poBox, postalCode: seed.poBox.postalCode, city: seed.poBox.city, country: netherlands } : null,
    providerId: ORG_IDS.provider,
    referenceProfile: seed.referenceProfile,
    modules: seed.modules,
    providerLogoId: seed.providerLogoId ?? null,
  };
}

export interface AdministrationSeed {
  id: string;
  employerId: string;
  clientNumber: number;
  description: string;
  startDate: string;
  endDate: string | null;
  payroll: boolean;
  collectiveLaborAgreement: string | null;
  payrollPeriodType: number | null;
  rsinPrefix: string;
  subNumber: string;
}

const P = ORG_IDS.payrollAdministrations;
const N = ORG_IDS.nonPayrollAdministrations;

const ADMINISTRATIONS: AdministrationSeed[] = [
  { id: P.bouwgroepMonthly, employerId: E.vanDerMeerBouwgroep, clientNumber: 40211, description: 'Van der Meer Bouwgroep - maandloon', startDate: '2015-01-01', endDate: null, payroll: true, collectiveLaborAgreement: 'construction', payrollPeriodType: 1, rsinPrefix: '81234567', subNumber: 'L01' },
  { id: P.bouwgroepFourWeekly, employerId: E.vanDerMeerBouwgroep, clientNumber: 40212, description: 'Van der Meer Bouwgroep - vierwekenloon', startDate: '2015-01-01', endDate: null, payroll: true, collectiveLaborAgreement: 'construction', payrollPeriodType: 2, rsinPrefix: '81234567', subNumber: 'L02' },
  { id: N.bouwgroepHr, employerId: E.vanDerMeerBouwgroep, clientNumber: 40219, description: 'Van der Meer Bouwgroep - personeelsdossier (zonder verloning)', startDate: '2018-06-01', endDate: null, payroll: false, collectiveLaborAgreement: null, payrollPeriodType: null, rsinPrefix: '81234567', subNumber: 'L09' },
  { id: P.infraFourWeekly, employerId: E.vanDerMeerInfra, clientNumber: 40221, description: 'Van der Meer Infra - vierwekenloon', startDate: '2017-01-01', endDate: null, payroll: true, collectiveLaborAgreement: 'construction', payrollPeriodType: 2, rsinPrefix: '85310264', subNumber: 'L01' },
  { id: P.vastgoedMonthlyEnded, employerId: E.vanDerMeerVastgoed, clientNumber: 40231, description: 'Van der Meer Vastgoed - maandloon', startDate: '2019-01-01', endDate: '2023-12-31', payroll: true, collectiveLaborAgreement: 'construction', payrollPeriodType: 1, rsinPrefix: '85577120', subNumber: 'L01' },
  { id: P.bakkerijFourWeekly, employerId: E.bakkerijDeKorenschoof, clientNumber: 51104, description: 'Bakkerij De Korenschoof - vierwekenloon', startDate: '2012-01-01', endDate: null, payroll: true, collectiveLaborAgreement: 'bakery', payrollPeriodType: 2, rsinPrefix: '80419932', subNumber: 'L01' },
  { id: N.bakkerijHr, employerId: E.bakkerijDeKorenschoof, clientNumber: 51109, description: 'Bakkerij De Korenschoof - verlofregistratie (zonder verloning)', startDate: '2021-03-01', endDate: null, payroll: false, collectiveLaborAgreement: null, payrollPeriodType: null, rsinPrefix: '80419932', subNumber: 'L09' },
  { id: P.deLindeMonthly, employerId: E.zorgcentrumDeLinde, clientNumber: 62018, description: 'Zorgcentrum De Linde - maandloon', startDate: '2010-01-01', endDate: null, payroll: true, collectiveLaborAgreement: 'care', payrollPeriodType: 1, rsinPrefix: '81672043', subNumber: 'L01' },
];

/** The provider's wage models (the journal area keeps their profiles): the bakery's own, the standard one for every other payroll administration. */
export const WAGE_MODELS = [
  { id: SEED_IDS.wageModel, description: 'Loonmodel bouw' },
  { id: SEED_IDS.wageModelBakery, description: 'Loonmodel bakkerij' },
] as const;

/** The wage model a seeded payroll administration uses. */
export function wageModelOf(payrollAdministrationId: string): (typeof WAGE_MODELS)[number] {
  return WAGE_MODELS[payrollAdministrationId === ORG_IDS.payrollAdministrations.bakkerijFourWeekly ? 1 : 0];
}

export function administrationDoc(seed: AdministrationSeed): Doc {
  return {
    id: seed.id,
    clientNumber: seed.clientNumber,
    wageTaxNumber: `${rsin(seed.rsinPrefix)}${seed.subNumber}`,
    description: seed.description,
    startDate: seed.startDate,
    endDate: seed.endDate,
    isPayrollAdministration: seed.payroll,
    employerId: seed.employerId,
    collectiveLaborAgreement: seed.collectiveLaborAgreement,
    payrollPeriodType: seed.payrollPeriodType,
    // Shown on employments as payrollAdministration.wageModel (§2.6).
    ...(seed.payroll ? { wageModelName: wageModelOf(seed.id).description } : {}),
  };
}

function providerDocs(): Doc[] {
  return [
    {
      id: ORG_IDS.provider,
      name: 'Administratiekantoor Het Rekenhuis B.V.',
      contact: { name: 'Ingrid Smulders', email: 'salarisadministratie@hetrekenhuis.nl', phonenumber: '073 614 20 80', faxnumber: '073 614 20 89' },
      address: {
        street: 'Vughterweg',
        houseNumber: 47,
        houseNumberAddition: 'B',
        postalCode: '5211 CK',
        city: "'s-Hertogenbosch",
        location: 'Kantoorgebouw De Wolfsdonken',
        country: option('country', 1),
      },
    },
  ];
}

function providerLogoDocs(): Doc[] {
  const L = ORG_IDS.providerLogos;
  return [
    { id: L.standard, providerId: ORG_IDS.provider, attribute: 'standaard', name: 'Het Rekenhuis - logo', data: svgLogo('Het Rekenhuis', '#1f4e79'), mimeType: 'image/svg+xml', createdAt: '2020-01-06T09:00:00.000Z' },
    { id: L.payslip, providerId: ORG_IDS.provider, attribute: 'loonstrook', name: 'Het Rekenhuis - loonstrook', data: svgLogo('Rekenhuis', '#2e75b6'), mimeType: 'image/svg+xml', createdAt: '2021-04-12T09:00:00.000Z' },
    { id: L.bakkerij, providerId: ORG_IDS.provider, attribute: 'klant', name: 'Het Rekenhuis voor De Korenschoof', data: svgLogo('Rekenhuis x Korenschoof', '#8c5a2b'), mimeType: 'image/svg+xml', createdAt: '2022-09-01T09:00:00.000Z' },
  ];
}

function employerLogoDocs(): Doc[] {
  return [
    { id: E.vanDerMeerBouwgroep, data: svgLogo('Van der Meer', '#c55a11'), mimeType: 'image/svg+xml' },
    { id: E.bakkerijDeKorenschoof, data: svgLogo('De Korenschoof', '#7f6000'), mimeType: 'image/svg+xml' },
    { id: E.zorgcentrumDeLinde, data: svgLogo('De Linde', '#548235'), mimeType: 'image/svg+xml' },
  ];
}

export interface ConceptSeed {
  id: string;
  employerId: string;
  firstName: string;
  initials: string;
  prefix?: string;
  lastName: string;
  gender: number;
  dateOfBirth: string;
  placeOfBirth: string;
  phone: string;
  address: { street: string; houseNumber: number; postalCode: string; city: string } | null;
  iban: string | null;
  startDate: string | null;
}

const C = ORG_IDS.conceptEmployees;

const CONCEPTS: ConceptSeed[] = [
  { id: C.sanneDeVries, employerId: E.vanDerMeerBouwgroep, firstName: 'Sanne', initials: 'S.', prefix: 'de', lastName: 'Vries', gender: 2, dateOfBirth: '1996-04-18', placeOfBirth: 'Utrecht', phone: '06 41 27 83 95', address: { street: 'Biltstraat', houseNumber: 112, postalCode: '3572 BK', city: 'Utrecht' }, iban: 'NL91ABNA0417164300', startDate: '2026-02-01' },
  { id: C.mohamedElAmrani, employerId: E.vanDerMeerBouwgroep, firstName: 'Mohamed', initials: 'M.', lastName: 'El Amrani', gender: 1, dateOfBirth: '1989-11-02', placeOfBirth: 'Amersfoort', phone: '06 18 55 20 47', address: { street: 'Kruiskamp', houseNumber: 7, postalCode: '3815 AA', city: 'Amersfoort' }, iban: 'NL20INGB0001234567', startDate: null },
  { id: C.lotteJanssen, employerId: E.vanDerMeerBouwgroep, firstName: 'Lotte', initials: 'L.M.', lastName: 'Janssen', gender: 2, dateOfBirth: '2001-07-30', placeOfBirth: 'Nieuwegein', phone: '06 29 04 61 73', address: null, iban: null, startDate: null },
  { id: C.pietBakker, employerId: E.bakkerijDeKorenschoof, firstName: 'Piet', initials: 'P.J.', lastName: 'Bakker', gender: 1, dateOfBirth: '1978-02-14', placeOfBirth: 'Eindhoven', phone: '06 50 33 12 88', address: { street: 'Hoogstraat', houseNumber: 210, postalCode: '5615 PT', city: 'Eindhoven' }, iban: 'NL02RABO0123456789', startDate: '2026-03-01' },
];

/** The employee part with its read-only names (formattedName, aowDate) computed as for employees. */
export function withComputedNames(employee: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...computed } = computeEmployee({ id: '', ...employee });
  return computed;
}

export function conceptEmployeeDoc(seed: ConceptSeed): Doc {
  const name = [seed.firstName, seed.prefix, seed.lastName].filter(Boolean).join(' ');
  return {
    id: seed.id,
    employerId: seed.employerId,
    uniqueName: name,
    employeeData: withComputedNames({
      personalDetails: {
        firstName: seed.firstName,
        initials: seed.initials,
        ...(seed.prefix ? { prefix: seed.prefix } : {}),
        lastName: seed.lastName,
        dateOfBirth: seed.dateOfBirth,
        placeOfBirth: seed.placeOfBirth,
        gender: option('gender', seed.gender),
        nationality: option('nationality', 1),
      },
      contactInformation: { mobilePhoneNumber: seed.phone },
      identityDocument: null,
      address: seed.address ? { ...seed.address, country: option('country', 1) } : null,
      deviatingPostalAddress: null,
    }),
    employmentData: seed.startDate ? { employmentDurationType: option('employmentDurationType', 1), typeOfEmployee: option('typeOfEmployee', 1) } : null,
    workingHoursData: null,
    wageData: null,
    organizationalEntityData: null,
    socialSecurityData: null,
    fiscalData: seed.startDate ? { startDate: seed.startDate, endDate: null, applyPayrollTaxDeduction: true } : null,
    otherPayrollVariablesData: null,
    iban: seed.iban,
  };
}

/** The organisation collections of the seed. */
export function organisationSeed(): Record<string, Doc[]> {
  return {
    [ORG_COLLECTIONS.providers]: providerDocs(),
    [ORG_COLLECTIONS.providerLogos]: providerLogoDocs(),
    [ORG_COLLECTIONS.employers]: EMPLOYERS.map(employerDoc),
    [ORG_COLLECTIONS.employerLogos]: employerLogoDocs(),
    [ORG_COLLECTIONS.administrations]: ADMINISTRATIONS.map(administrationDoc),
    [ORG_COLLECTIONS.conceptEmployees]: CONCEPTS.map(conceptEmployeeDoc),
  };
}

