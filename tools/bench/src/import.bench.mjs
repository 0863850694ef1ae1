// A large snapshot import holds nobody up: while one client PUTs the largest snapshot the hosted
// cap allows (--max-snapshot-body, 32 MiB) to /__sandbox/snapshot?mode=merge, another client's
// reads (a list page, one request at a time) keep their p99 under 200 ms. Baseline: the same
// reads with no import, in the same run on the same process (memory store).
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startServer } from './servers.mjs';

const require = createRequire(import.meta.url);
const mockBin = path.join(path.dirname(require.resolve('@payroll-api/mock/package.json')), 'bin', 'payroll-mock.mjs');

const SECONDS = Number(process.env.BENCH_IMPORT_SECONDS ?? 3);
const IMPORTS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
/** The hosted default of --max-snapshot-body; smaller for a quick run. */
const CAP = Number(process.env.BENCH_IMPORT_MIB ?? 32) * 1024 * 1024;
const GOAL_P99_MS = 200;
const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
const LIST = `/v2/v2/providers/employers/${EMPLOYER}/employees?pageSize=10`;
const headersFor = (token) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** The seed with the employer's employees repeated until its JSON is within 1 MiB of the cap. */
async function largestSnapshot(base) {
  const snapshot = await (await fetch(`${base}/__sandbox/snapshot`, { headers: headersFor('bench-export') })).json();
  const models = snapshot.collections.employees.filter((e) => e.employerId === EMPLOYER);
  let size = Buffer.byteLength(JSON.stringify(snapshot));
  const each = Buffer.byteLength(JSON.stringify(models[0])) + 1;
  for (let i = 0; size + each < CAP - 1024 * 1024; i++) {
    const employee = structuredClone(models[i % models.length]);
    employee.id = randomUUID();
    employee.employeeNumber = 200_000 + i;
    snapshot.collections.employees.push(employee);
    size += Buffer.byteLength(JSON.stringify(employee)) + 1;
  }
  return JSON.stringify(snapshot);
}

/** Reads one at a time until `done()`, at least for `minMs`; the latencies in ms. */
async function readWhile(base, done, minMs) {
  const latencies = [];
  const started = performance.now();
  while (!done() || performance.now() - started < minMs) {
    const before = performance.now();
    const answer = await fetch(`${base}${LIST}`, { headers: headersFor('bench-reader') });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the read answered ${answer.status}`);
    latencies.push(performance.now() - before);
  }
  return latencies;
}

const server = startServer([mockBin, '--port', '0', '--max-snapshot-body', String(CAP)]);
try {
  const base = await server.base;
  const body = await largestSnapshot(base);
  await readWhile(base, () => true, 500); // warm-up
  const quiet = await readWhile(base, () => true, SECONDS * 1000);
  let importing = true;
  const importMs = [];
  const imports = (async () => {
    for (let i = 0; i < IMPORTS; i++) {
      const started = performance.now();
      const answer = await fetch(`${base}/__sandbox/snapshot?mode=merge`, { method: 'PUT', headers: { ...headersFor('bench-importer'), 'content-type': 'application/json' }, body });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`the import answered ${answer.status}: ${text.slice(0, 300)}`);
      importMs.push(performance.now() - started);
    }
  })().finally(() => (importing = false));
  const busy = await readWhile(base, () => !importing, 0);
  await imports;
  const p99 = percentile(busy, 99);
  console.log(`Snapshot of ${(Buffer.byteLength(body) / 1048576).toFixed(1)} MiB imported ${IMPORTS} times (merge), memory store; another client's list page, one at a time.\n`);
  console.log('| reads | requests | p50 (ms) | p99 (ms) | max (ms) |', '\n|---|---:|---:|---:|---:|');
  for (const [name, values] of [['no import (baseline)', quiet], ['during the imports', busy]]) {
    console.log(`| ${name} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`);
  }
  console.log(`\nimport time: ${importMs.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; p99 during ÷ baseline: ${(p99 / percentile(quiet, 99)).toFixed(1)}`);
  console.log(`goal: p99 during the imports < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'missed'} (${p99.toFixed(1)} ms)`);
} finally {
  await server.stop();
}
