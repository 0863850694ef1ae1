// One ajv (JSON Schema 2020-12 with formats, as OpenAPI 3.1 uses it) holding both real bundles,
// for every test that checks an answer or a seeded doc against the description: the schema an
// operation's status and media type select, or a component, compiled once and kept.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { realBundle, type Doc } from '../fixtures/fixture.js';

export type ApiName = 'payroll' | 'journal';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The bundles as built from the description. */
export const bundles: Record<ApiName, Doc> = { payroll: realBundle('payroll'), journal: realBundle('journal') };

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
for (const [api, bundle] of Object.entries(bundles)) ajv.addSchema({ ...bundle, $id: `bundle:${api}` });
const compiled = new Map<string, ValidateFunction>();

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function validatorAt(api: ApiName, at: string[]): ValidateFunction {
  const ref = `bundle:${api}#/${at.map((s) => encodeURIComponent(escape(s))).join('/')}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  return validate;
}

export interface DescribedResponse {
  /** Where the response is (through its $ref when it has one), as unescaped pointer segments. */
  at: string[];
  response: Doc;
}

/** The response an operation describes for `status` (a shared one is reached through its component). */
export function describedResponse(api: ApiName, template: string, method: string, status: number | string): DescribedResponse | undefined {
  const raw = bundles[api].paths?.[template]?.[method.toLowerCase()]?.responses?.[String(status)] as Doc | undefined;
  if (!raw) return undefined;
  if (typeof raw.$ref !== 'string') return { at: ['paths', template, method.toLowerCase(), 'responses', String(status)], response: raw };
  const at = raw.$ref.slice(2).split('/').map(unescape);
  return { at, response: at.reduce<Doc>((node, segment) => node?.[segment], bundles[api]) };
}

/** The validator of a described response's schema at media type key `mediaType`. */
export function contentValidator(api: ApiName, described: DescribedResponse, mediaType: string): ValidateFunction {
  return validatorAt(api, [...described.at, 'content', mediaType, 'schema']);
}

/** The validator of a component schema. */
export function componentValidator(api: ApiName, component: string): ValidateFunction {
  return validatorAt(api, ['components', 'schemas', component]);
}

/** The JSON values that are easily mistaken for "no body" although they are one. */
export const FALSY_BODIES = [null, false, 0] as const;

export interface FalsyBodyOperation {
  api: ApiName;
  operationId: string;
  template: string;
  method: string;
  /** The falsy values (of FALSY_BODIES) that some JSON content of the request body accepts. */
  values: Array<(typeof FALSY_BODIES)[number]>;
}

/** Every operation (of both bundles) whose request body schema accepts null, false or 0. */
export function operationsTakingFalsyBodies(): FalsyBodyOperation[] {
  const found: FalsyBodyOperation[] = [];
  for (const api of Object.keys(bundles) as ApiName[]) {
    for (const { path: template, method, operation } of operationsOf(bundles[api])) {
      const raw = operation.requestBody as Doc | undefined;
      if (!raw) continue;
      const at = typeof raw.$ref === 'string' ? raw.$ref.slice(2).split('/').map(unescape) : ['paths', template, method, 'requestBody'];
      const body = at.reduce<Doc>((node, segment) => node?.[segment], bundles[api]);
      const values = new Set<(typeof FALSY_BODIES)[number]>();
      for (const mediaType of Object.keys(body?.content ?? {})) {
        if (!/json/.test(mediaType)) continue;
        const validate = validatorAt(api, [...at, 'content', mediaType, 'schema']);
        for (const value of FALSY_BODIES) if (validate(value)) values.add(value);
      }
      if (values.size > 0) found.push({ api, operationId: operation.operationId as string, template, method, values: [...values] });
    }
  }
  return found;
}
