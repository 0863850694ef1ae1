// The sandbox's reference data: the ONE source of the options of every metadata field, per
// field and context. The metadata endpoints (resources/metadata.ts) list these options, and
// checkMetadataKeys refuses a request body whose metadata key is not among them, so what a
// client reads from a metadata endpoint is exactly what the sandbox accepts on input.
//
// Generic metadata (gender, country, ...) has the same options everywhere. Context-specific
// metadata has options that are resources of a context: departments, functions and
// distribution units of an employer; pay scales, pay grades and contract codes of the
// collective labour agreement (CAO) a payroll administration follows. Their uuid keys are
// derived from the context's id, so they are stable across resets and distinct per employer.
import { sha1Hex } from '../util/ids.js';
import { message } from '../http/errors.js';
import { SandboxError } from './context.js';
import type { Doc, Tx } from '../store/types.js';

/** One option of a metadata field, as a metadata endpoint lists it (extra read-only properties included). */
export interface MetadataOption {
  key: number | string;
  value: string;
  [extra: string]: unknown;
}

/** Ids already made: option lists are asked for once per employment, and SHA-1 in plain
 * JavaScript is a good part of making the seed. */
const uuids = new Map<string, string>();

/** A stable uuid (version 5 layout) for a name: the same name always gives the same id. */
export function seedUuid(name: string): string {
  let uuid = uuids.get(name);
  if (uuid === undefined) {
    const hex = sha1Hex(`payroll-sandbox:${name}`);
    const variant = ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
    uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
    uuids.set(name, uuid);
  }
  return uuid;
}

function numbered(values: string[], first = 1): MetadataOption[] {
  return values.map((value, i) => ({ key: first + i, value }));
}

function keyed(pairs: Array<[number, string]>): MetadataOption[] {
  return pairs.map(([key, value]) => ({ key, value }));
}

const YES_NO = keyed([
  [1, 'Ja'],
  [2, 'Nee'],
]);

