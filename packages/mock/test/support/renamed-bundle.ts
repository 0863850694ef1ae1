// A payroll bundle with a breaking change shipped as `api:version` ships it, made in memory: a
// new version of a resource whose media types carry a copy of the schema with one field
// renamed, the registry entry for it, and the record of the change in x-version-changes.
// With `removeOld`, the older version has also left the registry (its six months are over).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { realBundle, realDist, type Doc } from '../fixtures/fixture.js';

export interface Rename {
  resource: string;
  /** The new version's date. */
  version: string;
  /** Dotted, at the older version (`personalDetails.lastName`). */
  field: string;
  to: string;
  removeOld?: boolean;
}

/** The schema with every local $ref inlined (copied), so that a change in it touches this copy only. */
function inline(bundle: Doc, node: unknown, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(bundle, item, depth));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Doc).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (depth > 40) throw new Error(`${ref}: the schema is too deep to inline`);
    const target = ref.slice(2).split('/').reduce<Doc>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], bundle);
    return inline(bundle, target, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(bundle, value, depth)]));
}

const COMPOSED = ['allOf', 'oneOf', 'anyOf'];

/** Renames the property at `segments` wherever the schema reaches it (through envelopes, compositions, items); how many it renamed. */
function renameIn(schema: Doc, segments: string[], to: string): number {
  if (!schema || typeof schema !== 'object') return 0;
  let count = 0;
  for (const key of COMPOSED) for (const part of schema[key] ?? []) count += renameIn(part, segments, to);
  if (schema.items) count += renameIn(schema.items, segments, to);
  const properties = schema.properties as Doc | undefined;
  if (!properties) return count;
  const [first, ...rest] = segments as [string, ...string[]];
  if (rest.length === 0 && Object.hasOwn(properties, first)) {
    schema.properties = Object.fromEntries(Object.entries(properties).map(([name, value]) => [name === first ? to : name, value]));
    if (Array.isArray(schema.required)) schema.required = schema.required.map((name: string) => (name === first ? to : name));
    return count + 1;
  }
  if (Object.hasOwn(properties, first)) count += renameIn(properties[first], rest, to);
  for (const envelope of ['content', '_embedded']) if (Object.hasOwn(properties, envelope) && envelope !== first) count += renameIn(properties[envelope], segments, to);
  return count;
}

export function renamedBundle({ resource, version, field, to, removeOld = false }: Rename): Doc {
  const bundle = structuredClone(realBundle('payroll'));
  const entry = bundle['x-resource-versions'].resources[resource];
  const previous: string = entry.versions[0].version;
  const segments = field.split('.');
  let renamed = 0;
  for (const item of Object.values<Doc>(bundle.paths)) {
    for (const operation of Object.values<Doc>(item)) {
      if (!operation || !entry.operations.includes(operation.operationId)) continue;
      const contents = [operation.requestBody?.content, ...Object.values<Doc>(operation.responses).map((r) => r.content)].filter(Boolean) as Doc[];
      for (const content of contents) {
        for (const key of Object.keys(content)) {
          if (!key.endsWith(`;version=${previous}`)) continue;
          const schema = inline(bundle, content[key].schema) as Doc;
          renamed += renameIn(schema, segments, to);
          content[key.replace(`version=${previous}`, `version=${version}`)] = { schema };
          if (removeOld) delete content[key];
        }
      }
    }
  }
  if (renamed === 0) throw new Error(`${resource} ${previous} has no field ${field}`);
  const obsolete = `${Number(version.slice(0, 4)) + 1}${version.slice(4)}`;
  entry.versions = removeOld ? [{ version, obsoleteDate: null }] : [{ version, obsoleteDate: null }, { ...entry.versions[0], obsoleteDate: obsolete }];
  if (!removeOld) bundle['x-version-changes'] = { ...bundle['x-version-changes'], [resource]: [{ version, previous, changes: [{ rename: field, to }] }] };
  return bundle;
}

/** The bundle written with the real journal bundle to a temp folder, for startMock's payrollSpec and journalSpec. */
export function writeBundle(bundle: Doc): { payrollSpec: string; journalSpec: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renamed-bundle-'));
  const payrollSpec = path.join(dir, 'payroll.json');
  fs.writeFileSync(payrollSpec, JSON.stringify(bundle));
  return { payrollSpec, journalSpec: path.join(realDist, 'journal.json'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
