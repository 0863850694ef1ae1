// operationId is the contract's activity name: a verb (Get, Post, Put, Patch, Delete) and a
// PascalCase name. The contract identifies operations by activity and method and says the
// method is the name's verb; authorization is granted per activity, so a form of an activity
// that needs its own operationId (x-activity) must still be recognisably that activity.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { operationsOf } from '../lib/openapi.mjs';

const ACTIVITY = /^(Get|Post|Put|Patch|Delete)[A-Z][A-Za-z0-9]*$/;

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { method, operation, path, label } of operationsOf(pathItem, context.path)) {
    const id = operation.operationId;
    if (typeof id !== 'string' || id === '') {
      results.push({ message: `${label} has no operationId; it must be the activity name.`, path });
      continue;
    }
    const idPath = [...path, 'operationId'];
    const match = ACTIVITY.exec(id);
    if (!match) {
      results.push({
        message: `operationId "${id}" of ${label} is not an activity name (Get|Post|Put|Patch|Delete followed by a PascalCase name).`,
        path: idPath,
      });
      continue;
    }
    if (match[1].toLowerCase() !== method) {
      results.push({
        message: `operationId "${id}" starts with the verb ${match[1]}, but the operation's method is ${method.toUpperCase()}.`,
        path: idPath,
      });
    }
    const activity = operation['x-activity'];
    if (activity !== undefined) {
      if (typeof activity !== 'string' || !ACTIVITY.test(activity)) {
        results.push({ message: `x-activity of ${label} is not an activity name.`, path: [...path, 'x-activity'] });
      } else if (!id.startsWith(activity)) {
        results.push({ message: `operationId "${id}" does not start with its x-activity "${activity}".`, path: idPath });
      }
    }
  }
  return results;
});
