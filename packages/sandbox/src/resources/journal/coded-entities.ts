// Cost centers and cost units at wage model level follow the same rules with their own codes:
// a code unique across the three levels, and a delete refused while anything uses the entity.
// cost-centers.ts and cost-units.ts each configure this module with their operations and codes.
import type { Message } from '../../http/errors.js';
import type { Handler, OperationContext, ResourceModule } from '../../domain/context.js';
import type { Doc, Tx } from '../../store/types.js';
import { JOURNAL_COLLECTIONS, type JournalLevel } from '../../seed/journal.js';
import type { CreateRule } from '../../domain/create-rules.js';
import { LEVELS, LEVEL_NAMES, bodyOf, findAll, getAtLevel, journalMessage, refuseWhenAny, relationsAtLevels, requiredRelations, sameText, wageModelProfileOf, whereEquals } from './rules.js';
import { employmentUses, renameInEmployments, usedBy } from './usage.js';
import { pureView } from '../../domain/views.js';

/** The uses that block a delete, in the order the contract lists their codes (and they are reported). */
export type DeleteRule =
  | 'administrationDeviation'
  | 'payrollComponentLinkWageModel'
  | 'payrollComponentLinkAdministration'
  | 'journalAllocation'
  | 'payrollPeriodData'
  | 'matrixWageModel'
  | 'matrixAdministration';

export interface CodedEntityKind {
  /** 'cost center' / 'cost unit', in messages. */
  noun: string;
  collection: string;
  /** The read model's component in the journal description (what every stored doc satisfies). */
  component: string;
  /** The entity's field in matrix entries and payroll component links. */
  referenceField: 'costCenterId' | 'costUnitId';
  /** Its path parameter. */
  idParameter: 'costCenterId' | 'costUnitId';
  operations: { list: string; create: string; edit: string; remove: string };
  codeNotUnique: Record<JournalLevel, string>;
  inUse: Record<DeleteRule, string>;
}

/** The entity is known by its code: a create needs one, and an edit keeps one. */
const CODED_ENTITY_RULE: CreateRule = { required: { code: {} } };

/** The read model: the contract shows the id and the code. */
const readModel = pureView((doc: Doc) => ({ id: doc.id, code: doc.code }));

/**
 * The levels at which `code` is already taken for the wage model profile: any cost center (or
 * unit) at provider level of the provider, another one of the same profile at wage model level,
 * and the payroll administrations' own additions to the profile (their deviations carry the
 * code of the entity they deviate from, so they clash only through it).
 */
async function levelsTaken(tx: Tx, kind: CodedEntityKind, profile: Doc, code: string, self?: string): Promise<JournalLevel[]> {
  const candidates: Record<JournalLevel, Doc[]> = {
    provider: await findAll(tx, kind.collection, { level: 'provider', providerId: profile.providerId as string }),
    wageModel: await findAll(tx, kind.collection, { level: 'wageModel', journalProfileId: profile.id }),
    payrollAdministration: await findAll(tx, kind.collection, { level: 'payrollAdministration', journalProfileId: profile.id, deviatesFromId: null }),
  };
  return LEVELS.filter((level) => candidates[level].some((doc) => doc.id !== self && sameText(doc.code, code)));
}

async function refuseTakenCode(tx: Tx, kind: CodedEntityKind, profile: Doc, code: string, self?: string): Promise<void> {
  const taken = await levelsTaken(tx, kind, profile, code, self);
  refuseWhenAny(taken.map((level) => journalMessage(kind.codeNotUnique[level], `The code '${code}' is already used by a ${kind.noun} at ${LEVEL_NAMES[level]}.`, ['code'])));
}

