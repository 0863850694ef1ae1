// Request validation (the schema/ validator) against the operation model: query, header and path parameters
// (coerced from text, deserialized by their style as OpenAPI 3.1 says) and the JSON body
// (without its readOnly properties, which a client leaves out). Problems come back as
// Violations: where, the keyword, and a message that starts with where it is
// (`Request query parameter pageSize must be >= 1`), which errors.ts turns into envelope messages.
// Every problem is reported at once (allErrors), as schema-errors.ts condenses them, up to MAX_PROBLEMS.
import { compileSchema, type SchemaError, type Validator } from '../schema/compile.js';
import type { HttpOperation, HttpParam, Violation } from './operation.js';
import { MAX_PROBLEMS, schemaProblems } from './schema-errors.js';

type Json = Record<string, unknown>;

export interface RequestParts {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  path: Record<string, string>;
  /** undefined: no body was sent. */
  body: unknown;
  hasBody: boolean;
}

/** Parameters arrive as text and are coerced to their schema's type; a body is JSON as sent. Every problem is reported. */
const compileParams = (schema: Json) => compileSchema(schema, { allErrors: true, coerceTypes: true });
const compileBody = (schema: Json) => compileSchema(schema, { allErrors: true, coerceTypes: false });

/** The schema with readOnly properties left out (also from `required`), through allOf, oneOf, anyOf and items. */
const stripped = new WeakMap<Json, Json>();
export function withoutReadOnly(schema: Json): Json {
  const known = stripped.get(schema);
  if (known) return known;
  const readOnly = new Set<string>();
  const collect = (s: unknown) => {
    if (!s || typeof s !== 'object') return;
    const node = s as Json;
    for (const [name, prop] of Object.entries((node.properties ?? {}) as Record<string, Json>)) if (prop && prop.readOnly === true) readOnly.add(name);
    if (Array.isArray(node.allOf)) node.allOf.forEach(collect);
  };
  collect(schema);
  const out: Json = { ...schema };
  if (schema.properties && typeof schema.properties === 'object') {
    const props: Json = {};
    for (const [name, prop] of Object.entries(schema.properties as Record<string, Json>)) {
      if (readOnly.has(name)) continue;
      props[name] = prop && typeof prop === 'object' ? withoutReadOnly(prop) : prop;
    }
    out.properties = props;
  }
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).filter((n) => !readOnly.has(n));
  for (const key of ['allOf', 'oneOf', 'anyOf', 'prefixItems'] as const) {
    if (Array.isArray(schema[key])) {
      out[key] = (schema[key] as Json[]).map((part) => {
        const clean = part && typeof part === 'object' ? withoutReadOnly(part) : part;
        // A readOnly property named by a sibling allOf part is left out of this part too.
        if (key !== 'allOf' || !clean || typeof clean !== 'object') return clean;
        const copy: Json = { ...clean };
        if (copy.properties) copy.properties = Object.fromEntries(Object.entries(copy.properties as Json).filter(([n]) => !readOnly.has(n)));
        if (Array.isArray(copy.required)) copy.required = (copy.required as string[]).filter((n) => !readOnly.has(n));
        return copy;
      });
    }
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const child = schema[key];
    if (child && typeof child === 'object' && !Array.isArray(child)) out[key] = withoutReadOnly(child as Json);
  }
  stripped.set(schema, out);
  return out;
}

function describe(errors: SchemaError[], prefix: string, schema: unknown): Violation[] {
  return schemaProblems(errors, schema).map((problem) => {
    const { params } = problem;
    const allowed = Array.isArray(params.allowedValues) ? `: ${params.allowedValues.join(', ')}` : '';
    const extra = 'additionalProperty' in params ? `; found '${String(params.additionalProperty)}'` : '';
    const unevaluated = 'unevaluatedProperty' in params ? `: '${String(params.unevaluatedProperty)}'` : '';
    const at = problem.instancePath.split('/').filter((s) => s !== '').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const kind = at.length > 0 ? (prefix === 'body' ? 'property ' : 'parameter ') : '';
    const where = `Request ${prefix} ${kind}${at.join('.').trim()}${at.length > 0 ? ' ' : ''}`;
    const violation: Violation = { path: [prefix, ...at], code: problem.keyword, message: `${where}${problem.message}${allowed}${extra}${unevaluated}`, severity: 0 };
    if (problem.rule) violation.rule = problem.rule;
    return violation;
  });
}

