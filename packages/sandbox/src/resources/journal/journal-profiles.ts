// Journal profiles at wage model level (list, create) and at payroll administration level
// (get, create, edit, delete). A description is unique across the three levels. A payroll
// administration profile either deviates from a profile above it (only its description
// deviates; deleting it removes just the deviation) or is the administration's own (it owns
// cost centers, cost units, matrix entries and payroll component links; deleting it deletes
// them, unless journals use the profile or employments use one of its cost centers or units).
import type { Message } from '../../http/errors.js';
import { SandboxError, type Handler, type OperationContext, type ResourceModule } from '../../domain/context.js';
import type { Doc, Tx } from '../../store/types.js';
import { JOURNAL_COLLECTIONS, type JournalLevel } from '../../seed/journal.js';
import { ORG_COLLECTIONS } from '../../domain/reference-data.js';
import type { CreateRule } from '../../domain/create-rules.js';
import { LEVELS, LEVEL_NAMES, bodyOf, findAll, getAtLevel, journalMessage, refuseWhenAny, relations, relationsAtLevels, requiredRelations, sameText, whereEquals } from './rules.js';
import { employmentUses, usedBy } from './usage.js';
import { pureView } from '../../domain/views.js';

const WAGE_MODEL_DESCRIPTION_NOT_UNIQUE: Record<JournalLevel, string> = {
  provider: 'API_Journal_WageModelJournalProfile_Description_NotUnique_ProviderLevel',
  wageModel: 'API_Journal_WageModelJournalProfile_Description_NotUnique_WageModelLevel',
  payrollAdministration: 'API_Journal_WageModelJournalProfile_Description_NotUnique_PayrollAdministrationLevel',
};
const ADMINISTRATION_DESCRIPTION_NOT_UNIQUE: Record<JournalLevel, string> = {
  provider: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_ProviderLevel',
  wageModel: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_WageModelLevel',
  payrollAdministration: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_PayrollAdministrationLevel',
};
// Spelled exactly as the contract spells them (API_Journaal_ for the four child-use codes).
const IN_USE_JOURNAL = 'API_Journal_PayrollAdministrationJournalProfile_InUse_Journal';
const CHILD_IN_USE = [
  { entities: 'costUnits', use: 'payrollPeriodData', code: 'API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_PayrollPeriodData', noun: 'cost unit', where: 'the payroll period data' },
  { entities: 'costUnits', use: 'journalAllocation', code: 'API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_JournalAllocation', noun: 'cost unit', where: 'the journal allocation' },
  { entities: 'costCenters', use: 'payrollPeriodData', code: 'API_Journaal_PayrollAdministrationJournalProfile_CostCenter_Delete_InUse_PayrollPeriodData', noun: 'cost center', where: 'the payroll period data' },
  { entities: 'costCenters', use: 'journalAllocation', code: 'API_Journaal_PayrollAdministrationJournalProfile_CostCenter_Delete_InUse_JournalAllocation', noun: 'cost center', where: 'the journal allocation' },
] as const;

/** The read models: the contract shows the id and the description. */
const readModel = pureView((doc: Doc) => ({ id: doc.id, description: doc.description }));

interface DescriptionScope {
  providerId: string;
  wageModelId: string;
  /** For a payroll administration profile: its administration; a wage model profile clashes
   * with the profiles of every administration on its wage model. */
  payrollAdministrationId?: string;
  self?: string;
}

/** The levels at which `description` is already the description of another journal profile. */
async function levelsTaken(tx: Tx, description: string, scope: DescriptionScope): Promise<JournalLevel[]> {
  const P = JOURNAL_COLLECTIONS.profiles;
  const candidates: Record<JournalLevel, Doc[]> = {
    provider: await findAll(tx, P, { level: 'provider', providerId: scope.providerId }),
    wageModel: await findAll(tx, P, { level: 'wageModel', wageModelId: scope.wageModelId }),
    payrollAdministration: scope.payrollAdministrationId
      ? await findAll(tx, P, { level: 'payrollAdministration', payrollAdministrationId: scope.payrollAdministrationId })
      : await findAll(tx, P, { level: 'payrollAdministration', wageModelId: scope.wageModelId }),
  };
  return LEVELS.filter((level) => candidates[level].some((doc) => doc.id !== scope.self && sameText(doc.description, description)));
}

