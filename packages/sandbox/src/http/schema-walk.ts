// Reading the (dereferenced) response schemas Prism hands over: the top-level properties an
// envelope declares, and the item schema of a list's _embedded. allOf parts are merged.
type Schema = Record<string, unknown>;

function parts(schema: Schema | undefined, depth = 0): Schema[] {
  if (!schema || typeof schema !== 'object' || depth > 16) return [];
  const all = Array.isArray(schema.allOf) ? (schema.allOf as Schema[]).flatMap((s) => parts(s, depth + 1)) : [];
  return [schema, ...all];
}

/** Top-level property names declared by the schema (through allOf). */
export function declaredProperties(schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of parts(schema)) {
    const props = part.properties;
    if (props && typeof props === 'object') for (const name of Object.keys(props)) names.add(name);
  }
  return names;
}

/** The schema of a property (the last allOf part declaring it with the most detail wins). */
export function propertySchema(schema: Schema | undefined, name: string): Schema | undefined {
  let found: Schema | undefined;
  for (const part of parts(schema)) {
    const prop = (part.properties as Record<string, Schema> | undefined)?.[name];
    if (prop && (found === undefined || Object.keys(prop).length > Object.keys(found).length || prop.items)) found = prop;
  }
  return found;
}

/** The schema of one item of a list envelope's _embedded. */
export function listItemSchema(envelope: Schema | undefined): Schema | undefined {
  let items: Schema | undefined;
  for (const part of parts(envelope)) {
    const embedded = (part.properties as Record<string, Schema> | undefined)?._embedded;
    for (const e of parts(embedded)) {
      const candidate = e.items as Schema | undefined;
      if (candidate && typeof candidate === 'object' && Object.keys(candidate).length > 0) items = candidate;
    }
  }
  return items;
}