/** Generic metadata: the same options for every provider, employer and employee. */
export const GENERIC_OPTIONS = {
  gender: numbered(['Man', 'Vrouw', 'Onbekend']),
  civilStatus: numbered(['Ongehuwd', 'Gehuwd', 'Geregistreerd partnerschap', 'Gescheiden', 'Weduwe/weduwnaar']),
  howToFormatLastName: numbered(['Eigen naam', 'Naam partner', 'Naam partner gevolgd door eigen naam', 'Eigen naam gevolgd door naam partner']),
  title: numbered(['Geen titel', 'Dhr.', 'Mevr.', 'Dr.', 'Ir.', 'Mr.', 'Drs.', 'Ing.'], 0),
  nationality: numbered(['Nederlandse', 'Belgische', 'Duitse', 'Poolse', 'Turkse', 'Marokkaanse', 'Surinaamse', 'Spaanse']),
  typeOfDocument: numbered(['Paspoort', 'Identiteitskaart', 'Rijbewijs', 'Verblijfsdocument']),
  country: [
    { key: 1, value: 'Nederland', isoCode: 'NL' },
    { key: 2, value: 'België', isoCode: 'BE' },
    { key: 3, value: 'Duitsland', isoCode: 'DE' },
    { key: 4, value: 'Polen', isoCode: 'PL' },
    { key: 5, value: 'Spanje', isoCode: 'ES' },
    { key: 6, value: 'Turkije', isoCode: 'TR' },
    { key: 7, value: 'Marokko', isoCode: 'MA' },
    { key: 8, value: 'Suriname', isoCode: 'SR' },
  ] as MetadataOption[],
  furtherIndication: keyed([
    [1, 'Bij (tegenover)'],
    [2, 'Woonboot'],
    [3, 'Woonwagen'],
  ]),
  province: numbered(['Groningen', 'Friesland', 'Drenthe', 'Flevoland', 'Overijssel', 'Gelderland', 'Noord-Holland', 'Zuid-Holland', 'Zeeland', 'Utrecht', 'Noord-Brabant', 'Limburg']),
  sbi: [
    { key: 312, value: 'Broodbakkerijen', sbiCode: '10711' },
    { key: 402, value: 'Algemene burgerlijke en utiliteitsbouw', sbiCode: '41200' },
    { key: 405, value: 'Grond-, water- en wegenbouw (geen bouw van kunstwerken)', sbiCode: '42110' },
    { key: 421, value: 'Elektrotechnische bouwinstallatie', sbiCode: '43210' },
    { key: 987, value: 'Verhuur van overig eigen of geleasd onroerend goed', sbiCode: '68204' },
    { key: 1050, value: 'Boekhoudkantoren', sbiCode: '69203' },
    { key: 1188, value: 'Verpleeghuizen', sbiCode: '87101' },
    { key: 1204, value: 'Kinderopvang', sbiCode: '88911' },
  ] as MetadataOption[],
  legalForm: numbered(['Eenmanszaak', 'Vennootschap onder firma', 'Besloten vennootschap', 'Naamloze vennootschap', 'Stichting', 'Vereniging', 'Coöperatie']),
  branch: keyed([
    [10, 'Bouwnijverheid'],
    [11, 'Installatietechniek'],
    [14, 'Bakkersbedrijf'],
    [30, 'Zorg en welzijn'],
    [40, 'Zakelijke dienstverlening'],
    [41, 'Kinderopvang'],
    [50, 'Vastgoed'],
  ]),
  // employment
  typeOfEmployee: numbered(['Personeelslid', 'Stagiair', 'Uitzendkracht', 'Oproepkracht', 'Directeur-grootaandeelhouder']),
  employmentDurationType: numbered(['Bepaalde tijd', 'Onbepaalde tijd']),
  employmentContractType: numbered(['Arbeidsovereenkomst', 'Oproepovereenkomst met voorovereenkomst', 'Min-max contract', 'Nul-urencontract']),
  vacationCoupons: numbered(['Geen vakantiebonnen', 'Vakantiebonnen bouw', 'Vakantiebonnen uitzend']),
  sendToExternalParty: numbered(['Niet aanleveren', 'Aanleveren aan pensioenfonds', 'Aanleveren aan verzekeraar']),
  typeOfParticipation: numbered(['Geen deelname', 'Basisregeling', 'Excedentregeling']),
  valueOfParticipation: numbered(['Volledige deelname', 'Gedeeltelijke deelname', 'Premievrije deelname']),
  exemptionInsuranceObligation: numbered(['Geen vrijstelling', 'Vrijstelling ZW', 'Vrijstelling WW', 'Vrijstelling WAO/WIA']),
  specialIncomeRatio: numbered(['Geen', 'Meewerkende kinderen', 'Artiesten en beroepssporters', 'Thuiswerkers']),
  temporaryTaxExemption: numbered(['Geen', 'Tijdelijke vrijstelling loonheffing'], 0),
  cancellationPeriodTimeUnit: numbered(['Dagen', 'Weken', 'Maanden']),
  employmentCategoryType: numbered(['Hoofddienstverband', 'Nevendienstverband']),
  endOfEmploymentReason: keyed([
    [1, 'Pensioen'],
    [2, 'Overlijden'],
    [3, 'Arbeidsongeschiktheid'],
    [8, 'Overige'],
  ]),
  endOfEmploymentReasonTaxAuthorities: keyed([
    [1, 'Ontslag op initiatief werkgever'],
    [2, 'Ontslag op initiatief werknemer'],
    [3, 'Ontslag met wederzijds goedvinden'],
    [4, 'Overlijden werknemer'],
    [5, 'Einde contract bepaalde tijd'],
    [6, 'Pensionering'],
  ]),
  // working hours
  flexibleHoursContract: numbered(['Geen flexibel contract', 'Oproepovereenkomst', 'Min-max contract']),
  // wage
  payrollPeriodType: numbered(['Maand', 'Vier weken', 'Week']),
  grossWageType: numbered(['Periodeloon', 'Uurloon']),
  netWageType: numbered(['Netto periodeloon', 'Netto uurloon']),
  employerCostsType: numbered(['Werkgeverslasten per periode', 'Werkgeverslasten per uur']),
  // organizational entity
  standardFunction: [
    { key: 1, value: 'Timmerman', code: 7111, category: 'Bouw' },
    { key: 2, value: 'Elektromonteur', code: 7411, category: 'Techniek' },
    { key: 3, value: 'Bakker', code: 7512, category: 'Voeding' },
    { key: 4, value: 'Verzorgende IG', code: 5321, category: 'Zorg' },
    { key: 5, value: 'Administratief medewerker', code: 4110, category: 'Administratie' },
  ] as MetadataOption[],
  // fiscal
  deviatingTaxTableCode: numbered(['Geen afwijking', 'Tabel voor AOW-gerechtigden', 'Tabel zonder loonheffingskorting']),
  deviatingPayrollTaxTableColour: numbered(['Wit', 'Groen']),
  applyDeviatingPayrollTaxPercentageOn: numbered(['Tabelloon', 'Bijzondere beloningen', 'Tabelloon en bijzondere beloningen']),
  residentOf: keyed([
    [1, 'Nederland'],
    [2, 'België'],
    [3, 'Duitsland'],
    [9, 'Overig buitenland'],
  ]),
  applySalarysplit: YES_NO,
  deviatingCalculationRulePayrollTax: numbered(['Geen afwijking', 'Anoniementarief', 'Tabel bijzondere beloningen']),
  thirtyPercentFacility: numbered(['Niet van toepassing', '30%-regeling', 'Afwijkend percentage']),
  contributionReductionEducation: numbered(['Geen', 'Praktijkleren BBL', 'Praktijkleren promovendi']),
  // other payroll variables
  deviatingPremiumGroup: numbered(['Geen afwijking', 'Premiegroep laag', 'Premiegroep hoog']),
  wageCostBenefit: numbered(['Geen', 'LKV oudere werknemer', 'LKV arbeidsgehandicapte werknemer', 'LKV doelgroep banenafspraak']),
  phaseClassification: keyed([
    [1, 'Fase A'],
    [2, 'Fase B'],
    [3, 'Fase C'],
  ]),
  incidentalIncomeDeduction: numbered(['Geen', 'Onbetaald verlof', 'Staking']),
  terminateIncomenumberFlexibleEmployment: YES_NO,
  occupationalDisabilityPremiumDiscount: numbered(['Geen', 'Premiekorting WAO', 'Premiekorting WIA']),
  occupationalDisabilityDeductionAfter2009: numbered(['Geen', 'Arbeidsgehandicapte werknemer']),
  occupationalDisabilityDeductionTo2009: numbered(['Geen', 'Arbeidsgehandicapte werknemer']),
  // Dated: a CAO code is valid for the term of the agreement.
  collectiveLaborAgreementCodeHiringEmployer: [
    { key: 1, value: 'CAO Bouw en Infra 2021-2023', startDate: '2021-01-01', endDate: '2023-12-31' },
    { key: 2, value: 'CAO Bouw en Infra 2024-2026', startDate: '2024-01-01', endDate: '2026-12-31' },
    { key: 3, value: 'CAO Bakkersbedrijf 2022-2024', startDate: '2022-04-01', endDate: '2024-12-31' },
    { key: 4, value: 'CAO Bakkersbedrijf 2025-2027', startDate: '2025-01-01', endDate: '2027-03-31' },
    { key: 5, value: 'CAO VVT 2022-2024', startDate: '2022-10-01', endDate: '2024-12-31' },
    { key: 6, value: 'CAO VVT 2025-2026', startDate: '2025-01-01', endDate: '2026-03-31' },
  ] as MetadataOption[],
  valueOfParticipationDuringLeave: numbered(['Volledige deelname', 'Geen deelname']),
  deviatingDisabilityInsuranceActPercentageForFundB: numbered(['Geen afwijking', 'Vrijgesteld']),
  occupationalPensionFund: numbered(['Geen pensioenfonds', 'bpfBOUW', 'Bakkers Pensioenfonds', 'PFZW']),
  specificationOfIncomeRelationshipFundC: [
    { key: 1, value: 'Reguliere arbeidsovereenkomst', code: 'A', category: 'Werknemer' },
    { key: 2, value: 'Oproepcontract', code: 'B', category: 'Werknemer' },
  ] as MetadataOption[],
  // payroll period data
  payslipType: numbered(['Normale strook', 'Correctiestrook', 'Bijzondere beloning']),
} satisfies Record<string, MetadataOption[]>;

