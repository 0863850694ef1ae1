// The repository's own workflows and Dependabot configuration pass every check.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELEASE_STEPS } from '@payroll-api/registry-roundtrip/src/commands.mjs';
import { describe, expect, it } from 'vitest';
import { ciCommandProblems, dependabotProblems, forkSecretProblems, parseYamlFile, permissionProblems, pinningProblems, pnpmCommands, releaseProblems, schemaProblems } from '../src/checks.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WORKFLOWS = path.join(ROOT, '.github/workflows');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const parse = (file) => parseYamlFile(file, read(file));

const workflows = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => parse(`.github/workflows/${name}`));
const byName = (name) => workflows.find((workflow) => workflow.name === `.github/workflows/${name}`);

describe('the repository\'s workflows', () => {
  it('include CI, release, docs and image (each workflow there is checked below)', () => {
    expect(workflows.map((workflow) => path.basename(workflow.name))).toEqual(expect.arrayContaining(['ci.yml', 'docs.yml', 'image.yml', 'release.yml']));
  });

  for (const [check, fn] of Object.entries({ 'the workflow schema': schemaProblems, 'actions pinned to a commit with its version': pinningProblems, 'top-level permissions of at most contents: read': permissionProblems, 'no secret where a pull request starts it': forkSecretProblems })) {
    it(`each passes: ${check}`, () => {
      expect(workflows.flatMap(fn)).toEqual([]);
    });
  }

  it('CI runs the README\'s test command, through .ci/run, on pull requests and on main', () => {
    expect(ciCommandProblems({ ci: byName('ci.yml'), readme: read('README.md'), ciRun: read('.ci/run') })).toEqual([]);
  });

  it('the release runs the release steps tools/registry-roundtrip runs, gated by the API policy, with provenance', () => {
    expect(releaseProblems({ release: byName('release.yml'), readme: read('README.md'), steps: RELEASE_STEPS })).toEqual([]);
  });

  it('the docs and the image are released after each publish, each job with only the permission it needs', () => {
    const release = byName('release.yml').data;
    expect(release.jobs.docs).toMatchObject({ needs: 'release', uses: './.github/workflows/docs.yml' });
    expect(release.jobs.image).toMatchObject({ needs: 'release', uses: './.github/workflows/image.yml' });
    const docs = byName('docs.yml').data;
    expect(docs.jobs.deploy.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(docs.jobs.build.permissions).toBeUndefined();
    // The site the README's docs:build writes is the one deployed.
    expect(docs.jobs.build.steps.flatMap((step) => pnpmCommands(step.run ?? ''))).toContain('pnpm docs:build');
    expect(docs.jobs.build.steps.find((step) => step.uses?.startsWith('actions/upload-pages-artifact@')).with.path).toBe('packages/docs/dist');
    expect(byName('image.yml').data.jobs.image.steps.find((step) => step.uses?.startsWith('docker/build-push-action@')).with).toMatchObject({ file: 'packages/mock/Dockerfile', push: true });
    expect(existsSync(path.join(ROOT, 'packages/mock/Dockerfile'))).toBe(true);
  });
});

describe('Dependabot', () => {
  it('updates the npm packages and the actions', () => {
    expect(dependabotProblems(parse('.github/dependabot.yml'))).toEqual([]);
  });
});
