// Every call must carry an Accept header with the resource version (contract 4.1, 9), so
// every operation declares the Accept header parameter as required: the documented way for
// clients and generated code to know the version is theirs to send.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { findParameter, operationsOf } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { operation, path, parameters, label } of operationsOf(pathItem, context.path)) {
    const accept = findParameter(parameters, 'header', 'Accept');
    if (!accept) {
      results.push({ message: `${label} does not declare the Accept header parameter.`, path: operation.parameters ? [...path, 'parameters'] : path });
    } else if (accept.parameter.required !== true) {
      results.push({ message: `The Accept header parameter of ${label} must be required.`, path: accept.path });
    }
  }
  return results;
});
