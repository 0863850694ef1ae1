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
