// An Expires header is returned on every response (contract 4.1, caching), errors included:
// most resources are not cacheable, logos and photos may be. Every response of every
// operation declares it so that clients and caches are told to honour it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { operation, path, label } of operationsOf(pathItem, context.path)) {
    for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
      if (!isObject(response)) continue;
      const headers = isObject(response.headers) ? Object.keys(response.headers).map((name) => name.toLowerCase()) : [];
      if (!headers.includes('expires')) {
        results.push({ message: `${label}: the ${status} response does not declare the Expires header.`, path: [...path, 'responses', status] });
      }
    }
  }
  return results;
});
