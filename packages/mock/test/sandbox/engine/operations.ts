// Calling every operation of both descriptions against the sandbox as a well-behaved client
// would: path parameters from the seed, request bodies from the description's examples, and
// every answer checked with ajv against the bundle at the media type (version) served.
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { realBundle, type Doc } from '../../fixtures/fixture.js';
import { request, type RawResponse } from '../../helpers.js';
import { contentValidator, describedResponse } from '../../support/bundle-schemas.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { seedSnapshot } from '#sandbox/seed/index.js';

export type { ApiName } from '../../support/bundle-schemas.js';
import type { ApiName } from '../../support/bundle-schemas.js';

export interface Call {
  api: ApiName;
  operationId: string;
  method: string;
  template: string;
  operation: Doc;
}

export function allOperations(): Call[] {
  const calls: Call[] = [];
  for (const api of ['payroll', 'journal'] as const) {
    for (const entry of operationsOf(realBundle(api))) {
      calls.push({ api, operationId: entry.operation.operationId, method: entry.method, template: entry.path, operation: entry.operation });
    }
  }
  return calls;
}

const seed = seedSnapshot();
const docs = (collection: string) => seed.collections[collection] ?? [];
const firstOf = (collection: string, where: (d: Doc) => boolean = () => true) => docs(collection).find(where)?.id;

/** A seed id for a path parameter of an operation. */
export function seedId(name: string, template: string, method = 'get'): string | undefined {
  switch (name) {
    case 'providerId':
      return SEED_IDS.provider;
    case 'employerId':
      // The deviating provider logo is read from an employer that has one.
      return template.includes('/providerlogo') ? firstOf('employers', (d) => typeof d.providerLogoId === 'string') : SEED_IDS.employer;
    case 'wageModelId':
      return SEED_IDS.wageModel;
    case 'version':
      // The caching segment of logo and photo addresses (a uuid; it has no effect on the answer).
      return '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
    case 'logoId':
      return firstOf('providerLogos');
    case 'employeeId':
      return firstOf('employees', (d) => d.employerId === SEED_IDS.employer);
    case 'employmentId':
      // Employments the seed keeps for these transitions: an ended one to reinstate, a new hire
      // without processed payroll to delete or to move the start of.
      if (template.endsWith('/reinstate')) return PEOPLE_IDS.endedEmployment;
      if (template.endsWith('/correctstartdate') || method === 'delete') return PEOPLE_IDS.newHireEmployment;
      return PEOPLE_IDS.employment;
    case 'conceptEmployeeId':
      return firstOf('conceptEmployees', (d) => d.employerId === SEED_IDS.employer);
    case 'payrollAdministrationId':
      return firstOf('administrations', (d) => d.employerId === SEED_IDS.employer && d.isPayrollAdministration !== false);
    case 'journalProfileId':
      return template.includes('/payrolladministrations/')
        ? firstOf('journalProfiles', (d) => d.level === 'payrollAdministration')
        : firstOf('journalProfiles', (d) => d.level === 'wageModel' && d.wageModelId === SEED_IDS.wageModel);
    case 'costCenterId':
      return firstOf('journalCostCenters', (d) => d.level === 'wageModel');
    case 'costUnitId':
      return firstOf('journalCostUnits', (d) => d.level === 'wageModel');
    default:
      return undefined;
  }
}

