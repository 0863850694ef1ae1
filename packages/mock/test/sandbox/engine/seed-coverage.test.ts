// Every property an answer schema names is carried by some answer on the seed, or the
// description says why not. Every GET of both descriptions is called on the seed (lists with
// their default page of 250, details of the employers, employees, employments and concept
// employees for each seeded one), the property paths present in the answers are collected, and
// each path of the operation's answer schema that no answer carries must be justified where it
// is described: `x-contract-gap` (the contract does not show it) or `x-rarely-present` (why the
// seed has none) on the property's schema in spec/*/components/schemas. A new unjustified one
// fails here.
//
// One more case is justified by the description: a oneOf or anyOf whose schema carries a
// justification (the contract does not show which of the forms an answer takes, e.g. a logo in
// the detail envelope or bare). The sandbox answers one form; the properties of a form that no
// answer takes are not expected.
import { deref } from '@payroll-api/openapi-bundle';
import { expect, it } from 'vitest';
import { freshToken, request, sandboxMock } from '../../helpers.js';
import { realBundle, type Doc } from '../../fixtures/fixture.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { allOperations, callOperation, urlOf, type Call } from './operations.js';

const mock = sandboxMock();
const JUSTIFICATIONS = ['x-contract-gap', 'x-rarely-present'];

const justified = (schema: Doc | undefined) => JUSTIFICATIONS.some((key) => typeof schema?.[key] === 'string' && schema[key] !== '');

interface SchemaProperty {
  /** The property's schema as written (a $ref) and as reached. */
  nodes: Doc[];
  /** Each route the path is reached by: the forms (see FormTable) it goes through. */
  routes: string[][];
}

/** The forms of justified oneOf/anyOf schemas: each form's id, the paths within it; each holder's forms. */
interface FormTable {
  paths: Map<string, Set<string>>;
  holders: string[][];
}

/** Every property path a schema names (`content.address.city`, `_embedded[].id`), through $ref, allOf, oneOf, anyOf and items. */
function schemaPaths(bundle: Doc, node: unknown, prefix: string, out: Map<string, SchemaProperty>, forms: FormTable, route: string[] = [], depth = 0): void {
  const schema = deref<Doc>(bundle, node);
  if (!schema || typeof schema !== 'object' || depth > 12) return;
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) schemaPaths(bundle, part, prefix, out, forms, route, depth + 1);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const parts = (schema[key] as unknown[] | undefined) ?? [];
    if (!justified(schema)) {
      for (const part of parts) schemaPaths(bundle, part, prefix, out, forms, route, depth + 1);
      continue;
    }
    const holder = parts.map((_, i) => `${forms.holders.length}#${i}`);
    forms.holders.push(holder);
    parts.forEach((part, i) => {
      forms.paths.set(holder[i]!, new Set());
      schemaPaths(bundle, part, prefix, out, forms, [...route, holder[i]!], depth + 1);
    });
  }
  if (schema.items) schemaPaths(bundle, schema.items, `${prefix}[]`, out, forms, route, depth + 1);
  for (const [name, property] of Object.entries<Doc>((schema.properties as Record<string, Doc> | undefined) ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const entry = out.get(path) ?? { nodes: [], routes: [] };
    entry.nodes.push(property, deref<Doc>(bundle, property));
    entry.routes.push(route);
    out.set(path, entry);
    for (const form of route) forms.paths.get(form)!.add(path);
    schemaPaths(bundle, property, path, out, forms, route, depth + 1);
  }
}

/** The forms no answer takes (none of their paths carried), of holders of which some form is taken. */
function untakenForms(forms: FormTable, present: Set<string>): Set<string> {
  const untaken = new Set<string>();
  for (const holder of forms.holders) {
    const taken = holder.filter((form) => [...forms.paths.get(form)!].some((path) => present.has(path)));
    if (taken.length > 0) for (const form of holder) if (!taken.includes(form)) untaken.add(form);
  }
  return untaken;
}

