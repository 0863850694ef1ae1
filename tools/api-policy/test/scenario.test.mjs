// End to end on the real payroll description, for the `employee` resource and whatever
// operations the registry maps to it (the description grows; nothing here names its fields):
// a new employee resource version made with api:version on a copy of the sources passes with
// its changeset; removing a field or tightening a maxLength inside the existing version fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCheck } from '../src/check.mjs';
import { bundleCopy } from './fixtures/bundle-copy.mjs';
import { addDays, addMonths, todayUtc } from '../src/dates.mjs';
import { mediaTypeVersion, operationsOf, REGISTRY_KEY } from '../src/diff.mjs';
import { checkApi } from '../src/policy.mjs';
import { workspaceCopy } from '../src/release.mjs';
import { findRepoRoot } from '../src/repo.mjs';
import { scaffoldVersion } from '../src/scaffold.mjs';
import { flatten, resolveRef } from '../src/schema-diff.mjs';

const repo = findRepoRoot();
const today = todayUtc();


/** The operations of `resource` in a bundle, with their media types at `version`. */
function resourceOperations(doc, resource) {
  const registry = doc[REGISTRY_KEY]?.resources?.[resource];
  if (!registry) throw new Error(`the payroll bundle's registry has no "${resource}" resource`);
  const ops = [...operationsOf(doc).values()].filter((o) => registry.operations.includes(o.operation.operationId));
  if (ops.length === 0) throw new Error(`spec/dist/payroll.json holds no operation of "${resource}" yet (${registry.operations.join(', ')})`);
  return { ops, versions: registry.versions.map((v) => v.version) };
}

/** The entity schema (a component object) behind a detail envelope's `content`. */
function entityOf(doc, resource) {
  const { ops, versions } = resourceOperations(doc, resource);
  for (const { operation } of ops) {
    for (const response of Object.values(operation.responses ?? {})) {
      const media = response?.content?.[`application/json;version=${versions[0]}`];
      if (!media?.schema) continue;
      const list = flatten(doc, media.schema).properties.get('content') ?? [];
      const ref = list.find((s) => typeof s?.$ref === 'string')?.$ref;
      if (ref) return { name: ref.split('/').at(-1), schema: resolveRef(doc, ref) };
    }
  }
  throw new Error(`no ${resource} operation answers with a detail envelope whose content is a referenced schema`);
}

/** A writable string property somewhere under `schema` (following $ref, cycle-safe). */
function stringProperty(doc, schema, seen = new Set()) {
  const candidates = [];
  const walk = (node, trail) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) return;
      seen.add(node.$ref);
      walk(resolveRef(doc, node.$ref), trail);
    }
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      if (!prop || prop.readOnly) continue;
      const shape = flatten(doc, prop);
      const types = shape.types ? [...shape.types] : [];
      if (types.includes('string') && shape.enum === null && !shape.constraints.format && !shape.constraints.pattern && !shape.readOnly) {
        candidates.push({ name, prop, trail: [...trail, name], hasMax: shape.constraints.maxLength !== undefined });
      }
      walk(prop, [...trail, name]);
    }
    for (const member of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) walk(member, trail);
  };
  walk(schema, []);
  if (candidates.length === 0) throw new Error('the employee schema has no writable string field yet');
  return candidates.find((c) => c.hasMax) ?? candidates[0];
}

