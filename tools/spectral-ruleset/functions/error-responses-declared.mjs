// Every call can fail with 400 (cannot be processed), 401 (token invalid), 403 (not
// authorized by the five-step decision) and 50x (unforeseen), contract 7 and the journal
// contract's section 4; declaring them on every operation keeps generated clients' error
// handling complete. The ruleset passes the statuses (400, 401, 403, 500) as options. The
// contract's "50x" is a range, so a declared `5XX` covers 500; the 4xx statuses each mean
// something of their own and are declared one by one.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, operationsOf } from '../lib/openapi.mjs';

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['statuses'],
      properties: { statuses: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[1-5]\\d\\d$' } } },
    },
  },
  (pathItem, { statuses }, context) => {
    const results = [];
    for (const { operation, path, label } of operationsOf(pathItem, context.path)) {
      const responses = isObject(operation.responses) ? operation.responses : {};
      const missing = statuses.filter((status) => !(status in responses) && !(status.startsWith('5') && '5XX' in responses));
      if (missing.length > 0) {
        results.push({ message: `${label} does not declare the ${missing.join(', ')} response(s).`, path: [...path, 'responses'] });
      }
    }
    return results;
  },
);
