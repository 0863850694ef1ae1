// PostEmployeeByEmployerId: a new employee with the first records of a new employment, all in
// the request's one transaction after the validations (contract §4.3 Employee), and the
// builders of employment docs the people seed uses too.
import type { OperationContext } from '../context.js';
import type { Doc, Tx } from '../../store/types.js';
import { AGREEMENTS, FORMS, LISTED_BY, ORG_COLLECTIONS, checkMetadataKeys, metadataScope, option } from '../reference-data.js';
import { message } from '../../http/errors.js';
import type { CreateRule } from '../create-rules.js';
import { COLLECTIONS, SECTIONS, citizenServiceNumberProblems, computeEmployee, employeeSummary, inputOnly, mustHaveEmployer, newSectionRecord, refuse, whereIn, withUniqueEmployeeNumber } from './model.js';
import { SELF_SERVICE_STATUS } from './person.js';
import { assertChain, ChainError } from './date-chain.js';

/** How an administration is shown on an employment (payrollAdministration / nonPayrollAdministration / administration). */
export function administrationViews(administration: Doc): Record<string, unknown> {
  const name = (administration.name as string | undefined) ?? (administration.description as string) ?? '';
  const description = (administration.description as string | null | undefined) ?? null;
  const agreement = AGREEMENTS[administration.collectiveLaborAgreement as string];
  const isPayroll = administration.isPayrollAdministration === true;
  return {
    payrollAdministration: isPayroll
      ? {
          id: administration.id,
          name,
          clientNumber: administration.clientNumber,
          description,
          ...(agreement ? { cla: { value: agreement.name } } : {}),
          ...(typeof administration.wageModelName === 'string' ? { wageModel: { value: administration.wageModelName } } : {}),
        }
      : null,
    nonPayrollAdministration: isPayroll ? null : { id: administration.id, name, description },
    administration: {
      id: administration.id,
      name,
      clientNumber: administration.clientNumber,
      description,
      administrationType: isPayroll ? 'payrollAdministration' : 'nonPayrollAdministration',
    },
  };
}

/** The editable fields an employment starts with when the body leaves them out. */
export const EMPLOYMENT_DEFAULTS: Record<string, unknown> = {
  historicalStartDate: null,
  commissionUntilDate: null,
  typeOfEmployee: option('typeOfEmployee', 1),
  employmentDurationType: option('employmentDurationType', 2),
  startDateContractOfIndefiniteDuration: null,
  employmentContractType: null,
  vacationCoupons: null,
  sendToExternalParty: null,
  deviatingCLAExternalParty: null,
  deviatingCLATaxReturn: null,
  incomeRelationshipNumber: 1,
  employeeProfileId: null,
  professionCode: null,
  exemptionWorkRelatedExpenseScheme: false,
  exemptionPremiumWaiverMarginalLabour: false,
  typeOfParticipation: null,
  valueOfParticipation: null,
  wachtgeldOldRegulation: false,
  participation55plusRegulationUWV: false,
  essMutationSet: null,
  exemptionInsuranceObligation: null,
  specialIncomeRatio: null,
  emailLeaveRequest: null,
  temporaryTaxExemption: option('temporaryTaxExemption', 0),
  periodPayGradeAdjustment: null,
  signalPayGradeAdjustment: false,
  commissionUntilDate1: null,
  commissionUntilDate2: null,
  commissionUntilDate3: null,
  commissionUntilDate4: null,
  commissionUntilDate5: null,
  commissionUntilDate6: null,
  isDirectorAndMajorShareholder: null,
  isPreviousOwner: null,
  isFamilyOfOwner: null,
  isOnCallEmployment: false,
  hasOnCallAppearanceObligation: null,
  isGemoedsbezwaardNationalInsurance: false,
  isGemoedsbezwaardEmployeeInsurance: false,
  isAnonymousEmployee: false,
  cancellationPeriodEmployee: null,
  cancellationPeriodEmployer: null,
  cancellationPeriodTimeUnit: null,
  cancellationNoticeDate: null,
  startCancellationNoticePeriod: null,
  namePayslip: null,
  calculateWorkingHours: true,
  writtenEmploymentContract: true,
};

