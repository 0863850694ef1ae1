// Request data generated from the description's JSON Schemas with fast-check: seeded, so a run
// with the same --seed sends the same requests. Read-only properties are left out of request
// bodies (the contract: they are not sent), and only what the schema allows is generated.
import fc from 'fast-check';
import { deref } from '@payroll-api/openapi-bundle';
import type { JsonSchema } from './description.js';

const MAX_DEPTH = 6;

function types(schema: JsonSchema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String);
  if (typeof type === 'string') return [type];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** allOf members merged into one schema (properties and required lists joined). */
export function merged(doc: unknown, schema: JsonSchema): JsonSchema {
  const parts = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]).map((s) => merged(doc, deref<JsonSchema>(doc, s) ?? {})) : [];
  if (parts.length === 0) return schema;
  const out: JsonSchema = { ...schema };
  delete out.allOf;
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') out.properties = { ...((out.properties as object) ?? {}), ...(value as object) };
      else if (key === 'required') out.required = [...new Set([...((out.required as string[]) ?? []), ...(value as string[])])];
      else if (!(key in out)) out[key] = value;
    }
  }
  return out;
}

/** `base` with a branch of its anyOf/oneOf applied: properties combined keyword by keyword. */
function narrowed(base: JsonSchema, branch: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...base, ...branch };
  const properties: Record<string, unknown> = { ...((base.properties as object) ?? {}) };
  for (const [name, sub] of Object.entries((branch.properties as Record<string, JsonSchema>) ?? {})) {
    properties[name] = { ...((properties[name] as JsonSchema) ?? {}), ...sub };
  }
  out.properties = properties;
  out.required = [...new Set([...((base.required as string[]) ?? []), ...((branch.required as string[]) ?? [])])];
  if (!branch.type && base.type) out.type = base.type;
  return out;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]).filter((v) => typeof v === 'string'));
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(min, 24);
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date':
      return fc.date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= max && e.length >= min);
    case 'byte':
      return fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('base64'));
    default:
      break;
  }
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
    } catch {
      // A pattern JavaScript cannot read falls back to plain strings of the right length.
    }
  }
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'), minLength: min, maxLength: Math.min(max, min + 24) });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as number[]).filter((v) => typeof v === 'number'));
  const lower = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : 0;
  const upper = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : lower + 10_000;
  if (integer) return fc.integer({ min: Math.ceil(lower), max: Math.floor(upper) });
  return fc.integer({ min: Math.round(lower * 100), max: Math.round(upper * 100) }).map((n) => n / 100);
}

export interface ArbitraryOptions {
  /** Leave readOnly properties out (request bodies). */
  writing: boolean;
}

/** A fast-check arbitrary for values valid against `schema` (as far as the schema can say). */
export function arbitraryFor(doc: unknown, raw: unknown, options: ArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  const schema = merged(doc, deref<JsonSchema>(doc, raw) ?? {});
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      const base: JsonSchema = { ...schema };
      delete base[key];
      const own = Object.keys(base).some((k) => k === 'properties' || k === 'required' || k === 'type');
      // A branch beside the schema's own keywords narrows it: generate from both together.
      const members = (list as unknown[]).map((s) => (own ? narrowed(base, deref<JsonSchema>(doc, s) ?? {}) : s));
      const onlyNull = (s: unknown) => {
        const kinds = types(deref<JsonSchema>(doc, s) ?? {});
        return kinds.length > 0 && kinds.every((t) => t === 'null');
      };
      const usable = members.some((s) => !onlyNull(s)) ? members.filter((s) => !onlyNull(s)) : members;
      return fc.oneof(...usable.map((s) => arbitraryFor(doc, s, options, depth + 1)));
    }
  }
  if (types(schema).length > 0 && types(schema).every((t) => t === 'null')) return fc.constant(null);
  const kinds = types(schema).filter((t) => t !== 'null');
  const kind = kinds[0];
  const nullable = types(schema).includes('null');
  let arbitrary: fc.Arbitrary<unknown>;
  switch (kind) {
    case 'string':
      arbitrary = stringArbitrary(schema);
      break;
    case 'integer':
      arbitrary = numberArbitrary(schema, true);
      break;
    case 'number':
      arbitrary = numberArbitrary(schema, false);
      break;
    case 'boolean':
      arbitrary = fc.boolean();
      break;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 2;
      arbitrary = depth >= MAX_DEPTH ? fc.constant([]) : fc.array(arbitraryFor(doc, schema.items ?? {}, options, depth + 1), { minLength: min, maxLength: Math.min(max, min + 2) });
      break;
    }
    case 'object':
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [name, sub] of Object.entries(properties)) {
        const resolved = deref<JsonSchema>(doc, sub) ?? {};
        if (options.writing && resolved.readOnly === true) continue;
        if (depth >= MAX_DEPTH && !required.has(name)) continue;
        record[name] = arbitraryFor(doc, resolved, options, depth + 1);
        if (required.has(name)) requiredKeys.push(name);
      }
      arbitrary = fc.record(record, { requiredKeys });
      break;
    }
    default:
      arbitrary = fc.constant(null);
  }
  return nullable ? fc.option(arbitrary, { nil: null, freq: 5 }) : arbitrary;
}

/** `count` values for `schema`, the same for the same seed. */
export function sample(doc: unknown, schema: unknown, seed: number, count: number, options: ArbitraryOptions): unknown[] {
  return fc.sample(arbitraryFor(doc, schema, options), { seed, numRuns: count });
}
