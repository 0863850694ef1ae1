#!/usr/bin/env node
// The maintainer's workflow, whole: a clean clone of this repository's HEAD, a breaking change
// shipped as the README says (`pnpm api:version employee <date> --rename
// personalDetails.lastName=familyName`, which renames the field most tests and fixtures use,
// filterable and ordered), committed, and then the README's test command on it. Every test of
// every package must pass with two employee versions served, so none may assume the employee's
// newest version or its field names. Too long for `pnpm test` (the whole suite again); the
// version-window workflow runs it on pull requests that touch tests or the policy, and weekly.
//
//   node tools/version-window/scripts/whole-suite.mjs [--keep] [--rename a.b=c] [--resource employee]
//
// Exits with the suite's status; --keep leaves the clone for a look.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addDays, findRepoRoot, todayUtc } from '@payroll-api/api-policy';

const PNPM = ['-y', 'pnpm@10.34.8'];
const { values } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    resource: { type: 'string', default: 'employee' },
    rename: { type: 'string', default: 'personalDetails.lastName=familyName' },
  },
});

const repo = findRepoRoot();
const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-whole-suite-'));

function run(command, args, { allowFailure = false } = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: clone, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0 && !allowFailure) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}`);
  return result.status ?? 1;
}

let status = 1;
try {
  run('git', ['clone', '--quiet', '--no-local', repo, clone]);
  run('git', ['checkout', '--quiet', spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim()]);
  run('npx', [...PNPM, 'install', '--frozen-lockfile', '--prefer-offline']);
  // Two weeks ahead: a new version may not be dated before today (the policy's window runs from its release).
  run('npx', [...PNPM, 'api:version', values.resource, addDays(todayUtc(), 14), '--rename', values.rename]);
  run('git', ['add', '-A']);
  run('git', ['-c', 'user.name=whole-suite', '-c', 'user.email=whole-suite@localhost', 'commit', '--quiet', '-m', `${values.resource}: new version (${values.rename})`]);
  status = run('npx', [...PNPM, 'test'], { allowFailure: true });
  console.log(`\nThe whole suite after api:version ${values.resource} --rename ${values.rename}: ${status === 0 ? 'passed' : `failed (exit ${status})`}`);
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
} finally {
  if (values.keep) console.log(`The clone is kept at ${clone}`);
  else fs.rmSync(clone, { recursive: true, force: true });
}
process.exit(status);
