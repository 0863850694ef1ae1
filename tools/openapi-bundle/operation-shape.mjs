// What an operation does to stored state, read from its description alone: which component's
// docs it reads or writes, whether it lists, reads one, creates, replaces, merges or removes,
// which path parameter is the doc's id and which are the ids of its parents. The sandbox answers
// any operation no resource module claims from this, and the lint rule
// `sandbox-collection-inferable` asks for `x-sandbox-collection` where it cannot be read.
import { deref, isListEnvelope, operationsOf, successContent } from './index.mjs';

export const COLLECTION_EXTENSION = 'x-sandbox-collection';

const KIND_OF_METHOD = { post: 'create', put: 'replace', patch: 'merge', delete: 'remove' };
const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The `{name}` of each path parameter segment, in path order. */
export function pathParameters(path) {
  return [...String(path).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** The first schema of a content map that is JSON (application/json, text/json, +json), else any with a schema. */
function jsonSchemaOf(content) {
  const entries = Object.entries(content ?? {}).filter(([, media]) => media && typeof media === 'object' && media.schema);
  const json = entries.find(([type]) => /^(application|text)\/([\w.+-]+\+)?json\b/i.test(type)) ?? entries[0];
  return json?.[1].schema;
}

/** Every declaration of a property through allOf parts and $refs (raw nodes, so that their own $refs are kept). */
function propertyDeclarations(doc, schema, name, depth = 0) {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 10) return [];
  const own = s.properties && name in s.properties ? [s.properties[name]] : [];
  return [...own, ...(s.allOf ?? []).flatMap((part) => propertyDeclarations(doc, part, name, depth + 1))];
}

/** The component a raw schema node names by `$ref` (through one allOf of a single $ref), or undefined. */
function componentOf(node) {
  if (!node || typeof node !== 'object') return undefined;
  const ref = typeof node.$ref === 'string' ? node.$ref : Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf[0]?.$ref : undefined;
  return COMPONENT_REF.exec(ref ?? '')?.[1];
}

/** The component of the entity an answer carries: a list's `_embedded` items, a detail's `content`. */
function answerComponent(doc, operation) {
  const schema = jsonSchemaOf(successContent(doc, operation));
  if (!schema) return undefined;
  const list = isListEnvelope(doc, schema);
  for (const declaration of propertyDeclarations(doc, schema, list ? '_embedded' : 'content')) {
    const component = componentOf(list ? deref(doc, declaration)?.items : declaration);
    if (component) return component;
  }
  return undefined;
}

/** A plural, lower camel case collection name for a component: CostUnitGroup → costUnitGroups. */
export function collectionNameOf(component) {
  const camel = component.charAt(0).toLowerCase() + component.slice(1);
  if (/[^aeiou]y$/.test(camel)) return `${camel.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(camel)) return `${camel}es`;
  return `${camel}s`;
}

const COLLECTION_NAME = /^[A-Za-z][\w-]*$/;
const SEEDS = ['empty', 'examples'];

/**
 * `x-sandbox-collection` read: a collection name, or `{ name?, seed? }` where `seed: examples`
 * starts the collection from the examples of its operations (`empty`, the default, from nothing).
 */
function readAnnotation(annotation) {
  if (annotation === undefined) return { name: undefined, seed: 'empty' };
  if (typeof annotation === 'string') return COLLECTION_NAME.test(annotation) ? { name: annotation, seed: 'empty' } : { problem: `${COLLECTION_EXTENSION} must be a collection name (letters, digits, _ and -)` };
  if (!annotation || typeof annotation !== 'object' || Array.isArray(annotation)) return { problem: `${COLLECTION_EXTENSION} must be a collection name or an object { name, seed }` };
  const unknown = Object.keys(annotation).filter((key) => key !== 'name' && key !== 'seed');
  if (unknown.length > 0) return { problem: `${COLLECTION_EXTENSION} takes only name and seed (not ${unknown.join(', ')})` };
  const { name, seed = 'empty' } = annotation;
  if (name !== undefined && (typeof name !== 'string' || !COLLECTION_NAME.test(name))) return { problem: `${COLLECTION_EXTENSION}.name must be a collection name (letters, digits, _ and -)` };
  if (!SEEDS.includes(seed)) return { problem: `${COLLECTION_EXTENSION}.seed must be ${SEEDS.join(' or ')}` };
  return { name, seed };
}

/**
 * The shape of every operation of a bundle, by operationId. Each is either
 * `{ operationId, path, method, kind, component, collection, annotated, seed, idParameter, parents }`
 * or `{ operationId, path, method, problem }` when the description does not say which docs it
 * touches. `collection` is the `x-sandbox-collection` of the operation (or its path item) when
 * it names one, else the component's own name (`collectionNameOf`); `seed` is how the
 * annotation says the collection starts (`empty` without one).
 */
export function operationShapes(doc) {
  const entries = [...operationsOf(doc)];
  const answered = new Map();
  for (const entry of entries) answered.set(entry, answerComponent(doc, entry.operation));
  const shapes = new Map();
  for (const entry of entries) {
    const { path, method, pathItem, operation } = entry;
    const operationId = operation.operationId;
    if (typeof operationId !== 'string') continue;
    const base = { operationId, path, method };
    const kind = method === 'get' ? (isListEnvelope(doc, jsonSchemaOf(successContent(doc, operation))) ? 'list' : 'detail') : KIND_OF_METHOD[method];
    if (!kind) {
      shapes.set(operationId, { ...base, problem: `${method.toUpperCase()} is no read or write of stored docs` });
      continue;
    }
    const params = pathParameters(path);
    const endsWithId = /\}$/.test(path) && kind !== 'create' && kind !== 'list';
    const idParameter = endsWithId ? params[params.length - 1] : null;
    const parents = idParameter ? params.slice(0, -1) : params;
    // An answer without the entity (a delete's empty detail) takes the component the other
    // operations on the same path answer.
    const siblings = entries.filter((other) => other !== entry && other.path === path).map((other) => answered.get(other)).filter(Boolean);
    const component = answered.get(entry) ?? (new Set(siblings).size === 1 ? siblings[0] : undefined);
    const read = readAnnotation(operation[COLLECTION_EXTENSION] ?? pathItem[COLLECTION_EXTENSION]);
    if ('problem' in read) {
      shapes.set(operationId, { ...base, problem: read.problem });
      continue;
    }
    const { name: annotation, seed } = read;
    if (!component && annotation === undefined) {
      shapes.set(operationId, {
        ...base,
        problem: `neither its answer nor another operation of ${path} names by $ref the component of the docs it ${kind === 'list' || kind === 'detail' ? 'reads' : 'writes'}`,
      });
      continue;
    }
    shapes.set(operationId, {
      ...base,
      kind,
      component: component ?? null,
      collection: annotation ?? collectionNameOf(component),
      annotated: annotation !== undefined,
      seed,
      idParameter,
      parents,
    });
  }
  return shapes;
}

/**
 * The collection whose docs a path parameter names: the one an operation reads or writes whose
 * path ends in that parameter (`{journalProfileId}` → the journal profiles), when exactly one does.
 */
export function parameterCollections(shapes) {
  const found = new Map();
  for (const shape of shapes.values()) {
    if (!shape.idParameter || !shape.collection) continue;
    const known = found.get(shape.idParameter);
    found.set(shape.idParameter, known === undefined || known === shape.collection ? shape.collection : null);
  }
  return new Map([...found].filter(([, collection]) => collection !== null));
}