/** The property paths a JSON value carries (null values included), and the ones holding an object or array. */
function valuePaths(value: unknown, prefix: string, present: Set<string>, filled: Set<string>): void {
  if (Array.isArray(value)) {
    if (value.length > 0) filled.add(prefix);
    for (const item of value) valuePaths(item, `${prefix}[]`, present, filled);
  } else if (value && typeof value === 'object') {
    if (prefix) filled.add(prefix);
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      present.add(path);
      valuePaths(child, path, present, filled);
    }
  }
}

/** The parent path of a property path (`a.b[].c` → `a.b[]`; '' at the top). */
const parentOf = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

const seed = seedSnapshot();
const ALL_OF: Record<string, string> = { employerId: 'employers', employeeId: 'employees', employmentId: 'employments', conceptEmployeeId: 'conceptEmployees' };

/** The urls of a GET: its seed-id url, and for one employer, employee or employment id, one per seeded entity. */
async function urlsOf(call: Call, base: string, token: string): Promise<string[]> {
  const params = [...call.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const first = await urlOf(call, base, token);
  if (!first) return [];
  const only = params.length === 1 ? ALL_OF[params[0]!] : undefined;
  if (!only || call.template.includes('/logo') || call.template.includes('/photo')) return [first];
  const prefix = call.api === 'payroll' ? '/v2' : '';
  return (seed.collections[only] ?? []).map((doc) => `${prefix}${call.template.replace(/\{[^}]+\}/, String(doc.id))}`);
}

it('every answer property is carried by some seeded answer, or justified in the description', { timeout: 240_000 }, async () => {
  const unjustified: string[] = [];
  let checked = 0;
  for (const call of allOperations().filter((c) => c.method === 'get')) {
    const bundle = realBundle(call.api);
    const success = deref<Doc>(bundle, Object.entries<Doc>(call.operation.responses).find(([code]) => code.startsWith('2'))?.[1]);
    const json = Object.entries<Doc>((success?.content as Record<string, Doc> | undefined) ?? {}).filter(([type]) => type.includes('json'));
    if (json.length === 0) continue;
    const token = freshToken(`coverage-${call.operationId}`);
    const present = new Set<string>();
    const filled = new Set<string>();
    const urls = await urlsOf(call, mock().url, token);
    expect(urls.length, `${call.operationId} has a seeded url`).toBeGreaterThan(0);
    // The seed-id call as the every-operation test makes it, then the other seeded entities.
    const outcome = await callOperation(call, mock().url, token);
    if ('res' in outcome && outcome.res.status === 200) valuePaths(outcome.res.json(), '', present, filled);
    for (let i = 0; i < urls.length; i += 8) {
      const answers = await Promise.all(urls.slice(i, i + 8).map((url) => request(`${mock().url}${url}`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })));
      for (const res of answers) if (res.status === 200) valuePaths(res.json(), '', present, filled);
    }
    expect(present.size, `${call.operationId} answered on the seed`).toBeGreaterThan(0);
    // Each version's schema: a property any of them names must be carried at some version.
    const paths = new Map<string, SchemaProperty>();
    const forms: FormTable = { paths: new Map(), holders: [] };
    for (const [, media] of json) schemaPaths(bundle, media.schema, '', paths, forms);
    const untaken = untakenForms(forms, present);
    for (const [path, property] of paths) {
      const parent = parentOf(path);
      // Only where the enclosing object was there to carry it (a child of an absent or null parent is the parent's case).
      if (parent !== '' && !filled.has(parent) && !filled.has(parent.replace(/\[\]$/, ''))) continue;
      if (present.has(path)) continue;
      if (property.nodes.some(justified)) continue;
      // Only reached through forms of a justified oneOf/anyOf that the answers do not take.
      if (property.routes.every((route) => route.some((form) => untaken.has(form)))) continue;
      unjustified.push(`${call.operationId}: ${path}`);
    }
    checked++;
  }
  expect(checked).toBeGreaterThan(40);
  expect(unjustified, 'properties no seeded answer carries: fill them in the seed or justify them in the description').toEqual([]);
});
