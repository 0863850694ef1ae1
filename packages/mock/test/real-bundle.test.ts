// The mock as installed: the bin in examples mode serves the real bundles of @payroll-api/spec.
// Every operation that has an example answers with it when called as the contract says.
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realBundle, type Doc } from './fixtures/fixture.js';
import { headers, request, startProcess, type MockProcess } from './helpers.js';

const ID = '0f8e7d6c-5b4a-4392-8a1b-0c2d3e4f5a6b';
let mock: MockProcess;

beforeAll(async () => {
  realBundle('payroll');
  mock = await startProcess(['--port', '0', '--examples']);
});
afterAll(async () => {
  await mock?.stop();
});

function firstExample(doc: Doc, media: any): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first === undefined ? undefined : deref(doc, first)?.value;
}

function pathValue(doc: Doc, param: any): string {
  const schema = deref(doc, param?.schema) ?? {};
  if (schema.format === 'uuid' || schema.type === undefined) return ID;
  if (schema.type === 'integer' || schema.type === 'number') return '1';
  return 'abc';
}

interface Case {
  api: string;
  name: string;
  method: string;
  url: string;
  status: number;
  mediaType: string;
  example: unknown;
  body: unknown;
}

function cases(api: 'payroll' | 'journal'): Case[] {
  const doc = realBundle(api);
  const prefix = api === 'payroll' ? '/v2' : '';
  const out: Case[] = [];
  for (const { path: template, method, pathItem: item, operation: op } of operationsOf(doc)) {
    const [status, response] = Object.entries(op.responses ?? {}).find(([code]) => /^2\d\d$/.test(code)) ?? [];
    const contents = deref(doc, response)?.content ?? {};
    const mediaType = Object.keys(contents).find((m) => m.startsWith('application/json'));
    const example = mediaType ? firstExample(doc, contents[mediaType]) : undefined;
    if (example === undefined) continue;
    const requestBody = deref(doc, op.requestBody);
    const bodyMedia = requestBody ? Object.entries(requestBody.content ?? {}).find(([m]) => m.startsWith('application/json')) : undefined;
    const body = bodyMedia ? firstExample(doc, bodyMedia[1]) : undefined;
    if (requestBody?.required && body === undefined) continue;
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => deref(doc, p));
    if (params.some((p: any) => p?.in === 'query' && p.required)) continue;
    const path = template.replace(/\{([^}]+)\}/g, (_m, name) => pathValue(doc, params.find((p: any) => p?.in === 'path' && p.name === name)));
    out.push({ api, name: op.operationId, method: method.toUpperCase(), url: `${prefix}${path}`, status: Number(status), mediaType: mediaType as string, example, body });
  }
  return out;
}

describe.each(['payroll', 'journal'] as const)('the real %s bundle', (api) => {
  const all = cases(api);

  it('has operations with examples', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it(`answers every operation with its example, version object and media type (${all.length} operations)`, async () => {
    const registry = realBundle(api)['x-resource-versions']?.resources ?? {};
    const problems: string[] = [];
    for (const c of all) {
      const h = headers('application/json', c.body === undefined ? {} : { 'Content-Type': c.mediaType.startsWith('application/json;') ? c.mediaType : 'application/json' });
      const res = await request(`${mock.url}${c.url}`, { method: c.method, headers: h, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
      if (res.status !== c.status) {
        problems.push(`${c.name}: ${res.status} ${res.text.slice(0, 300)}`);
        continue;
      }
      const expires = Date.parse(String(res.headers.expires)) - Date.now();
      const cached = c.method === 'GET' && /Logo|Photo/.test(c.name);
      if (cached ? expires < 23 * 3_600_000 : expires > 60_000) problems.push(`${c.name}: Expires ${res.headers.expires}`);
      const resource = Object.values(registry as Record<string, any>).find((r) => r.operations.includes(c.name));
      const expected = structuredClone(c.example) as any;
      if (resource && expected && typeof expected === 'object' && expected.version) {
        expected.version = { resourceVersion: resource.versions[0].version, obsoleteDate: resource.versions[0].obsoleteDate };
      }
      if (resource && res.headers['content-type'] !== `application/json;version=${resource.versions[0].version}`) {
        problems.push(`${c.name}: Content-Type ${res.headers['content-type']}`);
      }
      try {
        expect(res.json()).toEqual(expected);
      } catch {
        problems.push(`${c.name}: body differs from the example`);
      }
    }
    expect(problems).toEqual([]);
  });
});

it('prints exactly one line on standard output', () => {
  expect(mock.stdout()).toBe(`payroll-mock listening on ${mock.url}\n`);
});
