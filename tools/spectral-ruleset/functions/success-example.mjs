// Every success body is shown by an example: the docs render it, the mock serves it and the
// spec tests validate it against its schema, so a success media type without one leaves all
// three blind.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject, mediaTypesOf, operationsOf, successResponses } from '../lib/openapi.mjs';

function hasExample(media) {
  if ('example' in media) return true;
  return isObject(media.examples) && Object.keys(media.examples).length > 0;
}

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  const results = [];
  for (const { operation, path, label } of operationsOf(pathItem, context.path)) {
    for (const { status, response, path: responsePath } of successResponses(operation, path)) {
      for (const { mediaType, media, path: mediaPath } of mediaTypesOf(response, responsePath)) {
        if (isObject(media.schema) && !hasExample(media)) {
          results.push({ message: `${label}: the ${status} media type "${mediaType}" has a schema but no example or examples.`, path: mediaPath });
        }
      }
    }
  }
  return results;
});
