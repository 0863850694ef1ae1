// The tarball checks of the round trip on their own: each refuses what it is there to refuse.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { manifestProblems, markdownLinks, publishedPackages, readmeProblems, repositoryWebUrl } from '../src/checks.mjs';

const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const ownRoot = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
// A root that names a repository: its packages must name the same one, each with its folder.
const HOSTED = 'git+https://git.example.com/payroll/toolchain.git';
const rootManifest = { ...ownRoot, repository: { type: 'git', url: HOSTED } };
const webUrl = repositoryWebUrl(rootManifest);

const sound = () => ({
  name: '@payroll-api/example',
  license: 'MIT',
  repository: { ...rootManifest.repository, directory: 'packages/example' },
  engines: { node: '^20.19.0 || >=22.12.0' },
  exports: { '.': './dist/index.js' },
  sideEffects: false,
  publishConfig: { access: 'public' },
  dependencies: { '@payroll-api/types': '^1.2.3' },
});

describe('manifestProblems', () => {
  it('passes a sound manifest and the repository’s own published ones', () => {
    expect(manifestProblems(sound(), { rootManifest, dir: 'packages/example' })).toEqual([]);
    for (const pkg of publishedPackages(ROOT)) {
      const manifest = { ...pkg.manifest, dependencies: {}, devDependencies: {} };
      expect(manifestProblems(manifest, { rootManifest: ownRoot, dir: pkg.dir }), pkg.name).toEqual([]);
    }
  });

  it('refuses a package that names a repository while the root names none', () => {
    const { repository: _none, ...root } = ownRoot;
    expect(manifestProblems(sound(), { rootManifest: root, dir: 'packages/example' })).toEqual([expect.stringContaining('while the root package.json names none')]);
    const { repository: _dropped, ...unnamed } = sound();
    expect(manifestProblems(unnamed, { rootManifest: root, dir: 'packages/example' })).toEqual([]);
  });

  it('names each missing field, a private access, another repository and a workspace range', () => {
    const manifest = { ...sound(), publishConfig: { access: 'restricted' }, repository: { url: 'git+https://example.com/other.git', directory: 'x' } };
    delete manifest.sideEffects;
    delete manifest.engines;
    manifest.dependencies = { '@payroll-api/types': 'workspace:^' };
    const problems = manifestProblems(manifest, { rootManifest, dir: 'packages/example' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('no "engines"'),
        expect.stringContaining('no "sideEffects"'),
        expect.stringContaining('publishConfig.access'),
        expect.stringContaining('repository.url'),
        expect.stringContaining('repository.directory'),
        expect.stringContaining('"workspace:^"'),
      ]),
    );
  });
});

describe('readmeProblems', () => {
  it('finds links outside code, and refuses relative ones and links to files the repository lacks', () => {
    const markdown = [
      '[guide](../docs/README.md) and [spec](https://example.com/spec) and [top](#install)',
      '```sh\n[not a link](./in-code.md)\n```',
      `[client](${webUrl}/blob/main/packages/client/README.md) [gone](${webUrl}/blob/main/packages/nothing-here/README.md)`,
      '<img src="logo.png">',
    ].join('\n');
    expect(markdownLinks(markdown)).not.toContain('./in-code.md');
    const problems = readmeProblems('x', markdown, { root: ROOT, webUrl });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/\.\.\/docs\/README\.md is relative/);
    expect(problems.join('\n')).toMatch(/logo\.png is relative/);
    expect(problems.join('\n')).toMatch(/packages\/nothing-here\/README\.md, which the repository does not have/);
  });

  it('passes the published packages’ READMEs as they are', () => {
    for (const pkg of publishedPackages(ROOT)) {
      expect(readmeProblems(pkg.name, readFileSync(path.join(ROOT, pkg.dir, 'README.md'), 'utf8'), { root: ROOT, webUrl }), pkg.name).toEqual([]);
    }
  });
});