export type GenericList = keyof typeof GENERIC_OPTIONS;

/**
 * Employer resources every employer has, with the same names but keys of its own: employee
 * profiles, self-service mutation sets and leave types.
 */
export const EMPLOYER_LISTS = {
  employeeProfileId: ['Standaard werknemer', 'Oproepkracht', 'Stagiair', 'Directie'],
  essMutationSet: ['Standaard mutaties', 'Uitgebreide mutaties', 'Alleen inzage'],
  leaveType: ['Ouderschapsverlof', 'Onbetaald verlof', 'Zorgverlof'],
} satisfies Record<string, string[]>;

type EmployerList = keyof typeof EMPLOYER_LISTS;

/** Context-specific lists: their options are resources of an employer or of a payroll administration's CAO. */
export type ContextList = EmployerList | 'function' | 'department' | 'distributionUnit' | 'contractCode' | 'payScale' | 'payGrade' | 'payrollAdministration';

export type OptionList = GenericList | ContextList;

// ---------------------------------------------------------------------------------------
// Employer resources: departments, functions and distribution units, by the branch profile
// the seed gives an employer (stored on the employer as the internal field referenceProfile).

interface Coded {
  code: number;
  description: string;
}

export interface EmployerProfile {
  departments: Coded[];
  functions: Array<{ description: string; group: string | null }>;
  distributionUnits: Coded[];
}

