// A payroll bundle with a breaking change shipped as `api:version` ships it, made in memory: a
// new version of a resource, dated today or, when its newest served one is later, the day after
// that (so both are served today), whose media types carry a copy
// of the newest version's schema with one field renamed, the registry entry for it, and the
// record of the change in x-version-changes. The field is named as the handlers name it (their
// version, CODE_VERSIONS) and followed through the renames the description already records, so
// the change applies to whatever versions a maintainer has added since.
// With `removeOld`, the older versions have also left the registry (their six months are over).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_VERSIONS } from '#sandbox/engine/version-window.js';
import { realBundle, realDist, type Doc } from '../fixtures/fixture.js';

export interface Rename {
  resource: string;
  /** Dotted, as the handlers name it (`personalDetails.lastName`). */
  field: string;
  removeOld?: boolean;
}

export interface Renamed {
  bundle: Doc;
  /** The newest version the description served before: the field has its current name there. */
  previous: string;
  /** The new version's date. */
  version: string;
  /** The field's dotted name at `previous`. */
  from: string;
  /** The field's dotted name at `version`. */
  to: string;
}

/** The newest version a bundle serves of a resource. */
export const newestVersion = (bundle: Doc, resource: string): string => bundle['x-resource-versions'].resources[resource].versions[0].version;

/**
 * The dotted name `field` (named at the handlers' version) has at the newest served version:
 * each rename the description records since, oldest first, applied.
 */
export function newestName(bundle: Doc, resource: string, field: string): string {
  const steps = [...((bundle['x-version-changes']?.[resource] ?? []) as Doc[])].reverse();
  let name = field;
  for (const step of steps) {
    if (step.version <= CODE_VERSIONS[resource]!) continue;
    for (const change of step.changes as Doc[]) {
      if (change.rename === name) name = [...name.split('.').slice(0, -1), change.to].join('.');
      else if (change.remove === name) throw new Error(`${resource} ${step.version} removed ${field}`);
    }
  }
  return name;
}

/** The value at a dotted field path of an entity (undefined where a segment is missing). */
export const valueAt = (entity: unknown, field: string): unknown => field.split('.').reduce<any>((at, key) => at?.[key], entity);

const aYearAfter = (date: string) => `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;

/** Today, or the day after `newest` when that is later: a version a new one may take. */
function dateAfter(newest: string): string {
  const next = new Date(`${newest}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return new Date(Math.max(next.getTime(), Date.now())).toISOString().slice(0, 10);
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

export function renamedBundle({ resource, field, removeOld = false }: Rename): Renamed {
  const bundle = structuredClone(realBundle('payroll'));
  const entry = bundle['x-resource-versions'].resources[resource];
  const previous = newestVersion(bundle, resource);
  const version = dateAfter(previous);
  const from = newestName(bundle, resource, field);
  const segments = from.split('.');
  const leaf = `${segments.at(-1)}Renamed`;
  const older = (key: string) => (entry.versions as Doc[]).some((v) => key.endsWith(`;version=${v.version}`));
  let renamed = 0;
  for (const item of Object.values<Doc>(bundle.paths)) {
    for (const operation of Object.values<Doc>(item)) {
      if (!operation || !entry.operations.includes(operation.operationId)) continue;
      const contents = [operation.requestBody?.content, ...Object.values<Doc>(operation.responses).map((r) => r.content)].filter(Boolean) as Doc[];
      for (const content of contents) {
        for (const key of Object.keys(content)) {
          if (key.endsWith(`;version=${previous}`)) {
            const schema = inline(bundle, content[key].schema) as Doc;
            renamed += renameIn(schema, segments, leaf);
            content[key.replace(`version=${previous}`, `version=${version}`)] = { schema };
          }
          if (removeOld && older(key)) delete content[key];
        }
      }
    }
  }
  if (renamed === 0) throw new Error(`${resource} ${previous} has no field ${from}`);
  entry.versions = removeOld ? [{ version, obsoleteDate: null }] : [{ version, obsoleteDate: null }, { ...entry.versions[0], obsoleteDate: aYearAfter(version) }, ...entry.versions.slice(1)];
  const steps = (bundle['x-version-changes']?.[resource] ?? []) as Doc[];
  if (!removeOld) bundle['x-version-changes'] = { ...bundle['x-version-changes'], [resource]: [{ version, previous, changes: [{ rename: from, to: leaf }] }, ...steps] };
  return { bundle, previous, version, from, to: [...segments.slice(0, -1), leaf].join('.') };
}

/** The bundle written with the real journal bundle to a temp folder, for startMock's payrollSpec and journalSpec. */
export function writeBundle(bundle: Doc): { payrollSpec: string; journalSpec: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renamed-bundle-'));
  const payrollSpec = path.join(dir, 'payroll.json');
  fs.writeFileSync(payrollSpec, JSON.stringify(bundle));
  return { payrollSpec, journalSpec: path.join(realDist, 'journal.json'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