/** Why the entity cannot be deleted: one message per use, in DeleteRule order. */
async function deleteRefusals(tx: Tx, kind: CodedEntityKind, doc: Doc): Promise<Message[]> {
  const ref = { [kind.referenceField]: doc.id };
  const employments = await employmentUses(tx);
  const entities = kind.referenceField === 'costCenterId' ? 'costCenters' : 'costUnits';
  const counts: Record<DeleteRule, number> = {
    administrationDeviation: (await findAll(tx, kind.collection, { level: 'payrollAdministration', deviatesFromId: doc.id })).length,
    payrollComponentLinkWageModel: (await findAll(tx, JOURNAL_COLLECTIONS.payrollComponentLinks, { level: 'wageModel', ...ref })).length,
    payrollComponentLinkAdministration: (await findAll(tx, JOURNAL_COLLECTIONS.payrollComponentLinks, { level: 'payrollAdministration', ...ref })).length,
    journalAllocation: usedBy(employments.journalAllocation, entities, doc.id),
    payrollPeriodData: usedBy(employments.payrollPeriodData, entities, doc.id),
    matrixWageModel: (await findAll(tx, JOURNAL_COLLECTIONS.matrix, { level: 'wageModel', ...ref })).length,
    matrixAdministration: (await findAll(tx, JOURNAL_COLLECTIONS.matrix, { level: 'payrollAdministration', ...ref })).length,
  };
  const what: Record<DeleteRule, (n: number) => string> = {
    administrationDeviation: (n) => `has ${n} deviation(s) at payroll administration level`,
    payrollComponentLinkWageModel: (n) => `is used in ${n} payroll component to ledger account link(s) at wage model level`,
    payrollComponentLinkAdministration: (n) => `is used in ${n} payroll component to ledger account link(s) at payroll administration level`,
    journalAllocation: (n) => `is used in the journal allocation of ${n} employment(s)`,
    payrollPeriodData: (n) => `is used in the payroll period data of ${n} employment(s)`,
    matrixWageModel: (n) => `is used in ${n} combination(s) of the cost center / cost unit matrix at wage model level`,
    matrixAdministration: (n) => `is used in ${n} combination(s) of the cost center / cost unit matrix at payroll administration level`,
  };
  return (Object.keys(counts) as DeleteRule[])
    .filter((rule) => counts[rule] > 0)
    .map((rule) => journalMessage(kind.inUse[rule], `The ${kind.noun} '${String(doc.code)}' cannot be deleted: it ${what[rule](counts[rule])}.`));
}

export function codedEntityModule(kind: CodedEntityKind): ResourceModule {
  const entityOf = (ctx: OperationContext) => getAtLevel(ctx.tx, kind.collection, ctx.params[kind.idParameter] ?? '', 'wageModel');

  const list: Handler = async (ctx) => {
    const profile = await wageModelProfileOf(ctx);
    const page = await ctx.list(kind.collection, { where: whereEquals({ level: 'wageModel', journalProfileId: profile.id }), project: readModel });
    return { kind: 'list', page };
  };

  const create: Handler = async (ctx) => {
    const profile = await wageModelProfileOf(ctx);
    const code = bodyOf(ctx).code as string;
    await refuseTakenCode(ctx.tx, kind, profile, code);
    const doc: Doc = {
      id: ctx.newId(),
      level: 'wageModel',
      journalProfileId: profile.id,
      code,
      description: null,
      providerId: profile.providerId,
      wageModelId: profile.wageModelId,
      payrollAdministrationId: null,
      deviatesFromId: null,
    };
    await ctx.tx.insert(kind.collection, doc);
    return { kind: 'detail', status: 201, content: readModel(doc) };
  };

  const edit: Handler = async (ctx) => {
    const doc = await entityOf(ctx);
    const { code } = bodyOf(ctx);
    if (typeof code === 'string') {
      const profile = await getAtLevel(ctx.tx, JOURNAL_COLLECTIONS.profiles, doc.journalProfileId as string, 'wageModel');
      await refuseTakenCode(ctx.tx, kind, profile, code, doc.id);
      // Deviations at payroll administration level carry the code of the entity they deviate from.
      for (const deviation of await findAll(ctx.tx, kind.collection, { level: 'payrollAdministration', deviatesFromId: doc.id })) {
        await ctx.tx.replace(kind.collection, { ...deviation, code });
      }
      doc.code = code;
      await ctx.tx.replace(kind.collection, doc);
      await renameInEmployments(ctx.tx, kind.referenceField === 'costCenterId' ? 'costCenter' : 'costUnit', doc.id, code);
    }
    return { kind: 'detail', content: readModel(doc) };
  };

  const remove: Handler = async (ctx) => {
    const doc = await entityOf(ctx);
    refuseWhenAny(await deleteRefusals(ctx.tx, kind, doc));
    await ctx.tx.remove(kind.collection, doc.id);
    return { kind: 'detail', content: {} };
  };

  return {
    collections: [{ name: kind.collection, schema: { api: 'journal', component: kind.component }, relations: [...requiredRelations('journalProfileId'), ...relationsAtLevels(['payrollAdministration'], 'payrollAdministrationId'), { field: 'deviatesFromId', collection: kind.collection }] }],
    handlers: { [kind.operations.list]: list, [kind.operations.create]: create, [kind.operations.edit]: edit, [kind.operations.remove]: remove },
    creates: { [kind.operations.create]: CODED_ENTITY_RULE },
  };
}