export const EMPLOYER_PROFILES: Record<string, EmployerProfile> = {
  construction: {
    departments: [
      { code: 10, description: 'Directie' },
      { code: 20, description: 'Uitvoering' },
      { code: 30, description: 'Werkvoorbereiding' },
      { code: 40, description: 'Administratie' },
    ],
    functions: [
      { description: 'Timmerman', group: 'B' },
      { description: 'Uitvoerder', group: 'D' },
      { description: 'Werkvoorbereider', group: 'C' },
      { description: 'Projectleider', group: 'E' },
      { description: 'Administratief medewerker', group: null },
    ],
    distributionUnits: [
      { code: 1, description: 'Regio Noord' },
      { code: 2, description: 'Regio Midden' },
    ],
  },
  installation: {
    departments: [
      { code: 10, description: 'Elektrotechniek' },
      { code: 20, description: 'Werktuigbouw' },
      { code: 30, description: 'Service en onderhoud' },
    ],
    functions: [
      { description: 'Elektromonteur', group: 'C' },
      { description: 'Servicemonteur', group: 'C' },
      { description: 'Projectleider installaties', group: 'E' },
    ],
    distributionUnits: [{ code: 1, description: 'Installatie' }],
  },
  realEstate: {
    departments: [{ code: 10, description: 'Beheer' }],
    functions: [
      { description: 'Vastgoedbeheerder', group: 'D' },
      { description: 'Administratief medewerker', group: null },
    ],
    distributionUnits: [{ code: 1, description: 'Vastgoed' }],
  },
  bakery: {
    departments: [
      { code: 10, description: 'Bakkerij' },
      { code: 20, description: 'Winkel' },
      { code: 30, description: 'Bezorging' },
    ],
    functions: [
      { description: 'Broodbakker', group: 'III' },
      { description: 'Banketbakker', group: 'IV' },
      { description: 'Verkoopmedewerker', group: 'I' },
      { description: 'Chauffeur', group: 'II' },
    ],
    distributionUnits: [
      { code: 1, description: 'Productie' },
      { code: 2, description: 'Winkels' },
    ],
  },
  care: {
    departments: [
      { code: 10, description: 'Wonen en zorg' },
      { code: 20, description: 'Facilitair' },
      { code: 30, description: 'Staf' },
    ],
    functions: [
      { description: 'Verzorgende IG', group: 'FWG 35' },
      { description: 'Verpleegkundige', group: 'FWG 45' },
      { description: 'Teamleider', group: 'FWG 50' },
      { description: 'Medewerker facilitair', group: 'FWG 15' },
    ],
    distributionUnits: [
      { code: 1, description: 'Locatie De Linde' },
      { code: 2, description: 'Locatie Het Anker' },
    ],
  },
};

function employerResourceOptions(employerId: string, profile: EmployerProfile | undefined, list: 'function' | 'department' | 'distributionUnit'): MetadataOption[] {
  if (!profile) return [];
  if (list === 'function') {
    return profile.functions.map((f) => ({ key: seedUuid(`function:${employerId}:${f.description}`), value: f.description, description: f.description, group: f.group }));
  }
  const rows = list === 'department' ? profile.departments : profile.distributionUnits;
  return rows.map((row) => ({ key: seedUuid(`${list}:${employerId}:${row.code}`), value: row.description, code: row.code, description: row.description }));
}

// ---------------------------------------------------------------------------------------
// Collective labour agreements (CAO) of payroll administrations: pay scales with their pay
// grades, and the dated wage of each pay grade; contract codes of working hours.

export interface PayGradeValue {
  startDate: string;
  endDate: string | null;
  /** Gross wage of a full-time employee per payroll period of the scale. */
  grossWage: number;
  hourlyWage: number;
}

export interface PayScaleData {
  name: string;
  payrollPeriodType: number;
  grades: Array<{ name: string; values: PayGradeValue[] }>;
}

export interface AgreementData {
  name: string;
  payScales: PayScaleData[];
  contractCodes: Coded[];
  /** Its dated codes in collectiveLaborAgreementCodeHiringEmployer, one per term. */
  termCodes: number[];
}

