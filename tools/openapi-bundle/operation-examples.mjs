// The docs a collection starts from when its `x-sandbox-collection` says `seed: examples`: what
// the success examples of its reads show (a list's `_embedded` items, a detail's `content`),
// each stored under its parents. A parent id comes from the example of the path parameter that
// names it, else from the example doc's own field of that name, else from the same doc (by id)
// in another read's example; a doc whose parent none of them gives is a problem, as is an item
// without an id. Nothing is invented: only what the description's examples say. The sandbox
// seeds from this, and the lint rule `sandbox-collection-seedable` reports its problems.
import { deref, successContent } from './index.mjs';

const JSON_MEDIA = /^(application|text)\/([\w.+-]+\+)?json\b/i;

/** The example values of a media or parameter object: `example`, else each of `examples`. */
function exampleValues(doc, node) {
  if (!node || typeof node !== 'object') return [];
  if (node.example !== undefined) return [node.example];
  return Object.values(node.examples ?? {})
    .map((example) => deref(doc, example)?.value)
    .filter((value) => value !== undefined);
}

/** The example of each path parameter an operation (or its path item) declares, by name. */
function pathParameterExamples(doc, pathItem, operation) {
  const found = new Map();
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = deref(doc, raw);
    if (parameter?.in !== 'path') continue;
    const [value] = [...exampleValues(doc, parameter), ...exampleValues(doc, deref(doc, parameter.schema))];
    if (value !== undefined) found.set(parameter.name, String(value));
  }
  return found;
}

/** The docs a read's success examples show. */
function shownDocs(doc, kind, operation) {
  const media = Object.entries(successContent(doc, operation)).filter(([type]) => JSON_MEDIA.test(type));
  const values = media.flatMap(([, node]) => exampleValues(doc, node));
  return values.flatMap((value) => (kind === 'list' ? (Array.isArray(value?._embedded) ? value._embedded : []) : value?.content !== undefined ? [value.content] : []));
}

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The seed of each collection one of whose shapes says `seed: examples`, from the list and
 * detail reads among `shapes` (operation shapes of `doc`, as `operationShapes` gives them, with
 * the collection they resolved to). `{ collections: Map<name, docs>, problems }`.
 */
export function exampleSeed(doc, shapes) {
  const all = [...shapes].filter((shape) => !('problem' in shape));
  const seeded = new Set(all.filter((shape) => shape.seed === 'examples').map((shape) => shape.collection));
  const operations = new Map();
  for (const [path, rawItem] of Object.entries(doc?.paths ?? {})) {
    const pathItem = deref(doc, rawItem) ?? {};
    for (const [method, operation] of Object.entries(pathItem)) if (operation?.operationId) operations.set(operation.operationId, { pathItem, operation, path, method });
  }
  const collections = new Map();
  const problems = [];
  for (const collection of seeded) {
    const members = all.filter((shape) => shape.collection === collection);
    const relations = [...new Set(members.flatMap((shape) => shape.parents))];
    const byId = new Map();
    const reads = members.filter((shape) => shape.kind === 'list' || shape.kind === 'detail');
    for (const shape of reads) {
      const { pathItem, operation } = operations.get(shape.operationId) ?? {};
      if (!operation) continue;
      const parameters = pathParameterExamples(doc, pathItem, operation);
      shownDocs(doc, shape.kind, operation).forEach((shown, i) => {
        const at = { operationId: shape.operationId, path: shape.path, method: shape.method };
        if (!isPlainObject(shown) || typeof shown.id !== 'string' || shown.id === '') {
          problems.push({ ...at, problem: `its example's ${shape.kind === 'list' ? `item ${i}` : 'content'} has no string id, so ${collection} cannot start from it` });
          return;
        }
        const stored = byId.get(shown.id) ?? { id: shown.id };
        for (const [field, value] of Object.entries(shown)) if (!(field in stored)) stored[field] = value;
        for (const parent of shape.parents) {
          const value = parameters.get(parent) ?? shown[parent];
          if (value === undefined) continue;
          if (stored[parent] !== undefined && stored[parent] !== value) problems.push({ ...at, problem: `its example puts ${collection} ${shown.id} under ${parent} ${value}, another example under ${stored[parent]}` });
          else stored[parent] = value;
        }
        byId.set(shown.id, stored);
      });
    }
    if (byId.size === 0 && !problems.some((p) => members.some((shape) => shape.operationId === p.operationId))) {
      const [first] = members;
      problems.push({ operationId: first.operationId, path: first.path, method: first.method, problem: `${collection} starts from its examples, but no list or detail read of it shows a doc in its success example` });
    }
    for (const stored of byId.values()) {
      const missing = relations.filter((parent) => stored[parent] === undefined);
      if (missing.length === 0) continue;
      const read = reads.find((shape) => shape.parents.some((parent) => missing.includes(parent))) ?? reads[0];
      problems.push({
        operationId: read.operationId,
        path: read.path,
        method: read.method,
        problem: `the example doc ${stored.id} of ${collection} is under no ${missing.join(', ')}: give the path parameter an example, or the doc the field`,
      });
    }
    collections.set(collection, [...byId.values()]);
  }
  return { collections, problems };
}
