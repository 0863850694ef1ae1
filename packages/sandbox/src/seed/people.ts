// The people side of the seed: employees and their employments across the organisation seed's
// employers and administrations, with the employments' dated records (working hours, wage,
// organizational entity, social security, fiscal properties) and payments. Deterministic: a
// fixed pseudo-random sequence, so the same code gives the same data. The data is Dutch and
// passes its checks: citizen service numbers pass the 11-test, IBANs mod-97, postal codes read
// `1234 AB`. Metadata objects come from the reference data (what the metadata endpoints offer).
//
// Some employments have processed payroll results (internal field processedPayrollResults), so
// that delete refusals arise from data; the journal seed's allocations and payroll period data
// sit on employments of their payroll administrations (internal fields journalAllocation and
// payrollPeriodData). PEOPLE_IDS names the employees and employments the scenarios and samples use.
import { concat, crc32, toBase64, utf8, zlibStored } from '../util/bytes.js';
import type { Doc } from '../store/types.js';
import { COLLECTIONS, SECTIONS, computeEmployee, newSectionRecord, type SectionRecord } from '../domain/employments/model.js';
import { employmentDoc, FISCAL_DEFAULTS } from '../domain/employments/new-employee.js';
import { addDays, addRecord } from '../domain/employments/date-chain.js';
import { SELF_SERVICE_STATUS } from '../domain/employments/person.js';
import { citizenServiceNumber, Dice, FEMALE, iban, initialsOf, MALE, PLACES, postalCode, SURNAMES } from './dutch-data.js';
import { SEED_IDS } from './ids.js';
import { EMPLOYMENT_JOURNAL_ALLOCATIONS, EMPLOYMENT_PAYROLL_PERIOD_DATA, type EmploymentJournalUse } from './journal.js';
import { MODULES, organisationSeed } from './organisation.js';
import { option, optionsOf, ORG_COLLECTIONS, seedUuid, type MetadataOption, type MetadataScope } from '../domain/reference-data.js';

const id = (name: string): string => seedUuid(`people:${name}`);

/** Employees and employments the scenarios, tests and samples address. */
export const PEOPLE_IDS = {
  /** The README employer's long-serving employee: active, with processed payroll results (deleting the employment is refused), a wage history and a photo. */
  employee: id('employee:anouk-bakker'),
  employment: id('employment:anouk-bakker'),
  /** A new hire of the README employer starting on 2027-01-01: no payroll processed yet, the person's only employment (deleting it deletes the person). */
  newHireEmployee: id('employee:daan-smit'),
  newHireEmployment: id('employment:daan-smit'),
  /** One person with two employments at the README employer: a payroll one (with results) and a non-payroll one (without). */
  twoEmploymentsEmployee: id('employee:fatima-el-idrissi'),
  twoEmploymentsPayroll: id('employment:fatima-el-idrissi:payroll'),
  twoEmploymentsNonPayroll: id('employment:fatima-el-idrissi:hr'),
  /** Ended on 2025-06-30 (end of a fixed-term contract): terminate again to revise, reinstate to reverse. */
  endedEmployee: id('employee:bas-van-leeuwen'),
  endedEmployment: id('employment:bas-van-leeuwen'),
  /** An active employment at the employer without the employment-notification module. */
  noNotificationModuleEmployee: id('employee:ingrid-hoekstra'),
  noNotificationModuleEmployment: id('employment:ingrid-hoekstra'),
  /** Has self-service access, to be revoked on 2027-01-31. */
  selfServiceEmployee: id('employee:sven-mulder'),
  selfServiceEmployment: id('employment:sven-mulder'),
} as const;

/** The last payroll period the seed's payroll results were processed up to. */
const PROCESSED_UNTIL = '2026-10-31';

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = type.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

const avatars = new Map<string, string>();

/** A 64×64 png avatar: a light disc on a coloured square (base64), deterministic per colour. */
export function avatar(colour: [number, number, number]): string {
  const key = colour.join(',');
  let png = avatars.get(key);
  if (png === undefined) {
    png = drawAvatar(colour);
    avatars.set(key, png);
  }
  return png;
}