/** Three yearly wage rounds for a grade whose 2024 wage is `base` (indexed +3.5% per year). */
function wageRounds(base: number, hours: number): PayGradeValue[] {
  const rounds: PayGradeValue[] = [];
  let wage = base;
  for (const year of [2024, 2025, 2026]) {
    rounds.push({ startDate: `${year}-01-01`, endDate: year === 2026 ? null : `${year}-12-31`, grossWage: Math.round(wage * 100) / 100, hourlyWage: Math.round((wage / (hours * 4.33)) * 100) / 100 });
    wage *= 1.035;
  }
  return rounds;
}

function grades(prefix: string, bases: number[], hours: number): PayScaleData['grades'] {
  return bases.map((base, i) => ({ name: `${prefix} ${i}`, values: wageRounds(base, hours) }));
}

export const AGREEMENTS: Record<string, AgreementData> = {
  construction: {
    name: 'CAO Bouw en Infra',
    payScales: [
      { name: 'Bouw en Infra - functiegroep B', payrollPeriodType: 2, grades: grades('Trede', [2710, 2790, 2875, 2960], 40) },
      { name: 'Bouw en Infra - functiegroep D', payrollPeriodType: 2, grades: grades('Trede', [3240, 3355, 3470], 40) },
    ],
    contractCodes: [
      { code: 1, description: 'Fulltime 40 uur' },
      { code: 2, description: 'Deeltijd 32 uur' },
    ],
    termCodes: [1, 2],
  },
  bakery: {
    name: 'CAO Bakkersbedrijf',
    payScales: [
      { name: 'CAO Bakkersbedrijf - schaal B', payrollPeriodType: 2, grades: grades('Trede', [2150, 2215, 2290], 38) },
      { name: 'CAO Bakkersbedrijf - schaal D', payrollPeriodType: 2, grades: grades('Trede', [2480, 2560, 2645, 2730], 38) },
    ],
    contractCodes: [
      { code: 1, description: 'Fulltime 38 uur' },
      { code: 2, description: 'Oproep' },
    ],
    termCodes: [3, 4],
  },
  care: {
    name: 'CAO VVT',
    payScales: [
      { name: 'VVT - FWG 35', payrollPeriodType: 1, grades: grades('Periodiek', [2650, 2745, 2840, 2935], 36) },
      { name: 'VVT - FWG 45', payrollPeriodType: 1, grades: grades('Periodiek', [3050, 3160, 3275], 36) },
    ],
    contractCodes: [
      { code: 1, description: 'Fulltime 36 uur' },
      { code: 2, description: 'Deeltijd 24 uur' },
      { code: 3, description: 'Nul-uren' },
    ],
    termCodes: [5, 6],
  },
};

export function payScaleKey(agreement: string, scale: PayScaleData): string {
  return seedUuid(`payScale:${agreement}:${scale.name}`);
}

export function payGradeKey(agreement: string, scale: PayScaleData, grade: string): string {
  return seedUuid(`payGrade:${agreement}:${scale.name}:${grade}`);
}

/** A pay scale found by its key, wherever it belongs (the salary scale type metadata has no other context). */
export function findPayScale(key: string): { agreement: string; scale: PayScaleData } | undefined {
  for (const [agreement, data] of Object.entries(AGREEMENTS)) {
    for (const scale of data.payScales) if (payScaleKey(agreement, scale) === key) return { agreement, scale };
  }
  return undefined;
}

export function payScaleOptions(agreement: string | undefined): MetadataOption[] {
  const data = agreement ? AGREEMENTS[agreement] : undefined;
  return (data?.payScales ?? []).map((scale) => ({ key: payScaleKey(agreement as string, scale), value: scale.name }));
}

export function payGradeOptions(agreement: string, scale: PayScaleData): MetadataOption[] {
  return scale.grades.map((grade) => ({ key: payGradeKey(agreement, scale, grade.name), value: grade.name }));
}

function contractCodeOptions(agreement: string | undefined): MetadataOption[] {
  const data = agreement ? AGREEMENTS[agreement] : undefined;
  return (data?.contractCodes ?? []).map((row) => ({ key: seedUuid(`contractCode:${agreement}:${row.code}`), value: row.description, code: row.code, description: row.description }));
}

// ---------------------------------------------------------------------------------------
// Forms: the metadata fields of a request body, by dotted path, and the list each reads.

export type MetadataForm = Record<string, OptionList>;

function prefixed(prefix: string, form: MetadataForm): MetadataForm {
  return Object.fromEntries(Object.entries(form).map(([path, list]) => [`${prefix}.${path}`, list]));
}

const ADDRESS: MetadataForm = { furtherIndication: 'furtherIndication', country: 'country' };

