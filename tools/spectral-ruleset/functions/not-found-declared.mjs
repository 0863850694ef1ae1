// An operation addressing an entity by id can answer 404 when the entity does not exist
// (contract 7; the journal contract lists 404 for every operation). Any path with a
// parameter addresses something that may not exist, so its operations declare 404.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const template = String(context.path.at(-1));
  if (!/\{[^}]+\}/.test(template)) return [];
  return operationsOf(pathItem, context.path)
    .filter(({ operation }) => !(isObject(operation.responses) && '404' in operation.responses))
    .map(({ path, label }) => ({ message: `${label} addresses an entity by path parameter but does not declare 404.`, path: [...path, 'responses'] }));
});