function drawAvatar(colour: [number, number, number]): string {
  const size = 64;
  const pixels = new Uint8Array(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) {
      const inside = (x - 31.5) ** 2 + (y - 26) ** 2 < 14 ** 2 || ((x - 31.5) ** 2) / 24 ** 2 + ((y - 64) ** 2) / 22 ** 2 < 1;
      const at = row + 1 + x * 3;
      pixels[at] = inside ? 240 : colour[0];
      pixels[at + 1] = inside ? 240 : colour[1];
      pixels[at + 2] = inside ? 240 : colour[2];
    }
  }
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, size);
  new DataView(header.buffer).setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return toBase64(concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', zlibStored(pixels)), pngChunk('IEND', new Uint8Array(0))]));
}

const AVATAR_COLOURS: Array<[number, number, number]> = [
  [31, 78, 121],
  [84, 130, 53],
  [197, 90, 17],
  [112, 48, 160],
  [46, 117, 182],
];

// ---- building -------------------------------------------------------------------------------

interface PersonPlan {
  key: string;
  employer: Doc;
  employments: EmploymentPlan[];
  gender?: 1 | 2;
  firstName?: string;
  surname?: [string, string];
  dateOfBirth?: string;
  photo?: boolean;
  selfService?: { revokeOn: string | null; blocked?: boolean } | null;
}

export interface EmploymentPlan {
  key: string;
  administration: Doc;
  startDate: string;
  endDate?: string | null;
  /** Reason keys (endOfEmploymentReasonTaxAuthorities) for an ended employment. */
  reasonTaxAuthorities?: number;
  wageRaises?: number;
  journal?: { allocation?: EmploymentJournalUse; periodData?: EmploymentJournalUse };
  forceNoResults?: boolean;
}

function monthsProcessed(plan: EmploymentPlan): number {
  if (plan.forceNoResults || plan.administration.isPayrollAdministration !== true || plan.startDate > PROCESSED_UNTIL) return 0;
  const until = plan.endDate && plan.endDate < PROCESSED_UNTIL ? plan.endDate : PROCESSED_UNTIL;
  const [y1, m1] = plan.startDate.split('-').map(Number) as [number, number];
  const [y2, m2] = until.split('-').map(Number) as [number, number];
  return (y2 - y1) * 12 + (m2 - m1) + 1;
}

const period = (year: number, periodNumber: number, fourWeekly: boolean) => {
  const start = fourWeekly ? addDays(`${year}-01-01`, (periodNumber - 1) * 28) : `${year}-${String(periodNumber).padStart(2, '0')}-01`;
  const end = fourWeekly ? addDays(start, 27) : addDays(periodNumber === 12 ? `${year + 1}-01-01` : `${year}-${String(periodNumber + 1).padStart(2, '0')}-01`, -1);
  return { year, periodNumber, periodStartDate: start, periodEndDate: end };
};

/** A coded reference in its read shape: the display value is the description, as for departments. */
const withValue = (ref: EmploymentJournalUse['costCenter']) => (ref ? { key: ref.key, value: ref.description, code: ref.code, description: ref.description } : null);

function journalAllocation(use: EmploymentJournalUse, administration: Doc): Doc {
  const fourWeekly = administration.payrollPeriodType === 2;
  const start = period(2025, 1, fourWeekly);
  return {
    id: id(`journalAllocation:${use.journalProfile.id}:${administration.id}`),
    journalProfileConfiguration: {
      id: id(`journalProfileConfiguration:${use.journalProfile.id}`),
      startPeriod: start,
      endPeriod: null,
      journalProfile: { key: use.journalProfile.id, value: use.journalProfile.description },
    },
    startPeriod: start,
    endPeriod: null,
    allocationBasedOnActualHours: { costCenter: withValue(use.costCenter), costUnit: withValue(use.costUnit) },
    allocationBasedOnFixedWeights: [],
  };
}

function payrollPeriodData(use: EmploymentJournalUse, administration: Doc): Doc[] {
  const fourWeekly = administration.payrollPeriodType === 2;
  return [
    {
      id: id(`payrollPeriodData:${use.journalProfile.id}`),
      payrollPeriod: period(2026, 10, fourWeekly),
      shift: { shiftNumber: 1 },
      payslipType: option('payslipType', 1),
      payslipText: null,
      distributionUnit: null,
      costCenter: use.costCenter ? { key: use.costCenter.key } : null,
      costUnit: use.costUnit ? { key: use.costUnit.key } : null,
      payrollComponents: [],
    },
  ];
}