const EMPLOYEE: MetadataForm = {
  'personalDetails.howToFormatLastName': 'howToFormatLastName',
  'personalDetails.title': 'title',
  'personalDetails.nationality': 'nationality',
  'personalDetails.gender': 'gender',
  'personalDetails.civilStatus': 'civilStatus',
  'identityDocument.typeOfDocument': 'typeOfDocument',
  ...prefixed('address', ADDRESS),
  ...prefixed('deviatingPostalAddress', ADDRESS),
};

const EMPLOYMENT: MetadataForm = {
  typeOfEmployee: 'typeOfEmployee',
  employmentDurationType: 'employmentDurationType',
  employmentContractType: 'employmentContractType',
  vacationCoupons: 'vacationCoupons',
  sendToExternalParty: 'sendToExternalParty',
  employeeProfileId: 'employeeProfileId',
  typeOfParticipation: 'typeOfParticipation',
  valueOfParticipation: 'valueOfParticipation',
  essMutationSet: 'essMutationSet',
  exemptionInsuranceObligation: 'exemptionInsuranceObligation',
  specialIncomeRatio: 'specialIncomeRatio',
  temporaryTaxExemption: 'temporaryTaxExemption',
  cancellationPeriodTimeUnit: 'cancellationPeriodTimeUnit',
};

const TERMINATION: MetadataForm = {
  endOfEmploymentReason: 'endOfEmploymentReason',
  endOfEmploymentReasonTaxAuthorities: 'endOfEmploymentReasonTaxAuthorities',
};

const WAGE: MetadataForm = {
  payrollPeriodType: 'payrollPeriodType',
  grossWageType: 'grossWageType',
  netWageType: 'netWageType',
  employerCostsType: 'employerCostsType',
  payScale: 'payScale',
  payGrade: 'payGrade',
};

const SECTIONS: MetadataForm = {
  ...prefixed('employmentData', EMPLOYMENT),
  'workingHoursData.flexibleHoursContract': 'flexibleHoursContract',
  'workingHoursData.contractCode': 'contractCode',
  ...prefixed('wageData', WAGE),
  'organizationalEntityData.function': 'function',
  'organizationalEntityData.standardFunction': 'standardFunction',
  'organizationalEntityData.department': 'department',
  'organizationalEntityData.distributionUnit': 'distributionUnit',
  ...prefixed('fiscalData', {
    deviatingTaxTableCode: 'deviatingTaxTableCode',
    deviatingPayrollTaxTableColour: 'deviatingPayrollTaxTableColour',
    applyDeviatingPayrollTaxPercentageOn: 'applyDeviatingPayrollTaxPercentageOn',
    residentOf: 'residentOf',
    applySalarysplit: 'applySalarysplit',
    deviatingCalculationRulePayrollTax: 'deviatingCalculationRulePayrollTax',
    thirtyPercentFacility: 'thirtyPercentFacility',
    contributionReductionEducation: 'contributionReductionEducation',
  }),
  ...prefixed('otherPayrollVariablesData.payrollProperties', {
    deviatingPremiumGroup: 'deviatingPremiumGroup',
    wageCostBenefit: 'wageCostBenefit',
    phaseClassification: 'phaseClassification',
    incidentalIncomeDeduction: 'incidentalIncomeDeduction',
    terminateIncomenumberFlexibleEmployment: 'terminateIncomenumberFlexibleEmployment',
    occupationalDisabilityPremiumDiscount: 'occupationalDisabilityPremiumDiscount',
    occupationalDisabilityDeductionAfter2009: 'occupationalDisabilityDeductionAfter2009',
    occupationalDisabilityDeductionTo2009: 'occupationalDisabilityDeductionTo2009',
    collectiveLaborAgreementCodeHiringEmployer: 'collectiveLaborAgreementCodeHiringEmployer',
  }),
  ...prefixed('otherPayrollVariablesData.pensionProperties', {
    'leaveFundA.leaveType': 'leaveType',
    'leaveFundA.valueOfParticipationDuringLeave': 'valueOfParticipationDuringLeave',
    deviatingDisabilityInsuranceActPercentageForFundB: 'deviatingDisabilityInsuranceActPercentageForFundB',
    occupationalPensionFund: 'occupationalPensionFund',
    specificationOfIncomeRelationshipFundC: 'specificationOfIncomeRelationshipFundC',
  }),
};

/**
 * The metadata fields of each request body, by dotted path from the body's root (the names
 * the metadata endpoints report in `field`). A test compares them with the description.
 */
