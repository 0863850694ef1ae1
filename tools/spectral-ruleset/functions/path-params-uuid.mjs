// Identifiers in paths are the resources' uuids (contract 1 and 4.3; journal contract 4:
// "all path parameters are uuid and required"). Declaring each as a required uuid string
// lets clients and the mock validate an id before calling.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf, typesOf } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  const reported = new Set();
  for (const { parameters, label } of operationsOf(pathItem, context.path)) {
    for (const { parameter, path } of parameters) {
      const key = path.join('\u0000');
      if (parameter.in !== 'path' || reported.has(key)) continue;
      reported.add(key); // a path-level parameter is shared by the operations; report it once
      const sharedByPath = path.length === context.path.length + 2; // [...pathItem, 'parameters', i]
      const where = `path parameter "${parameter.name}" of ${sharedByPath ? String(context.path.at(-1)) : label}`;
      if (parameter.required !== true) {
        results.push({ message: `The ${where} must be required.`, path });
      }
      const schema = parameter.schema;
      const types = typesOf(schema);
      if (!isObject(schema) || types.length !== 1 || types[0] !== 'string' || schema.format !== 'uuid') {
        results.push({ message: `The ${where} must have schema {type: string, format: uuid}.`, path: isObject(schema) ? [...path, 'schema'] : path });
      }
    }
  }
  return results;
});
