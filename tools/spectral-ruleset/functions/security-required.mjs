// Every call needs a bearer token of the OAuth2 service (contract 5). Each operation's
// effective security (its own, else the document's) must be non-empty, must not allow an
// anonymous call (an empty requirement `{}`), and must reference only defined schemes, at
// least one of them OAuth2 in every requirement.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { allOperations, isObject } from '../lib/openapi.mjs';

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [];
  const schemes = isObject(document.components?.securitySchemes) ? document.components.securitySchemes : {};
  const results = [];
  for (const { operation, path, label } of allOperations(document)) {
    const own = operation.security !== undefined;
    const security = own ? operation.security : document.security;
    const securityPath = own ? [...path, 'security'] : path;
    if (!Array.isArray(security) || security.length === 0) {
      results.push({ message: `${label} has no security: set it on the document (or the operation).`, path: securityPath });
      continue;
    }
    security.forEach((requirement, index) => {
      const requirementPath = own ? [...securityPath, index] : ['security', index];
      const names = isObject(requirement) ? Object.keys(requirement) : [];
      if (names.length === 0) {
        results.push({ message: `${label} allows an anonymous call (an empty security requirement).`, path: requirementPath });
        return;
      }
      const undefinedNames = names.filter((name) => !isObject(schemes[name]));
      for (const name of undefinedNames) {
        results.push({ message: `${label} references the undefined security scheme "${name}".`, path: [...requirementPath, name] });
      }
      if (undefinedNames.length === 0 && !names.some((name) => schemes[name].type === 'oauth2')) {
        results.push({ message: `${label} is secured without an OAuth2 scheme (${names.join(', ')}).`, path: requirementPath });
      }
    });
  }
  return results;
});
