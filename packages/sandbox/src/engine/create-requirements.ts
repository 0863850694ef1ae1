// One rule for create and edit: what creating an entity requires, an edit may not take away.
// Each PUT or PATCH is paired, from the description, with the POST that creates what it edits
// and with where in that POST's body the entity sits (PostEmployeeByEmployerId creates an
// employee at `employeeData` and an employment at `employmentData`). What the create requires
// is its body's `required` at each depth and its resource module's rule (domain/create-rules.ts);
// the engine checks the entity an edit answers with against both, so that a PUT that replaces
// every editable field cannot leave an employee without the last name its create had to give.
import type { LoadedApi, Operation } from '../http/spec.js';
import { successResponse } from '../http/spec.js';
import { declaredProperties, propertySchema } from '../http/schema-walk.js';
import { mergeRequired, requiredAt, type CreateRule, type RequiredFields } from '../domain/create-rules.js';

type Schema = Record<string, unknown>;

/** Where an edit's entity comes from: the create and the path of the entity in its body. */
export interface CreatePairing {
  create: string;
  at: string[];
  required: RequiredFields;
}

const MAX_DEPTH = 8;

function jsonBodySchema(operation: Operation): Schema | undefined {
  const contents = operation.model.request?.body?.contents ?? [];
  // The newest version's body: what the handlers read (older bodies are taken to it).
  const json = contents.filter((c) => /json/i.test(c.mediaType) && c.schema);
  return json[json.length - 1]?.schema;
}

/** The schema and the parts it is made of (allOf, and the non-null branch of a nullable oneOf/anyOf). */
function partsOf(schema: unknown, depth = 0): Schema[] {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return [];
  const node = schema as Schema;
  const all = Array.isArray(node.allOf) ? (node.allOf as Schema[]).flatMap((s) => partsOf(s, depth + 1)) : [];
  const nullable = (['oneOf', 'anyOf'] as const).flatMap((key) => {
    const branches = node[key];
    if (!Array.isArray(branches) || !branches.some((b) => (b as Schema)?.type === 'null')) return [];
    return branches.filter((b) => (b as Schema)?.type !== 'null').flatMap((b) => partsOf(b, depth + 1));
  });
  return [node, ...all, ...nullable];
}

/** The path in `within` of a property whose schema is `target` itself (a shared component), or undefined. */
function locate(within: Schema, target: Schema, depth = 0): string[] | undefined {
  if (depth > 2) return undefined;
  for (const part of partsOf(within)) {
    for (const [name, property] of Object.entries((part.properties as Record<string, Schema> | undefined) ?? {})) {
      if (partsOf(property).includes(target)) return [name];
      const deeper = locate(property, target, depth + 1);
      if (deeper) return [name, ...deeper];
    }
  }
  return undefined;
}

/** The `required` of a schema at each depth (through allOf and nullable branches), readOnly fields left out. */
export function requiredFields(schema: Schema | undefined, depth = 0): RequiredFields {
  const out: RequiredFields = {};
  if (!schema || depth > MAX_DEPTH) return out;
  for (const part of partsOf(schema)) {
    for (const name of Array.isArray(part.required) ? (part.required as string[]) : []) out[name] ??= {};
  }
  for (const name of declaredPropertiesOf(schema)) {
    const property = propertyOf(schema, name);
    if (property?.readOnly === true) {
      delete out[name];
      continue;
    }
    if (!(name in out)) continue;
    out[name] = { ...out[name], ...requiredFields(property, depth + 1) };
  }
  return out;
}

const declaredPropertiesOf = (schema: Schema): string[] => [...new Set(partsOf(schema).flatMap((p) => [...declaredProperties(p)]))];
/** The richest declaration of a property across the parts (so `required` added by an allOf part is seen with its type). */
const propertyOf = (schema: Schema, name: string): Schema | undefined => {
  const declarations = partsOf(schema).map((p) => propertySchema(p, name)).filter((p): p is Schema => p !== undefined);
  return declarations.length <= 1 ? declarations[0] : { allOf: declarations };
};

function schemaAt(schema: Schema, at: string[]): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const name of at) node = node ? propertyOf(node, name) : undefined;
  return node;
}

/** The literal path segment naming the collection of an edit (the one before its id) or of a create (its last). */
function collectionSegment(path: string, create: boolean): string | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  if (create) return [...segments].reverse().find((s) => !s.startsWith('{'))?.toLowerCase();
  const lastParam = segments.map((s) => s.startsWith('{')).lastIndexOf(true);
  return lastParam > 0 ? segments[lastParam - 1]?.toLowerCase() : undefined;
}

