// Checking stored docs against the component schema their collection declares (JSON Schema
// 2020-12 as OpenAPI 3.1 uses it, dereferenced first). Stored docs are supersets of what the API
// shows, so additional properties are allowed here; everything the schema says about the fields
// it names holds. The first problem is reported.
import type { ApiName } from './context.js';
import { dereferencer } from '../http/operation.js';
import { projectToSchema, type Projection } from '../http/schema-walk.js';
import { compileSchema, type Validator } from '../schema/compile.js';

type Json = Record<string, unknown>;

/** A copy of a schema without `additionalProperties: false` (stored docs carry more). */
export function lenient(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lenient);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    if (key === 'additionalProperties' && child === false) continue;
    if (key === 'unevaluatedProperties' && child === false) continue;
    out[key] = lenient(child);
  }
  return out;
}

/** A validator that stops at the first problem, of a dereferenced schema. */
export const compileFirstProblem = (schema: unknown): Validator => compileSchema(schema, { allErrors: false, coerceTypes: false });

export class DocSchemas {
  private readonly compiled = new Map<string, Validator>();
  private readonly resolvers = new Map<ApiName, (value: unknown) => unknown>();

  constructor(private readonly bundles: Partial<Record<ApiName, Json>>) {}

  /** Problems of `doc` against the component (empty when it validates or the component is unknown). */
  check(api: ApiName, component: string, doc: unknown): string[] {
    return this.fieldProblems(api, component, doc).map((p) => `${p.pointer || '/'} ${p.message}`);
  }

  /**
   * The doc as the API shows it under the component: only the fields the component names, at
   * every depth, as every answer is projected (an object that allows more kept whole, unless
   * `namedOnly`, as a derived operation shows a stored doc). A component the bundle lacks leaves
   * the doc as it is.
   */
  readShape<T>(api: ApiName, component: string, doc: T, options: Projection = {}): T {
    const schema = this.component(api, component);
    return schema === undefined ? doc : projectToSchema(doc, schema, options);
  }

  /** The component's schema with its `$ref`s resolved; undefined when the bundle lacks it. */
  component(api: ApiName, component: string): Json | undefined {
    const bundle = this.bundles[api];
    if (!bundle || !(bundle.components as { schemas?: Json } | undefined)?.schemas?.[component]) return undefined;
    let resolve = this.resolvers.get(api);
    if (!resolve) this.resolvers.set(api, (resolve = dereferencer(bundle)));
    return resolve({ $ref: `#/components/schemas/${component}` }) as Json | undefined;
  }

  /** The same problems, each with the dotted path of its field (`personalDetails.lastName`; '' for the doc itself). */
  fieldProblems(api: ApiName, component: string, doc: unknown): FieldProblem[] {
    const key = `${api}#${component}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      try {
        const schema = this.component(api, component);
        if (schema === undefined) throw new Error(`the ${api} description defines no component ${component}`);
        validate = compileFirstProblem(lenient(schema));
      } catch (error) {
        return [{ path: '', pointer: '', message: `(the schema ${component} cannot be used: ${(error as Error).message})` }];
      }
      this.compiled.set(key, validate);
    }
    if (validate(doc)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => {
      const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : '';
      const path = `${e.instancePath}${missing}`.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      return { path: path.join('.'), pointer: e.instancePath, message: e.message ?? 'is not valid' };
    });
  }
}

export interface FieldProblem {
  /** Dotted path of the field, array indexes as numbers (`address.postalCode`, `modules.0`). */
  path: string;
  /** The JSON pointer the validator reports (the parent, for a missing field). */
  pointer: string;
  message: string;
}
