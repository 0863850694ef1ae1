// Lints both API descriptions and fails on any error or warning:
//   1. Spectral on the bundles (dist/payroll.json, dist/journal.json) with .spectral.mjs: the
//      recommended OpenAPI rules, the OWASP API security rules and the house rules;
//   2. Redocly on the split sources (the APIs of redocly.yaml).
// Every finding is printed as `file:line:col severity rule message`, then one summary line
// per tool. Run `pnpm build` first: the bundles are what clients and generators consume.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(specDir, 'node_modules', '.bin', name);
const apis = ['payroll', 'journal', 'sandbox-control'];
const TIMEOUT_MS = 300_000;

function run(command, args) {
  const result = spawnSync(command, args, { cwd: specDir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: TIMEOUT_MS });
  if (result.error) throw new Error(`${path.basename(command)} could not run: ${result.error.message}`);
  return result;
}

function parseJson(tool, result) {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`${tool} did not report JSON (exit ${result.status}):\n${result.stdout}${result.stderr}`.trimEnd());
  }
}

function counts(findings) {
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { errors, warnings: findings.filter((f) => f.severity === 'warning').length };
}

function print(findings) {
  const sorted = [...findings].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  for (const f of sorted) {
    console.log(`${f.file}:${f.line}:${f.col} ${f.severity} ${f.rule} ${f.message}${f.where ? `  (${f.where})` : ''}`);
  }
}

function summary(tool, perApi) {
  const parts = apis.map((api) => {
    const { errors, warnings } = counts(perApi[api]);
    return `${api} ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  });
  return `${tool.padEnd(8)} ${parts.join('; ')}`;
}

const SPECTRAL_SEVERITIES = ['error', 'warning', 'info', 'hint'];

function spectral() {
  const bundles = apis.map((api) => path.join('dist', `${api}.json`));
  const missing = bundles.filter((file) => !fs.existsSync(path.join(specDir, file)));
  if (missing.length > 0) throw new Error(`lint: ${missing.join(', ')} missing; run \`pnpm build\` (node scripts/bundle.mjs) first.`);
  // --fail-severity only sets the exit code; the counts below decide, so any warning fails.
  // The JSON goes to a file: with no findings Spectral appends a sentence to stdout after it.
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-')), 'results.json');
  const result = run(bin('spectral'), ['lint', ...bundles, '--ruleset', '.spectral.mjs', '--format', 'json', '--output', out, '--fail-severity', 'warn']);
  const raw = parseJson('spectral', { ...result, stdout: fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : result.stdout });
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  if (!Array.isArray(raw)) throw new Error(`spectral reported ${JSON.stringify(raw).slice(0, 500)}`);
  const findings = raw.map((r) => ({
    api: path.basename(r.source).replace(/\.json$/, ''),
    file: path.relative(specDir, r.source),
    line: r.range.start.line + 1,
    col: r.range.start.character + 1,
    severity: SPECTRAL_SEVERITIES[r.severity] ?? 'error',
    rule: r.code,
    message: r.message,
    where: r.path.join('.'),
  }));
  return Object.fromEntries(apis.map((api) => [api, findings.filter((f) => f.api === api)]));
}

function redocly() {
  const perApi = {};
  for (const api of apis) {
    const result = run(bin('redocly'), ['lint', api, '--format', 'json']);
    const report = parseJson('redocly', result);
    perApi[api] = (report.problems ?? []).map((p) => {
      const location = p.location?.[0] ?? {};
      return {
        api,
        file: location.source?.ref ?? `${api}/openapi.yaml`,
        line: location.start?.line ?? 1,
        col: location.start?.col ?? 1,
        severity: p.severity === 'warn' ? 'warning' : p.severity,
        rule: p.ruleId,
        message: p.message,
        where: location.pointer ?? '',
      };
    });
  }
  return perApi;
}

try {
  const results = { spectral: spectral(), redocly: redocly() };
  for (const perApi of Object.values(results)) print(apis.flatMap((api) => perApi[api]));
  let failed = false;
  for (const [tool, perApi] of Object.entries(results)) {
    console.log(summary(tool, perApi));
    failed ||= apis.some((api) => {
      const { errors, warnings } = counts(perApi[api]);
      return errors + warnings > 0;
    });
  }
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
