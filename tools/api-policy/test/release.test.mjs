// pnpm release:dry: versions and packs the published packages from a copy of the workspace.
// Needs the packages built (turbo builds them first: release:dry and test depend on build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_PACKAGES } from '../src/policy.mjs';
import { dryRelease, exportTargets, forbiddenEntries, inspectTarball, listTarball, sizeTable, stampRepository, workspaceCopy, workspacePackages } from '../src/release.mjs';
import { findRepoRoot } from '../src/repo.mjs';

const repo = findRepoRoot();
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'release-dry.mjs');

/** What `changeset version` would change in the working tree: versions, changesets, changelogs. */
function treeState() {
  const manifests = workspacePackages(repo).map((p) => `${p.name}@${JSON.parse(fs.readFileSync(path.join(repo, p.dir, 'package.json'), 'utf8')).version}`);
  const changesets = fs.readdirSync(path.join(repo, '.changeset')).sort();
  const changelogs = workspacePackages(repo).map((p) => fs.existsSync(path.join(repo, p.dir, 'CHANGELOG.md')));
  return JSON.stringify({ manifests, changesets, changelogs });
}

/** A .tgz in the layout pnpm pack writes (package/<path>), for the negative cases. */
function tarball(file, entries) {
  const blocks = [];
  for (const [name, text] of Object.entries(entries)) {
    const body = Buffer.from(text);
    const header = Buffer.alloc(512);
    header.write(`package/${name}`, 0);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(blocks)));
}

describe('release:dry', () => {
  let run;
  let before;

  beforeAll(() => {
    before = treeState();
    run = spawnSync(process.execPath, [bin, '--skip-policy', '--json'], { cwd: path.dirname(bin), encoding: 'utf8', timeout: 300_000 });
  });

  it('versions and packs every published package', () => {
    if (run.status !== 0) throw new Error(`release:dry failed (exit ${run.status}):\n${run.stderr}${run.stdout}`);
    const result = JSON.parse(run.stdout);
    expect(result.problems).toEqual([]);
    expect(result.packages.map((p) => p.name)).toEqual(PUBLISHED_PACKAGES);
    console.log(`release:dry tarballs:\n${sizeTable(result.packages.map((p) => inspectTarball(path.join(repo, '.release', p.file))))}`);
  });

  it('packs every file the exports point at, types, ESM and CJS entries, and no tests or fixtures', () => {
    const files = fs.readdirSync(path.join(repo, '.release')).filter((f) => f.endsWith('.tgz'));
    expect(files.length).toBe(PUBLISHED_PACKAGES.length);
    for (const file of files) {
      const full = path.join(repo, '.release', file);
      const paths = new Set(listTarball(full).map((e) => e.path));
      const { manifest } = inspectTarball(full);
      const targets = exportTargets(manifest);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) expect(paths.has(target.file), `${manifest.name}: ${target.file}`).toBe(true);
      expect(forbiddenEntries([...paths].map((p) => ({ path: p })))).toEqual([]);
      expect([...paths].some((p) => /(^|\/)(test|tests|fixtures)\//.test(p))).toBe(false);
      if (manifest.name !== '@payroll-api/spec') {
        const files = targets.map((t) => t.file);
        expect(files.some((f) => /\.d\.c?ts$/.test(f)), `${manifest.name} types`).toBe(true);
        expect(files.some((f) => f.endsWith('.cjs')), `${manifest.name} cjs`).toBe(true);
        expect(files.some((f) => f.endsWith('.js')), `${manifest.name} esm`).toBe(true);
      } else {
        expect(targets.map((t) => t.file)).toContain('dist/payroll.json');
      }
    }
  });

  it('leaves the working tree untouched', () => {
    expect(treeState()).toBe(before);
  });
});

describe('dryRelease with a changeset', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-release-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('bumps the fixed group together and writes workspace versions into the packed manifests', () => {
    const before = treeState();
    const result = dryRelease({
      root: repo,
      outDir: out,
      changesets: { 'preview-minor': "---\n'@payroll-api/types': minor\n---\n\nPreview of a minor release.\n" },
    });
    const from = result.versions['@payroll-api/types'].from;
    const [major, minor] = from.split('.').map(Number);
    const expected = `${major}.${minor + 1}.0`;
    for (const name of PUBLISHED_PACKAGES) expect(result.versions[name].to).toBe(expected);
    expect(result.changelog['@payroll-api/spec']).toContain(`## ${expected}`);
    expect(result.changelog['@payroll-api/types']).toContain('Preview of a minor release.');
    const client = inspectTarball(result.tarballs.find((t) => t.includes('client')));
    expect(client.version).toBe(expected);
    // workspace:^ becomes a caret range: a later patch of types satisfies this client too.
    expect(client.manifest.dependencies['@payroll-api/types']).toBe(`^${expected}`);
    expect(treeState()).toBe(before);
  });

  it('fails with a clear message when the packages are not built', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-unbuilt-'));
    try {
      workspaceCopy(repo, tmp, {});
      expect(() => dryRelease({ root: tmp, outDir: path.join(tmp, '.release'), waitMs: 1500 })).toThrow(/not built \(or are being rebuilt\)[\s\S]*@payroll-api\/types: dist\/payroll/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('inspectTarball', () => {
  it('reports a missing export target, a test file, fixtures and a missing CJS entry', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-tgz-'));
    try {
      const file = path.join(dir, 'bad-1.0.0.tgz');
      tarball(file, {
        'package.json': JSON.stringify({ name: 'bad', version: '1.0.0', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './extra': './dist/extra.js' } }),
        'dist/index.js': 'export {};',
        'dist/index.d.ts': 'export {};',
        'dist/index.test.js': '',
        'test/fixtures/a.json': '{}',
      });
      const { problems, files } = inspectTarball(file);
      expect(files).toBe(5);
      expect(problems).toEqual([
        'bad: ./extra -> dist/extra.js is not in the tarball',
        'bad: no cjs entry among its exports',
        'bad: dist/index.test.js must not be published',
        'bad: test/fixtures/a.json must not be published',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stampRepository', () => {
  it('names the repository in the root and every published manifest, once, and refuses an address that is none', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-repository-'));
    try {
      const packages = workspaceCopy(repo, tmp, {});
      const published = packages.filter((pkg) => !pkg.manifest.private);
      const manifest = (dir) => JSON.parse(fs.readFileSync(path.join(tmp, dir, 'package.json'), 'utf8'));
      expect(() => stampRepository(tmp, 'github.com/acme/payroll')).toThrow(/not a repository's web address/);
      expect(() => stampRepository(tmp, 'https://github.com/acme')).toThrow(/not a repository's web address/);
      const changed = stampRepository(tmp, 'https://github.com/acme/payroll-toolchain');
      expect(changed).toHaveLength(published.length + 1);
      expect(manifest('.').repository).toEqual({ type: 'git', url: 'git+https://github.com/acme/payroll-toolchain.git' });
      for (const pkg of published) {
        expect(manifest(pkg.dir).repository).toEqual({ type: 'git', url: 'git+https://github.com/acme/payroll-toolchain.git', directory: pkg.dir });
        expect(Object.keys(manifest(pkg.dir)).slice(0, 4)).toEqual(['name', 'version', 'description', 'repository'].filter((key) => key in manifest(pkg.dir)));
      }
      for (const pkg of packages.filter((p) => p.manifest.private)) expect(manifest(pkg.dir).repository).toBeUndefined();
      expect(stampRepository(tmp, 'https://github.com/acme/payroll-toolchain/')).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
