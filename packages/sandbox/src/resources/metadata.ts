// Every metadata and defaults operation of the payroll description (contract §2.1 metadata,
// §4.1 Metadata and Defaults, §4.2). Metadata endpoints list the options of each metadata
// field of a request body in its context; they answer from the reference data
// (domain/reference-data.ts), the same source checkMetadataKeys refuses unknown keys from.
//
// Defaults endpoints answer the fully expanded GET shape: every field of the shape is present,
// null where it has no default (even where the shape does not allow null), a metadata object
// without default is null as a whole. Dated defaults take the currently active or last known
// value on the sandbox clock's date.
import { message } from '../http/errors.js';
import { SandboxError, type Handler, type OperationContext, type ResourceModule } from '../domain/context.js';
import {
  AGREEMENTS,
  FORMS,
  GENERIC_OPTIONS,
  ORG_COLLECTIONS,
  findPayScale,
  metadataFields,
  metadataScope,
  option,
  optionsOf,
  payGradeKey,
  payGradeOptions,
  type MetadataOption,
  type MetadataScope,
  type PayScaleData,
} from '../domain/reference-data.js';
import type { Doc } from '../store/types.js';
import { COLLECTIONS, mustGet, recordsOf, type SectionRecord } from '../domain/employments/model.js';

type Json = Record<string, unknown>;

const detail = (content: unknown) => ({ kind: 'detail' as const, content });

/** The field the pay grade endpoints answer for. */
const PAY_GRADE_FIELD = 'wageData.payGrade';

// ---------------------------------------------------------------------------------------
// Dated values

interface Dated {
  startDate: string;
  endDate: string | null;
}

/**
 * The record valid on `date`, else the last one that started before it ("the currently active
 * or last known value"); undefined when every record starts after `date`.
 */
export function currentOrLastKnown<T extends Dated>(records: readonly T[], date: string): T | undefined {
  const started = records.filter((r) => r.startDate <= date).sort((a, b) => a.startDate.localeCompare(b.startDate));
  return started.find((r) => r.endDate === null || r.endDate >= date) ?? started[started.length - 1];
}

// ---------------------------------------------------------------------------------------
// Contexts from path ids

async function administrationScope(ctx: OperationContext): Promise<{ administration: Doc; scope: MetadataScope }> {
  const administration = await mustGet(ctx.tx, ORG_COLLECTIONS.administrations, ctx.params.payrollAdministrationId!);
  return { administration, scope: await metadataScope(ctx.tx, null, administration.id) };
}

/** The administration an employment belongs to (payroll or non-payroll), from its stored view. */
function administrationIdOf(employment: Doc): string | null {
  for (const key of ['payrollAdministration', 'nonPayrollAdministration']) {
    const ref = employment[key] as { id?: unknown } | null | undefined;
    if (ref && typeof ref.id === 'string') return ref.id;
  }
  return null;
}

async function employmentScope(ctx: OperationContext): Promise<{ employment: Doc; scope: MetadataScope }> {
  const employment = await mustGet(ctx.tx, COLLECTIONS.employments, ctx.params.employmentId!);
  return { employment, scope: await metadataScope(ctx.tx, employment.employerId as string, administrationIdOf(employment)) };
}

/** The pay scale of a path key within the administration's agreement, or 404. */
function payScaleIn(administration: Doc, key: string): { agreement: string; scale: PayScaleData } {
  const found = findPayScale(key);
  if (!found || found.agreement !== administration.collectiveLaborAgreement) throw new SandboxError(404);
  return found;
}

// ---------------------------------------------------------------------------------------
// Fully expanded shapes, read from the description's schemas

/** Follows a schema's $refs within the description. */
function resolve(doc: Json, schema: Json): Json {
  let node = schema;
  for (let hops = 0; typeof node.$ref === 'string' && hops < 32; hops++) {
    node = (node.$ref as string).split('/').slice(1).reduce<Json>((at, key) => at[key] as Json, doc);
  }
  return node;
}

/** A metadata object: {key, value} with a read-only value (possibly through allOf). */
function isMetadata(doc: Json, schema: Json): boolean {
  const s = resolve(doc, schema);
  const props = s.properties as Record<string, Json> | undefined;
  if (props?.key && props.value && resolve(doc, props.value).readOnly === true) return true;
  if (Array.isArray(s.allOf) && (s.allOf as Json[]).some((part) => isMetadata(doc, part))) return true;
  // A nullable metadata field: oneOf [metadata, null].
  return ['oneOf', 'anyOf'].some((key) => Array.isArray(s[key]) && (s[key] as Json[]).some((branch) => resolve(doc, branch).type !== 'null' && isMetadata(doc, branch)));
}