export const FORMS = {
  /** PostEmployerByProviderId, PutEmployerByEmployerId (no metadata endpoint is described for them). */
  employer: {
    sbi: 'sbi',
    legalForm: 'legalForm',
    branch: 'branch',
    'address.furtherIndication': 'furtherIndication',
    'address.country': 'country',
    'address.province': 'province',
    ...prefixed('deviatingPostalAddress', ADDRESS),
  },
  /** PutEmployeeByEmployeeId; GetEmployeeMetadataByEmployeeId lists it. */
  employee: EMPLOYEE,
  /** PutEmploymentByEmploymentId, PatchTerminateByEmploymentId, PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId; GetEmploymentMetadataByEmploymentId lists it. */
  employment: { ...EMPLOYMENT, employmentCategoryType: 'employmentCategoryType', ...TERMINATION },
  /** Adding a wage; GetWageMetadataByEmploymentId lists it. */
  wage: WAGE,
  /** PostEmployeeByEmployerId; GetJobApplicantMetadataByPayrollAdministrationId lists it. */
  newEmployee: { ...prefixed('employeeData', EMPLOYEE), ...SECTIONS },
  /** PostConceptEmployeeByEmployerId, PutConceptEmployeeByConceptEmployeeId; GetConceptEmployeeMetadataByPayrollAdministrationId lists it. */
  conceptEmployee: { ...prefixed('employeeData', EMPLOYEE), ...SECTIONS },
  /** PutConceptEmployeeMinimizedByConceptEmployeeId. */
  conceptEmployeeMinimized: {
    'personalDetails.howToFormatLastName': 'howToFormatLastName',
    'personalDetails.title': 'title',
    'personalDetails.nationality': 'nationality',
    'personalDetails.gender': 'gender',
    'personalDetails.civilStatus': 'civilStatus',
    'identityDocument.typeOfDocument': 'typeOfDocument',
    ...prefixed('address', ADDRESS),
  },
  /** GetPayrollPeriodDataDefaultsByEmploymentId's payslip fields read from these lists. */
  payrollPeriodData: { payslipType: 'payslipType', distributionUnit: 'distributionUnit' },
} satisfies Record<string, MetadataForm>;

export type FormName = keyof typeof FORMS;

/** The activity whose answer lists each form's options (null: no metadata endpoint is described for it). */
export const LISTED_BY: Record<FormName, string | null> = {
  employer: null,
  employee: 'GetEmployeeMetadataByEmployeeId',
  employment: 'GetEmploymentMetadataByEmploymentId',
  wage: 'GetWageMetadataByEmploymentId',
  newEmployee: 'GetJobApplicantMetadataByPayrollAdministrationId',
  conceptEmployee: 'GetConceptEmployeeMetadataByPayrollAdministrationId',
  conceptEmployeeMinimized: 'GetConceptEmployeeMetadataByPayrollAdministrationId',
  payrollPeriodData: 'GetPayrollPeriodDataDefaultsByEmploymentId',
};

// ---------------------------------------------------------------------------------------
// Contexts

/**
 * Where options are read: the employer (its departments, functions, ...) and, when known, the
 * payroll administration (its CAO's pay scales and contract codes). Without an administration
 * the CAO lists are the union over the employer's payroll administrations.
 */
export interface MetadataScope {
  employer: Doc | null;
  administration: Doc | null;
  /** The employer's administrations (payroll and non-payroll). */
  administrations: Doc[];
}

/** Collections of the organisation side, as stored (names shared with the resource modules). */
export const ORG_COLLECTIONS = {
  providers: 'providers',
  providerLogos: 'providerLogos',
  employers: 'employers',
  employerLogos: 'employerLogos',
  administrations: 'administrations',
  conceptEmployees: 'conceptEmployees',
} as const;

const employerIdField = { path: ['employerId'], type: 'string' as const };

/** Reads the scope of an employer and optionally one of its administrations (null ids: unknown). */
export async function metadataScope(tx: Tx, employerId: string | null, administrationId: string | null = null): Promise<MetadataScope> {
  const administration = administrationId ? ((await tx.get(ORG_COLLECTIONS.administrations, administrationId)) ?? null) : null;
  const ownerId = employerId ?? (administration?.employerId as string | undefined) ?? null;
  if (!ownerId) return { employer: null, administration, administrations: [] };
  // Read together (a store may answer both in one round trip).
  const [employer, administrations] = await Promise.all([
    tx.get(ORG_COLLECTIONS.employers, ownerId),
    tx.find(ORG_COLLECTIONS.administrations, { where: { kind: 'in', field: employerIdField, values: [ownerId] } }),
  ]);
  return { employer: employer ?? null, administration, administrations: administrations.rows };
}

