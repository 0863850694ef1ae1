// A processed POST answers 201, GET, PUT, PATCH and DELETE answer 200 (contract 7; the
// journal contract says the same of its creates). A POST documenting 200 would tell
// clients to expect a status the API never sends.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (operation, _options, context) => {
  if (!isObject(operation)) return [];
  const responses = isObject(operation.responses) ? operation.responses : {};
  const results = [];
  if (!('201' in responses)) {
    results.push({ message: 'A POST must declare the 201 response.', path: [...context.path, 'responses'] });
  }
  if ('200' in responses) {
    results.push({ message: 'A POST answers 201, never 200: remove the 200 response.', path: [...context.path, 'responses', '200'] });
  }
  return results;
});
