// A collection is paged, filtered and ordered the same way everywhere (contract 2.1, 4.1): a
// GET answering with the list envelope takes filter, orderBy, pageNumber and pageSize, and an
// operation taking pageNumber or pageSize answers with the list envelope (the one that
// reports totalPages and currentPage back).
import { createRulesetFunction } from '@stoplight/spectral-core';
import { findParameter, isJsonMediaType, isListEnvelope, mediaTypesOf, operationsOf, successResponses } from '../lib/openapi.mjs';

const LIST_PARAMETERS = ['filter', 'orderBy', 'pageNumber', 'pageSize'];
const PAGING_PARAMETERS = ['pageNumber', 'pageSize'];

function answersWithList(operation, path) {
  return successResponses(operation, path).some(({ response, path: responsePath }) =>
    mediaTypesOf(response, responsePath).some(({ mediaType, media }) => isJsonMediaType(mediaType) && isListEnvelope(media.schema)),
  );
}

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { method, operation, path, parameters, label } of operationsOf(pathItem, context.path)) {
    const isList = answersWithList(operation, path);
    if (isList && method === 'get') {
      const missing = LIST_PARAMETERS.filter((name) => !findParameter(parameters, 'query', name));
      if (missing.length > 0) {
        results.push({
          message: `${label} answers with the list envelope but lacks the query parameter(s) ${missing.join(', ')}.`,
          path: operation.parameters ? [...path, 'parameters'] : path,
        });
      }
    }
    if (!isList) {
      for (const name of PAGING_PARAMETERS) {
        const found = findParameter(parameters, 'query', name);
        if (found) {
          results.push({ message: `${label} takes ${name} but does not answer with the list envelope.`, path: found.path });
        }
      }
    }
  }
  return results;
});
