// Employments in the sandbox (contract §2.6, §3, §4.3 Employment): the lists (the employer's,
// with the user's stored filter settings; minimized; comprehensive; the employee's), GET/PUT,
// the category type patch, the state machine (terminate, terminate again, reinstate), the start
// date correction, and delete with the validations GetDeleteEmploymentInformation lists.
import type { Handler, OperationContext, Principal, ResourceModule } from '../domain/context.js';
import { SandboxError } from '../domain/context.js';
import type { BoundFilter } from '../filter/tree.js';
import type { Doc, Tx } from '../store/types.js';
import { message, type Message } from '../http/errors.js';
import { FORMS, LISTED_BY, ORG_COLLECTIONS, checkMetadataKeys, metadataScope, type MetadataForm } from '../domain/reference-data.js';
import { MODULES } from '../seed/organisation.js';
import { listComprehensive } from './employments/comprehensive.js';
import { ChainError, chainKey, endChain, moveChainStart, reopenChain } from '../domain/employments/date-chain.js';
import {
  COLLECTIONS,
  SECTIONS,
  and,
  employmentListView,
  employmentMinimizedView,
  employmentView,
  field,
  inputOnly,
  mustGet,
  mustGetEmployer,
  mustHave,
  mustHaveEmployer,
  recordsOf,
  refuse,
  replaceEditable,
  whereIn,
  type SectionRecord,
} from '../domain/employments/model.js';
import { pureView } from '../domain/views.js';

/** The part of the employment form (reference data) a patch body holds. */
const formOf = (...fields: string[]): MetadataForm => Object.fromEntries(Object.entries(FORMS.employment as MetadataForm).filter(([path]) => fields.includes(path)));

const detail = (content: unknown = {}, messages: Message[] = []) => ({ kind: 'detail' as const, content, messages });

async function employment(ctx: OperationContext): Promise<Doc> {
  return mustGet(ctx.tx, COLLECTIONS.employments, ctx.params.employmentId!);
}

// ---- the user's filter settings (GetEmploymentsByEmployerId, ...Minimized) -----------------

/**
 * Filter settings a sandbox user may carry (sandbox meta `employmentFilterSettings/<user>`,
 * where <user> is the token's user id, or `token:<bearer token>` for an arbitrary token). Each
 * applies to one employer, and optionally to one client only. Default: none.
 */
export interface EmploymentFilterSetting {
  employerId: string;
  clientId?: string | null;
  /** Only employments in these administrations. */
  administrationIds?: string[];
  /** Only employments active on the sandbox's today (no end date, or one not yet passed), or only ended ones. */
  employmentStatus?: 'active' | 'ended';
}

export const filterSettingsKey = (principal: Principal): string => `employmentFilterSettings/${principal.userId ?? `token:${principal.token}`}`;

async function userFilter(ctx: OperationContext, employerId: string): Promise<BoundFilter | undefined> {
  const settings = (await ctx.tx.getMeta<EmploymentFilterSetting[]>(filterSettingsKey(ctx.principal))) ?? [];
  const today = ctx.today;
  let where: BoundFilter | undefined;
  for (const s of settings) {
    if (s.employerId !== employerId || (s.clientId && s.clientId !== ctx.principal.clientId)) continue;
    if (s.administrationIds) where = and(whereIn(['administration', 'id'], s.administrationIds), where);
    if (s.employmentStatus) {
      const endDate = field(['endDate'], 'date');
      const open: BoundFilter = { kind: 'or', left: { kind: 'compare', field: endDate, op: 'eq', value: null }, right: { kind: 'compare', field: endDate, op: 'ge', value: today } };
      const ended: BoundFilter = { kind: 'compare', field: endDate, op: 'lt', value: today };
      where = and(s.employmentStatus === 'active' ? open : ended, where);
    }
  }
  return where;
}

async function employerList(ctx: OperationContext, project: (doc: Doc) => unknown) {
  const employerId = ctx.params.employerId!;
  await mustHaveEmployer(ctx.tx, employerId);
  const where = and(whereIn(['employerId'], [employerId]), await userFilter(ctx, employerId));
  return { kind: 'list' as const, page: await ctx.list(COLLECTIONS.employments, { where, project }) };
}

// ---- chains ---------------------------------------------------------------------------------

/** Applies `change` to every dated chain of the employment (per section and sub-context) and writes the changed records. */
async function changeChains(tx: Tx, employmentId: string, change: (chain: SectionRecord[]) => SectionRecord[]): Promise<void> {
  const chains = new Map<string, SectionRecord[]>();
  for (const record of await recordsOf(tx, employmentId)) {
    if (SECTIONS[record.section]?.dated !== 'dates') continue;
    const key = chainKey(record.section, record.subContext);
    chains.set(key, [...(chains.get(key) ?? []), record]);
  }
  for (const chain of chains.values()) {
    let changed: SectionRecord[];
    try {
      changed = change(chain);
    } catch (error) {
      if (error instanceof ChainError) throw refuse(error.message, error.field);
      throw error;
    }
    for (const record of changed) await tx.replace(COLLECTIONS.employmentRecords, record as unknown as Doc);
  }
}

