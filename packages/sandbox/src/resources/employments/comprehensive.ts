// GetEmploymentsComprehensiveByEmployerId (contract §2.6, §4.1, §4.3): each employment with
// every section around it. Dated sections show the record valid on the reference date (default:
// the sandbox's today), or, with includeHistoricAndFutureData, one line per period in which the
// employment's records stay the same. removeEmptyLines with an X-ReportInput leaves out the
// employments without data for the sections of the selected fields.
import type { ListPage, OperationContext } from '../../domain/context.js';
import type { BoundFilter, FieldInfo, FieldTable } from '../../filter/tree.js';
import type { Doc } from '../../store/types.js';
import { SandboxError } from '../../domain/context.js';
import { message } from '../../http/errors.js';
import { addDays, isValidOn, sorted } from '../../domain/employments/date-chain.js';
import {
  COLLECTIONS,
  SECTIONS,
  and,
  employeeView,
  employmentListView,
  mustHaveEmployer,
  sectionView,
  selfServiceStatus,
  whereIn,
  type SectionRecord,
} from '../../domain/employments/model.js';

/** Sections that always hold data (the employee and the employment themselves). */
const ALWAYS_FILLED = new Set(['employee', 'employment']);

/**
 * The fields a client may filter and order this list on: the employee's and the employment's
 * own fields (stored on the employment). Dated sections depend on the reference date and are
 * not filterable.
 */
const FIELDS: Array<[string, string[], FieldInfo['type']]> = [
  ['employee.id', ['employee', 'id'], 'string'],
  ['employee.employeeNumber', ['employee', 'employeeNumber'], 'integer'],
  ['employee.personalDetails.firstName', ['employee', 'firstName'], 'string'],
  ['employee.personalDetails.initials', ['employee', 'initials'], 'string'],
  ['employee.personalDetails.prefix', ['employee', 'prefix'], 'string'],
  ['employee.personalDetails.lastName', ['employee', 'lastName'], 'string'],
  ['employee.personalDetails.formattedName', ['employee', 'formattedName'], 'string'],
  ['employee.personalDetails.dateOfBirth', ['employee', 'dateOfBirth'], 'date'],
  ['employment.id', ['id'], 'string'],
  ['employment.startDate', ['startDate'], 'date'],
  ['employment.endDate', ['endDate'], 'date'],
  ['employment.payrollId', ['payrollId'], 'integer'],
  ['employment.incomeRelationshipNumber', ['incomeRelationshipNumber'], 'integer'],
  ['employment.historicalStartDate', ['historicalStartDate'], 'date'],
  ['employment.commissionUntilDate', ['commissionUntilDate'], 'date'],
  ['employment.isOnCallEmployment', ['isOnCallEmployment'], 'boolean'],
  ['employment.endOfEmploymentDueToIllness', ['endOfEmploymentDueToIllness'], 'boolean'],
  ['employment.payrollAdministration.id', ['payrollAdministration', 'id'], 'string'],
  ['employment.payrollAdministration.clientNumber', ['payrollAdministration', 'clientNumber'], 'integer'],
  ['employment.administration.id', ['administration', 'id'], 'string'],
  ['employment.administration.administrationType', ['administration', 'administrationType'], 'string'],
  ['employment.employmentDurationType', ['employmentDurationType', 'key'], 'integer'],
  ['employment.typeOfEmployee', ['typeOfEmployee', 'key'], 'integer'],
];
const FIELD_TABLE: FieldTable = new Map(FIELDS.map(([name, path, type]) => [name.toLowerCase(), { path, type }]));

function booleanParam(ctx: OperationContext, name: string): boolean {
  const raw = ctx.query.get(name);
  return raw !== null && raw.toLowerCase() === 'true';
}

/** The sections the X-ReportInput's fields name (their first path segment). */
function reportSections(ctx: OperationContext): string[] | null {
  const header = ctx.headers['x-reportinput'];
  const raw = Array.isArray(header) ? header[0] : header;
  if (!raw) return null;
  try {
    const report = JSON.parse(raw) as { fields?: Array<{ fieldName?: string }> };
    return [...new Set((report.fields ?? []).map((f) => String(f.fieldName ?? '').split('.')[0]!).filter(Boolean))];
  } catch {
    // The engine answers a malformed X-ReportInput before the handler runs; unreadable here means none.
    return null;
  }
}

