// Readers copy the Accept and Content-Type examples of the reference into their requests. A
// request naming a resource version the operation does not serve gets a 400 (contract 9: the
// newest version dated on or before the requested one is served), so every versioned media
// type an operation's Accept or Content-Type header example names must be one of the versions
// the `x-resource-versions` registry records for the operation's resource.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { allOperations, findParameter, isObject, mediaTypeVersion } from '../lib/openapi.mjs';

const HEADERS = ['Accept', 'Content-Type'];

/** operationId -> {name, versions} of its registry resource (the registry's own shape is
 * checked by versioned-media-types). */
function resourcesByOperation(registry) {
  const byOperation = new Map();
  for (const [name, resource] of Object.entries(isObject(registry?.resources) ? registry.resources : {})) {
    const versions = (Array.isArray(resource?.versions) ? resource.versions : []).map((entry) => entry?.version);
    for (const operationId of Array.isArray(resource?.operations) ? resource.operations : []) byOperation.set(operationId, { name, versions });
  }
  return byOperation;
}

/** Every example value of a parameter, with its path. */
function examplesOf(parameter, parameterPath) {
  const found = [];
  if ('example' in parameter) found.push({ value: parameter.example, path: [...parameterPath, 'example'] });
  if (isObject(parameter.schema) && 'example' in parameter.schema) found.push({ value: parameter.schema.example, path: [...parameterPath, 'schema', 'example'] });
  for (const [name, example] of Object.entries(isObject(parameter.examples) ? parameter.examples : {})) {
    if (isObject(example) && 'value' in example) found.push({ value: example.value, path: [...parameterPath, 'examples', name, 'value'] });
  }
  return found;
}

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [];
  const byOperation = resourcesByOperation(document['x-resource-versions']);
  const results = [];
  for (const { operation, parameters, label } of allOperations(document)) {
    const resource = byOperation.get(operation.operationId);
    if (!resource) continue;
    for (const header of HEADERS) {
      const found = findParameter(parameters, 'header', header);
      if (!found) continue;
      for (const { value, path } of examplesOf(found.parameter, found.path)) {
        // A header example may be a list of media ranges (`application/json;version=…, */*`).
        for (const range of String(value).split(',')) {
          const version = mediaTypeVersion(range);
          if (version !== null && !resource.versions.includes(version)) {
            results.push({
              message: `${label}: the ${header} example "${range.trim()}" names version ${version}, which resource "${resource.name}" does not serve (${resource.versions.join(', ')}).`,
              path,
            });
          }
        }
      }
    }
  }
  return results;
});