/** The object shapes a schema may take (allOf parts merged by the caller; null branches dropped). */
function objectParts(doc: Json, schema: Json): Json[] {
  const s = resolve(doc, schema);
  const out: Json[] = [];
  if (s.properties) out.push(s);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const list = s[key] as Json[] | undefined;
    if (!Array.isArray(list)) continue;
    const branches = key === 'allOf' ? list : list.filter((b) => resolve(doc, b).type !== 'null').slice(0, 1);
    for (const branch of branches) out.push(...objectParts(doc, branch));
  }
  return out;
}

/**
 * Every field of a schema with null: nested objects expanded (nullable ones too), metadata
 * objects null as a whole, arrays empty.
 */
export function expandedShape(doc: Json, schema: Json, depth = 0): unknown {
  if (depth > 12 || isMetadata(doc, schema)) return null;
  const s = resolve(doc, schema);
  const type = s.type;
  if (type === 'array' || (Array.isArray(type) && type.includes('array'))) return [];
  const parts = objectParts(doc, s);
  if (parts.length === 0) return null;
  const out: Json = {};
  for (const part of parts) {
    for (const [name, prop] of Object.entries(part.properties as Record<string, Json>)) {
      if (!(name in out) || out[name] === null) out[name] = expandedShape(doc, prop, depth + 1);
    }
  }
  return out;
}

function componentShape(ctx: OperationContext, name: string): Json {
  return expandedShape(ctx.description as Json, { $ref: `#/components/schemas/${name}` }) as Json;
}

/** Writes `value` at a dotted path of an expanded shape (the path exists in it). */
function setAt(target: Json, path: string, value: unknown): void {
  const segments = path.split('.');
  let node = target;
  for (const segment of segments.slice(0, -1)) node = node[segment] as Json;
  node[segments[segments.length - 1] as string] = value;
}

// ---------------------------------------------------------------------------------------
// Defaults

