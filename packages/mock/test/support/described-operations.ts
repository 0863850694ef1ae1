// The journal description with three operations no resource module claims, as a maintainer
// would add them: a GET of one cost unit (on the cost unit's path), a new resource (cost unit
// groups of a wage model journal profile) with a list and a create, and a PATCH of one group.
// The sandbox must answer all three from its state, with no code of its own.
import { bundles } from './bundle-schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorResponses = {
  '400': { description: 'The request is not valid.', content: json(ref('JournalBadRequestDetailResult')) },
  '404': { $ref: '#/components/responses/JournalNotFound' },
};

export const COST_UNITS_PATH = '/journal/providers/wagemodels/journalprofiles/costunits/{costUnitId}';
export const GROUPS_PATH = '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunitgroups';
export const GROUP_PATH = '/journal/providers/wagemodels/journalprofiles/costunitgroups/{costUnitGroupId}';

export function describedJournal(): Record<string, unknown> {
  const doc = structuredClone(bundles.journal) as Record<string, any>;
  Object.assign(doc.components.schemas, {
    CostUnitGroup: { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, code: { type: 'string', maxLength: 10 }, description: { type: ['string', 'null'], maxLength: 50 } } },
    CostUnitGroupPost: { type: 'object', required: ['code'], properties: { code: { type: 'string', maxLength: 10 }, description: { type: ['string', 'null'], maxLength: 50 } } },
    CostUnitGroupPatch: { type: 'object', properties: { code: { type: 'string', maxLength: 10 }, description: { type: ['string', 'null'], maxLength: 50 } } },
    CostUnitGroupList: { allOf: [ref('JournalListResult'), { type: 'object', properties: { _embedded: { type: 'array', items: ref('CostUnitGroup') } } }] },
    CostUnitGroupDetail: { allOf: [ref('JournalDetailResult'), { type: 'object', properties: { content: ref('CostUnitGroup') } }] },
  });
  const profileId = doc.paths['/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunits'].parameters;
  doc.paths[COST_UNITS_PATH].get = {
    operationId: 'GetCostUnitAtWageModelLevelByCostUnitId',
    tags: ['Cost units'],
    responses: { '200': { description: 'The cost unit.', content: json(ref('CostUnitDetail')) }, ...errorResponses },
  };
  doc.paths[GROUPS_PATH] = {
    parameters: profileId,
    get: { operationId: 'GetCostUnitGroupsByJournalProfileId', tags: ['Cost unit groups'], responses: { '200': { description: 'The groups.', content: json(ref('CostUnitGroupList')) }, ...errorResponses } },
    post: {
      operationId: 'PostCostUnitGroupByJournalProfileId',
      tags: ['Cost unit groups'],
      requestBody: { required: true, content: json(ref('CostUnitGroupPost')) },
      responses: { '201': { description: 'The new group.', content: json(ref('CostUnitGroupDetail')) }, ...errorResponses },
    },
  };
  doc.paths[GROUP_PATH] = {
    parameters: [{ name: 'costUnitGroupId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    patch: {
      operationId: 'PatchCostUnitGroupByCostUnitGroupId',
      tags: ['Cost unit groups'],
      requestBody: { required: true, content: json(ref('CostUnitGroupPatch')) },
      responses: { '200': { description: 'The edited group.', content: json(ref('CostUnitGroupDetail')) }, ...errorResponses },
    },
  };
  return doc;
}
