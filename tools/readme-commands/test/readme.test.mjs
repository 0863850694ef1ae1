// Every command of the root README's "Everyday commands" table, run from the repository root
// as a new user types it, each bounded in time (see this package's README for how).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PNPM = ['npx', ['-y', 'pnpm@10.34.8']];
const temp = [];
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The commands of the README's table: `pnpm build`, `pnpm api:version <resource> <date>`, … */
function documentedCommands() {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Everyday commands'), readme.indexOf('\n## ', readme.indexOf('## Everyday commands') + 1));
  return [...section.matchAll(/^\| `(pnpm [^`]+)` \|/gm)].map((match) => match[1]);
}

/** Runs `pnpm <args>` at the root; resolves to { code, output } (bounded by `timeout`). */
function pnpm(args, { env = {}, timeout = 120_000, cwd = ROOT } = {}) {
  return new Promise((resolve) => {
    const child = spawn(PNPM[0], [...PNPM[1], ...args], { cwd, env: { ...process.env, ...env, FORCE_COLOR: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[stopped after ${timeout} ms]`;
      process.kill(-child.pid, 'SIGKILL');
    }, timeout);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Starts a persistent command (`pnpm mock`, `pnpm start`), waits until `ready()` holds, then
 * stops its whole process group. Resolves to the output.
 */