/** The payroll period of `date` for a period type (1 month, 2 four weeks, 3 week), numbered within the year. */
export function payrollPeriodOn(date: string, periodType: number | null): Json | null {
  const year = Number(date.slice(0, 4));
  const day = new Date(`${date}T00:00:00Z`);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  if (periodType === 1) {
    const month = day.getUTCMonth();
    return { year, periodNumber: month + 1, periodStartDate: iso(new Date(Date.UTC(year, month, 1))), periodEndDate: iso(new Date(Date.UTC(year, month + 1, 0))) };
  }
  if (periodType === 2 || periodType === 3) {
    const length = periodType === 2 ? 28 : 7;
    const dayOfYear = Math.floor((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000);
    const last = periodType === 2 ? 13 : 52;
    const index = Math.min(Math.floor(dayOfYear / length), last - 1);
    const start = new Date(Date.UTC(year, 0, 1 + index * length));
    // The last period of the year runs to 31 December.
    const end = index === last - 1 ? new Date(Date.UTC(year, 11, 31)) : new Date(Date.UTC(year, 0, (index + 1) * length));
    return { year, periodNumber: index + 1, periodStartDate: iso(start), periodEndDate: iso(end) };
  }
  return null;
}

/** A journal reference on an employment ({key, code, description}) in the CodedUuidReference read shape. */
function codedReference(ref: unknown): Json | null {
  if (!ref || typeof ref !== 'object') return null;
  const { key, code, description } = ref as Json;
  if (typeof key !== 'string') return null;
  return description === undefined ? { key } : { key, value: description, code, description };
}

/** A journal allocation unless its end period ended before `date` or its start period starts after it. */
function inForce(allocation: Json | null | undefined, date: string): Json | null {
  if (!allocation) return null;
  const start = (allocation.startPeriod as Json | null | undefined)?.periodStartDate;
  const end = (allocation.endPeriod as Json | null | undefined)?.periodEndDate;
  if (typeof start === 'string' && start > date) return null;
  if (typeof end === 'string' && end < date) return null;
  return allocation;
}

/** The payroll period data entry of the latest period that started on or before `date`. */
function lastEnteredBefore(entries: unknown, date: string): Json | undefined {
  if (!Array.isArray(entries)) return undefined;
  const started = (entries as Json[]).filter((e) => typeof (e.payrollPeriod as Json | undefined)?.periodStartDate === 'string' && ((e.payrollPeriod as Json).periodStartDate as string) <= date);
  return started.sort((a, b) => ((a.payrollPeriod as Json).periodStartDate as string).localeCompare((b.payrollPeriod as Json).periodStartDate as string)).at(-1);
}

function sectionData(records: SectionRecord[], section: string, date: string): Json | undefined {
  return currentOrLastKnown(records.filter((r) => r.section === section), date)?.data;
}

async function payrollPeriodDataDefaults(ctx: OperationContext): Promise<Json> {
  const { employment, scope } = await employmentScope(ctx);
  const today = ctx.today;
  const records = await recordsOf(ctx.tx, employment.id);
  const shift = sectionData(records, 'workinghours', today)?.shift as { shiftNumber?: unknown } | null | undefined;
  const distributionUnit = sectionData(records, 'organizationalEntity', today)?.distributionUnit as { key?: unknown } | null | undefined;
  const unitOption = distributionUnit ? optionsOf('distributionUnit', scope).find((o) => o.key === distributionUnit.key) : undefined;
  // Cost center and unit: the journal allocation in force, else those of the last payroll period data entered.
  const allocation = inForce(employment.journalAllocation as Json | null | undefined, today);
  const allocated = (allocation?.allocationBasedOnActualHours ?? allocation) as Json | null | undefined;
  const lastPeriodData = lastEnteredBefore(employment.payrollPeriodData, today);
  const content = componentShape(ctx, 'PayrollPeriodDataDefaults');
  Object.assign(content, {
    payrollPeriod: payrollPeriodOn(today, (scope.administration?.payrollPeriodType as number | null | undefined) ?? null),
    shift: typeof shift?.shiftNumber === 'number' ? { shiftNumber: shift.shiftNumber } : null,
    payslipType: option('payslipType', 1),
    distributionUnit: unitOption ? { ...unitOption } : null,
    costCenter: codedReference(allocated?.costCenter) ?? codedReference(lastPeriodData?.costCenter),
    costUnit: codedReference(allocated?.costUnit) ?? codedReference(lastPeriodData?.costUnit),
    payrollComponents: [],
  });
  return content;
}

/** The concept employee defaults of a payroll administration (its CAO's values, dated ones as of today). */
async function conceptEmployeeDefaults(ctx: OperationContext): Promise<Json> {
  const { administration, scope } = await administrationScope(ctx);
  // The contract: non-payroll administrations have metadata endpoints but no defaults endpoint.
  if (administration.isPayrollAdministration !== true) throw new SandboxError(404);
  const today = ctx.today;
  const content = componentShape(ctx, 'ConceptEmployee');
  for (const section of ['employeeData', 'employmentData', 'workingHoursData', 'wageData', 'organizationalEntityData', 'socialSecurityData', 'fiscalData', 'otherPayrollVariablesData']) {
    if (content[section] === null || content[section] === undefined) content[section] = {};
  }
  const agreement = AGREEMENTS[administration.collectiveLaborAgreement as string];
  const termOptions = GENERIC_OPTIONS.collectiveLaborAgreementCodeHiringEmployer.filter((o) => agreement?.termCodes.includes(o.key as number)) as Array<MetadataOption & Dated>;
  const term = currentOrLastKnown(termOptions, today);
  const contractCode = optionsOf('contractCode', scope)[0];
  const defaults: Record<string, unknown> = {
    'employeeData.personalDetails.nationality': option('nationality', 1),
    'employeeData.address.country': option('country', 1),
    'employmentData.typeOfEmployee': option('typeOfEmployee', 1),
    'employmentData.employmentDurationType': option('employmentDurationType', 1),
    'employmentData.incomeRelationshipNumber': 1,
    'workingHoursData.contractCode': contractCode ? { ...contractCode } : null,
    'workingHoursData.regularWorkPattern': true,
    'wageData.payrollPeriodType': typeof administration.payrollPeriodType === 'number' ? option('payrollPeriodType', administration.payrollPeriodType) : null,
    'wageData.grossWageType': option('grossWageType', 1),
    'socialSecurityData.isInsuredForSicknessBenefitsAct': true,
    'socialSecurityData.isInsuredForUnemploymentInsuranceAct': true,
    'socialSecurityData.isInsuredForOccupationalDisabilityInsuranceAct': true,
    'fiscalData.applyPayrollTaxDeduction': true,
    'otherPayrollVariablesData.payrollProperties.collectiveLaborAgreementCodeHiringEmployer': term ? { ...term } : null,
  };
  for (const [path, value] of Object.entries(defaults)) setAt(content, path, value);
  return content;
}

// ---------------------------------------------------------------------------------------
// Pay grade values

/** The dated wage of a pay grade on `date` (or the last known one) as a metadata option. */
function payGradeValues(agreement: string, scale: PayScaleData, gradeKey: string, date: string): MetadataOption[] {
  const grade = scale.grades.find((g) => payGradeKey(agreement, scale, g.name) === gradeKey);
  if (!grade) throw new SandboxError(404);
  const value = currentOrLastKnown(grade.values, date);
  if (!value) return [];
  return [{ key: gradeKey, value: grade.name, ...value, payrollPeriodType: option('payrollPeriodType', scale.payrollPeriodType) }];
}

function dateParameter(ctx: OperationContext): string {
  const date = ctx.query.get('date');
  if (date === null || date === '') return ctx.today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new SandboxError(400, [message(400, 'The query parameter date must be a date (yyyy-MM-dd).', ['date'])]);
  }
  return date;
}

