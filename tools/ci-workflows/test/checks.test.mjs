// Each check refuses what it is there to refuse: a bad fixture for each, and the exact
// problems it reports.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RELEASE_STEPS } from '@payroll-api/registry-roundtrip/src/commands.mjs';
import { describe, expect, it } from 'vitest';
import { ciCommandProblems, dependabotProblems, forkSecretProblems, parseYamlFile, permissionProblems, pinningProblems, pnpmCommands, readmeTestCommand, releaseProblems, schemaProblems } from '../src/checks.mjs';

const ROOT = new URL('../../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const CI_RUN = readFileSync(new URL('.ci/run', ROOT), 'utf8');
const fixture = (name) => parseYamlFile(name, readFileSync(fileURLToPath(new URL(`fixtures/${name}`, import.meta.url)), 'utf8'));

describe('the workflow schema', () => {
  it('refuses an unknown event and a misspelt key, naming where', () => {
    // Of each oneOf, the branch meant: a job that runs steps, and the map of events.
    expect(schemaProblems(fixture('invalid-schema.yml'))).toEqual([
      "invalid-schema.yml: not a valid workflow: /jobs/test: Property conditions are not met (Additional property 'runs-onn' is not allowed)",
      'invalid-schema.yml: not a valid workflow: /jobs/test/runs-on: This property is required',
      "invalid-schema.yml: not a valid workflow: /on: Property conditions are not met (Additional property 'pushed' is not allowed)",
    ]);
  });

  it('refuses YAML that does not parse', () => {
    expect(schemaProblems(parseYamlFile('broken.yml', 'on: [push\njobs: {}\n'))[0]).toMatch(/^broken\.yml:\d+: /);
  });
});

describe('actions pinned to a commit', () => {
  it('refuses a tag, a branch, a short SHA, a SHA without its version comment and an image without its digest', () => {
    expect(pinningProblems(fixture('unpinned.yml'))).toEqual([
      'unpinned.yml:11: actions/checkout@v4 is not pinned to a full commit SHA',
      'unpinned.yml:12: actions/cache@main is not pinned to a full commit SHA',
      'unpinned.yml:13: actions/setup-node@8207627 is not pinned to a full commit SHA',
      'unpinned.yml:14: docker/login-action@4907a6ddec9925e35a0a9e82d7399ccc52663121 has no version comment (# vX.Y.Z)',
      'unpinned.yml:15: docker/metadata-action@dc802804100637a589fabce1cb79ff13a1411302 has no version comment (# vX.Y.Z), but "# latest"',
      'unpinned.yml:16: docker://alpine:3.20 is not pinned to an image digest (@sha256:…)',
      'unpinned.yml:20: some-org/workflows/.github/workflows/build.yml@v2 is not pinned to a full commit SHA',
    ]);
  });
});

describe('top-level permissions', () => {
  it('refuses a workflow without them, even when each job has its own', () => {
    expect(permissionProblems(fixture('no-permissions.yml'))).toEqual(['no-permissions.yml: no top-level permissions (give "contents: read" and widen per job)']);
  });

  it('refuses write-all', () => {
    expect(permissionProblems(fixture('write-all.yml'))).toEqual(['write-all.yml:5: top-level permissions "write-all" are wider than contents: read']);
  });

  it('refuses any scope beyond contents: read (none is fine)', () => {
    expect(permissionProblems(fixture('wide-permissions.yml'))).toEqual([
      'wide-permissions.yml:6: top-level permission "contents: write" is wider than contents: read (widen it in the job that needs it)',
      'wide-permissions.yml:6: top-level permission "packages: read" is wider than contents: read (widen it in the job that needs it)',
    ]);
  });
});

describe("CI runs the README's test command", () => {
  it("reads the README's test command from its quick start", () => {
    expect(readmeTestCommand(README)).toBe('npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 test');
    expect(pnpmCommands(readmeTestCommand(README))).toEqual(['npx -y pnpm@10.34.8 install --frozen-lockfile', 'npx -y pnpm@10.34.8 test']);
  });

  it('refuses a workflow that runs another command', () => {
    expect(ciCommandProblems({ ci: fixture('ci-other-command.yml'), readme: README, ciRun: CI_RUN })).toEqual([
      'ci-other-command.yml:14: the workflow runs "npx -y pnpm@10.34.8 install" then "npx -y pnpm@10.34.8 test", the README\'s test command is "npx -y pnpm@10.34.8 install --frozen-lockfile" then "npx -y pnpm@10.34.8 test"',
    ]);
  });

  it('refuses a workflow that runs a pnpm command besides .ci/run', () => {
    expect(ciCommandProblems({ ci: fixture('ci-extra-command.yml'), readme: README, ciRun: CI_RUN })).toEqual([
      'ci-extra-command.yml:13: the workflow runs "npx -y pnpm@10.34.8 install --frozen-lockfile" then "npx -y pnpm@10.34.8 test" then "pnpm lint --filter @payroll-api/spec", the README\'s test command is "npx -y pnpm@10.34.8 install --frozen-lockfile" then "npx -y pnpm@10.34.8 test"',
    ]);
  });

  it('refuses a workflow that pull requests and main do not start', () => {
    expect(ciCommandProblems({ ci: fixture('ci-main-only.yml'), readme: README, ciRun: CI_RUN })).toEqual(['ci-main-only.yml: does not run on pull_request', 'ci-main-only.yml: does not run on a push to main']);
  });

  it('refuses a .ci/run that runs another command than the README, and a workflow running it', () => {
    const ciRun = CI_RUN.replace('npx -y pnpm@10.34.8 test', 'npx -y pnpm@10.34.8 test --filter @payroll-api/client');
    expect(ciRun).not.toBe(CI_RUN);
    const ci = parseYamlFile('ci.yml', 'on: [pull_request, push]\npermissions: {contents: read}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: bash .ci/run\n');
    const problems = ciCommandProblems({ ci, readme: README, ciRun });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^\.ci\/run runs .*"npx -y pnpm@10\.34\.8 test --filter @payroll-api\/client", the README's test command is/);
    expect(problems[1]).toMatch(/^ci\.yml:7: the workflow runs /);
  });

  it('refuses when the README changes its command and the workflow does not follow', () => {
    const readme = README.replace('npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 test', 'npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 test:all');
    expect(readme).not.toBe(README);
    const ci = parseYamlFile('ci.yml', 'on: [pull_request, push]\npermissions: {contents: read}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx -y pnpm@10.34.8 install --frozen-lockfile && npx -y pnpm@10.34.8 test\n');
    expect(ciCommandProblems({ ci, readme, ciRun: CI_RUN.replace('pnpm@10.34.8 test;', 'pnpm@10.34.8 test:all;') })).toEqual([
      'ci.yml:7: the workflow runs "npx -y pnpm@10.34.8 install --frozen-lockfile" then "npx -y pnpm@10.34.8 test", the README\'s test command is "npx -y pnpm@10.34.8 install --frozen-lockfile" then "npx -y pnpm@10.34.8 test:all"',
    ]);
  });
});

describe('no secrets for pull requests from forks', () => {
  it('refuses a secret (in the workflow\'s env or a step\'s), and secrets: inherit, in a workflow a pull request starts', () => {
    expect(forkSecretProblems(fixture('fork-secret.yml'))).toEqual([
      "fork-secret.yml: a pull request starts it, yet it names a secret: ${{ secrets['REGISTRY_TOKEN'] }}",
      'fork-secret.yml: a pull request starts it, yet it names a secret: ${{ secrets.NPM_TOKEN }}',
      'fork-secret.yml: a pull request starts it, yet job reuse passes on every secret (secrets: inherit)',
    ]);
  });

  it('refuses pull_request_target', () => {
    expect(forkSecretProblems(fixture('pull-request-target.yml'))).toEqual(["pull-request-target.yml: runs on pull_request_target, which gives a fork's pull request the repository's secrets"]);
  });

  it('lets a workflow only main starts use its secrets', () => {
    const release = parseYamlFile('release.yml', 'on: {push: {branches: [main]}}\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n        env: {NPM_TOKEN: "${{ secrets.NPM_TOKEN }}"}\n');
    expect(forkSecretProblems(release)).toEqual([]);
  });
});

describe('Dependabot', () => {
  it('refuses a configuration without the actions, outside the root, without a known interval', () => {
    expect(dependabotProblems(fixture('dependabot-npm-only.yml'))).toEqual([
      'dependabot-npm-only.yml: the npm update does not cover the repository root (directory: /)',
      'dependabot-npm-only.yml: the npm update has no schedule interval Dependabot knows (sometimes)',
      'dependabot-npm-only.yml: no update for github-actions',
    ]);
  });

  it('refuses another version of the configuration', () => {
    expect(dependabotProblems(fixture('dependabot-v1.yml'))).toEqual(["dependabot-v1.yml: version is 1, Dependabot's configuration is version 2"]);
  });
});

describe('the release workflow', () => {
  it('refuses other version and publish commands, the policy check after them, and a publish without provenance', () => {
    expect(releaseProblems({ release: fixture('release-other.yml'), readme: README, steps: RELEASE_STEPS })).toEqual([
      'release-other.yml: changesets/action versions with "pnpm changeset version", the release is "pnpm release"',
      'release-other.yml: changesets/action publishes with "npm publish --workspaces", the release is "pnpm changeset publish"',
      'release-other.yml: "pnpm api:check" does not run before changesets/action',
      "release-other.yml: the manifests are not given this repository's address (api-policy repository) before changesets/action",
      'release-other.yml: the publish does not ask for npm provenance (NPM_CONFIG_PROVENANCE: true)',
      'release-other.yml: the publishing job lacks "id-token: write" (provenance needs the OIDC identity)',
    ]);
  });

  it("refuses release steps the README's release section does not run", () => {
    const release = fixture('release-other.yml');
    const problems = releaseProblems({ release, readme: README, steps: { version: ['changeset', 'version'], publish: ['publish:all'] } });
    expect(problems.slice(0, 2)).toEqual(['README.md: the release section does not run "pnpm changeset version"', 'README.md: the release section does not run "pnpm publish:all"']);
  });
});
