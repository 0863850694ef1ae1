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
import { computeEmployee } from '../domain/employments/model.js';
import { EMPLOYMENT_DEFAULTS, FISCAL_DEFAULTS } from '../domain/employments/new-employee.js';
import { option, optionsOf, ORG_COLLECTIONS, seedUuid, type MetadataOption } from '../domain/reference-data.js';

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
  address: { street: string; houseNumber: number; houseNumberAddition?: string; postalCode: string; city: string; province: number; location?: string };
  /** A PO box, or a street address where the post goes (the bakery's production site). */
  postalAddress?: { poBox: number; postalCode: string; city: string } | { street: string; houseNumber: number; houseNumberAddition?: string; postalCode: string; city: string; location?: string };
  referenceProfile: string;
  modules: string[];
  providerLogoId?: string;
}

const E = ORG_IDS.employers;

/** The business park of the Van der Meer companies' shared building. */
const RAVENSWADE_SITE = 'Bedrijventerrein Het Klooster';

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
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'K', postalCode: '3439 LD', city: 'Nieuwegein', province: 10, location: RAVENSWADE_SITE },
    postalAddress: { poBox: 1402, postalCode: '3430 BK', city: 'Nieuwegein' },
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
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'M', postalCode: '3439 LD', city: 'Nieuwegein', province: 10, location: RAVENSWADE_SITE },
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
    address: { street: 'Ravenswade', houseNumber: 54, houseNumberAddition: 'N', postalCode: '3439 LD', city: 'Nieuwegein', province: 10, location: RAVENSWADE_SITE },
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
    // The shop is the visiting address; post goes to the production bakery.
    postalAddress: { street: 'Hurksestraat', houseNumber: 18, houseNumberAddition: 'B', postalCode: '5652 AJ', city: 'Eindhoven', location: 'Bedrijventerrein De Hurk' },
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
      ...(seed.address.location ? { location: seed.address.location } : {}),
      country: netherlands,
      province: option('province', seed.address.province),
    },
    deviatingPostalAddress: seed.postalAddress ? { ...seed.postalAddress, country: netherlands } : null,
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
  /** The employee number the draft already has (only the further-along drafts). */
  employeeNumber?: number;
  firstName: string;
  initials: string;
  prefix?: string;
  lastName: string;
  /** The partner's surname: [prefix, last name]. */
  partner?: [string, string];
  gender: number;
  dateOfBirth: string;
  placeOfBirth: string;
  /** Contact information as entered: at least a mobile number. */
  contact: Record<string, string>;
  address: { street: string; houseNumber: number; houseNumberAddition?: string; postalCode: string; city: string; location?: string } | null;
  travelKm?: number;
  iban: string | null;
  /** The employment's editable fields entered so far (over the defaults); null: not yet started. */
  employment: Record<string, unknown> | null;
  /** The first fiscal record: its start and what deviates from the defaults. */
  fiscal: { startDate: string } & Record<string, unknown> | null;
}

const C = ORG_IDS.conceptEmployees;

/** An option of one of the employer's own lists (employee profiles, mutation sets). */
function employerOption(employerId: string, list: 'employeeProfileId' | 'essMutationSet', value: string): MetadataOption {
  const found = optionsOf(list, { employer: { id: employerId }, administration: null, administrations: [] }).find((o) => o.value === value);
  if (!found) throw new Error(`organisation seed: ${list} has no option ${value}`);
  return found;
}

/** What the payroll office enters for a regular employee: a plain contract, the pension scheme, no ties to the owner, notice in months. */
const REGULAR_EMPLOYMENT: Record<string, unknown> = {
  employmentContractType: option('employmentContractType', 1),
  typeOfParticipation: option('typeOfParticipation', 2),
  valueOfParticipation: option('valueOfParticipation', 1),
  isDirectorAndMajorShareholder: false,
  isPreviousOwner: false,
  isFamilyOfOwner: false,
  cancellationPeriodEmployee: 1,
  cancellationPeriodTimeUnit: option('cancellationPeriodTimeUnit', 3),
};