interface Built {
  employees: Doc[];
  photos: Doc[];
  employments: Doc[];
  records: Doc[];
}

export function scopeOf(employer: Doc, administrations: Doc[]): MetadataScope {
  return { employer, administration: null, administrations: administrations.filter((a) => a.employerId === employer.id) };
}

/** What a person is made from: the seed's plans, and the fixtures' overrides. */
export type PersonInit = Omit<PersonPlan, 'key' | 'employments' | 'photo'> & { id: string; employeeNumber: number };

/** A stored employee doc with generated Dutch data, and what its employments reuse (the place, the first name). */
export function personDoc(plan: PersonInit, d: Dice, taken: Set<string>): { person: Doc; firstName: string; city: string } {
  const gender = plan.gender ?? (d.chance(0.5) ? 1 : 2);
  const firstName = plan.firstName ?? d.pick(gender === 1 ? MALE : FEMALE);
  const [prefix, lastName] = plan.surname ?? d.pick(SURNAMES);
  const married = d.chance(0.35);
  const [prefixPartner, lastNamePartner] = married ? d.pick(SURNAMES) : ['', ''];
  const place = d.pick(PLACES);
  const dateOfBirth = plan.dateOfBirth ?? d.date('1960-01-01', '2004-12-31');
  const initials = initialsOf(firstName, d.chance(0.3) ? d.pick(['J', 'M', 'A', 'H', 'C', 'P']) : null);
  const selfServiceModule = ((plan.employer.modules as string[] | undefined) ?? []).includes(MODULES.employeeSelfService);
  const selfService = plan.selfService === undefined ? (selfServiceModule && d.chance(0.6) ? { revokeOn: null } : null) : plan.selfService;
  const mobile = `06 ${d.digits(2)} ${d.digits(2)} ${d.digits(2)} ${d.digits(2)}`;
  const email = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
  const person = computeEmployee({
    id: plan.id,
    employerId: plan.employer.id,
    employeeNumber: plan.employeeNumber,
    personalDetails: {
      firstName,
      lastName,
      prefix,
      initials,
      lastNamePartner,
      prefixPartner,
      dateOfBirth,
      placeOfBirth: d.pick(PLACES).city,
      howToFormatLastName: option('howToFormatLastName', married && gender === 2 ? d.pick([1, 2, 3, 4]) : 1),
      title: option('title', gender === 1 ? 1 : 2),
      nationality: option('nationality', d.chance(0.85) ? 1 : d.int(2, 8)),
      gender: option('gender', gender),
      civilStatus: option('civilStatus', married ? 2 : 1),
    },
    contactInformation: {
      phoneNumber: `${place.phone} ${d.digits(3)} ${d.digits(2)} ${d.digits(2)}`,
      mobilePhoneNumber: mobile,
      faxNumber: '',
      businessPhoneNumber: '',
      businessMobilePhoneNumber: '',
      businessEmailAddress: '',
    },
    identityDocument: { typeOfDocument: option('typeOfDocument', d.pick([1, 2])), documentIdentification: `N${d.pick(['P', 'R', 'W'])}${d.digits(7)}` },
    travel: (() => {
      const km = d.int(1, 45);
      return { travelDistanceToWork: km, travelDistanceToWorkInKm: km - 0.2 };
    })(),
    address: {
      street: d.pick(place.streets),
      houseNumber: d.int(1, 240),
      houseNumberAddition: d.chance(0.15) ? d.pick(['A', 'B', 'bis', '2']) : '',
      postalCode: postalCode(d, place.postal),
      city: place.city,
      location: '',
      country: option('country', 1),
    },
    deviatingPostalAddress: null,
    exclusionFromAbsenceStatus: false,
    statusEmployeeSelfService: { ...(selfService ? SELF_SERVICE_STATUS.hasAccess : SELF_SERVICE_STATUS.noAccess) },
    revokeEmployeeSelfServiceAccessOn: selfService?.revokeOn ?? null,
    citizenServiceNumber: citizenServiceNumber(d, taken),
    emailAddress: `${email}@${d.pick(['gmail.com', 'hotmail.com', 'ziggo.nl', 'kpnmail.nl', 'outlook.com'])}`,
    selfServiceBlocked: selfService?.blocked === true,
    hasTwoFactorAuthentication: selfService ? d.chance(0.5) : false,
  });
  return { person, firstName, city: place.city };
}

