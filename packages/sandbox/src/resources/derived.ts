// The behaviour of every operation no resource module claims, derived from its description
// (`operationShapes` of @payroll-api/openapi-bundle): a list answers the docs of its collection
// under the path's parents, with the client's filter, order and paging; a detail answers one
// doc by the path's last id (404 when absent); POST creates under the parents, PUT replaces the
// fields its body names, PATCH merges, DELETE removes. The request body was validated against
// the operation's request schema before the handler runs, and every answer is the read shape
// (what the answer schema declares, nothing of the stored doc beyond it). So an operation answers
// from state the moment it is described; modules add only the contract's rules.
import { operationShapes, parameterCollections } from '@payroll-api/openapi-bundle/operation-shape';
import { message } from '../http/errors.js';
import { declaredPropertiesDeep, projectToSchema } from '../http/schema-walk.js';
import { SandboxError, type ApiName, type Handler, type OperationContext, type ResourceModule } from '../domain/context.js';
import type { BoundFilter } from '../filter/tree.js';
import type { CollectionSpec, Doc } from '../store/types.js';

/** What the sandbox derives for one operation: the raw shape, with the collection it resolved. */
export interface DerivedShape {
  operationId: string;
  path: string;
  method: string;
  kind: 'list' | 'detail' | 'create' | 'replace' | 'merge' | 'remove';
  component: string | null;
  collection: string;
  idParameter: string | null;
  parents: string[];
  /** How its collection starts: empty, or from the examples of its reads (`x-sandbox-collection: { seed: examples }`). */
  seed: 'empty' | 'examples';
}

export interface DerivedOperations {
  /** The shapes of the operations no module claims, by operationId. */
  shapes: Map<string, DerivedShape>;
  /** Why an unclaimed operation cannot be derived (lint asks for `x-sandbox-collection` there). */
  problems: Map<string, string>;
  /** The collections derived operations create (those a module declares are left to it). */
  collections: CollectionSpec[];
  /** The collection a path parameter names (`{journalProfileId}` → the journal profiles). */
  parameterCollections: Map<string, string>;
}

/**
 * The derived operations of one bundle. A shape's collection is its `x-sandbox-collection`, else
 * the collection a module declares for its component, else one named after the component.
 */
export function deriveOperations(api: ApiName, doc: Record<string, unknown>, modules: ResourceModule[]): DerivedOperations {
  const declared = modules.flatMap((module) => module.collections);
  const byComponent = new Map<string, string>();
  for (const spec of declared) if (spec.schema?.api === api && !byComponent.has(spec.schema.component)) byComponent.set(spec.schema.component, spec.name);
  const claimed = new Set(modules.flatMap((module) => Object.keys(module.handlers)));
  const resolved = new Map<string, DerivedShape & { annotated: boolean }>();
  const problems = new Map<string, string>();
  for (const raw of operationShapes(doc).values()) {
    if ('problem' in raw) {
      if (!claimed.has(raw.operationId)) problems.set(raw.operationId, raw.problem);
      continue;
    }
    const collection = raw.annotated ? raw.collection : ((raw.component && byComponent.get(raw.component)) ?? raw.collection);
    resolved.set(raw.operationId, { ...raw, collection });
  }
  // A parameter names the collection a module's relation of that name points at, else the one
  // whose id it is in the derived shapes.
  const parameters = parameterCollections(resolved);
  const relationTargets = new Map<string, string | null>();
  for (const { field, collection } of declared.flatMap((spec) => spec.relations ?? [])) {
    const known = relationTargets.get(field);
    relationTargets.set(field, known === undefined || known === collection ? collection : null);
  }
  for (const [field, collection] of relationTargets) if (collection) parameters.set(field, collection);
  const shapes = new Map([...resolved].filter(([operationId]) => !claimed.has(operationId)));
  const known = new Set(declared.map((spec) => spec.name));
  const collections = new Map<string, CollectionSpec>();
  for (const shape of shapes.values()) {
    if (known.has(shape.collection)) continue;
    const spec = collections.get(shape.collection) ?? { name: shape.collection, relations: [], ...(shape.component ? { schema: { api, component: shape.component } } : {}) };
    for (const parent of shape.parents) {
      const target = parameters.get(parent);
      if (target && !spec.relations!.some((relation) => relation.field === parent)) spec.relations!.push({ field: parent, collection: target });
    }
    collections.set(shape.collection, spec);
  }
  return { shapes, problems, collections: [...collections.values()], parameterCollections: parameters };
}

const stringField = (name: string) => ({ path: [name], type: 'string' as const });

/** Docs whose parent fields hold the path's values. */
function underParents(shape: DerivedShape, params: Record<string, string>): BoundFilter {
  return shape.parents.reduce<BoundFilter>((where, parent) => {
    const equal: BoundFilter = { kind: 'in', field: stringField(parent), values: [params[parent] ?? ''] };
    return where.kind === 'true' ? equal : { kind: 'and', left: where, right: equal };
  }, { kind: 'true' });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** A PATCH body over a stored doc: objects merge key by key, anything else (null, arrays) replaces. */
function merged(stored: unknown, changes: unknown): unknown {
  if (!isPlainObject(stored) || !isPlainObject(changes)) return changes;
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(changes)) out[key] = merged(stored[key], value);
  return out;
}

