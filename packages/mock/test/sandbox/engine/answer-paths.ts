// What the seed-coverage tests share: the property paths an answer schema names (and where it
// names none, a free-form object), the property paths a JSON answer carries, and the urls of a
// GET on the seed.
import { deref } from '@payroll-api/openapi-bundle';
import { request } from '../../helpers.js';
import { type Doc } from '../../fixtures/fixture.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { callOperation, urlOf, type Call } from './operations.js';

export const JUSTIFICATIONS = ['x-contract-gap', 'x-rarely-present'];

export const justified = (schema: Doc | undefined) => JUSTIFICATIONS.some((key) => typeof schema?.[key] === 'string' && schema[key] !== '');

export interface SchemaProperty {
  /** The property's schema as written (a $ref) and as reached. */
  nodes: Doc[];
  /** Each route the path is reached by: the forms (see FormTable) it goes through. */
  routes: string[][];
}

/** The forms of justified oneOf/anyOf schemas: each form's id, the paths within it; each holder's forms. */
export interface FormTable {
  paths: Map<string, Set<string>>;
  holders: string[][];
}

/** Every property path a schema names (`content.address.city`, `_embedded[].id`), through $ref, allOf, oneOf, anyOf and items. */
export function schemaPaths(bundle: Doc, node: unknown, prefix: string, out: Map<string, SchemaProperty>, forms: FormTable, route: string[] = [], depth = 0): void {
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
export function untakenForms(forms: FormTable, present: Set<string>): Set<string> {
  const untaken = new Set<string>();
  for (const holder of forms.holders) {
    const taken = holder.filter((form) => [...forms.paths.get(form)!].some((path) => present.has(path)));
    if (taken.length > 0) for (const form of holder) if (!taken.includes(form)) untaken.add(form);
  }
  return untaken;
}

/** The property paths a JSON value carries (null values included), and the ones holding an object or array. */
export function valuePaths(value: unknown, prefix: string, present: Set<string>, filled: Set<string>): void {
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
export const parentOf = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

const seed = seedSnapshot();
const ALL_OF: Record<string, string> = { employerId: 'employers', employeeId: 'employees', employmentId: 'employments', conceptEmployeeId: 'conceptEmployees' };

/** The urls of a GET: its seed-id url, and for one employer, employee or employment id, one per seeded entity. */
export async function urlsOf(call: Call, base: string, token: string): Promise<string[]> {
  const params = [...call.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const first = await urlOf(call, base, token);
  if (!first) return [];
  const only = params.length === 1 ? ALL_OF[params[0]!] : undefined;
  if (!only || call.template.includes('/logo') || call.template.includes('/photo')) return [first];
  const prefix = call.api === 'payroll' ? '/v2' : '';
  return (seed.collections[only] ?? []).map((doc) => `${prefix}${call.template.replace(/\{[^}]+\}/, String(doc.id))}`);
}


/**
 * The property paths (and the paths holding an object or array) of every answer a GET gives on
 * the seed: the seed-id call as the every-operation test makes it, then one per seeded entity.
 * `accept` asks for one version's media type (the newest JSON by default).
 */
export async function seededAnswers(call: Call, base: string, token: string, accept = 'application/json'): Promise<{ present: Set<string>; filled: Set<string>; urls: string[] }> {
  const present = new Set<string>();
  const filled = new Set<string>();
  const urls = await urlsOf(call, base, token);
  if (urls.length === 0) throw new Error(`${call.operationId} has no seeded url`);
  const outcome = await callOperation(call, base, token, accept);
  if ('res' in outcome && outcome.res.status === 200) valuePaths(outcome.res.json(), '', present, filled);
  for (let i = 0; i < urls.length; i += 8) {
    const answers = await Promise.all(urls.slice(i, i + 8).map((url) => request(`${base}${url}`, { headers: { Authorization: `Bearer ${token}`, Accept: accept } })));
    for (const res of answers) if (res.status === 200) valuePaths(res.json(), '', present, filled);
  }
  return { present, filled, urls };
}

/**
 * The property paths of a schema where it names no property of its own (free JSON, a map:
 * `additionalProperties`), or names none because it is not an object: what is below them is
 * not the schema's to name. The parts of a composition (allOf, oneOf, anyOf) are read together:
 * a list envelope's `items: {}` narrowed to an entity in another part names the entity's.
 */
export function freeFormPaths(bundle: Doc, nodes: unknown[], prefix: string, out: Set<string>, depth = 0): void {
  if (depth > 12) return;
  const parts: Doc[] = nodes.map((node) => deref<Doc>(bundle, node)).filter((part): part is Doc => !!part && typeof part === 'object');
  for (let i = 0; i < parts.length && i < 64; i++) {
    for (const key of ['allOf', 'oneOf', 'anyOf']) for (const part of (parts[i]![key] as unknown[] | undefined) ?? []) parts.push(deref<Doc>(bundle, part) ?? {});
  }
  const allowsMore = parts.some((part) => (part.additionalProperties !== undefined && part.additionalProperties !== false) || part.patternProperties !== undefined);
  if (allowsMore || parts.every((part) => !part.properties && !part.items)) out.add(prefix);
  const items = parts.flatMap((part) => (part.items ? [part.items] : []));
  if (items.length > 0) freeFormPaths(bundle, items, `${prefix}[]`, out, depth + 1);
  const properties = new Map<string, unknown[]>();
  for (const part of parts) for (const [name, property] of Object.entries((part.properties as Record<string, unknown> | undefined) ?? {})) properties.set(name, [...(properties.get(name) ?? []), property]);
  for (const [name, schemas] of properties) freeFormPaths(bundle, schemas, prefix ? `${prefix}.${name}` : name, out, depth + 1);
}