interface Context {
  employees: Map<string, Doc>;
  records: Map<string, SectionRecord[]>;
  today: string;
}

function sectionsOn(records: SectionRecord[], date: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SECTIONS)) {
    const valid = sorted(records.filter((r) => r.section === name && (spec.dated === 'none' || isValidOn(r, date))));
    out[name] = spec.many ? valid.map(sectionView) : valid[0] ? sectionView(valid[0]) : null;
  }
  return out;
}

/** One comprehensive line of an employment as of `date`. */
function line(employment: Doc, date: string, c: Context): Record<string, unknown> {
  const person = c.employees.get(employment.employeeId as string);
  const records = c.records.get(employment.id) ?? [];
  return {
    employee: person ? employeeView(person, c.today) : null,
    employment: employmentListView(employment),
    ...sectionsOn(records, date),
    journalAllocation: employment.journalAllocation ?? null,
    citizenServiceNumber: person ? { citizenServiceNumber: person.citizenServiceNumber ?? null } : null,
    statusEmployeeSelfService: person ? { hasTwoFactorAuthentication: person.hasTwoFactorAuthentication === true, status: selfServiceStatus(person, c.today).value } : null,
    employeeCustomFields: [],
  };
}

/** The dates on which something about the employment's records changes, from its start. */
function periodStarts(employment: Doc, records: SectionRecord[]): string[] {
  const start = employment.startDate as string;
  const dates = new Set<string>([start]);
  for (const r of records) {
    if (SECTIONS[r.section]?.dated === 'none') continue;
    if (r.startDate > start) dates.add(r.startDate);
    if (r.endDate && r.endDate >= start) dates.add(addDays(r.endDate, 1));
  }
  const end = employment.endDate as string | null;
  return [...dates].filter((d) => !end || d <= end).sort();
}

const hasData = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined);

export async function listComprehensive(ctx: OperationContext): Promise<{ kind: 'list'; page: ListPage }> {
  const employerId = ctx.params.employerId!;
  await mustHaveEmployer(ctx.tx, employerId);
  const referenceDate = ctx.query.get('referenceDate') ?? ctx.today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(referenceDate) || Number.isNaN(Date.parse(referenceDate))) {
    throw new SandboxError(400, [message(400, 'referenceDate must be a date (yyyy-MM-dd).', ['referenceDate'])]);
  }
  const includeAll = booleanParam(ctx, 'includeHistoricAndFutureData');
  const byEmployer = whereIn(['employerId'], [employerId]);

  const c: Context = { employees: new Map(), records: new Map(), today: ctx.today };
  for (const person of (await ctx.tx.find(COLLECTIONS.employees, { where: byEmployer })).rows) c.employees.set(person.id, person);
  for (const record of (await ctx.tx.find(COLLECTIONS.employmentRecords, { where: byEmployer })).rows as unknown as SectionRecord[]) {
    const list = c.records.get(record.employmentId) ?? [];
    list.push(record);
    c.records.set(record.employmentId, list);
  }

  let where: BoundFilter = byEmployer;
  const selected = booleanParam(ctx, 'removeEmptyLines') ? reportSections(ctx)?.filter((s) => !ALWAYS_FILLED.has(s)) : undefined;
  if (selected && selected.length > 0) {
    // Only employments with data (on the reference date, or ever when all records are asked) in a selected section.
    const { rows } = await ctx.tx.find(COLLECTIONS.employments, { where: byEmployer });
    const keep = rows
      .filter((employment) => {
        const dates = includeAll ? periodStarts(employment, c.records.get(employment.id) ?? []) : [referenceDate];
        return dates.some((date) => {
          const l = line(employment, date, c);
          return selected.some((section) => hasData(l[section]));
        });
      })
      .map((e) => e.id);
    where = and(where, whereIn(['id'], keep.length > 0 ? keep : ['']));
  }

  const page = await ctx.list(COLLECTIONS.employments, { where, fields: FIELD_TABLE, project: (employment) => employment });
  const items = (page.items as Doc[]).flatMap((employment) =>
    includeAll ? periodStarts(employment, c.records.get(employment.id) ?? []).map((date) => line(employment, date, c)) : [line(employment, referenceDate, c)],
  );
  return { kind: 'list', page: { ...page, items } };
}
