// A schema's `type`: which values are of a type, and how a parameter's text (or another
// scalar) is coerced to the first type of the schema that takes it, as ajv's coerceTypes does.

export const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const COERCIBLE = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** The schema's types (`nullable: true` adds null, as OpenAPI 3.0 wrote it). */
export function schemaTypes(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? [...(type as string[])] : type ? [type as string] : [];
  if (!types.every((t) => JSON_TYPES.has(t))) throw new Error(`type must be JSONType or JSONType[]: ${types.join(',')}`);
  if (types.includes('null')) {
    if (schema.nullable === false) throw new Error('type: null contradicts nullable: false');
  } else {
    if (types.length === 0 && schema.nullable !== undefined) throw new Error('"nullable" cannot be used without "type"');
    if (schema.nullable === true) types.push('null');
  }
  return types;
}

/** A test of the value's type, made once per schema (a check runs it for every value). */
export function typeTest(types: string[]): (data: any) => boolean {
  const tests = types.map((type): ((data: any) => boolean) => {
    switch (type) {
      case 'null':
        return (data) => data === null;
      case 'array':
        return Array.isArray;
      case 'object':
        return (data) => !!data && typeof data === 'object' && !Array.isArray(data);
      case 'integer':
        return (data) => typeof data === 'number' && !(data % 1) && !isNaN(data);
      case 'number':
        return (data) => typeof data === 'number';
      default:
        return (data) => typeof data === type;
    }
  });
  if (tests.length === 1) return tests[0]!;
  return (data) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(data)) return true;
    return false;
  };
}

/** The types a value may be coerced to, in the schema's order. */
export const coercibleTypes = (types: string[]): string[] => types.filter((type) => COERCIBLE.has(type));

/**
 * The value coerced to the first of `types` that takes it, or undefined: numbers and booleans
 * to strings (null to ""), numeric strings, booleans and null to numbers, "true"/"false"/1/0/null
 * to booleans, ""/0/false to null.
 */
export function coerce(types: string[], data: any): unknown {
  const kind = typeof data;
  for (const type of types) {
    switch (type) {
      case 'string':
        if (kind === 'number' || kind === 'boolean') return `${data}`;
        if (data === null) return '';
        break;
      case 'number':
        if (kind === 'boolean' || data === null || (kind === 'string' && data && !isNaN(+data))) return +data;
        break;
      case 'integer':
        if (kind === 'boolean' || data === null || (kind === 'string' && data && !isNaN(+data) && !(+data % 1))) return +data;
        break;
      case 'boolean':
        if (data === 'false' || data === 0 || data === null) return false;
        if (data === 'true' || data === 1) return true;
        break;
      case 'null':
        if (data === '' || data === 0 || data === false) return null;
        break;
    }
  }
  return undefined;
}
