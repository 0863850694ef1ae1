// Running the commands a maintainer and an integrator type, each bounded in time, in an
// environment without the npm_* variables of the test's own pnpm run (a fresh shell).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The release, as pnpm's arguments: `version` makes the release commit (policy check, versions
 * and changelogs, the API baseline moved and archived), `publish` puts what is not yet in the
 * registry there. A maintainer types them (README, "Releasing"), this package's round trip runs
 * them against a local registry, and the release workflow gives them to changesets/action
 * (tools/ci-workflows checks that it does).
 */
export const RELEASE_STEPS = { version: ['release'], publish: ['changeset', 'publish'] };

/** process.env without what `pnpm run` adds (npm_config_*, npm_package_*, npm_lifecycle_*). */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(npm_|pnpm_|TURBO_HASH|TURBO_TASK)/i.test(name)) env[name] = value;
  return { ...env, CI: 'true', TURBO_TELEMETRY_DISABLED: '1', ...extra };
}

/**
 * Runs a command; resolves {code, output} (stdout and stderr together, and stdout alone). On
 * timeout the whole process group is killed and the promise rejects with the output so far.
 */
export function run(command, args, { cwd, env = cleanEnv(), timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) did not finish within ${timeoutMs / 1000} s:\n${output.slice(-4000)}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stdout });
    });
  });
}

/** Like run, but a non-zero exit is an error carrying the command's output. */
export async function runOk(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.output.slice(-6000)}`);
  return result;
}

/**
 * A directory holding a `pnpm` command: changesets calls `pnpm publish` by name, and the
 * README runs pnpm through npx. The command is the pnpm the root manifest pins
 * (packageManager), found through npx before any registry is changed.
 */
export function pnpmOnPath(dir, root) {
  mkdirSync(dir, { recursive: true });
  const pinned = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager.split('+')[0];
  const found = spawnSync('npx', ['-y', '-p', pinned, '-c', 'command -v pnpm'], { cwd: dir, env: cleanEnv(), encoding: 'utf8', timeout: 120_000 });
  const pnpm = found.stdout?.trim();
  if (found.status !== 0 || !pnpm) throw new Error(`npx could not provide ${pinned}:\n${found.stderr}`);
  writeFileSync(path.join(dir, 'pnpm'), `#!/bin/sh\nexec "${pnpm}" "$@"\n`);
  chmodSync(path.join(dir, 'pnpm'), 0o755);
  return dir;
}

const SKIP_ANYWHERE = new Set(['.git', '.turbo', 'coverage', 'artifacts', '.release']);

/**
 * A copy of the repository at `to`, as a maintainer's clone after `pnpm install && pnpm build`:
 * every file but git's, turbo's and test leftovers; the root node_modules linked, the packages'
 * node_modules (pnpm's relative links) copied as links, so they resolve through it.
 */
export function copyRepository(root, to, { skip = [] } = {}) {
  const skipped = new Set(skip.map((item) => path.join(root, item)));
  cpSync(root, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => {
      if (source === root) return true;
      if (skipped.has(source) || SKIP_ANYWHERE.has(path.basename(source))) return false;
      return source !== path.join(root, 'node_modules');
    },
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(to, 'node_modules'), 'dir');
  return to;
}
