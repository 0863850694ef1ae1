// How employees, employments and the employments' section records are stored, and how a stored
// doc becomes the shapes the operations answer. Shared by resources/employees.ts,
// resources/employments.ts, the comprehensive view and the people seed.
import { UniqueViolation, type Doc, type Tx, type UniqueRule } from '../../store/types.js';
import type { BoundFilter, FieldInfo } from '../../filter/tree.js';
import { SandboxError } from '../context.js';
import { message, type Message } from '../../http/errors.js';
import { aowDate, formattedName, isValidCitizenServiceNumber, fullLastName, revocationDue, SELF_SERVICE_STATUS, type NameParts } from './person.js';
import type { ChainKind, ChainRecord } from './date-chain.js';
import { ORG_COLLECTIONS } from '../reference-data.js';

/**
 * Journal allocations and payroll period data are stored on the employment doc itself
 * (internal fields `journalAllocation` and `payrollPeriodData`, whose costCenter/costUnit keys
 * are the journal seed's ids), where the journal rules look for uses of cost centers and units.
 */
export const COLLECTIONS = {
  employees: 'employees',
  employeePhotos: 'employeePhotos',
  employments: 'employments',
  /** The dated (and undated) records of an employment's sections: wage, working hours, ... */
  employmentRecords: 'employmentRecords',
  /** Draft employment-ended notifications (createMdvEntry); internal, seen in snapshots. */
  employmentNotifications: 'employmentNotifications',
} as const;

/** employeeNumber is unique within an employer (contract §2.7), decided by the store. */
export const EMPLOYEE_NUMBER_RULE: UniqueRule = { name: 'employeeNumber-per-employer', fields: ['employerId', 'employeeNumber'] };

/** Fields stored on docs that no answer shows. */
const EMPLOYEE_INTERNAL = ['employerId', 'citizenServiceNumber', 'emailAddress', 'selfServiceBlocked', 'hasTwoFactorAuthentication'] as const;
const EMPLOYMENT_INTERNAL = ['employerId', 'employeeId', 'processedPayrollResults', 'journalAllocation', 'payrollPeriodData'] as const;

export const field = (path: string[], type: FieldInfo['type'] = 'string'): FieldInfo => ({ path, type });
export const whereIn = (path: string[], values: (string | number)[]): BoundFilter => ({ kind: 'in', field: field(path), values });
export const and = (left: BoundFilter, right: BoundFilter | undefined): BoundFilter => (right ? { kind: 'and', left, right } : left);

/** A BrokenBusinessRule refusal naming the field. */
export function refuse(description: string, property: string): SandboxError {
  return new SandboxError(400, [message(400, description, [property])]);
}

/** The employer of a path's employerId, or 404. */
export async function mustGetEmployer(tx: Tx, employerId: string): Promise<Doc> {
  return mustGet(tx, ORG_COLLECTIONS.employers, employerId);
}

/** A 404 unless the employer of a path's employerId is there; for a check that needs none of its fields. */
export function mustHaveEmployer(tx: Tx, employerId: string): Promise<void> {
  return mustHave(tx, ORG_COLLECTIONS.employers, employerId);
}

export async function mustGet(tx: Tx, collection: string, id: string): Promise<Doc> {
  const doc = await tx.get(collection, id);
  if (!doc) throw new SandboxError(404);
  return doc;
}

/** A 404 unless the doc is there, without a copy of it where the store can tell (`Tx.has`). */
export async function mustHave(tx: Tx, collection: string, id: string): Promise<void> {
  const there = tx.has ? await tx.has(collection, id) : (await tx.get(collection, id)) !== undefined;
  if (!there) throw new SandboxError(404);
}

/** A shallow copy of the doc without `keys`. Built key by key: deleting from a copy would turn it
 * into a slow dictionary object, which every list answer then has to serialize. */
export function omit(doc: Doc, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (!keys.includes(key)) out[key] = doc[key];
  return out;
}

// ---- employees --------------------------------------------------------------------------

/** The problem of a citizen service number that is not 9 digits passing the 11-test (none for none given); `property` names it. */
export function citizenServiceNumberProblems(value: unknown, property: string): Message[] {
  if (value === null || value === undefined || (typeof value === 'string' && isValidCitizenServiceNumber(value))) return [];
  return [message(400, 'The citizen service number must be exactly 9 digits and pass the 11-test.', [property])];
}

