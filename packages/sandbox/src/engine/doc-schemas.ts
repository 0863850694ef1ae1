// Checking stored docs against the component schema their collection declares (ajv, JSON
// Schema 2020-12 as OpenAPI 3.1 uses it). Stored docs are supersets of what the API shows,
// so additional properties are allowed here; everything the schema says about the fields it
// names holds.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiName } from './types.js';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A copy of the bundle without `additionalProperties: false` (stored docs carry more). */
function lenient(value: unknown): unknown {
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

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, validateSchema: false });
  addFormats(ajv);
  return ajv;
}

export class DocSchemas {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(bundles: Partial<Record<ApiName, Json>>) {
    for (const [api, bundle] of Object.entries(bundles)) {
      if (bundle) this.ajv.addSchema({ ...(lenient(bundle) as Json), $id: `sandbox:${api}` });
    }
  }

  /** Problems of `doc` against the component (empty when it validates or the component is unknown). */
  check(api: ApiName, component: string, doc: unknown): string[] {
    const key = `${api}#${component}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const ref = `sandbox:${api}#/components/schemas/${component}`;
      try {
        validate = this.ajv.compile({ $ref: ref });
      } catch (error) {
        return [`the schema ${component} cannot be used: ${(error as Error).message}`];
      }
      this.compiled.set(key, validate);
    }
    if (validate(doc)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is not valid'}`);
  }
}