function agreementsOf(scope: MetadataScope): string[] {
  const sources = scope.administration ? [scope.administration] : scope.administrations;
  return [...new Set(sources.map((a) => a.collectiveLaborAgreement).filter((x): x is string => typeof x === 'string'))];
}

/** The options of one list in a scope. */
export function optionsOf(list: OptionList, scope: MetadataScope): MetadataOption[] {
  switch (list) {
    case 'function':
    case 'department':
    case 'distributionUnit': {
      const employer = scope.employer;
      return employer ? employerResourceOptions(employer.id, EMPLOYER_PROFILES[employer.referenceProfile as string], list) : [];
    }
    case 'employeeProfileId':
    case 'essMutationSet':
    case 'leaveType': {
      const employer = scope.employer;
      return employer ? EMPLOYER_LISTS[list].map((value) => ({ key: seedUuid(`${list}:${employer.id}:${value}`), value })) : [];
    }
    case 'payScale':
      return agreementsOf(scope).flatMap((agreement) => payScaleOptions(agreement));
    case 'payGrade':
      return agreementsOf(scope).flatMap((agreement) => (AGREEMENTS[agreement]?.payScales ?? []).flatMap((scale) => payGradeOptions(agreement, scale)));
    case 'contractCode':
      return agreementsOf(scope).flatMap((agreement) => contractCodeOptions(agreement));
    case 'payrollAdministration':
      return scope.administrations.filter((a) => a.isPayrollAdministration === true).map((a) => ({ key: a.id, value: a.description as string }));
    default:
      return GENERIC_OPTIONS[list];
  }
}

/** The answer of a metadata endpoint: every field of the form with its options in the scope. */
export function metadataFields(form: MetadataForm, scope: MetadataScope): Array<{ field: string; options: MetadataOption[] }> {
  return Object.entries(form).map(([field, list]) => ({ field, options: optionsOf(list, scope) }));
}

/** The option of a generic list by key (for seeds): the full read shape. */
export function option(list: GenericList, key: number): MetadataOption {
  const found = GENERIC_OPTIONS[list].find((o) => o.key === key);
  if (!found) throw new Error(`reference data: ${list} has no option ${key}`);
  return { ...found };
}

function at(body: unknown, path: string[]): unknown {
  let node = body;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** At most this many options are named in a refusal when no metadata endpoint lists them. */
const OPTIONS_NAMED = 20;

/** Why a key was refused, and where the client finds the keys it may send. */
function notAnOption(field: string, options: MetadataOption[], listedBy: string | null): string {
  const refused = `The field ${field} has a key that is not one of its options in this context.`;
  if (listedBy) return `${refused} ${listedBy} lists the keys ${field} may have.`;
  if (options.length === 0) return `${refused} There are no options for it in this context.`;
  const named = options.slice(0, OPTIONS_NAMED).map((o) => `${JSON.stringify(o.key)} (${o.value})`);
  return `${refused} The options are ${named.join(', ')}${options.length > OPTIONS_NAMED ? ` and ${options.length - OPTIONS_NAMED} more` : ''}.`;
}

/**
 * Checks every metadata field of `body` (a request body of the form) against the options its
 * metadata endpoint lists in the scope, and returns a copy of the body in which each metadata
 * object carries its option's read shape ({key, value, isoCode, ...}). A key that is not an
 * option is refused with a 400 BrokenBusinessRule naming the field (all such fields at once)
 * and `listedBy`, the activity whose answer lists its options (without one, the options
 * themselves); `prefix` is put before the field names when the form is part of a larger body.
 */
export function checkMetadataKeys<T>(form: MetadataForm, scope: MetadataScope, body: T, listedBy: string | null, prefix = ''): T {
  const copy = structuredClone(body);
  const refused: Array<{ field: string; options: MetadataOption[] }> = [];
  for (const [field, list] of Object.entries(form)) {
    const path = field.split('.');
    const value = at(copy, path);
    if (value === null || value === undefined || typeof value !== 'object' || !('key' in value)) continue;
    const key = (value as { key: unknown }).key;
    const options = optionsOf(list, scope);
    const found = options.find((o) => o.key === key || (typeof o.key === 'string' && typeof key === 'string' && o.key.toLowerCase() === key.toLowerCase()));
    if (!found) {
      refused.push({ field: prefix ? `${prefix}.${field}` : field, options });
      continue;
    }
    const parent = at(copy, path.slice(0, -1)) as Record<string, unknown>;
    parent[path[path.length - 1] as string] = { ...found };
  }
  if (refused.length > 0) throw new SandboxError(400, refused.map(({ field, options }) => message(400, notAnOption(field, options, listedBy), [field])));
  return copy;
}
