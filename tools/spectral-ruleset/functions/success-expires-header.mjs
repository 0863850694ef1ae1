// An Expires header is returned on every response (contract 4.1, caching): most resources
// are not cacheable, logos and photos may be. Every success response declares it so that
// clients and caches are told to honour it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf, successResponses } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { operation, path, label } of operationsOf(pathItem, context.path)) {
    for (const { status, response, path: responsePath } of successResponses(operation, path)) {
      const headers = isObject(response.headers) ? Object.keys(response.headers).map((name) => name.toLowerCase()) : [];
      if (!headers.includes('expires')) {
        results.push({ message: `${label}: the ${status} response does not declare the Expires header.`, path: responsePath });
      }
    }
  }
  return results;
});