interface ParamCheck {
  specs: HttpParam[];
  schema: Json;
  validate: Validator;
}

const paramChecks = new WeakMap<HttpParam[], ParamCheck>();
function paramCheck(specs: HttpParam[]): ParamCheck {
  let check = paramChecks.get(specs);
  if (!check) {
    const properties: Json = {};
    const required: string[] = [];
    for (const spec of specs) {
      const name = spec.name.toLowerCase();
      if (spec.schema) properties[name] = spec.schema;
      if (spec.required) required.push(name);
    }
    const schema = { type: 'object', properties, required };
    check = { specs, schema, validate: compileParams(schema) };
    paramChecks.set(specs, check);
  }
  return check;
}

/** A parameter's value as its style reads it (form for query, simple for header and path). */
function deserialize(spec: HttpParam, raw: string | string[] | undefined, where: 'query' | 'header' | 'path'): unknown {
  if (raw === undefined) return undefined;
  const type = spec.schema?.type;
  if (type !== 'array') return raw;
  if (where === 'query' && (spec.explode ?? true)) return Array.isArray(raw) ? raw : [raw];
  const last = Array.isArray(raw) ? (raw[raw.length - 1] ?? '') : raw;
  return last === '' ? [] : last.split(',');
}

function checkParams(specs: HttpParam[] | undefined, values: Record<string, string | string[]>, where: 'query' | 'header' | 'path'): Violation[] {
  if (!specs || specs.length === 0) return [];
  const check = paramCheck(specs);
  const lower: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(values)) lower[name.toLowerCase()] = value;
  const target: Json = {};
  for (const spec of specs) {
    const name = spec.name.toLowerCase();
    const value = deserialize(spec, lower[name], where);
    if (value !== undefined) target[name] = value;
  }
  return check.validate(target) ? [] : describe(check.validate.errors ?? [], where, check.schema);
}

const bodyChecks = new WeakMap<Json, Validator>();
function checkBody(schema: Json | undefined, body: unknown): Violation[] {
  if (!schema) return [];
  const written = withoutReadOnly(schema);
  let validate = bodyChecks.get(schema);
  if (!validate) {
    validate = compileBody(written);
    bodyChecks.set(schema, validate);
  }
  return validate(body) ? [] : describe(validate.errors ?? [], 'body', written);
}

/** The first MAX_PROBLEMS violations, and one that says how many more there were. */
function bounded(violations: Violation[]): Violation[] {
  if (violations.length <= MAX_PROBLEMS) return violations;
  const more = violations.length - MAX_PROBLEMS;
  return [...violations.slice(0, MAX_PROBLEMS), { path: [], code: 'more', message: `${more} more problem${more === 1 ? '' : 's'} of this request ${more === 1 ? 'is' : 'are'} not listed`, severity: 0 }];
}

/** Every problem of a request against the (version-narrowed) operation; empty when it is valid. */
export function validateRequest(view: HttpOperation, parts: RequestParts): Violation[] {
  const request = view.request;
  if (!request) return [];
  const violations: Violation[] = [];
  if (request.body?.required && !parts.hasBody) violations.push({ code: 'required', message: 'Body parameter is required', severity: 0 });
  else if (parts.hasBody) violations.push(...checkBody(request.body?.contents?.[0]?.schema, parts.body));
  violations.push(...checkParams(request.headers, parts.headers, 'header'));
  violations.push(...checkParams(request.query, parts.query, 'query'));
  violations.push(...checkParams(request.path, parts.path, 'path'));
  return bounded(violations);
}