async function refuseTakenDescription(tx: Tx, codes: Record<JournalLevel, string>, description: string, scope: DescriptionScope): Promise<void> {
  const taken = await levelsTaken(tx, description, scope);
  refuseWhenAny(taken.map((level) => journalMessage(codes[level], `The description '${description}' is already used by a journal profile at ${LEVEL_NAMES[level]}.`, ['description'])));
}

/** A profile is known by its description: a create needs one, and an edit keeps one. */
const NEW_PROFILE_RULE: CreateRule = { required: { description: {} } };

/** The description of a create's body (NEW_PROFILE_RULE has passed it). */
const descriptionOf = (ctx: OperationContext): string => bodyOf(ctx).description as string;

async function existing(tx: Tx, collection: string, id: string | undefined): Promise<Doc> {
  const doc = await tx.get(collection, id ?? '');
  if (!doc) throw new SandboxError(404);
  return doc;
}

const administrationProfileOf = (ctx: OperationContext) =>
  getAtLevel(ctx.tx, JOURNAL_COLLECTIONS.profiles, ctx.params.journalProfileId ?? '', 'payrollAdministration');

const listByWageModel: Handler = async (ctx) => {
  const wageModel = await existing(ctx.tx, JOURNAL_COLLECTIONS.wageModels, ctx.params.wageModelId);
  const page = await ctx.list(JOURNAL_COLLECTIONS.profiles, { where: whereEquals({ level: 'wageModel', wageModelId: wageModel.id }), project: readModel });
  return { kind: 'list', page };
};

const createAtWageModel: Handler = async (ctx) => {
  const wageModel = await existing(ctx.tx, JOURNAL_COLLECTIONS.wageModels, ctx.params.wageModelId);
  const description = descriptionOf(ctx);
  await refuseTakenDescription(ctx.tx, WAGE_MODEL_DESCRIPTION_NOT_UNIQUE, description, { providerId: wageModel.providerId as string, wageModelId: wageModel.id });
  const doc: Doc = { id: ctx.newId(), level: 'wageModel', description, providerId: wageModel.providerId, wageModelId: wageModel.id, payrollAdministrationId: null, deviatesFromJournalProfileId: null };
  await ctx.tx.insert(JOURNAL_COLLECTIONS.profiles, doc);
  return { kind: 'detail', status: 201, content: readModel(doc) };
};

const getAtAdministration: Handler = async (ctx) => ({ kind: 'detail', content: readModel(await administrationProfileOf(ctx)) });

/** A profile created through the API is the administration's own (the post model does not
 * show how a deviation would name the profile it deviates from; deviations are seeded). */
const createAtAdministration: Handler = async (ctx) => {
  const administration = await existing(ctx.tx, JOURNAL_COLLECTIONS.payrollAdministrations, ctx.params.payrollAdministrationId);
  const description = descriptionOf(ctx);
  const scope = { providerId: administration.providerId as string, wageModelId: administration.wageModelId as string, payrollAdministrationId: administration.id };
  await refuseTakenDescription(ctx.tx, ADMINISTRATION_DESCRIPTION_NOT_UNIQUE, description, scope);
  const doc: Doc = { id: ctx.newId(), level: 'payrollAdministration', description, ...scope, deviatesFromJournalProfileId: null };
  await ctx.tx.insert(JOURNAL_COLLECTIONS.profiles, doc);
  return { kind: 'detail', status: 201, content: readModel(doc) };
};

const editAtAdministration: Handler = async (ctx) => {
  const doc = await administrationProfileOf(ctx);
  const { description } = bodyOf(ctx);
  if (typeof description === 'string') {
    const scope = { providerId: doc.providerId as string, wageModelId: doc.wageModelId as string, payrollAdministrationId: doc.payrollAdministrationId as string, self: doc.id };
    await refuseTakenDescription(ctx.tx, ADMINISTRATION_DESCRIPTION_NOT_UNIQUE, description, scope);
    doc.description = description;
    await ctx.tx.replace(JOURNAL_COLLECTIONS.profiles, doc);
  }
  return { kind: 'detail', content: readModel(doc) };
};