/**
 * A fiscal properties record's fields when nothing deviates (dates aside): the wage tax credit
 * applied, the tables and percentages of the standard, no special regime.
 */
export const FISCAL_DEFAULTS: Record<string, unknown> = {
  annualSalary: null,
  deviatingTaxTableCode: null,
  deviatingPayrollTaxTableColour: null,
  applyDayTables: false,
  deviatingPayrollTaxPercentage: null,
  applyDeviatingPayrollTaxPercentageOn: null,
  applyPayrollTaxDeduction: true,
  applyStudentDeduction: false,
  residentOf: null,
  applySalarysplit: null,
  percentageForeignIncome: null,
  deviatingCalculationRulePayrollTax: null,
  thirtyPercentFacility: null,
  deviatingPercentageThirtyPercentFacility: null,
  doesWageIncludeAow: false,
  doesWageIncludeWajong: false,
  hasEmployeeLoan: false,
  usesTransportByWithholdingAgent: false,
  deviatingSmallJobsArrangement: false,
  contributionReductionEducation: null,
  specialIndication: { one: null, two: null, three: null, four: null },
  applySingleElderlyTaxDeduction: false,
};

export interface EmploymentInit {
  id: string;
  employee: Doc;
  administration: Doc;
  startDate: string;
  endDate?: string | null;
  payrollId: number;
  fields?: Record<string, unknown>;
}

/** A stored employment doc (read shape plus its foreign keys and internal fields). */
export function employmentDoc(init: EmploymentInit): Doc {
  return {
    ...EMPLOYMENT_DEFAULTS,
    ...init.fields,
    id: init.id,
    employerId: init.employee.employerId as string,
    employeeId: init.employee.id,
    employee: employeeSummary(init.employee),
    startDate: init.startDate,
    endDate: init.endDate ?? null,
    endOfEmploymentReason: null,
    endOfEmploymentReasonTaxAuthorities: null,
    endOfEmploymentDueToIllness: null,
    firstDayNotification: false,
    ...administrationViews(init.administration),
    // A person's first employment is the main one (Hoofddienstverband) until the category patch says otherwise.
    employmentCategoryType: option('employmentCategoryType', 1),
    ...(init.fields?.employmentCategoryType ? { employmentCategoryType: init.fields.employmentCategoryType } : {}),
    linkedEmployment: null,
    payrollId: init.payrollId,
    processedPayrollResults: 0,
    journalAllocation: null,
    payrollPeriodData: [],
  };
}

/** Body section → comprehensive section it starts. */
const NEW_SECTIONS: Record<string, string> = {
  workingHoursData: 'workinghours',
  wageData: 'wage',
  organizationalEntityData: 'organizationalEntity',
  socialSecurityData: 'socialSecurityConfiguration',
  fiscalData: 'fiscalProperties',
  otherPayrollVariablesData: 'otherPayrollVariables',
};

/** The start dates the body's sections give, earliest first: the employment starts on the first. */
function startDates(body: Record<string, unknown>): string[] {
  return Object.keys(NEW_SECTIONS)
    .map((key) => (body[key] as { startDate?: unknown } | null | undefined)?.startDate)
    .filter((d): d is string => typeof d === 'string')
    .sort();
}

/** The citizen service number a new employee's body gives, null for none. */
const citizenServiceNumberOf = (body: Record<string, unknown>): unknown => (body.citizenServiceNumber as { citizenServiceNumber?: unknown } | null | undefined)?.citizenServiceNumber ?? null;

/**
 * What a new employee requires (PostEmployeeByEmployerId, the sandbox's choice where the
 * contract shows no validations): a last name and a date of birth, kept by every edit of the
 * employee; a start date for the employment from one of its first records; a valid citizen
 * service number if one is given.
 */
