// The fields a client may filter and order a list on, derived from the list item's schema
// (dereferenced: no $ref left). Nested objects give dotted names (address.city); a metadata
// object ({key, value, ...}) named bare stands for its key; arrays and fields whose type is
// not one scalar type (besides null) are left out.
import type { FieldTable, FieldType } from './tree.js';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schema's own parts and those of its allOf/anyOf/oneOf members, flattened. */
function members(schema: Schema): Schema[] {
  const found: Schema[] = [schema];
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const member of list) if (isSchema(member)) found.push(...members(member));
  }
  return found;
}

/** The non-null JSON types the schema allows (from type, nullable and its members). */
function typesOf(parts: Schema[]): Set<string> {
  const types = new Set<string>();
  for (const part of parts) {
    const type = part.type;
    for (const name of Array.isArray(type) ? type : type === undefined ? [] : [type]) {
      if (typeof name === 'string' && name !== 'null') types.add(name);
    }
    if (type === undefined && isSchema(part.properties)) types.add('object');
  }
  return types;
}

function scalarType(parts: Schema[], jsonType: string): FieldType | undefined {
  if (jsonType === 'integer' || jsonType === 'number' || jsonType === 'boolean') return jsonType;
  if (jsonType !== 'string') return undefined;
  const formats = new Set(parts.map((part) => part.format).filter((format) => typeof format === 'string'));
  if (formats.has('date-time')) return 'date-time';
  if (formats.has('date')) return 'date';
  return 'string';
}

/** Properties of every member, the first spelling of a name winning. */
function propertiesOf(parts: Schema[]): Map<string, Schema[]> {
  const properties = new Map<string, Schema[]>();
  for (const part of parts) {
    if (!isSchema(part.properties)) continue;
    for (const [name, schema] of Object.entries(part.properties)) {
      if (!isSchema(schema)) continue;
      const list = properties.get(name) ?? [];
      list.push(...members(schema));
      properties.set(name, list);
    }
  }
  return properties;
}

export function fieldTable(itemSchema: unknown): FieldTable {
  const table: FieldTable = new Map();
  const add = (path: string[], type: FieldType) => {
    const name = path.join('.').toLowerCase();
    if (!table.has(name)) table.set(name, { path, type });
  };

  function walk(parts: Schema[], path: string[], seen: Set<Schema>): void {
    if (path.length > MAX_DEPTH) return;
    const properties = propertiesOf(parts);
    for (const [name, propertyParts] of properties) {
      if (propertyParts.some((part) => seen.has(part))) continue;
      const fieldPath = [...path, name];
      const types = typesOf(propertyParts);
      if (types.size !== 1) continue;
      const [jsonType] = types as Set<string>;
      if (jsonType === 'object') {
        const nested = propertiesOf(propertyParts);
        walk(propertyParts, fieldPath, new Set([...seen, ...propertyParts]));
        // A metadata object compares by its key when named bare.
        const key = table.get([...fieldPath, 'key'].join('.').toLowerCase());
        const bare = fieldPath.join('.').toLowerCase();
        if (nested.has('key') && nested.has('value') && key && !table.has(bare)) table.set(bare, key);
        continue;
      }
      const type = scalarType(propertyParts, jsonType!);
      if (type) add(fieldPath, type);
    }
  }

  if (isSchema(itemSchema)) {
    const root = members(itemSchema);
    walk(root, [], new Set(root));
  }
  return table;
}

