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

/** The schema and every part it is made of: allOf, oneOf and anyOf, at any depth. */
function everyPart(schema: Schema | undefined, depth = 0): Schema[] {
  if (!schema || typeof schema !== 'object' || depth > 16) return [];
  const nested = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Schema[]).flatMap((s) => everyPart(s, depth + 1)) : []));
  return [schema, ...nested];
}

/** Property names any part of the schema declares (allOf, oneOf and anyOf alike). */
export function declaredPropertiesDeep(schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of everyPart(schema)) {
    const props = part.properties;
    if (props && typeof props === 'object') for (const name of Object.keys(props)) names.add(name);
  }
  return names;
}

/**
 * A value as the schema shows it: of each object only the properties some part of the schema
 * names, at every depth (through arrays' items). An object whose schema names no property passes
 * whole; so does anything the schema does not describe. (A schema that allows further fields
 * still shows only those it names: the rest is what the store keeps, not what the API serves.)
 */
export function projected(value: unknown, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) {
    const items = everyPart(schema).map((part) => part.items).filter((s): s is Schema => !!s && typeof s === 'object');
    if (items.length === 0) return value;
    const union = items.length === 1 ? items[0] : { anyOf: items };
    return value.map((item) => projected(item, union, depth + 1));
  }
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const names = declaredPropertiesDeep(schema);
  if (names.size === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!names.has(key)) continue;
    const childSchemas = everyPart(schema).map((part) => (part.properties as Record<string, Schema> | undefined)?.[key]).filter((s): s is Schema => !!s);
    // Several parts may declare one property; their union is what the answer may show.
    out[key] = childSchemas.length === 1 ? projected(child, childSchemas[0], depth + 1) : childSchemas.length > 1 ? projected(child, { anyOf: childSchemas }, depth + 1) : child;
  }
  return out;
}
