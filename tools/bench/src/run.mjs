// Runs every *.bench.mjs in this folder, one after another, each in its own process so that
// one benchmark's warm-up or servers never skew another's. Each prints its own report.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

if (benches.length === 0) {
  console.error('bench: no benchmark matched');
  process.exit(1);
}
let failed = 0;
for (const bench of benches) {
  console.log(`\n## ${bench.replace('.bench.mjs', '')}\n`);
  const run = spawnSync(process.execPath, [path.join(here, bench)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