/** The children an own profile owns, by collection. */
const OWNED = [JOURNAL_COLLECTIONS.costCenters, JOURNAL_COLLECTIONS.costUnits, JOURNAL_COLLECTIONS.matrix, JOURNAL_COLLECTIONS.payrollComponentLinks];

const deleteAtAdministration: Handler = async (ctx) => {
  const doc = await administrationProfileOf(ctx);
  const own = doc.deviatesFromJournalProfileId == null;
  const refusals: Message[] = [];
  const journals = await findAll(ctx.tx, JOURNAL_COLLECTIONS.journals, { journalProfileId: doc.id });
  if (journals.length > 0)
    refusals.push(journalMessage(IN_USE_JOURNAL, `The journal profile '${String(doc.description)}' cannot be deleted: ${journals.length} journal(s) use it.`));
  if (own) {
    const uses = await employmentUses(ctx.tx);
    const children = {
      costCenters: await findAll(ctx.tx, JOURNAL_COLLECTIONS.costCenters, { journalProfileId: doc.id }),
      costUnits: await findAll(ctx.tx, JOURNAL_COLLECTIONS.costUnits, { journalProfileId: doc.id }),
    };
    for (const rule of CHILD_IN_USE) {
      const used = children[rule.entities].filter((child) => usedBy(uses[rule.use], rule.entities, child.id) > 0);
      if (used.length > 0)
        refusals.push(journalMessage(rule.code, `The journal profile '${String(doc.description)}' cannot be deleted: its ${rule.noun}(s) ${used.map((c) => `'${String(c.code)}'`).join(', ')} are used in ${rule.where} of employments.`));
    }
  }
  refuseWhenAny(refusals);
  if (own) for (const collection of OWNED) for (const child of await findAll(ctx.tx, collection, { journalProfileId: doc.id })) await ctx.tx.remove(collection, child.id);
  await ctx.tx.remove(JOURNAL_COLLECTIONS.profiles, doc.id);
  return { kind: 'detail', content: {} };
};

const journalProfiles: ResourceModule = {
  collections: [
    // Profiles of every level share the read shape {id, description}.
    {
      name: JOURNAL_COLLECTIONS.profiles,
      schema: { api: 'journal', component: 'WageModelJournalProfile' },
      relations: [
        ...requiredRelations('providerId'),
        ...relationsAtLevels(['wageModel', 'payrollAdministration'], 'wageModelId'),
        ...relationsAtLevels(['payrollAdministration'], 'payrollAdministrationId'),
        { field: 'deviatesFromJournalProfileId', collection: JOURNAL_COLLECTIONS.profiles },
      ],
    },
    { name: JOURNAL_COLLECTIONS.wageModels, relations: requiredRelations('providerId') },
    // The journal's view of a payroll administration has the administration's id.
    { name: JOURNAL_COLLECTIONS.payrollAdministrations, relations: [{ field: 'id', collection: ORG_COLLECTIONS.administrations }, ...requiredRelations('providerId', 'wageModelId')] },
    { name: JOURNAL_COLLECTIONS.payrollComponentLinks, relations: [...requiredRelations('journalProfileId'), ...relationsAtLevels(['payrollAdministration'], 'payrollAdministrationId'), ...relations('costCenterId', 'costUnitId')] },
    { name: JOURNAL_COLLECTIONS.journals, relations: requiredRelations('journalProfileId', 'payrollAdministrationId') },
  ],
  handlers: {
    GetJournalProfilesByWageModelId: listByWageModel,
    PostJournalProfileByWageModelId: createAtWageModel,
    GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId: getAtAdministration,
    PostJournalProfileByPayrollAdministrationId: createAtAdministration,
    PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId: editAtAdministration,
    DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId: deleteAtAdministration,
  },
  creates: { PostJournalProfileByWageModelId: NEW_PROFILE_RULE, PostJournalProfileByPayrollAdministrationId: NEW_PROFILE_RULE },
};
export default journalProfiles;