// Drafts at different stages: two nearly complete (start date, employment and fiscal data),
// one with personal data only, one with a name and a phone number.
const CONCEPTS: ConceptSeed[] = [
  {
    id: C.sanneDeVries,
    employerId: E.vanDerMeerBouwgroep,
    employeeNumber: 1201,
    firstName: 'Sanne',
    initials: 'S.',
    prefix: 'de',
    lastName: 'Vries',
    partner: ['van den', 'Berg'],
    gender: 2,
    dateOfBirth: '1996-04-18',
    placeOfBirth: 'Utrecht',
    contact: { phoneNumber: '030 231 54 82', mobilePhoneNumber: '06 41 27 83 95', faxNumber: '', businessPhoneNumber: '030 241 77 34', businessMobilePhoneNumber: '06 12 98 45 03', businessEmailAddress: 's.devries@vandermeerbouwgroep.nl' },
    address: { street: 'Biltstraat', houseNumber: 112, houseNumberAddition: 'bis', postalCode: '3572 BK', city: 'Utrecht', location: '' },
    travelKm: 11.6,
    iban: 'NL91ABNA0417164300',
    // A first fixed-term contract of one year.
    employment: {
      ...REGULAR_EMPLOYMENT,
      historicalStartDate: '2026-02-01',
      commissionUntilDate: '2027-01-31',
      commissionUntilDate1: '2027-01-31',
      employmentDurationType: option('employmentDurationType', 1),
      sendToExternalParty: option('sendToExternalParty', 2),
      employeeProfileId: employerOption(E.vanDerMeerBouwgroep, 'employeeProfileId', 'Standaard werknemer'),
      essMutationSet: employerOption(E.vanDerMeerBouwgroep, 'essMutationSet', 'Standaard mutaties'),
      emailLeaveRequest: 'verlof@vandermeerbouwgroep.nl',
      periodPayGradeAdjustment: 1,
      signalPayGradeAdjustment: true,
      cancellationPeriodEmployer: 1,
      namePayslip: 'S. de Vries',
    },
    fiscal: { startDate: '2026-02-01' },
  },
  {
    id: C.mohamedElAmrani,
    employerId: E.vanDerMeerBouwgroep,
    firstName: 'Mohamed',
    initials: 'M.',
    lastName: 'El Amrani',
    gender: 1,
    dateOfBirth: '1989-11-02',
    placeOfBirth: 'Amersfoort',
    contact: { phoneNumber: '033 462 19 07', mobilePhoneNumber: '06 18 55 20 47' },
    address: { street: 'Kruiskamp', houseNumber: 7, houseNumberAddition: 'A', postalCode: '3815 AA', city: 'Amersfoort' },
    iban: 'NL20INGB0001234567',
    employment: null,
    fiscal: null,
  },
  { id: C.lotteJanssen, employerId: E.vanDerMeerBouwgroep, firstName: 'Lotte', initials: 'L.M.', lastName: 'Janssen', gender: 2, dateOfBirth: '2001-07-30', placeOfBirth: 'Nieuwegein', contact: { mobilePhoneNumber: '06 29 04 61 73' }, address: null, iban: null, employment: null, fiscal: null },
  {
    id: C.pietBakker,
    employerId: E.bakkerijDeKorenschoof,
    employeeNumber: 1202,
    firstName: 'Piet',
    initials: 'P.J.',
    lastName: 'Bakker',
    gender: 1,
    dateOfBirth: '1978-02-14',
    placeOfBirth: 'Eindhoven',
    contact: { phoneNumber: '040 244 61 30', mobilePhoneNumber: '06 50 33 12 88', faxNumber: '', businessPhoneNumber: '040 212 45 00', businessMobilePhoneNumber: '', businessEmailAddress: '' },
    address: { street: 'Hoogstraat', houseNumber: 210, houseNumberAddition: '', postalCode: '5615 PT', city: 'Eindhoven', location: '' },
    travelKm: 2.8,
    iban: 'NL02RABO0123456789',
    // Back at the bakery after some years elsewhere: a new income relationship, for an indefinite term.
    employment: {
      ...REGULAR_EMPLOYMENT,
      historicalStartDate: '2014-09-01',
      employmentDurationType: option('employmentDurationType', 2),
      startDateContractOfIndefiniteDuration: '2026-03-01',
      incomeRelationshipNumber: 2,
      cancellationPeriodEmployer: 2,
      namePayslip: 'P.J. Bakker',
    },
    fiscal: { startDate: '2026-03-01', annualSalary: 38900 },
  },
];

/**
 * The employee part of a concept employee with its read-only fields: the concept employee's
 * GUID, which the promoted employee keeps (§2.8), and the names computed as for employees
 * (formattedName, aowDate).
 */
export function conceptEmployeePart(conceptEmployeeId: string, employee: Record<string, unknown>): Record<string, unknown> {
  const { id: _sent, ...fields } = employee;
  return computeEmployee({ id: conceptEmployeeId, ...fields });
}

/** The first fiscal record of a draft: the defaults with what deviates. */
function conceptFiscalData(conceptEmployeeId: string, { startDate, ...deviations }: NonNullable<ConceptSeed['fiscal']>): Record<string, unknown> {
  return { id: seedUuid(`conceptEmployee:${conceptEmployeeId}:fiscalData`), startDate, endDate: null, ...FISCAL_DEFAULTS, ...deviations };
}

export function conceptEmployeeDoc(seed: ConceptSeed): Doc {
  const name = [seed.firstName, seed.prefix, seed.lastName].filter(Boolean).join(' ');
  const furtherAlong = seed.employment !== null;
  return {
    id: seed.id,
    employerId: seed.employerId,
    uniqueName: name,
    employeeData: conceptEmployeePart(seed.id, {
      ...(seed.employeeNumber === undefined ? {} : { employeeNumber: seed.employeeNumber }),
      personalDetails: {
        firstName: seed.firstName,
        initials: seed.initials,
        ...(seed.prefix ? { prefix: seed.prefix } : {}),
        lastName: seed.lastName,
        ...(seed.partner ? { prefixPartner: seed.partner[0], lastNamePartner: seed.partner[1] } : {}),
        dateOfBirth: seed.dateOfBirth,
        placeOfBirth: seed.placeOfBirth,
        gender: option('gender', seed.gender),
        nationality: option('nationality', 1),
      },
      contactInformation: seed.contact,
      identityDocument: null,
      ...(seed.travelKm === undefined ? {} : { travel: { travelDistanceToWork: Math.round(seed.travelKm), travelDistanceToWorkInKm: seed.travelKm } }),
      address: seed.address ? { ...seed.address, country: option('country', 1) } : null,
      deviatingPostalAddress: null,
      ...(furtherAlong ? { exclusionFromAbsenceStatus: false, revokeEmployeeSelfServiceAccessOn: null } : {}),
    }),
    employmentData: seed.employment ? { ...EMPLOYMENT_DEFAULTS, ...seed.employment } : null,
    workingHoursData: null,
    wageData: null,
    organizationalEntityData: null,
    socialSecurityData: null,
    fiscalData: seed.fiscal ? conceptFiscalData(seed.id, seed.fiscal) : null,
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

