// The contract gives only some paths (section 4.2); where it is silent, the production
// service's published description is the best evidence, and the rest is inferred. Every path
// item says which with `x-path-source: contract | published | inferred`, so a reader can tell
// a path the provider documents from one this description derived. An operation whose own
// placement on that path has weaker evidence than the path (a POST on a path the contract
// gives for listing only) says so with its own `x-path-source`.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf } from '../lib/openapi.mjs';

const SOURCES = ['contract', 'published', 'inferred'];
const LISTED = 'contract, published or inferred';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  if (!isObject(pathItem)) return [];
  const template = String(context.path.at(-1));
  const source = pathItem['x-path-source'];
  if (source === undefined) {
    return [{ message: `Path ${template} has no x-path-source (${LISTED}).` }];
  }
  const results = [];
  if (!SOURCES.includes(source)) {
    results.push({ message: `x-path-source of ${template} must be ${LISTED}, not "${String(source)}".`, path: [...context.path, 'x-path-source'] });
  }
  for (const { operation, path, label } of operationsOf(pathItem, context.path)) {
    const own = operation['x-path-source'];
    if (own !== undefined && !SOURCES.includes(own)) {
      results.push({ message: `x-path-source of ${label} must be ${LISTED}, not "${String(own)}".`, path: [...path, 'x-path-source'] });
    }
  }
  return results;
});
