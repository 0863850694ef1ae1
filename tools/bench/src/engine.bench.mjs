// The sandbox engine (@payroll-api/sandbox) where it runs without a server, in one run:
//  0. the installed size of @payroll-api/sandbox (npm pack, unpacked; goal <= 1.5 MB);
//  1. the browser entry (@payroll-api/sandbox/msw with the engine, seed, descriptions and validator),
//     minified and gzipped by esbuild, and what it holds (goal <= 146 kB: it must not grow past that);
//  2. cold start to the first answer: in Chromium, the MSW worker registered to the first
//     response (goal <= 500 ms), and in a fresh Node process, createSandbox() to the first
//     answer (goal <= 300 ms), the median of a few starts each, and what another createSandbox()
//     in that process costs (reported);
//  3. the employees list in process (createSandbox().fetch, 32 requests in flight) against the
//     same call through payroll-mock over HTTP (the same caller with fetch, 32 in flight, as a
//     test suite calls it): requests/s ratio (goal >= 3); and, for the server's capacity, the
//     same list under autocannon at 32 connections with the ceiling of that ratio here.
// Loopback only; bounded in rounds and seconds. Exits non-zero only when something fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { answerHeaders, median, requestsPerSecond, startFloorServer, startServer } from './servers.mjs';

const require = createRequire(import.meta.url);
const sandboxDir = path.dirname(require.resolve('@payroll-api/sandbox/package.json'));
const mockBin = path.join(path.dirname(require.resolve('@payroll-api/mock/package.json')), 'bin', 'payroll-mock.mjs');
const SECONDS = Number(process.env.BENCH_ENGINE_SECONDS ?? 3);
const STARTS = Number(process.env.BENCH_ENGINE_STARTS ?? 5);
const EMPLOYEES = '/v2/v2/providers/employers/9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c/employees';
const HEADERS = { authorization: 'Bearer bench', accept: 'application/json;version=2021-03-29' };
const goals = [];
const goal = (name, met, figure) => goals.push({ name, met, figure });
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** Both entries bundled for a browser as an app bundles them (msw is the app's own dependency). */
const bundleForBrowser = (main, msw, loader) =>
  build({ stdin: { contents: `export { createSandbox } from '${main}';\nexport { sandboxHandlers } from '${msw}';\n`, resolveDir: sandboxDir, loader }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', external: ['msw'], metafile: true, write: false, logLevel: 'silent' });

/** What an app pays for the sandbox in its bundle must not grow past this (kB, min+gz). */
const BROWSER_ENTRY_KB = 146;

/** 1. The browser entry, as an app bundles it. */
async function browserEntry() {
  const result = await bundleForBrowser('@payroll-api/sandbox', '@payroll-api/sandbox/msw', 'js');
  const code = result.outputFiles[0].contents;
  const gzipped = zlib.gzipSync(code, { level: 9 }).length;
  // What the minified bytes are made of, by input, from a build of the sources (the published
  // entries are single files): the trimmed descriptions, the JSON Schema validator, the seed's generators, the rest.
  const fromSources = await bundleForBrowser('./src/index.ts', './src/msw.ts', 'ts');
  const parts = { descriptions: 0, validator: 0, seed: 0, engine: 0 };
  for (const [file, info] of Object.entries(Object.values(fromSources.metafile.outputs)[0].inputs)) {
    const part = /generated\/descriptions/.test(file) ? 'descriptions' : /src\/schema\//.test(file) ? 'validator' : /src\/seed\//.test(file) ? 'seed' : 'engine';
    parts[part] += info.bytesInOutput;
  }
  console.log(`Browser entry: ${kB(code.length)} minified, **${kB(gzipped)} gzipped**.`);
  console.log(`Minified bytes by input: ${Object.entries(parts).map(([k, v]) => `${k} ${kB(v)}`).join(', ')}.`);
  console.log('The descriptions are the bundles trimmed to what the engine reads; the seed is code that generates the data at start.\n');
  goal('browser entry, minified + gzipped', gzipped <= BROWSER_ENTRY_KB * 1024, `${kB(gzipped)} (<= ${BROWSER_ENTRY_KB} kB)`);
  return code;
}

/** 2a. Chromium: a page with the engine under MSW; from worker.start() to the first answer. */
async function browserColdStart() {
  const page = await build({
    stdin: {
      contents: `import { setupWorker } from 'msw/browser';
import { createSandbox } from '@payroll-api/sandbox';
import { sandboxHandlers } from '@payroll-api/sandbox/msw';
window.coldStart = (async () => {
  const started = performance.now();
  const worker = setupWorker(...sandboxHandlers(createSandbox(), { baseUrl: location.origin }));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const registered = performance.now();
  const res = await fetch('${EMPLOYEES}?pageSize=10', { headers: ${JSON.stringify(HEADERS)} });
  if (res.status !== 200) throw new Error('status ' + res.status);
  await res.json();
  return { registeredToFirstMs: performance.now() - registered, startToFirstMs: performance.now() - started };
})();`,
      resolveDir: sandboxDir,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const files = new Map([
    ['/', ['text/html', '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>']],
    ['/page.js', ['text/javascript', page.outputFiles[0].text]],
    ['/mockServiceWorker.js', ['text/javascript', fs.readFileSync(path.join(path.dirname(require.resolve('msw/package.json', { paths: [sandboxDir] })), 'lib', 'mockServiceWorker.js'))]],
  ]);
  const server = http.createServer((req, res) => {
    const file = files.get(req.url.split('?')[0]);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file[0], 'Cache-Control': 'no-store' }).end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const samples = [];
  try {
    for (let i = 0; i < STARTS; i++) {
      // A fresh context each time: no service worker and no cache from the start before.
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`${origin}/`);
      samples.push(await tab.evaluate(() => window.coldStart));
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  const registered = median(samples.map((s) => s.registeredToFirstMs));
  const whole = median(samples.map((s) => s.startToFirstMs));
  console.log(`Chromium, median of ${STARTS} fresh contexts: worker registered to first answer **${registered.toFixed(0)} ms**; worker.start() to first answer ${whole.toFixed(0)} ms.`);
  goal('cold start in Chromium: worker registered to first answer', registered <= 500, `${registered.toFixed(0)} ms (<= 500 ms)`);
}

/** 2b. A fresh Node process: import, createSandbox() and the first answer. */
function nodeColdStart() {
  const script = `const t0 = performance.now();
const { createSandbox } = await import('@payroll-api/sandbox');
const imported = performance.now();
const sandbox = await createSandbox();
const res = await sandbox.fetch('http://sandbox.test${EMPLOYEES}?pageSize=10', { headers: ${JSON.stringify(HEADERS)} });
await res.json();
const firstMs = performance.now() - t0;
const again = performance.now();
await createSandbox();
console.log(JSON.stringify({ status: res.status, firstMs, importMs: imported - t0, againMs: performance.now() - again }));`;
  const samples = [];
  for (let i = 0; i < STARTS; i++) {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: sandboxDir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`node cold start failed: ${run.stderr}`);
    const sample = JSON.parse(run.stdout.trim().split('\n').pop());
    if (sample.status !== 200) throw new Error(`node cold start answered ${sample.status}`);
    samples.push(sample);
  }
  const first = median(samples.map((s) => s.firstMs));
  console.log(`Node, median of ${STARTS} fresh processes: import to first answer **${first.toFixed(0)} ms** (the import alone ${median(samples.map((s) => s.importMs)).toFixed(0)} ms); another createSandbox() in the same process, as a test suite makes one per test, ${median(samples.map((s) => s.againMs)).toFixed(0)} ms.\n`);
  goal('cold start in Node: import to first answer', first <= 300, `${first.toFixed(0)} ms (<= 300 ms)`);
}

/** Requests/s of `once` with 32 in flight for the benchmark's seconds (after a warm-up). */
async function callerRate(once) {
  for (let i = 0; i < 200; i++) await once();
  let count = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (performance.now() < until) {
      await once();
      count++;
    }
  }));
  return count / SECONDS;
}

/** One call of the list as a caller makes it, through `fetchLike`, reading the whole body. */
const listCall = (fetchLike, base) => async () => {
  const res = await fetchLike(`${base}${EMPLOYEES}`, { headers: HEADERS });
  if (res.status !== 200) throw new Error(`${base}: ${res.status}`);
  await res.arrayBuffer();
};

/** 3. The employees list in process against payroll-mock over HTTP, in the same run; with the
 * answer cache (the same read repeated) and without it (every request runs the handler). The
 * goal's figure is the caller's: the same call, 32 in flight, through `sandbox.fetch` and through
 * `fetch` to the server (what a test suite pays either way). autocannon's figure is the server's
 * capacity under a load generator much cheaper per request than any fetch. */
async function throughput(cacheMiB) {
  const { createSandbox } = await import('@payroll-api/sandbox');
  const sandbox = await createSandbox({ answerCacheBytes: cacheMiB * 1024 * 1024 });
  const inProcess = await callerRate(listCall(sandbox.fetch, 'http://sandbox.test'));
  await sandbox.close();
  const mock = startServer([mockBin, '--port', '0', '--answer-cache', String(cacheMiB)]);
  try {
    const base = await mock.base;
    const overHttp = await callerRate(listCall(fetch, base));
    await requestsPerSecond(`${base}${EMPLOYEES}`, HEADERS, 1);
    const capacity = await requestsPerSecond(`${base}${EMPLOYEES}`, HEADERS, SECONDS);
    const ratio = inProcess / overHttp;
    console.log(`| sandbox, answer cache ${cacheMiB > 0 ? 'on (default)' : 'off'} | ${inProcess.toFixed(0)} | ${overHttp.toFixed(0)} | **${ratio.toFixed(2)}** | ${capacity.toFixed(0)} | ${(inProcess / capacity).toFixed(2)} |`);
    return { ratio, capacity: inProcess / capacity };
  } finally {
    await mock.stop();
  }
}

/** The ceiling of the ratio against autocannon on this runtime: the page's bytes with no engine at all, answered
 * as a Fetch API Response read in process, against a bare node:http server writing them. */
async function transportCeiling() {
  const { createSandbox } = await import('@payroll-api/sandbox');
  const sandbox = await createSandbox();
  const first = await sandbox.fetch(`http://sandbox.test${EMPLOYEES}`, { headers: HEADERS });
  const headers = answerHeaders(first);
  const page = await first.json();
  await sandbox.close();
  const bytes = new TextEncoder().encode(JSON.stringify(page));
  const inProcess = await callerRate(listCall(async () => new Response(bytes, { status: 200, headers }), ''));
  const floor = await startFloorServer(page, headers, { fixed: true });
  try {
    const base = await floor.base;
    await requestsPerSecond(`${base}${EMPLOYEES}`, HEADERS, 1);
    const overHttp = await requestsPerSecond(`${base}${EMPLOYEES}`, HEADERS, SECONDS);
    const ratio = inProcess / overHttp;
    console.log(`| no engine: the page's bytes as a \`Response\` read in process ÷ a bare node:http server writing them | ${inProcess.toFixed(0)} | | | ${overHttp.toFixed(0)} | ${ratio.toFixed(2)} |`);
    return ratio;
  } finally {
    await floor.stop();
  }
}

/** 0. What installing the package costs: the unpacked size of its tarball (npm pack), measured and
 * limited as the sandbox's own lint (scripts/pack-check.mjs) measures and limits it. */
async function installedSize() {
  const { INSTALLED_LIMIT, installedSize: pack } = await import(pathToFileURL(path.join(sandboxDir, 'scripts', 'pack-check.mjs')).href);
  const { unpackedSize, entryCount, size } = pack(sandboxDir);
  const limit = `${(INSTALLED_LIMIT / 1e6).toFixed(1)} MB`;
  console.log(`Installed size of @payroll-api/sandbox: **${(unpackedSize / 1e6).toFixed(2)} MB** in ${entryCount} files (tarball ${kB(size)}).\n`);
  goal('installed size of @payroll-api/sandbox', unpackedSize <= INSTALLED_LIMIT, `${(unpackedSize / 1e6).toFixed(2)} MB (<= ${limit})`);
}

const [load] = os.loadavg();
console.log(`Machine: load ${load.toFixed(1)} on ${os.availableParallelism()} cores at start.\n`);
await installedSize();
await browserEntry();
await browserColdStart();
nodeColdStart();
console.log('| employees list (page of 250) | in process, 32 in flight, req/s | the same call with fetch over HTTP, 32 in flight, req/s | in process ÷ HTTP (caller) | autocannon over HTTP, 32 connections, req/s | in process ÷ autocannon |\n|---|---:|---:|---:|---:|---:|');
const cached = await throughput(32);
const uncached = await throughput(0);
const ceiling = await transportCeiling();
console.log(`\nThe last row bounds the last column: under autocannon, with an engine that cost nothing, in process ÷ HTTP would be ${ceiling.toFixed(2)} here (Node's Response and its body stream cost about as much per request as Node's HTTP server). A caller pays for its own fetch as well, which is what the goal's column counts.\n`);
goal('in process ÷ payroll-mock over HTTP, employees list, as a caller calls it', cached.ratio >= 3, `${cached.ratio.toFixed(2)} (>= 3; ${uncached.ratio.toFixed(2)} with no answer cache; against autocannon's capacity ${cached.capacity.toFixed(2)}, ceiling ${ceiling.toFixed(2)})`);
console.log('| goal | figure | result |\n|---|---:|---|');
for (const g of goals) console.log(`| ${g.name} | ${g.figure} | ${g.met ? 'met' : '**missed**'} |`);
console.log(`\n${goals.filter((g) => g.met).length} of ${goals.length} goals met.`);