/** An employment ended on `endDate` for a reason (reason keys of endOfEmploymentReasonTaxAuthorities). */
export function endEmployment(employment: Doc, endDate: string, reasonTaxAuthorities = 5): void {
  employment.endDate = endDate;
  employment.endOfEmploymentReason = option('endOfEmploymentReason', 8);
  employment.endOfEmploymentReasonTaxAuthorities = option('endOfEmploymentReasonTaxAuthorities', reasonTaxAuthorities);
  employment.endOfEmploymentDueToIllness = false;
}

function buildPerson(plan: PersonPlan, index: number, d: Dice, administrations: Doc[], taken: Set<string>, out: Built): void {
  const employeeId = id(`employee:${plan.key}`);
  const { person, firstName, city } = personDoc({ ...plan, id: employeeId, employeeNumber: 1000 + index }, d, taken);
  out.employees.push(person);
  if (plan.photo) out.photos.push({ id: employeeId, data: avatar(d.pick(AVATAR_COLOURS)), mimeType: 'image/png' });

  const bank = iban(d);
  for (const [n, ep] of plan.employments.entries()) {
    const employment = employmentDoc({
      id: id(`employment:${ep.key}`),
      employee: person,
      administration: ep.administration,
      startDate: ep.startDate,
      endDate: ep.endDate ?? null,
      payrollId: 1000 + index * 2 + n,
      fields: {
        historicalStartDate: plan.employments[0]!.startDate,
        incomeRelationshipNumber: n + 1,
        employmentDurationType: option('employmentDurationType', ep.endDate && (ep.reasonTaxAuthorities === undefined || ep.reasonTaxAuthorities === 5) ? 1 : 2),
        startDateContractOfIndefiniteDuration: ep.endDate ? null : ep.startDate,
        employmentContractType: option('employmentContractType', 1),
        namePayslip: `${person.personalDetails && (person.personalDetails as { formattedName: string }).formattedName}`.slice(0, 34),
        cancellationPeriodTimeUnit: option('cancellationPeriodTimeUnit', 3),
        cancellationPeriodEmployee: 1,
        cancellationPeriodEmployer: d.pick([1, 2, 3]),
        // A second employment running alongside the first is a secondary one (Nevendienstverband).
        employmentCategoryType: option('employmentCategoryType', n > 0 && !(plan.employments[0]!.endDate && plan.employments[0]!.endDate < ep.startDate) ? 2 : 1),
      },
    });
    if (ep.endDate) endEmployment(employment, ep.endDate, ep.reasonTaxAuthorities);
    employment.processedPayrollResults = monthsProcessed(ep);
    if (ep.journal?.allocation) employment.journalAllocation = journalAllocation(ep.journal.allocation, ep.administration);
    if (ep.journal?.periodData) employment.payrollPeriodData = payrollPeriodData(ep.journal.periodData, ep.administration);
    out.employments.push(employment);
    out.records.push(...sectionRecords(employment, ep, d, scopeOf(plan.employer, administrations), bank, firstName, city));
  }
}