describe('scenario: the employee resource of the real payroll description', () => {
  let root;
  let base;
  let newVersion;

  beforeAll(() => {
    if (!fs.existsSync(path.join(repo, 'spec', 'node_modules', '.bin', 'redocly'))) throw new Error('spec/node_modules is not installed (redocly)');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-e2e-'));
    workspaceCopy(repo, root, { fullDirs: ['spec'], nodeModules: { spec: path.join(repo, 'spec', 'node_modules') } });
    // Only the changeset written by the scenario counts.
    for (const file of fs.readdirSync(path.join(root, '.changeset'))) if (file.endsWith('.md') && file !== 'README.md') fs.rmSync(path.join(root, '.changeset', file));
    base = bundleCopy(root);
    const newest = resourceOperations(base, 'employee').versions[0];
    newVersion = addDays(today, 14) > newest ? addDays(today, 14) : addDays(newest, 1);
  });

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('introducing a new employee resource version with api:version passes, with its changeset', async () => {
    const registryBefore = YAML.parse(fs.readFileSync(path.join(root, 'spec', 'payroll', 'resource-versions.yaml'), 'utf8'));
    const previous = registryBefore.resources.employee.versions[0].version;
    const summary = scaffoldVersion({ root, resource: 'employee', date: newVersion });
    expect(summary).toMatchObject({ resource: 'employee', version: newVersion, previous, obsoleteDate: addMonths(newVersion, 6) });
    expect(summary.changeset).toBe(`.changeset/employee-${newVersion}.md`);

    const head = bundleCopy(root);
    const { ops } = resourceOperations(head, 'employee');
    // Every versioned key of the resource's operations is copied, newest first.
    for (const { operation } of ops) {
      const contents = [operation.requestBody?.content, ...Object.values(operation.responses ?? {}).map((r) => r?.content)].filter(Boolean);
      for (const content of contents) {
        const versions = Object.keys(content).map(mediaTypeVersion).filter(Boolean);
        if (versions.includes(previous)) expect(versions[0]).toBe(newVersion);
      }
    }
    // Its examples report the new version; the old examples report their obsoleteDate.
    for (const file of summary.created.filter((f) => f.includes('/examples/'))) {
      const example = YAML.parse(fs.readFileSync(path.join(root, file), 'utf8'));
      if (example.value?.version) expect(example.value.version.resourceVersion).toBe(newVersion);
    }
    // The operations' descriptions name the new version, and how long the previous one is served.
    const described = [...operationsOf(base).values()].filter(({ operation }) => ops.some((o) => o.operation.operationId === operation.operationId) && operation.description?.includes(`employee resource version ${previous}`));
    expect(described.length).toBeGreaterThan(0);
    for (const { key } of described) {
      const now = operationsOf(head).get(key).operation.description;
      expect(now).toContain(`employee resource version ${newVersion}; ${previous} is served until ${addMonths(newVersion, 6)}`);
    }
    const registry = head[REGISTRY_KEY].resources.employee.versions;
    expect(registry.slice(0, 2)).toMatchObject([{ version: newVersion, obsoleteDate: null }, { version: previous, obsoleteDate: addMonths(newVersion, 6) }]);

    fs.mkdirSync(path.join(root, 'tools', 'api-policy', 'baseline'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), JSON.stringify(base));
    const result = await runCheck({ root, today, apis: ['payroll'] });
    expect(result.violations).toEqual([]);
    expect(result.ok).toBe(true);
    const api = result.apis[0];
    expect(api.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    expect(new Set(api.findings.filter((f) => f.kind === 'version-added').map((f) => f.operationId))).toEqual(new Set(ops.map((o) => o.operation.operationId)));
    expect(api.findings.some((f) => f.kind === 'registry-version-added' && f.resource === 'employee')).toBe(true);
    expect(result.changesets.required).toBe('minor');
    expect(result.changesets.changesets.map((c) => c.id)).toEqual([`employee-${newVersion}`]);

    // The same change without its changeset is refused.
    fs.renameSync(path.join(root, summary.changeset), path.join(root, 'employee-changeset.bak'));
    const without = await runCheck({ root, today, apis: ['payroll'] });
    expect(without.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET', 'P-CHANGESET']);
    expect(without.violations[1].message).toContain('Name `employee` (or');
    fs.renameSync(path.join(root, 'employee-changeset.bak'), path.join(root, summary.changeset));
  });

  it('refuses a second scaffold of the same version and a date that is not newer', () => {
    expect(() => scaffoldVersion({ root, resource: 'employee', date: newVersion })).toThrow(/already has version/);
    expect(() => scaffoldVersion({ root, resource: 'employee', date: '2019-01-01' })).toThrow(/must be later than/);
    expect(() => scaffoldVersion({ root, resource: 'nosuchresource', date: newVersion })).toThrow(/unknown resource "nosuchresource"/);
    expect(() => scaffoldVersion({ root, resource: 'employee', date: '2026-02-30' })).toThrow(/yyyy-MM-dd/);
  });

  it('refuses a new version dated before today or not after the last release, and writes nothing', () => {
    const registryFile = path.join(root, 'spec', 'payroll', 'resource-versions.yaml');
    const before = fs.readFileSync(registryFile, 'utf8');
    const later = addDays(newVersion, 30);
    // The clock is injected: on a later day, the same date lies in the past.
    expect(() => scaffoldVersion({ root, resource: 'employee', date: later, today: addDays(later, 1) })).toThrow(/dated before today/);
    const release = path.join(root, 'tools', 'api-policy', 'releases', '9.9.9');
    fs.mkdirSync(release, { recursive: true });
    fs.writeFileSync(path.join(release, 'release.json'), JSON.stringify({ version: '9.9.9', date: later }));
    try {
      expect(() => scaffoldVersion({ root, resource: 'employee', date: later })).toThrow(/not dated after the last release \(9\.9\.9 of/);
    } finally {
      fs.rmSync(path.join(root, 'tools', 'api-policy', 'releases'), { recursive: true, force: true });
    }
    expect(fs.readFileSync(registryFile, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(root, '.changeset', `employee-${later}.md`))).toBe(false);
  });

  it('removing a field inside the existing employee version fails, naming the field', () => {
    const head = structuredClone(base);
    const entity = entityOf(head, 'employee');
    const field = Object.keys(entity.schema.properties).find((name) => !entity.schema.properties[name].readOnly);
    delete entity.schema.properties[field];
    const result = checkApi({ baseDoc: base, headDoc: head, today });
    const refused = result.violations.filter((v) => v.findings?.some((f) => f.element === field && f.resource === 'employee'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].message).toContain(`\`${field}\` was removed`);
    expect(refused[0].message).toContain('pnpm api:version employee');
    expect(refused[0].findings.map((f) => f.direction)).toContain('response');
  });

  it('tightening a maxLength inside the existing employee version fails', () => {
    const head = structuredClone(base);
    const entity = entityOf(head, 'employee');
    const target = stringProperty(head, entity.schema);
    target.prop.maxLength = target.hasMax ? Math.max(0, flatten(base, stringProperty(base, entityOf(base, 'employee').schema).prop).constraints.maxLength - 1) : 10;
    const result = checkApi({ baseDoc: base, headDoc: head, today });
    const refused = result.violations.filter((v) => v.finding?.element === target.name && v.finding.ruleId === 'B-LENGTH');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.some((v) => v.findings.some((f) => f.resource === 'employee'))).toBe(true);
    expect(refused[0].message).toContain('maxLength');
  });
});