/** The read shape of a doc: the fields the answer's entity schema declares, at every depth. */
function readShape(ctx: OperationContext, doc: Doc, list: boolean): unknown {
  // Projected inside the envelope, so that every declaration of `content` or `_embedded` counts.
  // Named only: a stored doc holds what the API never serves, even where the schema allows more.
  if (list) return projectToSchema({ _embedded: [doc] }, ctx.answerSchema, { namedOnly: true })._embedded[0];
  return projectToSchema({ content: doc }, ctx.answerSchema, { namedOnly: true }).content;
}

export class DerivedBehaviour {
  private readonly byDescription = new WeakMap<object, DerivedOperations>();

  constructor(private readonly modules: ResourceModule[]) {}

  /** The derived operations of a bundle (computed once per loaded bundle). */
  of(api: ApiName, doc: Record<string, unknown>): DerivedOperations {
    let derived = this.byDescription.get(doc);
    if (!derived) {
      derived = deriveOperations(api, doc, this.modules);
      this.byDescription.set(doc, derived);
    }
    return derived;
  }

  /** The handler of an operation no module claims, or undefined when its description says too little. */
  handlerFor(api: ApiName, doc: Record<string, unknown>, operationId: string): Handler | undefined {
    const derived = this.of(api, doc);
    const shape = derived.shapes.get(operationId);
    return shape ? (ctx) => answer(ctx, shape, derived.parameterCollections) : undefined;
  }
}

async function existing(ctx: OperationContext, shape: DerivedShape): Promise<Doc> {
  const where = underParents(shape, ctx.params);
  if (shape.idParameter) {
    const doc = await ctx.tx.get(shape.collection, ctx.params[shape.idParameter] ?? '');
    if (!doc || shape.parents.some((parent) => doc[parent] !== ctx.params[parent])) throw new SandboxError(404);
    return doc;
  }
  // A path that ends in no id addresses the one doc under its parents.
  const [doc] = (await ctx.tx.find(shape.collection, { where, limit: 1 })).rows;
  if (!doc) throw new SandboxError(404);
  return doc;
}

/** 404 unless each parent the path names exists, where its collection is known. */
async function requireParents(ctx: OperationContext, shape: DerivedShape, parameters: Map<string, string>): Promise<void> {
  for (const parent of shape.parents) {
    const collection = parameters.get(parent);
    if (collection && !(await ctx.tx.get(collection, ctx.params[parent] ?? ''))) throw new SandboxError(404);
  }
}

function bodyObject(ctx: OperationContext): Record<string, unknown> {
  if (isPlainObject(ctx.body)) return ctx.body;
  if (ctx.body === undefined || ctx.body === null) return {};
  throw new SandboxError(400, [message(400, 'The request body must be a JSON object.', ['body'])]);
}

async function answer(ctx: OperationContext, shape: DerivedShape, parameters: Map<string, string>): ReturnType<Handler> {
  const parentValues = Object.fromEntries(shape.parents.map((parent) => [parent, ctx.params[parent] ?? '']));
  switch (shape.kind) {
    case 'list': {
      await requireParents(ctx, shape, parameters);
      const page = await ctx.list(shape.collection, { where: underParents(shape, ctx.params), project: (doc) => readShape(ctx, doc, true) });
      return { kind: 'list', page };
    }
    case 'detail':
      return { kind: 'detail', content: readShape(ctx, await existing(ctx, shape), false) };
    case 'create': {
      await requireParents(ctx, shape, parameters);
      const doc: Doc = { ...bodyObject(ctx), ...parentValues, id: ctx.newId() };
      await ctx.tx.insert(shape.collection, doc);
      return { kind: 'detail', content: readShape(ctx, doc, false) };
    }
    case 'replace': {
      const stored = await existing(ctx, shape);
      // The body's schema names the editable fields: they are replaced (absent ones cleared);
      // the rest of the stored doc (its relations, what only the sandbox keeps) stays.
      const editable = declaredPropertiesDeep(ctx.requestSchema);
      const kept = Object.fromEntries(Object.entries(stored).filter(([key]) => !editable.has(key)));
      const doc: Doc = { ...kept, ...bodyObject(ctx), id: stored.id };
      await ctx.tx.replace(shape.collection, doc);
      return { kind: 'detail', content: readShape(ctx, doc, false) };
    }
    case 'merge': {
      const stored = await existing(ctx, shape);
      const doc = { ...(merged(stored, bodyObject(ctx)) as Doc), id: stored.id };
      await ctx.tx.replace(shape.collection, doc);
      return { kind: 'detail', content: readShape(ctx, doc, false) };
    }
    case 'remove': {
      const stored = await existing(ctx, shape);
      await ctx.tx.remove(shape.collection, stored.id);
      // A delete answers the detail envelope without content, or no body where none is described.
      return ctx.answerSchema ? { kind: 'detail', content: {} } : { kind: 'raw' };
    }
  }
}
