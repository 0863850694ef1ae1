// Throughput and latency of @payroll-api/mock against bare Prism (`prism mock`) on the same
// bundle, over loopback. Both servers get the same requests (a list, a detail with a path
// parameter, a validated POST body, when the description has them); rounds alternate between
// the two so that load from elsewhere on the machine hits both alike. The goal: the contract
// layer costs at most 10% of Prism's throughput. Exits non-zero only when something fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const DURATION = Number(process.env.BENCH_MOCK_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_MOCK_ROUNDS ?? 3);
const CONNECTIONS = 10;
const GOAL = 0.9;

const specDir = path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist');
const bundle = path.join(specDir, 'payroll.json');
const mockBin = path.join(path.dirname(require.resolve('@payroll-api/mock/package.json')), 'bin', 'payroll-mock.mjs');
const prismBin = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

if (!fs.existsSync(bundle)) {
  console.error(`mock bench: ${bundle} is missing; build the spec first`);
  process.exit(1);
}
const doc = JSON.parse(fs.readFileSync(bundle, 'utf8'));
const ID = '5d0e5c1a-8b7f-4a2e-9c61-0f3b2a4d7e91';
const headers = { authorization: 'Bearer bench-token', accept: 'application/json' };

/** The requests, as paths of the description (Prism's addresses); the mock's get the base path /v2 in front. */
function pickRequests() {
  const requests = [{ method: 'GET', path: '/v2/providers', headers }];
  const employer = doc.paths['/v2/providers/employers/{employerId}']?.get;
  if (employer) requests.push({ method: 'GET', path: `/v2/providers/employers/${ID}`, headers });
  const logo = doc.paths['/v2/providers/{providerId}/logos']?.post;
  if (logo) {
    requests.push({
      method: 'POST',
      path: `/v2/providers/${ID}/logos`,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ attribute: 'LOONSTROOK', name: 'Logo', data: 'aGVsbG8=', mimeType: 'image/png' }),
    });
  }
  return requests;
}

function start(command, args, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${path.basename(command)} did not start in 30 s:\n${out}`));
    }, 30_000);
    const onData = (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout.removeListener('data', onData);
        child.stdout.resume();
        resolve({ child, url: match[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(command)} exited with ${code}:\n${out}`));
    });
  });
}

function run(url, requests, prefix, duration = DURATION) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration,
        requests: requests.map((r) => ({ ...r, path: `${prefix}${r.path}` })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false, outputStream: fs.createWriteStream('/dev/null') });
  });
}

async function check(url, request, prefix) {
  const res = await fetch(`${url}${prefix}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${request.method} ${prefix}${request.path} answered ${res.status} on ${url}`);
}

const children = [];
try {
  const requests = pickRequests();
  const mock = await start(mockBin, ['--port', '0', '--payroll', bundle], /payroll-mock listening on (http:\/\/\S+)/);
  children.push(mock.child);
  const port = await new Promise((resolve, reject) => {
    import('node:net').then(({ createServer }) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
      s.on('error', reject);
    });
  });
  const prism = await start(prismBin, ['mock', bundle, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'], /Prism is listening on (http:\/\/[\d.:]+)/);
  children.push(prism.child);
  for (const r of requests) {
    await check(mock.url, r, '/v2');
    await check(prism.url, r, '');
  }

  // Warm-up, not measured: JIT and schema compilation in both servers.
  await run(prism.url, requests, '', 1);
  await run(mock.url, requests, '/v2', 1);
  const results = { mock: [], prism: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.prism.push(await run(prism.url, requests, ''));
    results.mock.push(await run(mock.url, requests, '/v2'));
  }
  const failures = (list) => list.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
  const errors = { mock: failures(results.mock), prism: failures(results.prism) };
  // The best round of each: the one least disturbed by other load on the machine.
  const best = (list) => list.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
  const m = best(results.mock);
  const p = best(results.prism);
  const ratio = m.requests.average / p.requests.average;
  console.log(`${requests.length} request kinds (${requests.map((r) => `${r.method} ${r.path}`).join(', ')}), ${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${DURATION} s each\n`);
  console.log('| server | requests/s | p50 latency (ms) | p99 latency (ms) | failed or non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| @payroll-api/mock | ${m.requests.average.toFixed(0)} | ${m.latency.p50} | ${m.latency.p99} | ${errors.mock} |`);
  console.log(`| bare Prism (prism mock) | ${p.requests.average.toFixed(0)} | ${p.latency.p50} | ${p.latency.p99} | ${errors.prism} |`);
  console.log(`| ratio mock / Prism | ${ratio.toFixed(2)} | | | |`);
  console.log(`\nGoal (contract layer costs <= 10% throughput, ratio >= ${GOAL}): ${ratio >= GOAL ? 'met' : 'NOT met'}`);
  // Prism's own failures under load are reported in the table; only the mock's fail the run.
  if (errors.mock > 0) {
    console.error(`mock bench: ${errors.mock} requests to the mock failed or answered non-2xx`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`mock bench: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  for (const child of children) child.kill();
}