// ---------------------------------------------------------------------------------------

const handlers: Record<string, Handler> = {
  async GetEmployeeMetadataByEmployeeId(ctx) {
    const employee = await mustGet(ctx.tx, COLLECTIONS.employees, ctx.params.employeeId!);
    return detail(metadataFields(FORMS.employee, await metadataScope(ctx.tx, employee.employerId as string)));
  },

  async GetEmploymentMetadataByEmploymentId(ctx) {
    const { scope } = await employmentScope(ctx);
    return detail(metadataFields(FORMS.employment, scope));
  },

  async GetWageMetadataByEmploymentId(ctx) {
    const { scope } = await employmentScope(ctx);
    return detail(metadataFields(FORMS.wage, scope));
  },

  async GetPayrollPeriodDataDefaultsByEmploymentId(ctx) {
    return detail(await payrollPeriodDataDefaults(ctx));
  },

  async GetJobApplicantMetadataByEmployerId(ctx) {
    const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    const scope = await metadataScope(ctx.tx, employer.id);
    // A new employment can only be placed in an administration that has not ended.
    const today = ctx.today;
    const open = { ...scope, administrations: scope.administrations.filter((a) => typeof a.endDate !== 'string' || a.endDate >= today) };
    return detail([{ field: 'payrollAdministration', options: optionsOf('payrollAdministration', open) }]);
  },

  async GetJobApplicantMetadataByPayrollAdministrationId(ctx) {
    const { scope } = await administrationScope(ctx);
    return detail(metadataFields(FORMS.newEmployee, scope));
  },

  async GetJobApplicantPayGradeMetadataBySalaryScaleTypeId(ctx) {
    const found = findPayScale(ctx.params.id!);
    if (!found) throw new SandboxError(404);
    return detail([{ field: PAY_GRADE_FIELD, options: payGradeOptions(found.agreement, found.scale) }]);
  },

  async GetConceptEmployeeMetadataByPayrollAdministrationId(ctx) {
    const { scope } = await administrationScope(ctx);
    return detail(metadataFields(FORMS.conceptEmployee, scope));
  },

  async GetConceptEmployeePayGradeMetadataByPayScaleKey(ctx) {
    const { administration } = await administrationScope(ctx);
    const { agreement, scale } = payScaleIn(administration, ctx.params.payScaleKey!);
    return detail([{ field: PAY_GRADE_FIELD, options: payGradeOptions(agreement, scale) }]);
  },

  async GetConceptEmployeePayGradeValuesByPayGradeKey(ctx) {
    const { administration } = await administrationScope(ctx);
    const { agreement, scale } = payScaleIn(administration, ctx.params.payScaleKey!);
    return detail([{ field: PAY_GRADE_FIELD, options: payGradeValues(agreement, scale, ctx.params.payGradeKey!, dateParameter(ctx)) }]);
  },

  async GetConceptEmployeeDefaultsByPayrollAdministrationId(ctx) {
    return detail(await conceptEmployeeDefaults(ctx));
  },
};

const metadata: ResourceModule = { collections: [], handlers };

export default metadata;