// ---- delete ---------------------------------------------------------------------------------

interface DeleteValidation {
  rule: string;
  description: string;
  holds: boolean;
}

/** The validations that must hold before an employment is deleted: what GetDeleteEmploymentInformation lists and DeleteEmployment enforces. */
async function deleteValidations(tx: Tx, current: Doc): Promise<DeleteValidation[]> {
  const linking = (await tx.find(COLLECTIONS.employments, { where: whereIn(['linkedEmployment'], [current.id]) })).rows.filter((e) => e.id !== current.id);
  return [
    {
      rule: 'noProcessedPayrollResults',
      description: 'The employment has no processed payroll results.',
      holds: Number(current.processedPayrollResults ?? 0) === 0,
    },
    {
      rule: 'notLinkedByAnotherEmployment',
      description: 'No other employment of the employee is linked to this employment (linkedEmployment).',
      holds: linking.length === 0,
    },
  ];
}

async function otherEmployments(tx: Tx, current: Doc): Promise<Doc[]> {
  return (await tx.find(COLLECTIONS.employments, { where: whereIn(['employeeId'], [current.employeeId as string]) })).rows.filter((e) => e.id !== current.id);
}

// ---- handlers -------------------------------------------------------------------------------

const handlers: Record<string, Handler> = {
  GetEmploymentsByEmployerId: (ctx) => employerList(ctx, pureView(employmentListView)),
  GetEmploymentsMinimizedByEmployerId: (ctx) => employerList(ctx, pureView(employmentMinimizedView)),
  GetEmploymentsComprehensiveByEmployerId: listComprehensive,

  async GetEmploymentsByEmployeeId(ctx) {
    const employeeId = ctx.params.employeeId!;
    await mustHave(ctx.tx, COLLECTIONS.employees, employeeId);
    return { kind: 'list', page: await ctx.list(COLLECTIONS.employments, { where: whereIn(['employeeId'], [employeeId]), project: pureView(employmentListView) }) };
  },

  async GetEmploymentByEmploymentId(ctx) {
    return detail(employmentView(await employment(ctx)));
  },

  async PutEmploymentByEmploymentId(ctx) {
    const current = await employment(ctx);
    const scope = await metadataScope(ctx.tx, current.employerId as string, (current.administration as { id: string }).id);
    const body = checkMetadataKeys(FORMS.employment, scope, inputOnly(ctx.body) as Record<string, unknown>, LISTED_BY.employment);
    const next = replaceEditable(current, body);
    await ctx.tx.replace(COLLECTIONS.employments, next);
    return detail(employmentView(next));
  },

  async PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId(ctx) {
    const current = await employment(ctx);
    const scope = await metadataScope(ctx.tx, current.employerId as string, (current.administration as { id: string }).id);
    const body = checkMetadataKeys(formOf('employmentCategoryType'), scope, inputOnly(ctx.body) as Record<string, unknown>, LISTED_BY.employment);
    const linkedEmployment = (body.linkedEmployment as string | null | undefined) ?? null;
    if (linkedEmployment !== null) {
      if (linkedEmployment === current.id) throw refuse('An employment cannot be linked to itself.', 'linkedEmployment');
      const linked = await ctx.tx.get(COLLECTIONS.employments, linkedEmployment);
      if (!linked || linked.employeeId !== current.employeeId) {
        throw refuse('linkedEmployment must be another employment of the same employee.', 'linkedEmployment');
      }
    }
    const next = { ...current, employmentCategoryType: body.employmentCategoryType ?? current.employmentCategoryType, linkedEmployment };
    await ctx.tx.replace(COLLECTIONS.employments, next);
    return detail(employmentView(next));
  },

  async GetDeleteEmploymentInformationByEmploymentId(ctx) {
    const current = await employment(ctx);
    const validations = await deleteValidations(ctx.tx, current);
    return detail({
      canBeDeleted: validations.every((v) => v.holds),
      deletesEmployee: (await otherEmployments(ctx.tx, current)).length === 0,
      validations,
    });
  },

  async DeleteEmploymentByEmploymentId(ctx) {
    const current = await employment(ctx);
    const broken = (await deleteValidations(ctx.tx, current)).filter((v) => !v.holds);
    if (broken.length > 0) throw new SandboxError(400, broken.map((v) => message(400, `The employment cannot be deleted: ${v.description.charAt(0).toLowerCase()}${v.description.slice(1, -1)} does not hold.`, [])));
    for (const record of await recordsOf(ctx.tx, current.id)) await ctx.tx.remove(COLLECTIONS.employmentRecords, record.id);
    const notifications = await ctx.tx.find(COLLECTIONS.employmentNotifications, { where: whereIn(['employmentId'], [current.id]) });
    for (const n of notifications.rows) await ctx.tx.remove(COLLECTIONS.employmentNotifications, n.id);
    await ctx.tx.remove(COLLECTIONS.employments, current.id);
    // The person goes with their last employment.
    if ((await otherEmployments(ctx.tx, current)).length === 0) {
      await ctx.tx.remove(COLLECTIONS.employeePhotos, current.employeeId as string);
      await ctx.tx.remove(COLLECTIONS.employees, current.employeeId as string);
    }
    return detail();
  },

  async PatchTerminateByEmploymentId(ctx) {
    const current = await employment(ctx);
    const employer = await mustGetEmployer(ctx.tx, current.employerId as string);
    const scope = await metadataScope(ctx.tx, current.employerId as string, (current.administration as { id: string }).id);
    const body = checkMetadataKeys(
      formOf('endOfEmploymentReason', 'endOfEmploymentReasonTaxAuthorities'),
      scope,
      inputOnly(ctx.body) as Record<string, unknown>,
      LISTED_BY.employment,
    );
    const endDate = (body.endDate as string | null | undefined) ?? null;
    if (endDate === null) throw refuse('endDate is required: the last day of the employment. PatchReinstateByEmploymentId reverses a termination.', 'endDate');
    if (typeof body.endOfEmploymentDueToIllness !== 'boolean') {
      throw refuse('endOfEmploymentDueToIllness is mandatory when endDate is filled.', 'endOfEmploymentDueToIllness');
    }
    if (endDate < (current.startDate as string)) throw refuse(`The end date cannot be before the start date ${current.startDate as string}.`, 'endDate');

    // A revised termination first reopens what the previous one ended, then ends at the new date.
    await changeChains(ctx.tx, current.id, (chain) => endChain(reopenChain(chain), endDate));

    const messages: Message[] = [];
    if (body.createMdvEntry === true) {
      const modules = (employer.modules as string[] | undefined) ?? [];
      if (!modules.includes(MODULES.employmentNotification)) {
        messages.push(message(200, 'createMdvEntry was ignored: the employer does not have the employment-notification module, so no employment-ended notification was created.', ['createMdvEntry'], 'Warning'));
      } else if (current.endDate === null) {
        await ctx.tx.insert(COLLECTIONS.employmentNotifications, {
          id: ctx.newId(),
          employmentId: current.id,
          employerId: current.employerId,
          kind: 'employmentEnded',
          status: 'draft',
          endDate,
          createdAt: ctx.now.toISOString(),
        });
      }
    }
    await ctx.tx.replace(COLLECTIONS.employments, {
      ...current,
      endDate,
      endOfEmploymentReason: body.endOfEmploymentReason ?? null,
      endOfEmploymentReasonTaxAuthorities: body.endOfEmploymentReasonTaxAuthorities ?? null,
      endOfEmploymentDueToIllness: body.endOfEmploymentDueToIllness,
    });
    return detail({}, messages);
  },

  async PatchReinstateByEmploymentId(ctx) {
    const current = await employment(ctx);
    if (current.endDate === null) throw refuse('The employment is active (it has no end date): only an ended employment can be reinstated.', 'endDate');
    await changeChains(ctx.tx, current.id, reopenChain);
    // A draft employment-ended notification of the reversed termination is withdrawn with it.
    const drafts = await ctx.tx.find(COLLECTIONS.employmentNotifications, { where: whereIn(['employmentId'], [current.id]) });
    for (const n of drafts.rows) if (n.status === 'draft') await ctx.tx.remove(COLLECTIONS.employmentNotifications, n.id);
    await ctx.tx.replace(COLLECTIONS.employments, {
      ...current,
      endDate: null,
      endOfEmploymentReason: null,
      endOfEmploymentReasonTaxAuthorities: null,
      endOfEmploymentDueToIllness: null,
    });
    return detail();
  },

  async PatchCorrectStartDateByEmploymentId(ctx) {
    const current = await employment(ctx);
    const { startDate } = ctx.body as { startDate: string };
    const oldStart = current.startDate as string;
    if (current.endDate !== null && startDate > (current.endDate as string)) {
      throw refuse(`The start date cannot be after the end date ${current.endDate as string}.`, 'startDate');
    }
    await changeChains(ctx.tx, current.id, (chain) => moveChainStart(chain, oldStart, startDate));
    await ctx.tx.replace(COLLECTIONS.employments, {
      ...current,
      startDate,
      // "Equals startDate when the contract was indefinite from the start": it moves along.
      startDateContractOfIndefiniteDuration: current.startDateContractOfIndefiniteDuration === oldStart ? startDate : current.startDateContractOfIndefiniteDuration,
    });
    return detail();
  },
};

const employments: ResourceModule = {
  // Section records ({section, data}) and notifications have no component of their own in the description.
  collections: [
    { name: COLLECTIONS.employments, schema: { api: 'payroll', component: 'Employment' }, relations: [{ field: 'employeeId', collection: COLLECTIONS.employees, required: true }, { field: 'employerId', collection: ORG_COLLECTIONS.employers }, { field: 'linkedEmployment', collection: COLLECTIONS.employments }] },
    ...[COLLECTIONS.employmentRecords, COLLECTIONS.employmentNotifications].map((name) => ({ name, relations: [{ field: 'employmentId', collection: COLLECTIONS.employments, required: true }, { field: 'employerId', collection: ORG_COLLECTIONS.employers }] })),
  ],
  handlers,
};

export default employments;
