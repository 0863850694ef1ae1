// Administrations (contract §2.5, §4.3 Administration): the payroll and non-payroll
// administrations of an employer, and all those the caller can access, with only the
// properties both kinds share.
import type { Handler, ResourceModule } from '../domain/context.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import type { Doc } from '../store/types.js';
import { mustGet, whereIn } from '../domain/employments/model.js';
import { pureView } from '../domain/views.js';

/**
 * The shared properties (endDate is absent while the administration runs: the schema has no null
 * for it). The wage model's name is kept for the employments (§2.6), which the administration lacks.
 */
export function administrationView(doc: Doc): Record<string, unknown> {
  const { collectiveLaborAgreement: _agreement, payrollPeriodType: _period, wageModelName: _wageModel, endDate, ...shared } = doc;
  return endDate === null || endDate === undefined ? shared : { ...shared, endDate };
}

const handlers: Record<string, Handler> = {
  async GetAdministrationsByEmployerId(ctx) {
    const employer = await mustGet(ctx.tx, ORG_COLLECTIONS.employers, ctx.params.employerId!);
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.administrations, { where: whereIn(['employerId'], [employer.id]), project: pureView(administrationView) }) };
  },

  async GetAdministrationsByBearerToken(ctx) {
    return { kind: 'list', page: await ctx.list(ORG_COLLECTIONS.administrations, { project: pureView(administrationView) }) };
  },
};

const administrations: ResourceModule = {
  // No schema check of stored docs: a running administration is stored with endDate null (the
  // schema has no null for it; the answer leaves it out), so that 'endDate eq null' finds it.
  collections: [{ name: ORG_COLLECTIONS.administrations, relations: [{ field: 'employerId', collection: ORG_COLLECTIONS.employers, required: true }] }],
  handlers,
};

export default administrations;
