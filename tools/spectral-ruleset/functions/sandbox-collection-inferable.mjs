// The sandbox answers every operation that no resource module claims from its description
// alone: it reads which component's docs the operation lists, reads or writes from the `$ref`
// of its answer's entity (a list's `_embedded` items, a detail's `content`), or from another
// operation on the same path. Where neither names one, `x-sandbox-collection` must, or the
// operation would reach a sandbox that cannot answer it. Runs on the unresolved bundle, whose
// `$ref`s say the component names.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { COLLECTION_EXTENSION, operationShapes } from '@payroll-api/openapi-bundle/operation-shape';
import { isObject } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document) || !isObject(document.paths)) return [];
  return [...operationShapes(document).values()]
    .filter((shape) => 'problem' in shape)
    .map(({ operationId, path, method, problem }) => ({
      message: `${operationId}: the sandbox cannot tell which stored docs it serves (${problem}); name their collection with ${COLLECTION_EXTENSION}.`,
      path: ['paths', path, method],
    }));
});
