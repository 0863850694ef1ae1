// The round trip of a release, for real: the repository's release commands publish to a local
// Verdaccio, and a fresh project installs what was published with npm and with pnpm and uses
// it as the packages' READMEs say. Then a patch release is published over it and upgraded to.
// The steps build on each other, in order.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTarball } from '@payroll-api/api-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, tarballProblems } from '../src/checks.mjs';
import { RELEASE_STEPS, cleanEnv, copyRepository, pnpmOnPath, run, runOk } from '../src/commands.mjs';
import { QUICK_START_WAGE_MODEL, TSC, startInstalledMock, writeConsumer } from '../src/consumer.mjs';
import { startRegistry, tarball } from '../src/registry.mjs';

const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const ROOT_MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const PUBLISHED = publishedPackages(ROOT);
const GIT_USER = ['-c', 'user.name=Release', '-c', 'user.email=release@localhost'];

let tmp;
let registry;
let repo;
let env;
const state = { versions: {}, dryFiles: {}, tarballs: {} };

/** The maintainer's shell in the copy: pnpm on PATH, the registry given the standard way. */
const maintainer = (args, timeoutMs = 120_000) => runOk('pnpm', args, { cwd: repo, env, timeoutMs });
const commit = (message) => runOk('git', [...GIT_USER, 'commit', '-qam', message], { cwd: repo, env });
const versionsOf = (dir) => Object.fromEntries(PUBLISHED.map((pkg) => [pkg.name, JSON.parse(readFileSync(path.join(dir, pkg.dir, 'package.json'), 'utf8')).version]));

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'payroll-registry-'));
  registry = await startRegistry(tmp);
  repo = copyRepository(ROOT, path.join(tmp, 'repo'), { skip: ['packages/docs/dist'] });
  const bin = pnpmOnPath(path.join(tmp, 'bin'), ROOT);
  env = cleanEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH}`, npm_config_registry: registry.url, npm_config_userconfig: registry.npmrc });
  await runOk('git', ['init', '-q', '-b', 'main'], { cwd: repo, env });
  await runOk('git', ['add', '-A'], { cwd: repo, env });
  await runOk('git', [...GIT_USER, 'commit', '-qm', 'the repository as it is'], { cwd: repo, env });
}, 120_000);

afterAll(async () => {
  await registry?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a release through a real registry', () => {
  it('finds the packages to publish in the workspace (every one that is not private), each built before this test', () => {
    expect(PUBLISHED.map((pkg) => pkg.name)).toEqual(expect.arrayContaining(['@payroll-api/types', '@payroll-api/client', '@payroll-api/mock', '@payroll-api/conformance']));
    // turbo builds what this test publishes before it runs: each is a dependency of this package.
    const own = JSON.parse(readFileSync(path.join(ROOT, 'tools/registry-roundtrip/package.json'), 'utf8'));
    for (const pkg of PUBLISHED) expect(own.devDependencies, `${pkg.name} must be a devDependency of @payroll-api/registry-roundtrip`).toHaveProperty(pkg.name);
  });

  it('pnpm release:dry packs each package (file lists kept to compare with the real publish)', async () => {
    // --only: turbo has already built the packages for this test, in the repository itself.
    await maintainer(['release:dry', '--only'], 150_000);
    for (const file of readdirSync(path.join(repo, '.release')).filter((name) => name.endsWith('.tgz'))) {
      const entries = readTarball(path.join(repo, '.release', file));
      const manifest = JSON.parse(entries.find((entry) => entry.path === 'package.json').body.toString('utf8'));
      state.dryFiles[manifest.name] = entries.map((entry) => entry.path).sort();
      state.dryVersion = manifest.version;
    }
    expect(Object.keys(state.dryFiles).sort()).toEqual(PUBLISHED.map((pkg) => pkg.name).sort());
  }, 180_000);

  it('pnpm release versions the packages, then changeset publish puts them in the registry', async () => {
    const before = versionsOf(repo);
    await maintainer(RELEASE_STEPS.version, 120_000);
    state.versions = versionsOf(repo);
    for (const pkg of PUBLISHED) expect(state.versions[pkg.name], pkg.name).not.toBe(before[pkg.name]);
    expect(new Set(Object.values(state.versions)).size, 'the published packages version together').toBe(1);
    state.version = Object.values(state.versions)[0];
    expect(state.version).toBe(state.dryVersion);
    await commit(`release ${state.version}`);

    const published = await maintainer(RELEASE_STEPS.publish, 180_000);
    expect(published.output).toMatch(/published|success/i);
    // The registry holds the published packages and nothing else of ours.
    const search = await (await fetch(`${registry.url}-/v1/search?text=payroll-api&size=250`)).json();
    expect(search.objects.map((object) => object.package.name).sort()).toEqual(PUBLISHED.map((pkg) => pkg.name).sort());
    for (const pkg of PUBLISHED) {
      const file = path.join(tmp, `${pkg.name.replace('@', '').replace('/', '-')}-${state.version}.tgz`);
      writeFileSync(file, await tarball(registry.url, pkg.name, state.version));
      state.tarballs[pkg.name] = file;
    }
  }, 320_000);

  it('each published tarball is sound: manifest, no workspace ranges, no tests, README links that work on the registry', () => {
    const problems = [];
    for (const pkg of PUBLISHED) {
      const result = tarballProblems(state.tarballs[pkg.name], { root: ROOT, rootManifest: ROOT_MANIFEST, dir: pkg.dir });
      problems.push(...result.problems);
      state.realFiles = { ...state.realFiles, [pkg.name]: result.files };
      // The internal dependencies are caret ranges of the released version: a later patch of
      // one package satisfies the others, so an upgrade keeps one copy of each.
      for (const [name, range] of Object.entries(result.manifest.dependencies ?? {})) {
        if (name.startsWith('@payroll-api/')) expect(range, `${pkg.name} -> ${name}`).toBe(`^${state.version}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('pnpm release:dry showed the same tarball file lists as the real publish', () => {
    expect(state.realFiles).toEqual(state.dryFiles);
  });

  for (const manager of ['npm', 'pnpm']) {
    // The two installs are independent: they run side by side.
    it.concurrent(`a fresh project installs them with ${manager} by exact version, compiles ESM and CJS with the client, and runs the installed mock and checker`, async ({ expect }) => {
      const dir = path.join(tmp, `consumer-${manager}`);
      writeConsumer(dir, { registryUrl: registry.url });
      const specs = PUBLISHED.map((pkg) => `${pkg.name}@${state.version}`);
      const consumerEnv = cleanEnv({ PATH: env.PATH });
      if (manager === 'npm') await runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: dir, env: consumerEnv, timeoutMs: 240_000 });
      else await runOk('pnpm', ['add', '--prefer-offline', ...specs], { cwd: dir, env: consumerEnv, timeoutMs: 240_000 });
      for (const pkg of PUBLISHED) {
        expect(JSON.parse(readFileSync(path.join(dir, 'node_modules', pkg.name, 'package.json'), 'utf8')).version, pkg.name).toBe(state.version);
      }

      await runOk(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env: consumerEnv, timeoutMs: 180_000 });
      const mock = await startInstalledMock(dir);
      try {
        // Both APIs answer from the installed package with its own descriptions.
        const headers = { Authorization: `Bearer ${manager}-consumer` };
        const payroll = await fetch(`${mock.origin}/v2/v2/providers`, { headers });
        const journal = await fetch(`${mock.origin}/journal/providers/wagemodels/${QUICK_START_WAGE_MODEL}/journalprofiles`, { headers });
        expect([payroll.status, journal.status]).toEqual([200, 200]);

        const esm = await runOk(process.execPath, ['out/esm.mjs', mock.origin], { cwd: dir, env: consumerEnv, timeoutMs: 30_000 });
        expect(JSON.parse(esm.stdout)).toMatchObject({ module: 'esm', payroll: 200 });
        expect(JSON.parse(esm.stdout).journalProfiles).toBeGreaterThan(0);
        const cjs = await runOk(process.execPath, ['out/cjs.cjs', mock.origin], { cwd: dir, env: consumerEnv, timeoutMs: 30_000 });
        expect(JSON.parse(cjs.stdout)).toMatchObject({ module: 'cjs', journal: 200 });
        expect(JSON.parse(cjs.stdout).providers).toBeGreaterThan(0);

        const conformance = await run(
          'npx',
          ['--no-install', 'payroll-conformance', 'run', '--payroll-url', `${mock.origin}/v2`, '--journal-url', mock.origin, '--token', `${manager}-conformance`, '--allow-writes', '--param', `wageModelId=${QUICK_START_WAGE_MODEL}`],
          { cwd: dir, env: consumerEnv, timeoutMs: 120_000 },
        );
        expect(conformance.code, conformance.output.slice(-4000)).toBe(0);
        expect(conformance.stdout).toMatch(/PASSED: \d+ cases, 0 failing/);
      } finally {
        await mock.stop();
      }
    }, 420_000);
  }

  it('a patch release is published over the first; the consumer upgrades to it with one copy of each package', async () => {
    writeFileSync(path.join(repo, '.changeset', 'roundtrip-patch.md'), `---\n'${PUBLISHED[0].name}': patch\n---\n\nA wording fix, to release a patch.\n`);
    await runOk('git', ['add', '-A'], { cwd: repo, env });
    await commit('a patch changeset');
    await maintainer(RELEASE_STEPS.version, 120_000);
    const patched = versionsOf(repo);
    const next = patched[PUBLISHED[0].name];
    for (const pkg of PUBLISHED) expect(patched[pkg.name], pkg.name).toBe(next);
    expect(next).not.toBe(state.version);
    await commit(`release ${next}`);
    await maintainer(RELEASE_STEPS.publish, 180_000);
    const clientFile = path.join(tmp, `client-${next}.tgz`);
    writeFileSync(clientFile, await tarball(registry.url, '@payroll-api/client', next));
    const changelog = readTarball(clientFile).find((entry) => entry.path === 'CHANGELOG.md').body.toString('utf8');
    expect(changelog).toContain(`## ${next}`);
    expect(changelog).toContain(`## ${state.version}`);

    const dir = path.join(tmp, 'consumer-npm');
    const consumerEnv = cleanEnv({ PATH: env.PATH });
    await runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '@payroll-api/client@latest'], { cwd: dir, env: consumerEnv, timeoutMs: 180_000 });
    expect(JSON.parse(readFileSync(path.join(dir, 'node_modules/@payroll-api/client/package.json'), 'utf8')).version).toBe(next);
    // Every copy of every @payroll-api package in the installed tree, by version.
    const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
    const copies = {};
    for (const [location, entry] of Object.entries(lock.packages)) {
      const match = /(?:^|\/)node_modules\/(@payroll-api\/[^/]+)$/.exec(location);
      if (match) (copies[match[1]] ??= []).push(`${location}@${entry.version}`);
    }
    for (const pkg of PUBLISHED) expect(copies[pkg.name], pkg.name).toHaveLength(1);
    const tree = JSON.parse((await runOk('npm', ['ls', '--all', '--json'], { cwd: dir, env: consumerEnv, timeoutMs: 60_000 })).stdout);
    expect(tree.problems ?? []).toEqual([]);
  }, 420_000);
});
