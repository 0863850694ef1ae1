// Repository mode: every change needs a changeset of at least the matching bump, read from the
// changesets release plan of a small real workspace (the repository's own .changeset config).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCheck } from '../src/check.mjs';
import { PUBLISHED_PACKAGES } from '../src/policy.mjs';
import { findRepoRoot } from '../src/repo.mjs';
import { clone, widgets, withNewVersion } from './fixtures/widgets.mjs';

const repo = findRepoRoot();
let root;

function write(file, text) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

function changeset(name, bump, text = `${name}: the \`widget\` resource`) {
  const header = PUBLISHED_PACKAGES.slice(0, 1).map((p) => `'${p}': ${bump}`).join('\n');
  write(`.changeset/${name}.md`, `---\n${header}\n---\n\n${text}\n`);
}

function bundles(head) {
  write('spec/dist/payroll.json', JSON.stringify(head));
  write('tools/api-policy/baseline/payroll.json', JSON.stringify(widgets()));
}

const check = () => runCheck({ root, today: '2026-11-22', apis: ['payroll'] });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-cs-'));
  write('package.json', JSON.stringify({ name: 'fixture-root', private: true }));
  write('pnpm-workspace.yaml', 'packages:\n  - spec\n  - packages/*\n  - tools/*\n');
  write('.changeset/config.json', fs.readFileSync(path.join(repo, '.changeset', 'config.json'), 'utf8'));
  for (const name of PUBLISHED_PACKAGES) {
    const dir = name === '@payroll-api/spec' ? 'spec' : `packages/${name.split('/')[1]}`;
    write(`${dir}/package.json`, JSON.stringify({ name, version: '0.1.0' }));
  }
  write('tools/api-policy/package.json', JSON.stringify({ name: '@payroll-api/api-policy', version: '0.0.0', private: true }));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('changesets', () => {
  it('no change needs no changeset', async () => {
    bundles(widgets());
    const result = await check();
    expect(result.ok).toBe(true);
    expect(result.changesets.required).toBe('none');
  });

  it('an addition without a changeset is refused; with a minor changeset (fixed group) it passes', async () => {
    const head = clone(widgets());
    head.components.schemas.Widget.properties.colour = { type: 'string' };
    bundles(head);
    const without = await check();
    expect(without.ok).toBe(false);
    expect(without.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET', 'P-CHANGESET']);
    expect(without.violations[0].message).toContain('minor');

    changeset('colour', 'minor');
    const withIt = await check();
    expect(withIt.ok).toBe(true);
    // One changeset for one package of the fixed group bumps all of them.
    expect(Object.values(withIt.changesets.releases)).toEqual(PUBLISHED_PACKAGES.map(() => 'minor'));
  });

  it('a patch changeset is too small for a new resource version', async () => {
    bundles(withNewVersion(widgets()));
    changeset('wording', 'patch');
    const result = await check();
    expect(result.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET']);
    expect(result.violations[0].message).toContain('needs a minor release');
    expect(result.violations[0].message).toContain('@payroll-api/spec by patch');
  });

  it('removing an obsolete version needs a major changeset', async () => {
    const base = withNewVersion(widgets(), { obsoleteDate: '2026-06-01' });
    const head = clone(base);
    delete head.paths['/v2/widgets'].get.responses[200].content['application/json;version=2020-01-01'];
    write('tools/api-policy/baseline/payroll.json', JSON.stringify(base));
    write('spec/dist/payroll.json', JSON.stringify(head));
    changeset('minor-only', 'minor');
    const minor = await check();
    // The old version's obsoleteDate (2026-06-01) is not six months after 2026-06-01: that is
    // reported too, so only the changeset rule is looked at here.
    expect(minor.violations.map((v) => v.policyRule)).toContain('P-CHANGESET');
    expect(minor.changesets.required).toBe('major');
    changeset('removal', 'major');
    const major = await check();
    expect(major.violations.map((v) => v.policyRule)).not.toContain('P-CHANGESET');
  });

  it('each changed resource must be named: an unrelated changeset does not cover it', async () => {
    const head = withNewVersion(widgets());
    bundles(head);
    changeset('other', 'minor', 'Something about the `gadget` resource and `GetGadgets`.');
    const unrelated = await check();
    expect(unrelated.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET']);
    expect(unrelated.violations[0].message).toContain('Name `widget` (or `GetWidgets`');
    // Named by an operation of the resource, or by the resource, as a whole word.
    changeset('other', 'minor', 'New version of `GetWidget`.');
    expect((await check()).violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET']);
    // The operations named, the registry's new version of the resource is still unnamed.
    changeset('other', 'minor', 'New widgets version: GetWidgets, GetWidget and PutWidget.');
    const operationsOnly = await check();
    expect(operationsOnly.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET']);
    expect(operationsOnly.violations[0].message).toContain('`widget` gains version 2026-12-01');
    expect(operationsOnly.violations[0].message).not.toContain('GetWidgets');
    changeset('other', 'minor', 'widgets everywhere');
    expect((await check()).ok).toBe(false);
    changeset('other', 'minor', 'New resource version `widget` 2026-12-01.');
    expect((await check()).ok).toBe(true);
  });

  it('a shared schema is named once; a changed default is named by its field or parameter', async () => {
    const base = widgets();
    base.components.parameters.PageSize.schema.default = 250;
    const head = clone(base);
    head.components.parameters.PageSize.schema.default = 25;
    head.components.schemas.Circle.properties.colour = { type: 'string' };
    write('tools/api-policy/baseline/payroll.json', JSON.stringify(base));
    write('spec/dist/payroll.json', JSON.stringify(head));
    changeset('paging', 'minor', 'The `widget` resource pages by 25 now.');
    const unnamed = await check();
    expect(unnamed.violations.map((v) => v.policyRule)).toEqual(['P-CHANGESET']);
    expect(unnamed.violations[0].message).toContain('`pageSize`: default changed from 250 to 25');
    expect(unnamed.violations[0].message).toContain('Name `pageSize`');
    changeset('paging', 'minor', 'The default `pageSize` is 25. Circles gain a colour (`Circle`).');
    expect((await check()).ok).toBe(true);
  });

  it('a missing baseline compares with an empty description (everything is new)', async () => {
    write('spec/dist/payroll.json', JSON.stringify(widgets()));
    changeset('first', 'minor');
    const result = await check();
    expect(result.ok).toBe(true);
    expect(result.apis[0].baseMissing).toBe(true);
    expect(result.apis[0].findings.filter((f) => f.kind === 'endpoint-added')).toHaveLength(3);
  });

  it('a baseline without its bundle is a clear error', async () => {
    write('tools/api-policy/baseline/payroll.json', JSON.stringify(widgets()));
    await expect(check()).rejects.toThrow(/spec\/dist\/payroll\.json does not exist.*build the spec/);
  });
});