/** Refuses a citizen service number that is not 9 digits passing the 11-test; `property` names it in the 400. */
export function checkCitizenServiceNumber(value: unknown, property: string): void {
  const problems = citizenServiceNumberProblems(value, property);
  if (problems.length > 0) throw new SandboxError(400, problems);
}

/** Runs a write whose unique employee number the store decides; a clash becomes a 400 naming the number. */
export async function withUniqueEmployeeNumber<T>(property: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueViolation && error.rule === EMPLOYEE_NUMBER_RULE.name) {
      throw refuse('The employee number is already used by another employee of this employer.', property);
    }
    throw error;
  }
}

type PersonalDetails = NameParts & { dateOfBirth?: string; formattedName?: string; aowDate?: string } & Record<string, unknown>;

/** The read-only fields of an employee, computed at write time (formattedName, aowDate). */
export function computeEmployee(doc: Doc): Doc {
  const pd = { ...((doc.personalDetails as PersonalDetails | undefined) ?? {}) };
  pd.formattedName = formattedName(pd);
  if (typeof pd.dateOfBirth === 'string') pd.aowDate = aowDate(pd.dateOfBirth);
  else delete pd.aowDate;
  return { ...doc, personalDetails: pd };
}

/** Drops the read-only parts a client sent (ids, computed names, metadata values), keeping its input. */
export function inputOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inputOnly);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (['formattedName', 'aowDate', 'isoCode'].includes(k)) continue;
    // A metadata object's display value is read-only; only its key is input.
    if (k === 'value' && 'key' in (value as object)) continue;
    out[k] = inputOnly(v);
  }
  return out;
}

/** The self-service status as of `today`: blocked once the revocation date has passed, and for good after that. */
export function selfServiceStatus(doc: Doc, today: string): { key: number; value: string } {
  if (doc.selfServiceBlocked === true || revocationDue(doc.revokeEmployeeSelfServiceAccessOn as string | null, today)) return { ...SELF_SERVICE_STATUS.blocked };
  return (doc.statusEmployeeSelfService as { key: number; value: string } | undefined) ?? { ...SELF_SERVICE_STATUS.noAccess };
}

/** The employee as answered (GET, list, comprehensive). */
export function employeeView(doc: Doc, today: string): Record<string, unknown> {
  const out = omit(doc, EMPLOYEE_INTERNAL);
  out.statusEmployeeSelfService = selfServiceStatus(doc, today);
  return out;
}

/** The employee summary employments carry (stored on them, refreshed when the employee changes). */
export function employeeSummary(employee: Doc): Record<string, unknown> {
  const pd = (employee.personalDetails as PersonalDetails | undefined) ?? {};
  return {
    id: employee.id,
    employeeNumber: employee.employeeNumber,
    firstName: pd.firstName ?? null,
    initials: pd.initials ?? null,
    prefix: pd.prefix ?? null,
    lastName: pd.lastName ?? '',
    prefixPartner: pd.prefixPartner ?? null,
    lastNamePartner: pd.lastNamePartner ?? null,
    formattedName: pd.formattedName ?? formattedName(pd),
    dateOfBirth: pd.dateOfBirth,
    fullLastName: fullLastName(pd),
  };
}

// ---- employments --------------------------------------------------------------------------

const FULL_SUMMARY = ['id', 'employeeNumber', 'firstName', 'initials', 'prefix', 'lastName', 'prefixPartner', 'lastNamePartner', 'formattedName', 'dateOfBirth'];
const MINIMIZED_SUMMARY = ['id', 'employeeNumber', 'firstName', 'formattedName', 'dateOfBirth', 'fullLastName'];
const MINIMIZED_FIELDS = ['id', 'startDate', 'commissionUntilDate', 'endDate', 'payrollAdministration', 'nonPayrollAdministration', 'employmentDurationType', 'incomeRelationshipNumber', 'payrollId'];

function pick(source: Record<string, unknown> | undefined, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source && source[key] !== undefined) out[key] = source[key];
  return out;
}

/** The payroll administration as lists show it: the detail alone adds cla and wageModel (§2.6). */
const LISTED_PAYROLL_ADMINISTRATION = ['id', 'name', 'clientNumber', 'description'];