export const NEW_EMPLOYEE_RULE: CreateRule = {
  required: { employeeData: { personalDetails: { lastName: {}, dateOfBirth: {} } } },
  check: (body) => [
    ...(startDates(body).length === 0
      ? [message(400, 'The employment needs a start date: give workingHoursData.startDate (or the start date of another section).', ['workingHoursData.startDate'])]
      : []),
    ...citizenServiceNumberProblems(citizenServiceNumberOf(body), 'citizenServiceNumber.citizenServiceNumber'),
  ],
};

/** The administration a new employment is made in: the employer's running payroll administration with the lowest client number, else its first running non-payroll one. */
async function administrationFor(tx: Tx, employerId: string, today: string): Promise<Doc> {
  const { rows } = await tx.find(ORG_COLLECTIONS.administrations, { where: whereIn(['employerId'], [employerId]) });
  const running = rows.filter((a) => !a.endDate || (a.endDate as string) >= today);
  const ordered = [...running].sort((a, b) => Number(b.isPayrollAdministration === true) - Number(a.isPayrollAdministration === true) || Number(a.clientNumber ?? 0) - Number(b.clientNumber ?? 0));
  const first = ordered[0];
  if (!first) throw refuse('The employer has no running administration to employ the new employee in.', 'employmentData');
  return first;
}

async function highest(tx: Tx, collection: string, employerId: string, field: string): Promise<number> {
  const { rows } = await tx.find(collection, { where: whereIn(['employerId'], [employerId]) });
  return rows.reduce((max, doc) => Math.max(max, Number(doc[field] ?? 0)), 0);
}

/** Creates the employee and its employment from a body NEW_EMPLOYEE_RULE has passed (the engine checks it first). */
export async function createEmployeeWithEmployment(ctx: OperationContext, employerId: string, rawBody: Record<string, unknown>): Promise<{ employeeId: string; employmentId: string }> {
  const { tx } = ctx;
  await mustHaveEmployer(tx, employerId);
  const administration = await administrationFor(tx, employerId, ctx.today);
  const body = checkMetadataKeys(FORMS.newEmployee, await metadataScope(tx, employerId, administration.id), inputOnly(rawBody) as Record<string, unknown>, LISTED_BY.newEmployee);

  const employeeData = body.employeeData as Record<string, unknown>;
  const bsn = citizenServiceNumberOf(body) as string | null;
  const startDate = startDates(body)[0]!;

  const employeeId = ctx.newId();
  const employmentId = ctx.newId();
  const { id: _id, statusEmployeeSelfService: _status, ...editable } = employeeData;
  const employee = computeEmployee({
    revokeEmployeeSelfServiceAccessOn: null,
    exclusionFromAbsenceStatus: false,
    ...editable,
    id: employeeId,
    employerId,
    // Left out, the employee gets the employer's next free number.
    employeeNumber: (editable.employeeNumber as number | undefined) ?? (await highest(tx, COLLECTIONS.employees, employerId, 'employeeNumber')) + 1,
    statusEmployeeSelfService: { ...SELF_SERVICE_STATUS.noAccess },
    citizenServiceNumber: bsn,
    emailAddress: null,
    selfServiceBlocked: false,
    hasTwoFactorAuthentication: false,
  });
  await withUniqueEmployeeNumber('employeeData.employeeNumber', () => tx.insert(COLLECTIONS.employees, employee));

  const employment = employmentDoc({
    id: employmentId,
    employee,
    administration,
    startDate,
    payrollId: (await highest(tx, COLLECTIONS.employments, employerId, 'payrollId')) + 1,
    fields: (body.employmentData as Record<string, unknown> | null | undefined) ?? {},
  });
  await tx.insert(COLLECTIONS.employments, employment);

  for (const [key, section] of Object.entries(NEW_SECTIONS)) {
    const input = body[key] as Record<string, unknown> | null | undefined;
    if (!input) continue;
    const record = newSectionRecord(ctx.newId(), employment, section, input);
    try {
      assertChain([record], `${key}.endDate`);
    } catch (error) {
      if (error instanceof ChainError) throw refuse(error.message, error.field);
      throw error;
    }
    if (!SECTIONS[section]) continue;
    await tx.insert(COLLECTIONS.employmentRecords, record as unknown as Doc);
  }
  return { employeeId, employmentId };
}
