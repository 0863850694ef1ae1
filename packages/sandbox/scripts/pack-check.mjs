// Checks the built package as npm publishes it (`pnpm lint` runs it after the build):
// - its installed size, the unpacked size of the tarball `npm pack` makes, is at most
//   INSTALLED_LIMIT. The descriptions are the largest data it holds, and ship once, as JSON both
//   formats load, not once in the chunks of each (tsup.config.ts);
// - every entry of `exports` loads in a fresh Node process in its own format, ESM by import and
//   CommonJS by require, and prints nothing: the JSON modules the ESM chunks import must carry
//   their import attribute, and load without a warning;
// - the CommonJS files require only CommonJS and JSON of the package's own, never its ESM: Node
//   allows require of ESM by default now, which would hide it from the loads above.
// The engine benchmark (tools/bench) reports the same installed size through installedSize().
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const INSTALLED_LIMIT = 1_500_000;
const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm pack` reports for the package in `dir`: unpackedSize, entryCount, size (of the tarball) and files. */
export function installedSize(dir = packageDir) {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`npm pack --dry-run failed in ${dir}:\n${run.stderr}`);
  return JSON.parse(run.stdout)[0];
}

/** Each entry's files by format, from the package's `exports`. */
function entryFiles() {
  const { exports } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const targets = Object.values(exports).filter((target) => typeof target === 'object');
  return { esm: targets.map((t) => t.import.default), cjs: targets.map((t) => t.require.default) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = [];
  const pack = installedSize();
  if (pack.unpackedSize > INSTALLED_LIMIT) {
    const largest = [...pack.files].sort((a, b) => b.size - a.size).slice(0, 5);
    problems.push(`installed size ${pack.unpackedSize} bytes is over ${INSTALLED_LIMIT}; the largest files: ${largest.map((f) => `${f.path} ${f.size}`).join(', ')}`);
  }
  const { esm, cjs } = entryFiles();
  const loads = [
    ...esm.map((file) => ({ file, args: ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(path.join(packageDir, file)).href)});`] })),
    ...cjs.map((file) => ({ file, args: ['-e', `require(${JSON.stringify(path.join(packageDir, file))});`] })),
  ];
  for (const file of fs.readdirSync(path.join(packageDir, 'dist')).filter((name) => name.endsWith('.cjs'))) {
    const text = fs.readFileSync(path.join(packageDir, 'dist', file), 'utf8');
    const esmRequired = [...text.matchAll(/\brequire\(\s*["'](\.[^"']*)["']\s*\)/g)].map((m) => m[1]).filter((required) => !/\.(?:cjs|json)$/.test(required));
    if (esmRequired.length > 0) problems.push(`dist/${file} requires ${esmRequired.join(', ')}, which CommonJS would load only as ESM`);
  }
  for (const { file, args } of loads) {
    // msw is an optional peer: resolved from this package's dev dependencies, as an app resolves its own.
    const run = spawnSync(process.execPath, args, { cwd: packageDir, encoding: 'utf8', timeout: 60_000 });
    const printed = `${run.stdout}${run.stderr}`.trim();
    if (run.status !== 0 || printed !== '') problems.push(`${file} does not load cleanly in Node (exit ${run.status}): ${printed.split('\n').slice(0, 3).join(' ')}`);
  }
  if (problems.length > 0) {
    console.error(`The package as published:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`pack-check: installed size ${pack.unpackedSize} bytes in ${pack.entryCount} files (<= ${INSTALLED_LIMIT}); ${loads.length} entries load in their format`);
}
