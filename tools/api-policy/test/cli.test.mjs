// The CLI as CI and authors run it: exit codes, markdown and JSON output, snapshot.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, todayUtc } from '../src/dates.mjs';
import { PUBLISHED_PACKAGES } from '../src/policy.mjs';
import { workspaceCopy } from '../src/release.mjs';
import { findRepoRoot } from '../src/repo.mjs';
import { clone, widgets, withNewVersion } from './fixtures/widgets.mjs';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'api-policy.mjs');
const repo = findRepoRoot();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name, doc) {
  const full = path.join(dir, name);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, JSON.stringify(doc));
  return full;
}

/** A workspace of the published packages' manifests at `version`, with the repository's changesets config. */
function workspace(root, version) {
  fs.mkdirSync(path.join(root, '.changeset'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'r', private: true }));
  fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages:\n  - spec\n  - packages/*\n');
  fs.copyFileSync(path.join(repo, '.changeset', 'config.json'), path.join(root, '.changeset', 'config.json'));
  for (const name of PUBLISHED_PACKAGES) {
    const pkg = name === '@payroll-api/spec' ? 'spec' : `packages/${name.split('/')[1]}`;
    fs.mkdirSync(path.join(root, pkg), { recursive: true });
    fs.writeFileSync(path.join(root, pkg, 'package.json'), JSON.stringify({ name, version }));
  }
}

const cli = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir, env: { ...process.env, INIT_CWD: dir } });

describe('api-policy check --base --head', () => {
  const base = file('payroll-base.json', widgets());
  const broken = clone(widgets());
  delete broken.components.schemas.Widget.properties.note;
  const head = file('payroll-head.json', broken);

  it('exits 1 with a markdown report naming the operation, the path, the element and the rule', () => {
    const run = cli('check', '--base', base, '--head', head, '--today', '2026-11-22');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Result: **refused**');
    expect(run.stdout).toContain('## payroll');
    expect(run.stdout).toMatch(/<br>`GetWidget` GET \/v2\/widgets\/\{widgetId\} — response 200 `application\/json;version=2020-01-01`/);
    expect(run.stdout).toContain('| `Widget` `/note` | `note` | `note` was removed | §9 Versioning, Breaking: the removal of an element, endpoint, operation or parameter | refused |');
    expect(run.stdout).toContain('pnpm api:version widget <yyyy-MM-dd>');
  });

  it('writes JSON with --json --out, relative to the caller', () => {
    const run = cli('check', '--base', 'payroll-base.json', '--head', 'payroll-head.json', '--today', '2026-11-22', '--json', '--out', 'report.json');
    expect(run.status).toBe(1);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report.ok).toBe(false);
    expect(report.apis[0].findings[0]).toMatchObject({ severity: 'breaking', ruleId: 'B-REMOVAL', element: 'note', operationId: 'GetWidgets', pointer: '/_embedded/[]/note', version: '2020-01-01', resource: 'widget', permitted: false });
    expect(report.violations.every((v) => v.policyRule === 'P-IN-VERSION')).toBe(true);
  });

  it('exits 0 for a new resource version and shows what the version changes', () => {
    const next = withNewVersion(widgets(), { changes: [{ remove: 'note' }] });
    delete next.components.schemas.V2Widget.properties.note;
    const run = cli('check', '--base', base, '--head', file('payroll-next.json', next), '--today', '2026-11-22');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Result: **passes**');
    expect(run.stdout).toContain('#### `widget` 2026-12-01 (previous version 2020-01-01)');
    expect(run.stdout).toContain('`note` was removed');
  });

  it('gives a clear error for a missing file, an unknown command and bad arguments', () => {
    const missing = cli('check', '--base', base, '--head', path.join(dir, 'nope.json'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json does not exist/);
    const half = cli('check', '--base', base);
    expect(half.stderr).toContain('--base and --head go together');
    expect(cli('frobnicate').status).toBe(2);
    expect(cli('version', 'employee').stderr).toContain('usage: api:version <resource> <yyyy-MM-dd>');
    // A new version is dated from the real clock: no --today to backdate it with.
    const backdated = cli('version', 'employee', '2020-01-01', '--today', '2019-12-01', '--root', dir);
    expect(backdated.status).toBe(2);
    expect(backdated.stderr).toContain('version takes no --today');
    expect(cli('check', '--today', 'tomorrow', '--base', base, '--head', head).stderr).toContain('today must be a calendar date');
    const notJson = path.join(dir, 'broken.json');
    fs.writeFileSync(notJson, '{');
    expect(cli('check', '--base', base, '--head', notJson).stderr).toContain('is not a readable bundle');
  });
});

describe('api-policy snapshot, then check in repository mode', () => {
  it('snapshots the bundles as the baseline; an unchanged description then passes with no changeset', () => {
    const root = path.join(dir, 'repo');
    workspace(root, '0.1.0');
    file('repo/spec/dist/payroll.json', widgets());
    const snap = cli('snapshot', '--root', root);
    expect(snap.status).toBe(0);
    expect(snap.stdout).toContain('tools/api-policy/baseline/payroll.json');
    expect(JSON.parse(fs.readFileSync(path.join(root, 'tools/api-policy/baseline/payroll.json'), 'utf8'))).toEqual(widgets());
    const check = cli('check', '--root', root, '--today', '2026-11-22');
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('No differences.');
    expect(check.stdout).toContain('Required bump: **none**');

    file('repo/spec/dist/payroll.json', withNewVersion(widgets()));
    const unannounced = cli('check', '--root', root, '--today', '2026-11-22');
    expect(unannounced.status).toBe(1);
    expect(unannounced.stdout).toContain('**P-CHANGESET**');
  });
});

describe('re-baselining: the baseline is the last release', () => {
  it('snapshot refuses to move the baseline once a release is archived; a baseline moved by hand is refused and the check compares with the release', () => {
    const root = path.join(dir, 'released');
    workspace(root, '1.0.0');
    file('released/tools/api-policy/baseline/payroll.json', widgets());
    file('released/tools/api-policy/releases/1.0.0/payroll.json', widgets());
    file('released/tools/api-policy/releases/1.0.0/release.json', { version: '1.0.0', date: '2026-11-01' });
    const broken = clone(widgets());
    delete broken.components.schemas.Widget.properties.note;
    file('released/spec/dist/payroll.json', broken);

    const snap = cli('snapshot', '--root', root);
    expect(snap.status).toBe(1);
    expect(snap.stderr).toContain('moves only with `pnpm release`');
    expect(snap.stderr).toContain('tools/api-policy/releases/1.0.0/payroll.json');
    expect(JSON.parse(fs.readFileSync(path.join(root, 'tools/api-policy/baseline/payroll.json'), 'utf8'))).toEqual(widgets());

    // Copied by hand: refused, and the breaking change is still found against the release.
    file('released/tools/api-policy/baseline/payroll.json', broken);
    const check = cli('check', '--root', root, '--today', '2026-11-22', '--json');
    expect(check.status).toBe(1);
    const result = JSON.parse(check.stdout);
    expect(result.violations.map((v) => v.policyRule)).toEqual(expect.arrayContaining(['P-BASELINE', 'P-IN-VERSION']));
    expect(result.apis[0].base).toBe('tools/api-policy/releases/1.0.0/payroll.json');
  });
});

describe('api-policy release', () => {
  it('refuses to version when the check fails, then versions and re-snapshots when it passes', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-release-'));
    try {
      const packages = workspaceCopy(repo, root, {});
      for (const file of fs.readdirSync(path.join(root, '.changeset'))) if (file.endsWith('.md') && file !== 'README.md') fs.rmSync(path.join(root, '.changeset', file));
      const dirOf = (name) => packages.find((p) => p.name === name).dir;
      const version = (name) => JSON.parse(fs.readFileSync(path.join(root, dirOf(name), 'package.json'), 'utf8')).version;
      const before = version('@payroll-api/spec');
      fs.mkdirSync(path.join(root, 'spec', 'dist'), { recursive: true });
      fs.mkdirSync(path.join(root, 'tools', 'api-policy', 'baseline'), { recursive: true });
      // A release ships on the real day; the new version is dated after it.
      const today = todayUtc();
      const date = addDays(today, 7);
      const next = withNewVersion(widgets(), { date });
      fs.writeFileSync(path.join(root, 'spec', 'dist', 'payroll.json'), JSON.stringify(next));
      fs.writeFileSync(path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), JSON.stringify(widgets()));

      const refused = cli('release', '--root', root);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('nothing was versioned');
      expect(version('@payroll-api/spec')).toBe(before);

      const changeset = path.join(root, '.changeset', `widget-${date}.md`);
      fs.writeFileSync(changeset, `---\n'@payroll-api/spec': minor\n---\n\nNew resource version widget ${date}.\n`);
      // A release is never dated before the day it is made.
      const backdated = cli('release', '--root', root, '--today', addDays(today, -1));
      expect(backdated.status).toBe(2);
      expect(backdated.stderr).toContain(`a release is dated today (${today}) or later`);
      expect(version('@payroll-api/spec')).toBe(before);

      const released = cli('release', '--root', root);
      expect(released.status, released.stderr).toBe(0);
      const [major, minor] = before.split('.').map(Number);
      for (const name of PUBLISHED_PACKAGES) expect(version(name)).toBe(`${major}.${minor + 1}.0`);
      expect(fs.existsSync(changeset)).toBe(false);
      expect(fs.readFileSync(path.join(root, 'spec', 'CHANGELOG.md'), 'utf8')).toContain(`New resource version widget ${date}.`);
      expect(JSON.parse(fs.readFileSync(path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), 'utf8'))).toEqual(next);
      expect(JSON.parse(fs.readFileSync(path.join(root, 'tools', 'api-policy', 'releases', `${major}.${minor + 1}.0`, 'release.json'), 'utf8')).date).toBe(today);
      expect(cli('check', '--root', root).status).toBe(0);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