/** The shifts of each collective agreement: number, full-time hours per week and shift bonus. */
const SHIFTS: Record<string, Array<{ shiftNumber: number; fullTimeHoursPerWeek: number; bonusPercentage: number }>> = {
  construction: [{ shiftNumber: 1, fullTimeHoursPerWeek: 40, bonusPercentage: 0 }],
  // The early bake (vroege dienst).
  bakery: [{ shiftNumber: 1, fullTimeHoursPerWeek: 38, bonusPercentage: 0 }, { shiftNumber: 2, fullTimeHoursPerWeek: 38, bonusPercentage: 15 }],
  // Evening and night shifts (onregelmatigheidstoeslag).
  care: [{ shiftNumber: 1, fullTimeHoursPerWeek: 36, bonusPercentage: 0 }, { shiftNumber: 2, fullTimeHoursPerWeek: 36, bonusPercentage: 22 }],
};

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** A part-timer's pattern: whole days of equal hours from Monday, or from Tuesday in even weeks when it alternates. */
function workPattern(hours: number, alternating: boolean): { days: number; weeks: Record<string, Record<string, number>> } {
  const days = Math.min(5, Math.ceil(hours / 8));
  const perDay = Math.round((hours / days) * 100) / 100;
  const week = (from: number) => Object.fromEntries(WEEKDAYS.map((day, i) => [day, i >= from && i < from + days ? perDay : 0]));
  return { days, weeks: { oddWeeks: week(0), evenWeeks: week(alternating && days < 5 ? 1 : 0) } };
}

/** The contract code each agreement has for a number of hours a week: full-time, or its part-time code. */
const CONTRACT_CODES: Record<string, (hours: number) => number | null> = {
  construction: (h) => (h >= 40 ? 1 : h === 32 ? 2 : null),
  bakery: (h) => (h >= 38 ? 1 : null),
  care: (h) => (h >= 36 ? 1 : h === 24 ? 2 : null),
};

/** The contract code of the working hours, where the agreement has one for these hours. */
function contractCode(agreement: string, hours: number, scope: MetadataScope): MetadataOption | null {
  const code = CONTRACT_CODES[agreement]?.(hours) ?? null;
  const found = code === null ? undefined : optionsOf('contractCode', scope).find((o) => o.code === code);
  return found ? { ...found } : null;
}

/** The standard function classification of an employer's function, where one fits. */
const STANDARD_FUNCTIONS: Record<string, number> = {
  Timmerman: 1,
  Elektromonteur: 2,
  Servicemonteur: 2,
  Broodbakker: 3,
  Banketbakker: 3,
  'Verzorgende IG': 4,
  'Administratief medewerker': 5,
};

/** A department or distribution unit in its read shape. */
const coded = (o: MetadataOption) => ({ key: o.key, value: o.value, code: o.code, description: o.description });

/** A secondary employment: the wage tax credit is applied at the main job, a fixed percentage on special rewards here. */
const SECOND_JOB: Record<string, unknown> = {
  applyPayrollTaxDeduction: false,
  deviatingTaxTableCode: option('deviatingTaxTableCode', 3),
  deviatingPayrollTaxPercentage: 36.97,
  applyDeviatingPayrollTaxPercentageOn: option('applyDeviatingPayrollTaxPercentageOn', 2),
  deviatingCalculationRulePayrollTax: option('deviatingCalculationRulePayrollTax', 3),
};

/** The fiscal situations a share of the main employments has. */
const FISCAL_DEVIATIONS: Array<Record<string, unknown>> = [
  // Lives in Belgium and works there part of the time: the salary is split.
  { residentOf: option('residentOf', 2), applySalarysplit: option('applySalarysplit', 1), percentageForeignIncome: 20 },
  // Recruited from abroad, with the 30% ruling.
  { thirtyPercentFacility: option('thirtyPercentFacility', 2) },
  { thirtyPercentFacility: option('thirtyPercentFacility', 3), deviatingPercentageThirtyPercentFacility: 27 },
  // Learning on the job (BBL).
  { contributionReductionEducation: option('contributionReductionEducation', 2), applyStudentDeduction: true },
  // A wage with a Wajong benefit in it.
  { doesWageIncludeWajong: true },
  // A loan from the employer.
  { hasEmployeeLoan: true },
];

