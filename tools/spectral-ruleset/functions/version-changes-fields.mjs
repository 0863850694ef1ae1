// Every version change record (`x-version-changes`, written by `pnpm api:version` or by hand)
// joins two served versions of a resource, and the sandbox and every server run it to serve
// the older version from the newer state (contract 9: the old version is served until its
// obsoleteDate). A record naming a field that is not there would run as nothing and serve the
// older version wrong. So each step joins two versions the registry lists for its resource,
// and each change names fields that exist where it says: what it renames, removes, retypes or
// revalues in some media type of the version before, and the result in some media type of its
// own version; a removed field is gone from the new version and an added one new in it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { RECORD_KEY, changeFields, recordProblems, schemaHasField } from '@payroll-api/version-changes';
import { allOperations, isObject, mediaTypeVersion, mediaTypesOf, successResponses } from '../lib/openapi.mjs';

/** The schemas of every media type of a resource's operations, by version (request bodies and answers). */
function schemasByVersion(document, operations) {
  const byVersion = new Map();
  for (const { operation, path } of allOperations(document)) {
    if (!operations.includes(operation.operationId)) continue;
    const owners = [...mediaTypesOf(operation.requestBody, [...path, 'requestBody']), ...successResponses(operation, path).flatMap(({ response, path: at }) => mediaTypesOf(response, at))];
    for (const { mediaType, media } of owners) {
      const version = mediaTypeVersion(mediaType);
      if (!version || !isObject(media.schema)) continue;
      if (!byVersion.has(version)) byVersion.set(version, []);
      byVersion.get(version).push(media.schema);
    }
  }
  return byVersion;
}

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document) || !(RECORD_KEY in document)) return [];
  const record = document[RECORD_KEY];
  const problems = recordProblems(record);
  if (problems.length > 0) return problems.map((problem) => ({ message: `${RECORD_KEY}: ${problem}.`, path: [RECORD_KEY] }));
  const resources = isObject(document['x-resource-versions']?.resources) ? document['x-resource-versions'].resources : {};
  const results = [];
  for (const [name, steps] of Object.entries(record)) {
    const resource = resources[name];
    if (!isObject(resource)) {
      results.push({ message: `${RECORD_KEY}: "${name}" is not a resource of the x-resource-versions registry.`, path: [RECORD_KEY, name] });
      continue;
    }
    // The registry's own shape is checked by versioned-media-types.
    const served = (Array.isArray(resource.versions) ? resource.versions : []).map((entry) => entry?.version);
    const schemas = schemasByVersion(document, Array.isArray(resource.operations) ? resource.operations : []);
    const has = (version, field) => (schemas.get(version) ?? []).some((schema) => schemaHasField(schema, field));
    steps.forEach((step, index) => {
      const stepPath = [RECORD_KEY, name, index];
      const where = `${RECORD_KEY} ${name} ${step.previous} → ${step.version}`;
      const unknown = [step.previous, step.version].filter((version) => !served.includes(version));
      if (unknown.length > 0) {
        results.push({ message: `${where}: ${unknown.join(' and ')} ${unknown.length > 1 ? 'are not versions' : 'is not a version'} the registry lists for "${name}" (${served.join(', ')}).`, path: stepPath });
        return;
      }
      step.changes.forEach((change, changeIndex) => {
        const { kind, before, after } = changeFields(change);
        const say = (message) => results.push({ message: `${where}, ${kind} ${before ?? after}: ${message}`, path: [...stepPath, 'changes', changeIndex] });
        if (before !== null && !has(step.previous, before)) say(`"${before}" is not a field of ${name} ${step.previous}.`);
        if (after !== null && !has(step.version, after)) say(`"${after}" is not a field of ${name} ${step.version}.`);
        if (kind === 'remove' && has(step.version, before)) say(`"${before}" is still a field of ${name} ${step.version}.`);
        if (kind === 'add' && has(step.previous, after)) say(`"${after}" is already a field of ${name} ${step.previous}.`);
      });
    });
  }
  return results;
});