function withListedPayrollAdministration(out: Record<string, unknown>): Record<string, unknown> {
  if (out.payrollAdministration && typeof out.payrollAdministration === 'object') {
    out.payrollAdministration = pick(out.payrollAdministration as Record<string, unknown>, LISTED_PAYROLL_ADMINISTRATION);
  }
  return out;
}

/** The employment read shape of the detail (GetEmploymentByEmploymentId and the answers of its edits). */
export function employmentView(doc: Doc): Record<string, unknown> {
  const out = omit(doc, EMPLOYMENT_INTERNAL);
  out.employee = pick(doc.employee as Record<string, unknown>, FULL_SUMMARY);
  return out;
}

/** The employment read shape of the lists (and of the comprehensive list's employment section). */
export function employmentListView(doc: Doc): Record<string, unknown> {
  return withListedPayrollAdministration(employmentView(doc));
}

export function employmentMinimizedView(doc: Doc): Record<string, unknown> {
  const out = pick(doc, MINIMIZED_FIELDS);
  out.employee = pick(doc.employee as Record<string, unknown>, MINIMIZED_SUMMARY);
  return withListedPayrollAdministration(out);
}

/** The editable employment fields (PutEmploymentByEmploymentId replaces exactly these). */
export const EMPLOYMENT_EDITABLE = [
  'historicalStartDate', 'commissionUntilDate', 'typeOfEmployee', 'employmentDurationType', 'startDateContractOfIndefiniteDuration',
  'employmentContractType', 'vacationCoupons', 'sendToExternalParty', 'deviatingCLAExternalParty', 'deviatingCLATaxReturn',
  'incomeRelationshipNumber', 'employeeProfileId', 'professionCode', 'exemptionWorkRelatedExpenseScheme',
  'exemptionPremiumWaiverMarginalLabour', 'typeOfParticipation', 'valueOfParticipation', 'wachtgeldOldRegulation',
  'participation55plusRegulationUWV', 'essMutationSet', 'exemptionInsuranceObligation', 'specialIncomeRatio', 'emailLeaveRequest',
  'temporaryTaxExemption', 'periodPayGradeAdjustment', 'signalPayGradeAdjustment', 'commissionUntilDate1', 'commissionUntilDate2',
  'commissionUntilDate3', 'commissionUntilDate4', 'commissionUntilDate5', 'commissionUntilDate6', 'isDirectorAndMajorShareholder',
  'isPreviousOwner', 'isFamilyOfOwner', 'isOnCallEmployment', 'hasOnCallAppearanceObligation', 'isGemoedsbezwaardNationalInsurance',
  'isGemoedsbezwaardEmployeeInsurance', 'isAnonymousEmployee', 'cancellationPeriodEmployee', 'cancellationPeriodEmployer',
  'cancellationPeriodTimeUnit', 'cancellationNoticeDate', 'startCancellationNoticePeriod', 'namePayslip', 'calculateWorkingHours',
  'writtenEmploymentContract',
] as const;

/** Fields a nullable editable field falls back to when a PUT leaves it out. */
const EMPLOYMENT_NOT_NULLABLE = new Set(['typeOfEmployee', 'employmentDurationType', 'incomeRelationshipNumber', 'temporaryTaxExemption',
  'exemptionWorkRelatedExpenseScheme', 'exemptionPremiumWaiverMarginalLabour', 'wachtgeldOldRegulation', 'participation55plusRegulationUWV',
  'signalPayGradeAdjustment', 'isOnCallEmployment', 'isGemoedsbezwaardNationalInsurance', 'isGemoedsbezwaardEmployeeInsurance',
  'isAnonymousEmployee', 'calculateWorkingHours', 'writtenEmploymentContract']);

/** Applies a checked PUT body: each editable field takes the sent value; one left out is cleared (null), or kept where it cannot be null. */
export function replaceEditable(doc: Doc, input: Record<string, unknown>): Doc {
  const next: Doc = { ...doc };
  for (const key of EMPLOYMENT_EDITABLE) {
    if (key in input) next[key] = input[key];
    else if (!EMPLOYMENT_NOT_NULLABLE.has(key)) next[key] = null;
  }
  return next;
}

// ---- section records ----------------------------------------------------------------------

export interface SectionSpec {
  /** How its records' validity is given: by dates (startDate/endDate), by payroll periods, or not at all. */
  dated: 'dates' | 'periods' | 'none';
  chain: ChainKind;
  /** An array section (several records valid at once) or one record at a time. */
  many: boolean;
  /** The sub-context a chain is kept per (benefits and deductions: per payroll component). */
  subContext?: (data: Record<string, unknown>) => string | null;
}

