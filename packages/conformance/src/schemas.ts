// Validates bodies against the description's JSON Schemas (OpenAPI 3.1 schemas are JSON Schema
// 2020-12). Each bundle's components are registered once under an id of their own, and a
// schema taken from an operation has its local $refs pointed there, so every schema compiles
// once and is cached.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ApiName, JsonSchema } from './description.js';

// ajv and ajv-formats are CommonJS modules whose default export differs between loaders.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

export interface SchemaIssue {
  /** Where in the body, as a JSON pointer ('' for the root). */
  at: string;
  message: string;
}

function baseId(api: ApiName): string {
  return `urn:payroll-api:${api}`;
}

function retarget(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => retarget(item, base));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${base}${value}` : retarget(value, base);
  }
  return out;
}

export class SchemaValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, discriminator: false });
  private readonly cache = new WeakMap<object, ValidateFunction>();

  constructor(docs: Array<{ name: ApiName; doc: Record<string, unknown> }>) {
    addFormats(this.ajv);
    for (const { name, doc } of docs) {
      this.ajv.addSchema({ $id: baseId(name), components: doc.components ?? {} } as never);
    }
  }

  private compile(api: ApiName, schema: JsonSchema): ValidateFunction {
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(retarget(schema, baseId(api)) as object);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Whether `value` validates against `schema` (a part of a bundle's schema, e.g. a oneOf branch). */
  matches(api: ApiName, schema: JsonSchema, value: unknown): boolean {
    return this.compile(api, schema)(value) === true;
  }

  /** The ways `value` breaks `schema` (empty when it validates). */
  validate(api: ApiName, schema: JsonSchema, value: unknown): SchemaIssue[] {
    const fn = this.compile(api, schema);
    if (fn(value)) return [];
    return (fn.errors ?? []).slice(0, 8).map((e: ErrorObject) => ({ at: e.instancePath, message: describe(e) }));
  }
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `is missing required property '${String(params.missingProperty)}'`;
  if (error.keyword === 'additionalProperties') return `has unexpected property '${String(params.additionalProperty)}'`;
  if (error.keyword === 'enum') return `${error.message ?? 'is not an allowed value'}: ${JSON.stringify(params.allowedValues)}`;
  return error.message ?? error.keyword;
}