export function sectionRecords(employment: Doc, ep: EmploymentPlan, d: Dice, scope: MetadataScope, bank: { iban: string; bic: string }, firstName: string, city: string): Doc[] {
  const records: SectionRecord[] = [];
  const add = (section: string, input: Record<string, unknown>, n = 0) => records.push(newSectionRecord(id(`record:${employment.id}:${section}:${n}`), employment, section, input));
  const start = ep.startDate;
  const end = ep.endDate ?? null;
  const payroll = ep.administration.isPayrollAdministration === true;
  const hours = d.pick([16, 24, 28, 32, 36, 38, 40]);
  // What the seed adds beyond its first data draws from a dice of its own per employment, so
  // that the people and employments drawn before stay as they were.
  const x = new Dice(crc32(utf8(employment.id)));
  const agreement = payroll ? (ep.administration.collectiveLaborAgreement as string | null) : null;
  const shifts = agreement ? SHIFTS[agreement] : undefined;
  const shift = shifts ? { ...(shifts.length > 1 && x.chance(0.3) ? shifts[1]! : shifts[0]!) } : { shiftNumber: 1, fullTimeHoursPerWeek: null, bonusPercentage: null };
  const pattern = shifts && hours < shift.fullTimeHoursPerWeek! && x.chance(0.6) ? workPattern(hours, x.chance(0.5)) : null;
  const fourWeekly = ep.administration.payrollPeriodType === 2;
  add('workinghours', {
    startDate: start,
    shift,
    deviatingHoursPerWeek: hours,
    averageHoursPerWeek: hours,
    // Four days a week counted as social security days of their own.
    deviatingSvDaysPerPeriod: pattern?.days === 4 && x.chance(0.5) ? (fourWeekly ? 16 : 17.4) : null,
    averageParttimeFactor: Math.round((hours / 40) * 10000) / 100,
    regularWorkPattern: true,
    // A shift bonus that goes on during sick leave.
    shiftRateSickLeave: shift.bonusPercentage ? (x.chance(0.5) ? { ...shift } : null) : null,
    flexibleHoursContract: option('flexibleHoursContract', 1),
    workPattern: pattern?.weeks ?? null,
    calculateUsingWorkPattern: { leaveHours: pattern !== null, hoursBrokenPeriod: false, hoursRegularPeriod: false, daysDailyRate: false, deviatingDaysAndHours: false },
    contractCode: agreement ? contractCode(agreement, hours, { ...scope, administration: ep.administration }) : null,
    aggregatedHoursPerWeek: hours,
  });
  const fn = optionsOf('function', scope);
  const department = optionsOf('department', scope);
  const unit = optionsOf('distributionUnit', scope);
  const pickFn = fn.length > 0 ? d.pick(fn) : null;
  const pickDept = department.length > 0 ? d.pick(department) : null;
  const pickUnit = unit.length > 0 ? d.pick(unit) : null;
  const standardFunction = pickFn ? STANDARD_FUNCTIONS[pickFn.value] : undefined;
  add('organizationalEntity', {
    startDate: start,
    function: pickFn ? { key: pickFn.key, value: pickFn.value, description: pickFn.description, group: pickFn.group } : null,
    deviatingFunctionGroup: null,
    deviatingFunctionDescription: null,
    standardFunction: standardFunction === undefined ? null : option('standardFunction', standardFunction),
    department: pickDept ? coded(pickDept) : null,
    distributionUnit: pickUnit ? coded(pickUnit) : null,
    placeOfEmployment: city,
    internalTelephoneExtensionNumber: d.digits(3),
  });
  if (payroll) {
    // A linked wage chain: a raise every 1 January after the start, while employed; each raise
    // is appended as the chain rules do it (closing the previous record the day before).
    let wage = d.int(2300, 4800);
    let from = start;
    let chain: SectionRecord[] = [];
    const raises = ep.wageRaises ?? d.int(0, 2);
    for (let n = 0; n <= raises && (end === null || from <= end) && from <= '2026-01-01'; n++) {
      const record = newSectionRecord(id(`record:${employment.id}:wage:${n}`), employment, 'wage', {
        startDate: from,
        payrollPeriodType: option('payrollPeriodType', ep.administration.payrollPeriodType === 2 ? 2 : 1),
        grossWage: wage,
        grossWageType: option('grossWageType', 1),
        isGrossWageFullTime: true,
        netWage: null,
        netWageType: null,
        employerCosts: null,
        employerCostsType: null,
        payScale: null,
        payGrade: null,
        applyPayGrade: false,
      });
      chain = addRecord(chain, record, SECTIONS.wage!.chain);
      from = `${Number(from.slice(0, 4)) + 1}-01-01`;
      wage = Math.round(wage * 1.035);
    }
    records.push(...chain);
    add('socialSecurityConfiguration', { startDate: start, isInsuredForSicknessBenefitsAct: true, isInsuredForUnemploymentInsuranceAct: true, isInsuredForOccupationalDisabilityInsuranceAct: true });
    const secondary = (employment.employmentCategoryType as { key?: number } | undefined)?.key === 2;
    const site = agreement === 'construction' && ['Timmerman', 'Uitvoerder'].includes(String(pickFn?.value));
    add('fiscalProperties', {
      startDate: start,
      ...FISCAL_DEFAULTS,
      // Builders go to the site in the company's van.
      ...(site && x.chance(0.5) ? { usesTransportByWithholdingAgent: true } : {}),
      ...(secondary ? SECOND_JOB : x.chance(0.15) ? x.pick(FISCAL_DEVIATIONS) : {}),
    });
    add('paymentInformationSepa', { payrollComponent: { key: 1, value: 'Netto loon' }, iban: bank.iban, bic: bank.bic, visibleOnPayslip: true, nameBeneficiary: firstName, cityBeneficiary: city, description1: 'Salaris', description2: '' });
  }
  // An ended employment's records end with it; reinstating reopens them.
  return records.map((r) => (end && (r.endDate === null || r.endDate > end) && r.section !== 'paymentInformationSepa' ? { ...r, endDate: end, endBeforeTermination: r.endDate } : r)) as unknown as Doc[];
}