const byPayrollComponent = (data: Record<string, unknown>): string | null => {
  const c = data.payrollComponent as { key?: unknown } | undefined;
  return c?.key !== undefined ? String(c.key) : null;
};

/** The comprehensive employment's sections held as records, by name in the comprehensive item. */
export const SECTIONS: Record<string, SectionSpec> = {
  workinghours: { dated: 'dates', chain: 'linked', many: false },
  organizationalEntity: { dated: 'dates', chain: 'linked', many: false },
  wage: { dated: 'dates', chain: 'linked', many: false },
  socialSecurityConfiguration: { dated: 'dates', chain: 'linked', many: false },
  fiscalProperties: { dated: 'dates', chain: 'linked', many: false },
  healthcareInsuranceActConfiguration: { dated: 'dates', chain: 'linked', many: false },
  otherPayrollVariables: { dated: 'dates', chain: 'linked', many: false },
  pensionBenefits: { dated: 'dates', chain: 'linked', many: false },
  deviatingAwfContribution: { dated: 'periods', chain: 'broken', many: false },
  socialSecurityBenefits: { dated: 'dates', chain: 'broken', many: true },
  benefitsInKind: { dated: 'dates', chain: 'broken', many: true },
  companyCars: { dated: 'dates', chain: 'broken', many: true },
  fiscalCompanyCars: { dated: 'dates', chain: 'broken', many: true },
  basesForCalculation: { dated: 'dates', chain: 'broken', many: true },
  basesForEmploymentFundCalculation: { dated: 'dates', chain: 'broken', many: true },
  paymentinformationNonSepa: { dated: 'dates', chain: 'broken', many: true, subContext: byPayrollComponent },
  deviatingHourlyWages: { dated: 'dates', chain: 'broken', many: true, subContext: byPayrollComponent },
  paymentInformationSepa: { dated: 'none', chain: 'broken', many: true, subContext: byPayrollComponent },
  employmentCustomFields: { dated: 'none', chain: 'broken', many: true },
};

/** A stored section record: chain fields at the top, the section's own fields in `data`. */
export interface SectionRecord extends ChainRecord {
  employmentId: string;
  employerId: string;
  section: string;
  subContext: string | null;
  data: Record<string, unknown>;
}

const FAR_PAST = '0001-01-01';

/** The validity of a period-based record, from its payroll periods. */
function periodBounds(data: Record<string, unknown>): { startDate: string; endDate: string | null } {
  const start = data.startPeriod as { periodStartDate?: string } | undefined;
  const end = data.endPeriod as { periodEndDate?: string } | null | undefined;
  return { startDate: start?.periodStartDate ?? FAR_PAST, endDate: end?.periodEndDate ?? null };
}

/** A new record of `section` from a checked input object (a sent id is not kept). */
export function newSectionRecord(id: string, employment: Doc, section: string, input: Record<string, unknown>): SectionRecord {
  const spec = SECTIONS[section]!;
  const { id: _id, startDate, endDate, ...rest } = input;
  const data = rest;
  const bounds =
    spec.dated === 'dates'
      ? { startDate: (startDate as string | undefined) ?? (employment.startDate as string), endDate: (endDate as string | null | undefined) ?? null }
      : spec.dated === 'periods'
        ? periodBounds(data)
        : { startDate: FAR_PAST, endDate: null };
  return {
    id,
    employmentId: employment.id,
    employerId: employment.employerId as string,
    section,
    subContext: spec.subContext?.(data) ?? null,
    ...bounds,
    data,
  };
}

/** A record as the comprehensive item shows it. */
export function sectionView(record: SectionRecord): Record<string, unknown> {
  const spec = SECTIONS[record.section]!;
  if (spec.dated === 'dates') return { id: record.id, startDate: record.startDate, endDate: record.endDate, ...record.data };
  return { id: record.id, ...record.data };
}

/** All records of one employment. */
export async function recordsOf(tx: Tx, employmentId: string): Promise<SectionRecord[]> {
  const page = await tx.find(COLLECTIONS.employmentRecords, { where: whereIn(['employmentId'], [employmentId]) });
  return page.rows as unknown as SectionRecord[];
}