async function startAndStop(args, env, ready, timeout = 150_000) {
  const child = spawn(PNPM[0], [...PNPM[1], ...args], { cwd: ROOT, env: { ...process.env, ...env, FORCE_COLOR: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + timeout;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}) before it was ready:\n${output}`);
      if (await ready().catch(() => false)) return output;
      if (Date.now() > deadline) throw new Error(`${args.join(' ')} was not ready within ${timeout} ms:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!stopped) process.kill(-child.pid, 'SIGKILL');
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The README's curl commands (one per `curl` line, continuations joined), run on `port`. */
async function readmeCurls(port) {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/^curl [\s\S]*?(?=\n\n|\n```)/gm)].map((match) => match[0].replace(/\\\n\s*/g, ' '));
  const results = [];
  for (const command of commands) {
    const headers = Object.fromEntries([...command.matchAll(/-H '([^:]+): ([^']*)'/g)].map(([, name, value]) => [name, value]));
    const url = /(http:\/\/127\.0\.0\.1:4010\S+)/.exec(command)[1].replace('127.0.0.1:4010', `127.0.0.1:${port}`);
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    results.push({ command, status: response.status, body: await response.text() });
  }
  return results;
}

const answers = (url) => fetch(url, { signal: AbortSignal.timeout(2000) }).then((response) => response.ok);

/** A temporary repository holding copies of `paths` and the real node_modules. */
function copyOfRepository(paths) {
  const dir = mkdtempSync(path.join(tmpdir(), 'payroll-readme-'));
  temp.push(dir);
  const skip = new Set(['node_modules', '.turbo', 'dist', 'artifacts', '.release']);
  for (const item of paths) {
    const from = path.join(ROOT, item);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(dir, item)), { recursive: true });
    cpSync(from, path.join(dir, item), { recursive: true, filter: (source) => !skip.has(path.basename(source)) || source === from });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

const RUNNERS = {
  'pnpm build': async () => {
    const { code, output } = await pnpm(['build', '--output-logs=errors-only']);
    expect(code, output).toBe(0);
  },
  'pnpm lint': async () => {
    const { code, output } = await pnpm(['lint', '--dry=json']);
    expect(code, output).toBe(0);
    const plan = JSON.parse(output.slice(output.indexOf('{')));
    expect(plan.tasks.map((task) => task.taskId)).toContain('@payroll-api/spec#lint');
  },
  'pnpm test': async () => {
    const { code, output } = await pnpm(['test', '--dry=json']);
    expect(code, output).toBe(0);
    const tasks = JSON.parse(output.slice(output.indexOf('{'))).tasks.map((task) => task.taskId);
    for (const id of ['@payroll-api/docs#test', '@payroll-api/readme-commands#test', '@payroll-api/spec#lint', '@payroll-api/api-policy#api:check', '@payroll-api/client#build']) {
      expect(tasks).toContain(id);
    }
  },
  'pnpm mock': async () => {
    const port = await freePort();
    // Ready once it answers; then the README's quick-start curls must work against it as shown.
    let curls = [];
    await startAndStop(['mock'], { PORT: String(port) }, async () => {
      if (!(await answers(`http://127.0.0.1:${port}/__health`))) return false;
      curls = await readmeCurls(port);
      return true;
    });
    expect(curls.length).toBeGreaterThanOrEqual(2);
    for (const { command, status, body } of curls) {
      expect(status, command).toBe(200);
      expect(JSON.parse(body)._embedded.length, command).toBeGreaterThan(0);
    }
  },
  'pnpm docs:build': async () => {
    const { code, output } = await pnpm(['docs:build', '--output-logs=errors-only']);
    expect(code, output).toBe(0);
    expect(existsSync(path.join(ROOT, 'packages/docs/dist/index.html'))).toBe(true);
  },
  'pnpm start': async () => {
    const [port, docsPort] = [await freePort(), await freePort()];
    await startAndStop(['start'], { PORT: String(port), DOCS_PORT: String(docsPort) }, async () => (await answers(`http://127.0.0.1:${port}/__health`)) && (await answers(`http://127.0.0.1:${docsPort}/payroll.html`)));
  },
  'pnpm bench': async () => {
    const quick = { BENCH_MOCK_SECONDS: '1', BENCH_MOCK_ROUNDS: '1', BENCH_SANDBOX_SECONDS: '1', BENCH_SANDBOX_ROUNDS: '1', BENCH_SANDBOX_STARTS: '1', BENCH_SANDBOX_EMPLOYEES: '2000', BENCH_SANDBOX_TOKENS: '200', BENCH_CLIENT_ROUNDS: '1', BENCH_CLIENT_SAMPLES: '100', BENCH_CLIENT_WARMUP: '100', BENCH_ENGINE_SECONDS: '1', BENCH_ENGINE_STARTS: '1', BENCH_CPU_SECONDS: '1', BENCH_CPU_ROUNDS: '1', BENCH_IMPORT_SECONDS: '1', BENCH_IMPORT_ROUNDS: '1', BENCH_IMPORT_MIB: '4' };
    const { code, output } = await pnpm(['bench'], { env: quick, timeout: 230_000 });
    expect(code, output.slice(-3000)).toBe(0);
    for (const bench of readdirSync(path.join(ROOT, 'tools/bench/src')).filter((name) => name.endsWith('.bench.mjs'))) {
      expect(output).toContain(`## ${bench.replace('.bench.mjs', '')}`);
    }
  },
  'pnpm api:check': async () => {
    const repository = await pnpm(['api:check']);
    expect(repository.code, repository.output).toBe(0);
    const files = await pnpm(['api:check', '--base', 'tools/api-policy/baseline/payroll.json', '--head', 'spec/dist/payroll.json']);
    expect(files.code, files.output).toBe(0);
    expect(files.output).toContain('head `spec/dist/payroll.json`');
    // The flags reach the checker: a missing file is its error (exit 2), not turbo's.
    const missing = await pnpm(['api:check', '--base', 'no-such-bundle.json', '--head', 'spec/dist/payroll.json']);
    expect(missing.output).toMatch(/api-policy: .*no-such-bundle\.json does not exist/);
    expect(missing.output).not.toMatch(/unexpected argument/);
  },
  'pnpm api:version <resource> <date>': async () => {
    const copy = copyOfRepository(['pnpm-workspace.yaml', 'package.json', '.changeset', 'spec']);
    const before = readFileSync(path.join(ROOT, 'spec/payroll/resource-versions.yaml'), 'utf8');
    const { code, output } = await pnpm(['api:version', 'employee', '2031-01-06', '--root', copy]);
    expect(code, output).toBe(0);
    expect(readFileSync(path.join(copy, 'spec/payroll/resource-versions.yaml'), 'utf8')).toContain('2031-01-06');
    expect(existsSync(path.join(copy, '.changeset/employee-2031-01-06.md'))).toBe(true);
    expect(readFileSync(path.join(ROOT, 'spec/payroll/resource-versions.yaml'), 'utf8')).toBe(before);
  },
  'pnpm release:dry': async () => {
    const { code, output } = await pnpm(['release:dry'], { timeout: 170_000 });
    expect(code, output.slice(-3000)).toBe(0);
    expect(readdirSync(path.join(ROOT, '.release')).filter((name) => name.endsWith('.tgz')).length).toBeGreaterThanOrEqual(4);
  },
  'pnpm release': async () => {
    // Every workspace package's manifest: changesets versions the fixed group among them.
    const manifests = ['spec', ...['packages', 'tools'].flatMap((parent) => readdirSync(path.join(ROOT, parent)).map((name) => `${parent}/${name}`))]
      .map((dir) => `${dir}/package.json`)
      .filter((file) => existsSync(path.join(ROOT, file)));
    const copy = copyOfRepository(['pnpm-workspace.yaml', 'package.json', '.changeset', 'tools/api-policy/baseline', ...manifests, 'spec/dist']);
    // A release is dated today or later (the policy counts the six months from it).
    const today = new Date().toISOString().slice(0, 10);
    const { code, output } = await pnpm(['release', '--root', copy, '--today', today]);
    expect(code, output).toBe(0);
    const version = JSON.parse(readFileSync(path.join(copy, 'spec/package.json'), 'utf8')).version;
    expect(readFileSync(path.join(copy, 'tools/api-policy/baseline/payroll.json'), 'utf8')).toBe(`${JSON.stringify(JSON.parse(readFileSync(path.join(ROOT, 'spec/dist/payroll.json'), 'utf8')), null, 2)}\n`);
    expect(JSON.parse(readFileSync(path.join(copy, `tools/api-policy/releases/${version}/release.json`), 'utf8'))).toEqual({ version, date: today });
    expect(existsSync(path.join(ROOT, `tools/api-policy/releases/${version}`))).toBe(false);
  },
};

describe("the README's everyday commands", () => {
  const commands = documentedCommands();

  it('are all known here', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(commands.filter((command) => !RUNNERS[command])).toEqual([]);
  });

  for (const command of commands) {
    // Every benchmark in its quick mode together takes longer than one command's usual bound.
    it.runIf(RUNNERS[command])(`${command} works`, () => RUNNERS[command](), command === 'pnpm bench' ? 240_000 : undefined);
  }
});
