// A collection whose `x-sandbox-collection` says `seed: examples` starts, in the sandbox, from
// what the success examples of its reads show. Each doc shown needs an id and its parent ids
// (from the path parameters' examples or the doc itself): the sandbox invents none, so an
// example that says too little is reported here rather than refused when the sandbox starts.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { COLLECTION_EXTENSION, operationShapes } from '@payroll-api/openapi-bundle/operation-shape';
import { exampleSeed } from '@payroll-api/openapi-bundle/operation-examples';
import { isObject } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document) || !isObject(document.paths)) return [];
  return exampleSeed(document, operationShapes(document).values()).problems.map(({ operationId, path, method, problem }) => ({
    message: `${operationId}: ${problem} (${COLLECTION_EXTENSION} says seed: examples).`,
    path: ['paths', path, method],
  }));
});
