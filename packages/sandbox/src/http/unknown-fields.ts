// The fields of a JSON request body that its schema does not declare, as dotted paths (`[n]`
// for an array item), for the sandbox's unknownFields setting (ignore, warn, reject). A schema
// that allows further fields itself (`additionalProperties` true or a schema) declares them.

export type UnknownFieldsMode = 'ignore' | 'warn' | 'reject';
export const UNKNOWN_FIELDS_MODES: readonly UnknownFieldsMode[] = ['ignore', 'warn', 'reject'];

type Schema = Record<string, unknown>;
const MAX_DEPTH = 12;

/** The schema and its composed parts (allOf, oneOf, anyOf), flattened. */
function partsOf(schema: unknown, depth = 0): Schema[] {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return [];
  const node = schema as Schema;
  const composed = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]).flatMap((part) => partsOf(part, depth + 1)) : []));
  return [node, ...composed];
}

/** What a schema says of a body's fields: the schema of an array's items, whether an object
 * may hold more than it names, and the schema of each property it names (null: it says nothing
 * of the fields). */
interface FieldShape {
  items: Schema | null;
  open: boolean;
  declared: Map<string, Schema> | null;
}

/** Shapes by schema, worked out once: every JSON body is split, so the walk of its schema is
 * not repeated per request. A property's or the items' schema is one object per shape, so that
 * its own shape is kept too. */
const fieldShapes = new WeakMap<object, FieldShape | null>();

function fieldShapeOf(schema: unknown): FieldShape | null {
  if (!schema || typeof schema !== 'object') return null;
  let shape = fieldShapes.get(schema);
  if (shape !== undefined) return shape;
  const parts = partsOf(schema);
  if (parts.length === 0) shape = null;
  else {
    const items = parts.map((part) => part.items).filter(Boolean);
    const open = parts.some((part) => part.additionalProperties === true || (typeof part.additionalProperties === 'object' && part.additionalProperties !== null));
    const declared = new Map<string, unknown[]>();
    for (const part of parts) {
      for (const [name, property] of Object.entries((part.properties as Record<string, unknown> | undefined) ?? {})) declared.set(name, [...(declared.get(name) ?? []), property]);
    }
    shape = {
      items: items.length === 0 ? null : { anyOf: items },
      open,
      // A schema that declares no property says nothing of its fields (e.g. free JSON).
      declared: declared.size === 0 ? null : new Map([...declared].map(([name, schemas]) => [name, { anyOf: schemas }])),
    };
  }
  fieldShapes.set(schema, shape);
  return shape;
}

/**
 * The fields of a body its schema does not declare (`fields`), and the body without them
 * (`known`, a copy where any was dropped), so that what is dropped is what is reported.
 */
export function splitUnknownFields(schema: unknown, body: unknown, at = '', depth = 0): { fields: string[]; known: unknown } {
  const none = { fields: [], known: body };
  if (depth > MAX_DEPTH || body === null || typeof body !== 'object') return none;
  const shape = fieldShapeOf(schema);
  if (!shape) return none;
  if (Array.isArray(body)) {
    if (!shape.items) return none;
    const split = body.map((item, i) => splitUnknownFields(shape.items, item, `${at}[${i}]`, depth + 1));
    const fields = split.flatMap((s) => s.fields);
    return { fields, known: fields.length === 0 ? body : split.map((s) => s.known) };
  }
  if (shape.open || !shape.declared) return none;
  const fields: string[] = [];
  const known: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const path = at ? `${at}.${name}` : name;
    const property = shape.declared.get(name);
    if (!property) {
      fields.push(path);
      continue;
    }
    const inner = splitUnknownFields(property, value, path, depth + 1);
    fields.push(...inner.fields);
    known[name] = inner.known;
  }
  return { fields, known: fields.length === 0 ? body : known };
}

export const unknownFields = (schema: unknown, body: unknown): string[] => splitUnknownFields(schema, body).fields;

/** The sandbox's settings, kept in its meta under SETTINGS_KEY (reset clears them; snapshots carry them). */
export interface SandboxSettings {
  unknownFields?: UnknownFieldsMode;
}
export const SETTINGS_KEY = 'settings';

/** The settings with their defaults. */
export const settingsView = (stored: SandboxSettings | undefined): Required<SandboxSettings> => ({ unknownFields: stored?.unknownFields ?? 'ignore' });

/** What is wrong with a settings edit (empty when it can be stored). */
export function settingsProblems(value: unknown): Array<{ field: string; problem: string }> {
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) return [{ field: 'body', problem: 'The body must be an object with the settings to change, e.g. {"unknownFields": "warn"}.' }];
  return Object.entries(value).flatMap(([field, setting]) => {
    if (field !== 'unknownFields') return [{ field, problem: `${field} is not a setting; the settings are unknownFields.` }];
    return UNKNOWN_FIELDS_MODES.includes(setting as UnknownFieldsMode) ? [] : [{ field, problem: `unknownFields must be ${UNKNOWN_FIELDS_MODES.join(', ')}.` }];
  });
}
