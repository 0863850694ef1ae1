// Every JSON resource is versioned through the media type (contract 9): responses through
// Accept, request bodies through Content-Type, `application/json;version=yyyy-MM-dd`. The
// registry `x-resource-versions` at the bundle root is the one record of which versions each
// resource serves, so an operation's versioned keys must be exactly its resource's versions,
// newest first, and an example must report the version of the media type it sits under.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { allOperations, isJsonMediaType, isObject, mediaTypesOf, mediaTypeVersion, successResponses } from '../lib/openapi.mjs';

const REGISTRY = 'x-resource-versions';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks the registry's shape; returns operationId -> [{name, versions}] and the findings. */
function readRegistry(registry) {
  const results = [];
  const byOperation = new Map();
  if (!isObject(registry) || !isObject(registry.resources)) {
    results.push({ message: `The document has no ${REGISTRY} registry with resources.`, path: isObject(registry) ? [REGISTRY] : [] });
    return { byOperation, results };
  }
  for (const [name, resource] of Object.entries(registry.resources)) {
    const path = [REGISTRY, 'resources', name];
    const operations = Array.isArray(resource?.operations) ? resource.operations : [];
    const entries = Array.isArray(resource?.versions) ? resource.versions : [];
    const versions = entries.map((entry) => entry?.version);
    if (versions.length === 0 || !versions.every((v) => typeof v === 'string' && DATE.test(v))) {
      results.push({ message: `Registry resource "${name}" must list its versions as yyyy-MM-dd dates.`, path: [...path, 'versions'] });
    } else if (versions.some((v, i) => i > 0 && versions[i - 1] <= v)) {
      results.push({ message: `Registry resource "${name}" must list its versions newest first, each once.`, path: [...path, 'versions'] });
    }
    for (const operationId of operations) {
      byOperation.set(operationId, [...(byOperation.get(operationId) ?? []), { name, versions }]);
    }
  }
  return { byOperation, results };
}

function sameList(left, right) {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** The versioned JSON media types of an operation, grouped by owner (each response, the body). */
function versionedOwners(operation, path) {
  const owners = successResponses(operation, path).map(({ status, response, path: responsePath }) => ({
    what: `the ${status} response`,
    media: mediaTypesOf(response, responsePath),
  }));
  if (isObject(operation.requestBody)) {
    owners.push({ what: 'the request body', media: mediaTypesOf(operation.requestBody, [...path, 'requestBody']) });
  }
  return owners.map((owner) => ({ ...owner, media: owner.media.filter(({ mediaType }) => isJsonMediaType(mediaType)) }));
}

function checkExamples(media, version, mediaPath) {
  const results = [];
  const check = (value, path) => {
    const reported = isObject(value) && isObject(value.version) ? value.version.resourceVersion : undefined;
    if (reported !== undefined && reported !== version) {
      results.push({ message: `The example reports version.resourceVersion ${reported}, but its media type is version ${version}.`, path });
    }
  };
  if ('example' in media) check(media.example, [...mediaPath, 'example']);
  if (isObject(media.examples)) {
    for (const [name, example] of Object.entries(media.examples)) {
      if (isObject(example) && 'value' in example) check(example.value, [...mediaPath, 'examples', name, 'value']);
    }
  }
  return results;
}

export default createRulesetFunction({ input: null, options: null }, (document) => {
  if (!isObject(document)) return [];
  const { byOperation, results } = readRegistry(document[REGISTRY]);
  const operations = allOperations(document);
  const known = new Set(operations.map(({ operation }) => operation.operationId));
  for (const [operationId, resources] of byOperation) {
    if (!known.has(operationId)) {
      results.push({ message: `Registry resource "${resources[0].name}" lists "${operationId}", which is no operation of the document.`, path: [REGISTRY, 'resources', resources[0].name, 'operations'] });
    }
  }
  // Without a registry its absence is reported once, not once per operation.
  const hasRegistry = isObject(document[REGISTRY]?.resources);

  for (const { operation, path, label } of operations) {
    const resources = byOperation.get(operation.operationId) ?? [];
    if (hasRegistry && resources.length !== 1) {
      results.push({
        message: resources.length === 0
          ? `${label} (${operation.operationId}) is in no resource of the ${REGISTRY} registry.`
          : `${label} (${operation.operationId}) is in several registry resources: ${resources.map((r) => r.name).join(', ')}.`,
        path: [...path, 'operationId'],
      });
    }
    const served = resources.length === 1 ? resources[0].versions : null;
    for (const { what, media } of versionedOwners(operation, path)) {
      const keyed = new Map(); // media type without parameters -> versions, in key order
      for (const { mediaType, media: object, path: mediaPath } of media) {
        const version = mediaTypeVersion(mediaType);
        if (version === null) {
          results.push({ message: `${label}: media type "${mediaType}" of ${what} is not versioned (;version=yyyy-MM-dd).`, path: mediaPath });
          continue;
        }
        const essence = mediaType.split(';')[0].trim().toLowerCase();
        keyed.set(essence, [...(keyed.get(essence) ?? []), version]);
        if (served && !served.includes(version)) {
          results.push({ message: `${label}: version ${version} of ${what} is not served by resource "${resources[0].name}" (${served.join(', ')}).`, path: mediaPath });
        }
        results.push(...checkExamples(object, version, mediaPath));
      }
      if (!served) continue;
      const newestFirst = [...served].sort().reverse(); // a misordered registry is reported above
      for (const [essence, versions] of keyed) {
        const contentPath = media[0].path.slice(0, -1);
        const missing = served.filter((version) => !versions.includes(version));
        if (missing.length > 0) {
          results.push({ message: `${label}: ${what} lacks ${essence} keys for the served version(s) ${missing.join(', ')} of resource "${resources[0].name}".`, path: contentPath });
        } else if (!sameList(versions.filter((v) => served.includes(v)), newestFirst)) {
          results.push({ message: `${label}: the ${essence} keys of ${what} must list the versions newest first (${newestFirst.join(', ')}).`, path: contentPath });
        }
      }
    }
  }
  return results;
});
