// A breaking change made in memory, as `pnpm api:version <resource> <version> --rename a.b=c`
// makes it in the sources: the resource gets a new version whose media types carry copies of
// the previous version's schemas and examples with the field renamed, the previous version an
// obsoleteDate six months on, and the bundle the change record (x-version-changes).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { versionChanges } from '@payroll-api/version-changes';

type Json = Record<string, any>;

const require = createRequire(import.meta.url);

export function payrollBundle(): Json {
  return JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist', 'payroll.json'), 'utf8')) as Json;
}

/** The schema with every $ref replaced by what it points at (the copies of a new version share nothing). */
function inlined(doc: Json, node: unknown, trail: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(doc, item, trail));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string') {
    if (trail.includes(ref)) throw new Error(`cannot inline the recursive schema ${ref}`);
    return inlined(doc, deref(doc, node), [...trail, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(doc, value, trail)]));
}

/** Renames the field at `segments` wherever the schema declares it: through allOf/oneOf/anyOf and array items. */
function renameIn(schema: unknown, segments: string[], to: string): number {
  if (!schema || typeof schema !== 'object') return 0;
  const node = schema as Json;
  let renamed = 0;
  for (const part of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.items ? [node.items] : [])]) renamed += renameIn(part, segments, to);
  const [first, ...rest] = segments as [string, ...string[]];
  const properties = node.properties as Json | undefined;
  if (!properties || !Object.hasOwn(properties, first)) return renamed;
  if (rest.length > 0) return renamed + renameIn(properties[first], rest, to);
  node.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key === first ? to : key, value]));
  if (Array.isArray(node.required)) node.required = node.required.map((name: string) => (name === first ? to : name));
  return renamed + 1;
}

const addMonths = (date: string, months: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/** The bundle with `resource` at `version`, where `field` (dotted) is renamed to `to`. */
export function withRename(base: Json, resource: string, version: string, field: string, to: string): Json {
  const doc = structuredClone(base);
  const entry = doc['x-resource-versions'].resources[resource];
  const previous: string = entry.versions[0].version;
  entry.versions = [{ version, obsoleteDate: null, basis: 'baseline' }, { ...entry.versions[0], obsoleteDate: addMonths(version, 6) }, ...entry.versions.slice(1)];
  const change = { rename: field, to };
  // Newest first, after the steps the description records already (from earlier api:version runs).
  const steps = doc['x-version-changes']?.[resource] ?? [];
  doc['x-version-changes'] = { ...(doc['x-version-changes'] ?? {}), [resource]: [{ version, previous, changes: [change] }, ...steps] };
  const chain = versionChanges(doc);
  const segments = field.split('.');
  let renamed = 0;
  for (const { operation } of operationsOf(doc)) {
    if (!entry.operations.includes(operation.operationId)) continue;
    const holders = [deref(doc, operation.requestBody), ...Object.values(operation.responses ?? {}).map((r) => deref(doc, r))].filter(Boolean) as Json[];
    for (const holder of holders) {
      const content = (holder.content ?? {}) as Record<string, Json>;
      for (const [mediaType, media] of Object.entries({ ...content })) {
        if (!mediaType.endsWith(`;version=${previous}`)) continue;
        const schema = inlined(doc, media.schema) as Json;
        renamed += renameIn(schema, segments, to) + renameIn(schema, ['content', ...segments], to) + renameIn(schema, ['_embedded', ...segments], to);
        const examples = Object.fromEntries(Object.entries((media.examples ?? {}) as Json).map(([name, example]) => {
          const value = (deref(doc, example) as Json).value;
          return [name, { value: mediaType.startsWith('application/json') ? chain.upgrade(resource, previous, version, value) : value }];
        }));
        content[mediaType.replace(`;version=${previous}`, `;version=${version}`)] = { ...media, schema, examples };
      }
      holder.content = content;
    }
  }
  if (renamed === 0) throw new Error(`no schema of ${resource} declares ${field}`);
  return doc;
}

/** Writes a bundle to a temporary file; returns its path and a remover. */
export function bundleFile(doc: Json): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-'));
  const file = path.join(dir, 'payroll.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The first free-text field of the personal details the newest employee PUT takes (lastName in the contract's version). */
export function newestPersonalTextField(doc: Json): string {
  const version: string = doc['x-resource-versions'].resources.employee.versions[0].version;
  for (const { operation } of operationsOf(doc)) {
    if (operation.operationId !== 'PutEmployeeByEmployeeId') continue;
    const schema = inlined(doc, deref(doc, operation.requestBody).content[`application/json;version=${version}`].schema) as Json;
    const details = (schema.properties?.personalDetails ?? {}) as Json;
    const found = Object.entries((details.properties ?? {}) as Record<string, Json>).find(([name, field]) => field.type === 'string' && !field.format && !field.readOnly && /name/i.test(name) && name !== 'firstName');
    if (found) return found[0];
  }
  throw new Error('the newest employee PUT has no personal text field');
}
