// Shared readers of an OpenAPI document, used by the rule functions. They work on the
// resolved document Spectral hands to a function (references already inlined), so a
// parameter or schema given by `$ref` and one written inline read the same.

import { HTTP_METHODS, mediaTypeVersion } from '@payroll-api/openapi-bundle';

export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operations of one path item, with the parameters that apply to each (path-level ones
 * included, an operation-level parameter replacing a path-level one of the same name and
 * location), every piece carrying its JSON path for reporting. */
export function operationsOf(pathItem, pathItemPath) {
  if (!isObject(pathItem)) return [];
  const template = String(pathItemPath.at(-1));
  const shared = parametersAt(pathItem.parameters, [...pathItemPath, 'parameters']);
  return HTTP_METHODS.filter((method) => isObject(pathItem[method])).map((method) => {
    const operation = pathItem[method];
    const path = [...pathItemPath, method];
    const own = parametersAt(operation.parameters, [...path, 'parameters']);
    const ownKeys = new Set(own.map(({ parameter }) => parameterKey(parameter)));
    const parameters = [...shared.filter(({ parameter }) => !ownKeys.has(parameterKey(parameter))), ...own];
    return { method, operation, path, parameters, template, label: `${method.toUpperCase()} ${template}` };
  });
}

/** Every operation of the document's `paths`. */
export function allOperations(document) {
  if (!isObject(document) || !isObject(document.paths)) return [];
  return Object.entries(document.paths).flatMap(([template, item]) => operationsOf(item, ['paths', template]));
}

function parametersAt(list, path) {
  if (!Array.isArray(list)) return [];
  return list.flatMap((parameter, index) => (isObject(parameter) ? [{ parameter, path: [...path, index] }] : []));
}

function parameterKey(parameter) {
  // Header names are case insensitive; other names are not.
  const name = String(parameter.name);
  return `${parameter.in}:${parameter.in === 'header' ? name.toLowerCase() : name}`;
}

/** The parameter with this name and location, if the operation has it. */
export function findParameter(parameters, location, name) {
  const wanted = location === 'header' ? name.toLowerCase() : name;
  return parameters.find(({ parameter }) => {
    const actual = location === 'header' ? String(parameter.name).toLowerCase() : parameter.name;
    return parameter.in === location && actual === wanted;
  });
}

/** `application/json`, `text/json` and any `…/…+json`, whatever their parameters. */
export function isJsonMediaType(mediaType) {
  const essence = String(mediaType).split(';')[0].trim().toLowerCase();
  return essence === 'application/json' || essence === 'text/json' || /^[\w.*-]+\/[\w.*-]+\+json$/.test(essence);
}

// Re-exported for the rule functions: one reading of a media type's version= for every tool.
export { mediaTypeVersion };

/** The 2xx responses of an operation (`200`…`299` and `2XX`). */
export function successResponses(operation, operationPath) {
  if (!isObject(operation.responses)) return [];
  return Object.entries(operation.responses)
    .filter(([status, response]) => /^2(\d\d|XX)$/i.test(status) && isObject(response))
    .map(([status, response]) => ({ status, response, path: [...operationPath, 'responses', status] }));
}

/** The media types of a response or request body, with their paths. */
export function mediaTypesOf(owner, ownerPath) {
  if (!isObject(owner) || !isObject(owner.content)) return [];
  return Object.entries(owner.content)
    .filter(([, media]) => isObject(media))
    .map(([mediaType, media]) => ({ mediaType, media, path: [...ownerPath, 'content', mediaType] }));
}

/** The properties a schema declares, through any depth of `allOf` composition. */
export function composedProperties(schema, seen = new Set()) {
  if (!isObject(schema) || seen.has(schema)) return {};
  seen.add(schema);
  const fromParts = Array.isArray(schema.allOf)
    ? schema.allOf.reduce((acc, part) => mergeProperties(acc, composedProperties(part, seen)), {})
    : {};
  return mergeProperties(fromParts, isObject(schema.properties) ? schema.properties : {});
}

function mergeProperties(left, right) {
  const merged = { ...left };
  for (const [name, schema] of Object.entries(right)) {
    merged[name] = name in merged ? { allOf: [merged[name], schema] } : schema;
  }
  return merged;
}

/** Whether a property schema (possibly narrowed through allOf) is, or composes, an array. */
function declaresArray(schema, seen = new Set()) {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) return true;
  return Array.isArray(schema.allOf) && schema.allOf.some((part) => declaresArray(part, seen));
}

const LIST_ENVELOPE_FIELDS = ['totalSize', 'pageSize', 'totalPages', 'currentPage'];

/** Whether a schema composes the list envelope: an `_embedded` array and the paging fields. */
export function isListEnvelope(schema) {
  const properties = composedProperties(schema);
  return declaresArray(properties._embedded) && LIST_ENVELOPE_FIELDS.every((field) => field in properties);
}

/** JSON Schema `type` as a list (a 3.1 type array, or one type). */
export function typesOf(schema) {
  if (!isObject(schema)) return [];
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type === undefined ? [] : [schema.type];
}