/** How many generated people each employer gets, in the organisation seed's employer order. */
const PEOPLE_PER_EMPLOYER = [34, 18, 10, 26, 24];

function plans(employers: Doc[], administrations: Doc[], d: Dice): PersonPlan[] {
  const adminsOf = (employer: Doc) => administrations.filter((a) => a.employerId === employer.id);
  const readme = employers.find((e) => e.id === SEED_IDS.employer)!;
  const readmePayroll = adminsOf(readme).find((a) => a.isPayrollAdministration === true && !a.endDate)!;
  const readmeHr = adminsOf(readme).find((a) => a.isPayrollAdministration !== true)!;
  const withoutNotifications = employers.find((e) => !((e.modules as string[] | undefined) ?? []).includes(MODULES.employmentNotification) && adminsOf(e).some((a) => a.isPayrollAdministration === true && !a.endDate))!;
  const activePayroll = (e: Doc) => adminsOf(e).find((a) => a.isPayrollAdministration === true && !a.endDate);

  const out: PersonPlan[] = [
    { key: 'anouk-bakker', employer: readme, gender: 2, firstName: 'Anouk', surname: ['', 'Bakker'], dateOfBirth: '1974-03-12', photo: true, employments: [{ key: 'anouk-bakker', administration: readmePayroll, startDate: '2016-04-01', wageRaises: 4 }] },
    { key: 'daan-smit', employer: readme, gender: 1, firstName: 'Daan', surname: ['', 'Smit'], dateOfBirth: '1999-09-21', employments: [{ key: 'daan-smit', administration: readmePayroll, startDate: '2027-01-01', forceNoResults: true }] },
    {
      key: 'fatima-el-idrissi', employer: readme, gender: 2, firstName: 'Fatima', surname: ['', 'El Idrissi'], dateOfBirth: '1987-06-05', photo: true,
      employments: [
        { key: 'fatima-el-idrissi:payroll', administration: readmePayroll, startDate: '2019-09-01' },
        { key: 'fatima-el-idrissi:hr', administration: readmeHr, startDate: '2021-02-01' },
      ],
    },
    { key: 'bas-van-leeuwen', employer: readme, gender: 1, firstName: 'Bas', surname: ['van', 'Leeuwen'], dateOfBirth: '1992-11-30', employments: [{ key: 'bas-van-leeuwen', administration: readmePayroll, startDate: '2023-07-01', endDate: '2025-06-30', reasonTaxAuthorities: 5 }] },
    { key: 'ingrid-hoekstra', employer: withoutNotifications, gender: 2, firstName: 'Ingrid', surname: ['', 'Hoekstra'], dateOfBirth: '1968-01-17', employments: [{ key: 'ingrid-hoekstra', administration: activePayroll(withoutNotifications)!, startDate: '2011-05-01' }] },
    { key: 'sven-mulder', employer: readme, gender: 1, firstName: 'Sven', surname: ['', 'Mulder'], dateOfBirth: '1995-02-08', selfService: { revokeOn: '2027-01-31' }, employments: [{ key: 'sven-mulder', administration: readmePayroll, startDate: '2020-03-01' }] },
  ];

  const allocations = [...EMPLOYMENT_JOURNAL_ALLOCATIONS];
  const periodData = [...EMPLOYMENT_PAYROLL_PERIOD_DATA];
  for (const [e, employer] of employers.entries()) {
    const admins = adminsOf(employer);
    const payroll = admins.filter((a) => a.isPayrollAdministration === true);
    const nonPayroll = admins.filter((a) => a.isPayrollAdministration !== true);
    for (let i = 0; i < (PEOPLE_PER_EMPLOYER[e] ?? 12); i++) {
      const key = `${employer.employerNumber as number}-${i + 1}`;
      const administration = nonPayroll.length > 0 && d.chance(0.1) ? d.pick(nonPayroll) : payroll.length > 0 ? d.pick(payroll) : d.pick(admins);
      const adminStart = (administration.startDate as string | null) ?? '2010-01-01';
      const adminEnd = (administration.endDate as string | undefined) ?? null;
      const startDate = d.date(adminStart > '2012-01-01' ? adminStart : '2012-01-01', adminEnd ?? '2026-09-01');
      const ends = adminEnd !== null || d.chance(0.15);
      const endDate = ends ? (adminEnd && d.chance(0.6) ? adminEnd : d.date(addDays(startDate, 180), adminEnd ?? '2026-06-30')) : d.chance(0.05) ? '2027-06-30' : null;
      const employments: EmploymentPlan[] = [{ key: `${key}:1`, administration, startDate, endDate: endDate && endDate >= startDate ? endDate : null, reasonTaxAuthorities: ends ? d.pick([1, 2, 3, 5]) : undefined }];
      // Some people have a second employment: rehired after an earlier one ended, or alongside it.
      if (i % 9 === 4) {
        const first = employments[0]!;
        const other = first.endDate && first.endDate < '2026-01-01' && payroll.some((a) => !a.endDate)
          ? { administration: payroll.find((a) => !a.endDate)!, startDate: addDays(first.endDate, d.int(30, 200)) }
          : nonPayroll.length > 0 ? { administration: nonPayroll[0]!, startDate: d.date(first.startDate, '2026-09-01') } : null;
        if (other) employments.push({ key: `${key}:2`, ...other });
      }
      const main = employments[0]!;
      if (main.administration.isPayrollAdministration === true && !main.endDate) {
        const allocation = allocations[0]?.payrollAdministrationId === main.administration.id ? allocations.shift() : undefined;
        const data = !allocation && periodData[0]?.payrollAdministrationId === main.administration.id ? periodData.shift() : undefined;
        if (allocation || data) main.journal = { allocation, periodData: data };
      }
      out.push({ key, employer, employments, photo: i % 8 === 3 });
    }
  }
  if (allocations.length > 0 || periodData.length > 0) throw new Error('people seed: not every journal use found an employment in its payroll administration');
  return out;
}

/** The people seed: employees, photos, employments and their section records. */
export function peopleSeed(): Record<string, Doc[]> {
  const org = organisationSeed();
  const employers = org[ORG_COLLECTIONS.employers] ?? [];
  const administrations = org[ORG_COLLECTIONS.administrations] ?? [];
  const d = new Dice(20_260_101);
  const built: Built = { employees: [], photos: [], employments: [], records: [] };
  const taken = new Set<string>();
  for (const [index, plan] of plans(employers, administrations, d).entries()) buildPerson(plan, index + 1, d, administrations, taken, built);
  return {
    [COLLECTIONS.employees]: built.employees,
    [COLLECTIONS.employeePhotos]: built.photos,
    [COLLECTIONS.employments]: built.employments,
    [COLLECTIONS.employmentRecords]: built.records,
    [COLLECTIONS.employmentNotifications]: [],
  };
}