/** How many leading path segments two operations share (the closer create wins a tie). */
function sharedPrefix(a: string, b: string): number {
  const theirs = b.split('/');
  const ours = a.split('/');
  const first = ours.findIndex((segment, i) => segment !== theirs[i]);
  return first < 0 ? ours.length : first;
}

/**
 * Each edit (PUT, PATCH) of an API paired with the create of its entity: the POST whose body
 * holds the edit's body schema itself (at its root or at a property), else the POST of the same
 * collection (the path segment before the edit's id) as another edit of that collection found.
 */
export function createPairings(api: LoadedApi): Map<string, CreatePairing> {
  const creates = api.operations.filter((o) => o.method === 'post').map((o) => ({ operation: o, schema: jsonBodySchema(o) })).filter((c) => c.schema);
  const edits = api.operations.filter((o) => o.method === 'put' || o.method === 'patch');
  const pairings = new Map<string, CreatePairing>();
  const byCollection = new Map<string, { create: Operation; at: string[] }>();
  const pair = (edit: Operation, create: Operation, at: string[]) => {
    const schema = schemaAt(jsonBodySchema(create)!, at);
    pairings.set(edit.operationId, { create: create.operationId, at, required: requiredFields(schema) });
  };
  for (const edit of edits) {
    const body = jsonBodySchema(edit);
    if (!body) continue;
    const segment = collectionSegment(edit.path, false);
    const found = creates
      .map((c) => ({ create: c.operation, at: c.schema === body ? [] : locate(c.schema!, body) }))
      .filter((c): c is { create: Operation; at: string[] } => c.at !== undefined)
      .sort((a, b) => Number(collectionSegment(b.create.path, true) === segment) - Number(collectionSegment(a.create.path, true) === segment));
    const first = found[0];
    if (!first) continue;
    pair(edit, first.create, first.at);
    if (segment && !byCollection.has(segment)) byCollection.set(segment, first);
  }
  for (const edit of edits) {
    if (pairings.has(edit.operationId)) continue;
    const segment = collectionSegment(edit.path, false);
    if (!segment) continue;
    const known = byCollection.get(segment);
    if (known) {
      pair(edit, known.create, known.at);
      continue;
    }
    const same = creates.filter((c) => collectionSegment(c.operation.path, true) === segment).sort((a, b) => sharedPrefix(b.operation.path, edit.path) - sharedPrefix(a.operation.path, edit.path));
    if (same[0]) pair(edit, same[0].operation, []);
  }
  return pairings;
}

const pairingsOf = new WeakMap<LoadedApi, Map<string, CreatePairing>>();

/** The pairing of an edit operation, worked out once per loaded description. */
export function pairingOf(operation: Operation): CreatePairing | undefined {
  let pairings = pairingsOf.get(operation.api);
  if (!pairings) {
    pairings = createPairings(operation.api);
    pairingsOf.set(operation.api, pairings);
  }
  return pairings.get(operation.operationId);
}

/** Whether the operation's answer carries the entity (its detail's `content` describes fields), so that there is something to check. */
export function answersEntity(operation: Operation): boolean {
  const schema = successResponse(operation.model)?.contents?.find((c) => /json/i.test(c.mediaType))?.schema;
  const content = schema ? propertySchema(schema, 'content') : undefined;
  return content !== undefined && declaredPropertiesOf(content).length > 0;
}

/**
 * What an edit must leave its entity with (undefined: nothing to check): the paired create's
 * requirements at the entity's place in its body, when the edit answers with the entity.
 */
export function editRequirements(operation: Operation, rules: ReadonlyMap<string, CreateRule>): RequiredFields | undefined {
  if (operation.method !== 'put' && operation.method !== 'patch') return undefined;
  // Worked out once per operation and rules: every edit's answer is checked against it.
  let byOperation = requirementsOf.get(rules);
  if (!byOperation) requirementsOf.set(rules, (byOperation = new WeakMap()));
  if (!byOperation.has(operation)) byOperation.set(operation, requirementsOfEdit(operation, rules));
  return byOperation.get(operation);
}

const requirementsOf = new WeakMap<ReadonlyMap<string, CreateRule>, WeakMap<Operation, RequiredFields | undefined>>();

function requirementsOfEdit(operation: Operation, rules: ReadonlyMap<string, CreateRule>): RequiredFields | undefined {
  const pairing = pairingOf(operation);
  if (!pairing || !answersEntity(operation)) return undefined;
  const required = mergeRequired(pairing.required, requiredAt(rules.get(pairing.create)?.required ?? {}, pairing.at));
  return Object.keys(required).length > 0 ? required : undefined;
}