/** Metadata keys a path needs (pay scale, pay grade, salary scale type), read from the sandbox itself. */
async function metadataKey(base: string, token: string, url: string, field: string): Promise<string | undefined> {
  const res = await request(`${base}${url}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  if (res.status !== 200) return undefined;
  const content = res.json().content;
  const list: Array<{ field: string; options: Array<{ key: unknown }> }> = Array.isArray(content) ? content : (content?.metadata ?? []);
  const entry = list.find((m) => m.field?.split('.').pop()?.toLowerCase() === field.toLowerCase());
  const key = entry?.options?.[0]?.key;
  return key === undefined ? undefined : String(key);
}

export async function urlOf(call: Call, base: string, token: string): Promise<string | undefined> {
  const prefix = call.api === 'payroll' ? '/v2' : '';
  const values: Record<string, string | undefined> = {};
  for (const [, name] of call.template.matchAll(/\{([^}]+)\}/g)) values[name as string] = seedId(name as string, call.template, call.method);
  const admin = seedId('payrollAdministrationId', call.template);
  const conceptMeta = `/v2/v2/providers/employers/conceptemployees/metadata/payrolladministration/${admin}`;
  if ('payScaleKey' in values) values.payScaleKey = await metadataKey(base, token, conceptMeta, 'payScale');
  if ('payGradeKey' in values && values.payScaleKey) values.payGradeKey = await metadataKey(base, token, `${conceptMeta}/payscale/${encodeURIComponent(values.payScaleKey)}`, 'payGrade');
  // The salary scale type is the key of a pay scale (the wage's payScale field of the job applicant metadata).
  if ('id' in values) values.id = await metadataKey(base, token, `/v2/v2/providers/employers/jobapplicant/metadata/payrolladministration/${admin}`, 'payScale');
  if (Object.values(values).some((v) => v === undefined)) return undefined;
  return `${prefix}${call.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] as string))}`;
}

/** The request body of the description's first example, and its media type. */
export function exampleBody(call: Call): { contentType: string; body: string } | undefined {
  const bundle = realBundle(call.api);
  const content = deref(bundle, call.operation.requestBody)?.content as Record<string, any> | undefined;
  if (!content) return undefined;
  const [mediaType, media] = Object.entries(content).find(([type]) => type.includes('json')) ?? Object.entries(content)[0] ?? [];
  if (!mediaType) return undefined;
  let value = media.example;
  if (value === undefined) {
    const first = Object.values(media.examples ?? {})[0];
    value = first === undefined ? undefined : deref(bundle, first)?.value;
  }
  if (value === undefined) return undefined;
  return { contentType: mediaType, body: typeof value === 'string' && !mediaType.includes('json') ? value : JSON.stringify(value) };
}

export async function callOperation(call: Call, base: string, token: string, acceptJson = 'application/json'): Promise<{ url: string; res: RawResponse } | { skipped: string }> {
  const url = await urlOf(call, base, token);
  if (!url) return { skipped: 'no seed value for a path parameter' };
  // JSON where the operation answers JSON; otherwise whatever it answers (a photo's image type).
  const success = Object.entries(call.operation.responses as Record<string, Doc>).find(([code]) => code.startsWith('2'))?.[1];
  const offered = Object.keys(deref(realBundle(call.api), success)?.content ?? {});
  const accept = offered.length === 0 || offered.some((type) => type.includes('json')) ? acceptJson : '*/*';
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: accept };
  let body: string | undefined;
  if (call.operation.requestBody) {
    const example = exampleBody(call);
    if (!example) return { skipped: 'the description has no request example' };
    headers['Content-Type'] = example.contentType;
    body = example.body;
  } else if (call.method === 'put') {
    // A PUT whose body the description does not show (a contract gap): send back what GET
    // answers at the same address, the one body such a PUT can be expected to take.
    const current = await request(`${base}${url}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
    if (current.status !== 200) return { skipped: `the description shows no body and GET answered ${current.status}` };
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(current.json().content);
  }
  return { url, res: await request(`${base}${url}`, { method: call.method.toUpperCase(), headers, body }) };
}

/** Checks an answer against the bundle: the status must be described, the body must match the schema of its media type. */
export function responseChecker(): (call: Call, res: RawResponse) => string[] {
  return (call, res) => {
    const responses = call.operation.responses as Record<string, unknown>;
    const status = String(res.status);
    if (!(status in responses)) return [`status ${res.status} is not described (${Object.keys(responses).join(', ')}): ${res.text.slice(0, 300)}`];
    const described = describedResponse(call.api, call.template, call.method, status)!;
    const response = described.response;
    const content = response?.content as Record<string, unknown> | undefined;
    if (!content) return res.body.length === 0 ? [] : [`status ${status} has no content in the description but the body is ${res.body.length} bytes`];
    const type = String(res.headers['content-type'] ?? '');
    const key = Object.keys(content).find((k) => k.replace(/\s/g, '') === type.replace(/\s/g, '')) ?? Object.keys(content).find((k) => k.split(';')[0] === type.split(';')[0]);
    if (!key) return [`Content-Type ${type} is not one of ${Object.keys(content).join(', ')}`];
    if (!(content[key] as Doc).schema) return [];
    // A binary answer (an employee's photo) is checked for being there; its schema says only "bytes".
    if (!key.split(';')[0]!.includes('json')) return res.body.length > 0 ? [] : [`an empty body for ${key}`];
    const validate = contentValidator(call.api, described, key);
    let body: unknown;
    try {
      body = res.json();
    } catch {
      return [`the body is not JSON: ${res.text.slice(0, 100)}`];
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 6).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  };
}
