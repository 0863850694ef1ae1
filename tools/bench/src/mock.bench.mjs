// Throughput and latency of @payroll-api/mock against bare Prism (`prism mock`) on the same
// bundle, over loopback. Every server gets the same requests (a list, a detail with a path
// parameter, a validated POST body, when the description has them); rounds alternate between
// the servers so that load from elsewhere on the machine hits them alike, and the best round
// of each counts. The goal: the contract layer costs at most 10% of Prism's throughput.
// Bounded in time (about 45 s); exits non-zero only when something fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const DURATION = Number(process.env.BENCH_MOCK_SECONDS ?? 3);
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

/** Starts a server and resolves with its address: from its ready line, or by polling `url`. */
function start(command, args, ready, url) {
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
    if (url) {
      const poll = async () => {
        try {
          await fetch(url, { method: 'OPTIONS' });
          clearTimeout(timer);
          resolve({ child, url });
        } catch {
          if (child.exitCode === null) setTimeout(poll, 100);
        }
      };
      void poll();
    }
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
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
  const mock = await start(mockBin, ['--port', '0', '--examples', '--payroll', bundle], /payroll-mock listening on (http:\/\/\S+)/);
  children.push(mock.child);
  // Bare Prism twice: as `prism mock` runs by default (logging every request), and at its
  // quietest (--verboseLevel silent), the stricter baseline for the ratio.
  const prism = await start(prismBin, ['mock', bundle, '--host', '127.0.0.1', '--port', String(await freePort()), '--errors', 'false'], /Prism is listening on (http:\/\/[\d.:]+)/);
  children.push(prism.child);
  const quietPort = await freePort();
  const quiet = await start(prismBin, ['mock', bundle, '--host', '127.0.0.1', '--port', String(quietPort), '--errors', 'false', '--verboseLevel', 'silent'], /$^/, `http://127.0.0.1:${quietPort}`);
  children.push(quiet.child);
  for (const r of requests) {
    await check(mock.url, r, '/v2');
    await check(prism.url, r, '');
    await check(quiet.url, r, '');
  }

  const servers = { mock: [mock.url, '/v2'], prism: [prism.url, ''], quiet: [quiet.url, ''] };
  // Warm-up, not measured: JIT and schema compilation in every server.
  for (const [url, prefix] of Object.values(servers)) await run(url, requests, prefix, 1);
  const results = { mock: [], prism: [], quiet: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, [url, prefix]] of Object.entries(servers)) results[name].push(await run(url, requests, prefix));
  }
  const failures = (list) => list.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
  const errors = { mock: failures(results.mock), prism: failures(results.prism), quiet: failures(results.quiet) };
  // The best round of each: the one least disturbed by other load on the machine.
  const best = (list) => list.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
  const m = best(results.mock);
  const p = best(results.prism);
  const q = best(results.quiet);
  const ratio = m.requests.average / q.requests.average;
  console.log(`${requests.length} request kinds (${requests.map((r) => `${r.method} ${r.path}`).join(', ')}), ${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${DURATION} s each\n`);
  console.log('| server | requests/s | p50 latency (ms) | p99 latency (ms) | failed or non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| @payroll-api/mock | ${m.requests.average.toFixed(0)} | ${m.latency.p50} | ${m.latency.p99} | ${errors.mock} |`);
  console.log(`| bare Prism (prism mock, default logging) | ${p.requests.average.toFixed(0)} | ${p.latency.p50} | ${p.latency.p99} | ${errors.prism} |`);
  console.log(`| bare Prism (prism mock --verboseLevel silent) | ${q.requests.average.toFixed(0)} | ${q.latency.p50} | ${q.latency.p99} | ${errors.quiet} |`);
  console.log(`| ratio mock / silent Prism | ${ratio.toFixed(2)} | | | |`);
  console.log(`| ratio mock / default Prism | ${(m.requests.average / p.requests.average).toFixed(2)} | | | |`);
  console.log(`\nGoal (contract layer costs <= 10% throughput: mock / silent Prism >= ${GOAL}): ${ratio >= GOAL ? 'met' : 'NOT met'}`);
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
