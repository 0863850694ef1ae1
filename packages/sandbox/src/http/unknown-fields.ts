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

export function unknownFields(schema: unknown, body: unknown, at = '', depth = 0): string[] {
  if (depth > MAX_DEPTH || body === null || typeof body !== 'object') return [];
  const parts = partsOf(schema);
  if (parts.length === 0) return [];
  if (Array.isArray(body)) {
    const items = parts.map((part) => part.items).filter(Boolean);
    return items.length === 0 ? [] : body.flatMap((item, i) => unknownFields({ anyOf: items }, item, `${at}[${i}]`, depth + 1));
  }
  if (parts.some((part) => part.additionalProperties === true || (typeof part.additionalProperties === 'object' && part.additionalProperties !== null))) return [];
  const declared = new Map<string, unknown[]>();
  for (const part of parts) {
    for (const [name, property] of Object.entries((part.properties as Record<string, unknown> | undefined) ?? {})) declared.set(name, [...(declared.get(name) ?? []), property]);
  }
  // A schema that declares no property says nothing of its fields (e.g. free JSON).
  if (declared.size === 0) return [];
  return Object.entries(body).flatMap(([name, value]) => {
    const path = at ? `${at}.${name}` : name;
    const schemas = declared.get(name);
    return schemas ? unknownFields({ anyOf: schemas }, value, path, depth + 1) : [path];
  });
}

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
