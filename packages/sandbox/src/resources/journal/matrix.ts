// The cost center / cost unit matrix at wage model level: which cost centers of a journal
// profile are linked to which of its cost units. The edit is a multi-patch: each item of the
// body links (`isLinked: true`) or unlinks (`isLinked: false`) one combination and succeeds or
// fails on its own. The answer is 200 with the matrix after the edit when at least one item
// succeeded, carrying one message per failed item (its `id` the entity the failure is about);
// when every item failed it is 400 with those messages and nothing changes.
import type { Message } from '../../http/errors.js';
import type { Handler, ResourceModule } from '../../domain/context.js';
import type { Doc } from '../../store/types.js';
import { JOURNAL_COLLECTIONS, matrixCombination } from '../../seed/journal.js';
import { findAll, journalMessage, refuseWhenAny, relationsAtLevels, requiredRelations, wageModelProfileOf, whereEquals } from './rules.js';
import { pureView } from '../../domain/views.js';

const CODES = {
  notUnique: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenterCostUnit_NotUnique',
  costCenterNotExists: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenter_NotExists',
  costUnitNotExists: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostUnit_NotExists',
  isLocked: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenterCostUnit_IsLocked',
} as const;

interface MatrixEdit {
  costCenterId: string;
  costUnitId: string;
  isLinked: boolean;
}

const readModel = pureView((doc: Doc) => ({ costCenterId: doc.costCenterId, costUnitId: doc.costUnitId, isLocked: doc.isLocked }));

const listMatrix: Handler = async (ctx) => {
  const profile = await wageModelProfileOf(ctx);
  const page = await ctx.list(JOURNAL_COLLECTIONS.matrix, { where: whereEquals({ level: 'wageModel', journalProfileId: profile.id }), project: readModel });
  return { kind: 'list', page };
};

const editMatrix: Handler = async (ctx) => {
  const profile = await wageModelProfileOf(ctx);
  const edits = (Array.isArray(ctx.body) ? ctx.body : []) as MatrixEdit[];
  const ofProfile = { level: 'wageModel', journalProfileId: profile.id };
  const costCenters = new Set((await findAll(ctx.tx, JOURNAL_COLLECTIONS.costCenters, ofProfile)).map((d) => d.id));
  const costUnits = new Set((await findAll(ctx.tx, JOURNAL_COLLECTIONS.costUnits, ofProfile)).map((d) => d.id));
  const entries = new Map((await findAll(ctx.tx, JOURNAL_COLLECTIONS.matrix, ofProfile)).map((d) => [d.combination as string, d]));
  const keyOf = (edit: MatrixEdit) => matrixCombination({ ...ofProfile, costCenterId: edit.costCenterId, costUnitId: edit.costUnitId });
  const occurrences = new Map<string, number>();
  for (const edit of edits) occurrences.set(keyOf(edit), (occurrences.get(keyOf(edit)) ?? 0) + 1);

  // Per item, in request order; within an item in the order of the contract's codes.
  const failures: Message[] = [];
  let succeeded = 0;
  for (const [index, edit] of edits.entries()) {
    const at = (name: string) => `[${index}].${name}`;
    const key = keyOf(edit);
    const entry = entries.get(key);
    const itemFailures: Message[] = [];
    if ((occurrences.get(key) ?? 0) > 1)
      itemFailures.push(journalMessage(CODES.notUnique, `The combination of cost center ${edit.costCenterId} and cost unit ${edit.costUnitId} occurs more than once in the request.`, [at('costCenterId'), at('costUnitId')], edit.costCenterId));
    if (!costCenters.has(edit.costCenterId))
      itemFailures.push(journalMessage(CODES.costCenterNotExists, `The cost center ${edit.costCenterId} does not exist in this journal profile.`, [at('costCenterId')], edit.costCenterId));
    if (!costUnits.has(edit.costUnitId))
      itemFailures.push(journalMessage(CODES.costUnitNotExists, `The cost unit ${edit.costUnitId} does not exist in this journal profile.`, [at('costUnitId')], edit.costUnitId));
    if (entry?.isLocked === true)
      itemFailures.push(journalMessage(CODES.isLocked, `The combination of cost center ${edit.costCenterId} and cost unit ${edit.costUnitId} is locked; it cannot be ${edit.isLinked ? 'linked' : 'unlinked'}.`, [at('isLinked')], edit.costCenterId));
    if (itemFailures.length > 0) {
      failures.push(...itemFailures);
      continue;
    }
    succeeded++;
    // Linking a linked combination and unlinking an unlinked one change nothing and succeed.
    if (edit.isLinked && !entry) {
      const doc: Doc = { id: ctx.newId(), ...ofProfile, payrollAdministrationId: null, costCenterId: edit.costCenterId, costUnitId: edit.costUnitId, isLocked: false, combination: key };
      await ctx.tx.insert(JOURNAL_COLLECTIONS.matrix, doc);
      entries.set(key, doc);
    } else if (!edit.isLinked && entry) {
      await ctx.tx.remove(JOURNAL_COLLECTIONS.matrix, entry.id);
      entries.delete(key);
    }
  }
  if (succeeded === 0) refuseWhenAny(failures);
  const page = await ctx.list(JOURNAL_COLLECTIONS.matrix, { where: whereEquals(ofProfile), project: readModel });
  return { kind: 'list', page, messages: failures };
};

const matrix: ResourceModule = {
  collections: [
    { name: JOURNAL_COLLECTIONS.matrix, unique: [{ name: 'combination', fields: ['combination'] }], schema: { api: 'journal', component: 'CostCenterCostUnitMatrixEntry' }, relations: [...requiredRelations('journalProfileId', 'costCenterId', 'costUnitId'), ...relationsAtLevels(['payrollAdministration'], 'payrollAdministrationId')] },
  ],
  handlers: {
    GetCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId: listMatrix,
    PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId: editMatrix,
  },
};
export default matrix;