/** A schema and every part it is composed of (allOf, oneOf, anyOf), flattened. */
function composedParts(schema: unknown, depth = 0): Schema[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || depth > 16) return [];
  const node = schema as Schema;
  return [node, ...['allOf', 'oneOf', 'anyOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]).flatMap((part) => composedParts(part, depth + 1)) : []))];
}

interface Shape {
  /** Each declared property's schemas; null when the object is free-form (declares none, or allows more). */
  properties: Map<string, Schema> | null;
  items: Schema | null;
}

/** How an object that allows more than it names is shown: whole (an answer a module shaped), or
 * by its named properties only (a stored doc, which holds what the API never serves). */
export interface Projection {
  namedOnly?: boolean;
}

const shapes = { whole: new WeakMap<Schema, Shape>(), namedOnly: new WeakMap<Schema, Shape>() };

function shapeOf(schema: Schema, namedOnly: boolean): Shape {
  const cache = namedOnly ? shapes.namedOnly : shapes.whole;
  let shape = cache.get(schema);
  if (!shape) {
    const parts = composedParts(schema);
    const open = !namedOnly && parts.some((part) => part.additionalProperties === true || (typeof part.additionalProperties === 'object' && part.additionalProperties !== null) || part.patternProperties !== undefined);
    const declared = new Map<string, Schema[]>();
    for (const part of parts) {
      for (const [name, property] of Object.entries((part.properties as Record<string, Schema> | undefined) ?? {})) declared.set(name, [...(declared.get(name) ?? []), property]);
    }
    const items = parts.flatMap((part) => (part.items && typeof part.items === 'object' ? [part.items as Schema] : []));
    shape = {
      properties: open || declared.size === 0 ? null : new Map([...declared].map(([name, schemas]) => [name, schemas.length === 1 ? schemas[0]! : { anyOf: schemas }])),
      items: items.length === 0 ? null : items.length === 1 ? items[0]! : { anyOf: items },
    };
    cache.set(schema, shape);
  }
  return shape;
}

type Projector = (value: unknown) => unknown;

const projectors = { whole: new WeakMap<Schema, Projector>(), namedOnly: new WeakMap<Schema, Projector>() };

const isNode = (value: unknown): value is object => value !== null && typeof value === 'object' && !(value instanceof Uint8Array);

/** The projection of one schema as a function, made once per schema: every answer is projected, so
 * the walk of the schema is not repeated per value. Children are made on first use, since a
 * dereferenced schema may refer to itself. */
function projectorOf(schema: Schema, namedOnly: boolean): Projector {
  const cache = namedOnly ? projectors.namedOnly : projectors.whole;
  const known = cache.get(schema);
  if (known) return known;
  const shape = shapeOf(schema, namedOnly);
  const itemSchema = shape.items;
  let item: Projector | undefined;
  // A prototype-free record: a stored doc's keys are looked up in it on every answer.
  let properties: Record<string, { schema: Schema; project?: Projector }> | null = null;
  if (shape.properties) {
    properties = Object.create(null) as Record<string, { schema: Schema; project?: Projector }>;
    for (const [name, child] of shape.properties) properties[name] = { schema: child };
  }
  const projector: Projector = (value) => {
    if (!isNode(value)) return value;
    if (Array.isArray(value)) {
      if (!itemSchema) return value;
      item ??= projectorOf(itemSchema, namedOnly);
      let items: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const projected = isNode(value[i]) ? item(value[i]) : value[i];
        if (projected !== value[i]) items ??= value.slice(0, i);
        if (items) items[i] = projected;
      }
      return items ?? value;
    }
    if (!properties) return value;
    const source = value as Record<string, unknown>;
    const names = Object.keys(source);
    // A copy only once something is dropped or changed: the properties before it, as they were.
    let kept: Record<string, unknown> | undefined;
    const keptUpTo = (end: number) => {
      const copy: Record<string, unknown> = {};
      for (let j = 0; j < end; j++) copy[names[j]!] = source[names[j]!];
      return copy;
    };
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const property = properties[name];
      const child = source[name];
      const projected = !property ? undefined : isNode(child) ? (property.project ??= projectorOf(property.schema, namedOnly))(child) : child;
      if (!kept && (!property || projected !== child)) kept = keptUpTo(i);
      if (kept && property) kept[name] = projected;
    }
    return kept ?? value;
  };
  cache.set(schema, projector);
  return projector;
}

/**
 * The value with only what its (dereferenced) schema names, at every depth: an object keeps
 * the properties any of its parts (allOf, oneOf, anyOf) declares, each projected in turn, and
 * array items are projected to the items' schema. An object that declares no property is kept
 * whole, and so is one that allows more (free JSON, a map) unless `namedOnly`. The value is not changed; a copy is made
 * where something is dropped.
 */
export function projectToSchema<T>(value: T, schema: Schema | undefined, options: Projection = {}): T {
  if (!schema) return value;
  return projectorOf(schema, options.namedOnly ?? false)(value) as T;
}

const itemProjections = new WeakMap<Schema, Projector | null>();
const unchanged: Projector = (value) => value;

/**
 * What `projectToSchema(envelope, schema)` makes of each item of a list envelope's `_embedded`,
 * so that items can be projected one by one; undefined when the schema drops `_embedded`.
 */
export function embeddedItemProjection(schema: Schema | undefined): Projector | undefined {
  if (!schema) return unchanged;
  let projection = itemProjections.get(schema);
  if (projection === undefined) {
    const properties = shapeOf(schema, false).properties;
    const embedded = properties ? properties.get('_embedded') : null;
    const items = embedded ? shapeOf(embedded, false).items : null;
    const project = items ? projectorOf(items, false) : unchanged;
    projection = embedded === undefined ? null : (value: unknown) => (isNode(value) ? project(value) : value);
    itemProjections.set(schema, projection);
  }
  return projection ?? undefined;
}

/** Property names any part of the schema declares (allOf, oneOf and anyOf alike). */
export function declaredPropertiesDeep(schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of composedParts(schema)) for (const name of Object.keys((part.properties as Record<string, Schema> | undefined) ?? {})) names.add(name);
  return names;
}
