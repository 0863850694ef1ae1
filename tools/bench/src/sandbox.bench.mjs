// The sandbox mode of @payroll-api/mock against its examples mode, in one run on one machine:
//  1. the same list requests: requests/s (sandbox ÷ examples, goal >= 0.8) and p99 at 32 connections (goal < 50 ms);
//  2. startup time and RSS with the seed, against examples mode (reported);
//  3. one sandbox holding 10,000 employees (BENCH_SANDBOX_EMPLOYEES; imported through PUT /__sandbox/snapshot): a filtered,
//     ordered page, p99 one request at a time (goal < 50 ms, memory), p50 on PostgreSQL (goal <= 10 ms),
//     with the answer cache off so that every request runs the query; on PostgreSQL as deployed
//     (the collection cache on) and as SQL, and what a write costs the reads after it;
//  4. 1,000 tokens (BENCH_SANDBOX_TOKENS) that each read a list: RSS growth (goal <= 100 MB per 1,000);
//  5. resetting a written sandbox to the seed (goal <= 50 ms);
//  6. PostgreSQL against memory at 32 connections: a sorted list page (goal >= 0.5x memory; also
//     reported with the answer cache off on both) and PUT employee with one token and with 32
//     tokens (goal >= 0.5x memory, p99 < 50 ms); also reported, PUT employee with 300 tokens
//     taken by turns (a shared service's many sandboxes).
// Loopback only; every part is bounded in requests or seconds (about 3 minutes in all). Exits
// non-zero only when something fails, not when a goal is missed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const mockDir = path.dirname(require.resolve('@payroll-api/mock/package.json'));
const mockBin = path.join(mockDir, 'bin', 'payroll-mock.mjs');
const { startPostgresServer } = await import(path.join(mockDir, 'test', 'support', 'postgres-server.mjs'));

const DURATION = Number(process.env.BENCH_SANDBOX_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 4);
const STARTS = Number(process.env.BENCH_SANDBOX_STARTS ?? 3);
const EMPLOYEES = Number(process.env.BENCH_SANDBOX_EMPLOYEES ?? 10_000);
const TOKENS = Number(process.env.BENCH_SANDBOX_TOKENS ?? 1_000);
const count = (n) => n.toLocaleString('en-US');
// The warm-ups are sized for rounds of the default 2 s; shorter rounds warm up as much shorter.
const WARM_UP_SCALE = DURATION / 2;
const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
const BASE = '/v2/v2/providers/employers';
const LIST_REQUESTS = [`${BASE}/${EMPLOYER}/employees`, `${BASE}/${EMPLOYER}/administrations`, `${BASE}/${EMPLOYER}/childemployers`];
// Pinned to the employee version whose field names the filters, the snapshot and the PUT bodies
// use (read at it, written back at it), so that a newer version's renames leave the figures comparable.
const EMPLOYEE_MEDIA = 'application/json;version=2021-03-29';
const headersFor = (token) => ({ authorization: `Bearer ${token}`, accept: EMPLOYEE_MEDIA });

/** Starts the mock with `args`; resolves when it is listening, with the time that took. */
function startMock(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [mockBin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`payroll-mock ${args.join(' ')} did not start in 60 s:\n${out}`));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /payroll-mock listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ child, url: match[1], startupMs: performance.now() - started });
      }
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`payroll-mock ${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** `requests` is a list of requests, or one request whose headers each connection sets
 * (`headersOf(connection)`: its own token, say). */
function load(url, requests, { connections, duration, amount }) {
  return new Promise((resolve, reject) => {
    const limit = amount === undefined ? { duration } : { amount };
    const target = Array.isArray(requests) ? { url, requests } : perConnection(url, requests);
    const instance = autocannon({ connections, ...target, ...limit }, (error, result) => (error ? reject(error) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false, outputStream: fs.createWriteStream('/dev/null') });
  });
}

function perConnection(url, { method, path: pathname, body, headersOf, headersOfRequest }) {
  if (headersOfRequest) {
    // Headers of each request in turn (tokens taken by turns, not one per connection).
    let sent = 0;
    return { url, requests: [{ method, path: pathname, body, setupRequest: (request) => ({ ...request, headers: headersOfRequest(sent++) }) }] };
  }
  let connection = 0;
  return { url: `${url}${pathname}`, method, body, setupClient: (client) => client.setHeaders(headersOf(connection++)) };
}

async function call(url, pathname, { method = 'GET', token = 'bench', body, contentType = 'application/json' } = {}) {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { ...headersFor(token), ...(body === undefined ? {} : { 'content-type': contentType }) },
    body,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${pathname} answered ${response.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

const failuresOf = (result) => result.errors + result.timeouts + result.non2xx;
const ms = (value) => `${value.toFixed(1)} ms`;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const lines = [];
const goals = [];
let failed = 0;
function goal(name, met, figure) {
  goals.push({ name, met, figure });
}

/** The 1-minute load average against the cores: figures taken on a busy machine are noisy. */
function machineLoad() {
  const [load] = os.loadavg();
  const cores = os.availableParallelism();
  return `load ${load.toFixed(1)} on ${cores} cores${load > cores ? ' (busy: latencies are inflated)' : ''}`;
}

/** 1. The same list requests against both modes, rounds alternating; the best round of each counts. */
async function listThroughput(sandbox, examples) {
  const requests = LIST_REQUESTS.map((p) => ({ method: 'GET', path: p, headers: headersFor('bench-lists') }));
  for (const r of requests) {
    await call(sandbox.url, r.path, { token: 'bench-lists' });
    await call(examples.url, r.path, { token: 'bench-lists' });
  }
  for (const server of [sandbox, examples]) await load(server.url, requests, { connections: 32, duration: WARM_UP_SCALE });
  const results = { sandbox: [], examples: [] };
  for (let round = 0; round < ROUNDS; round++) {
    results.sandbox.push(await load(sandbox.url, requests, { connections: 32, duration: DURATION }));
    results.examples.push(await load(examples.url, requests, { connections: 32, duration: DURATION }));
  }
  const best = (list) => list.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
  const s = best(results.sandbox);
  const e = best(results.examples);
  failed += results.sandbox.reduce((n, r) => n + failuresOf(r), 0);
  const ratio = s.requests.average / e.requests.average;
  lines.push(`### Lists (${LIST_REQUESTS.length} list requests of the seed employer, 32 connections, best of ${ROUNDS} rounds of ${DURATION} s)\n`);
  lines.push('| mode | requests/s | p50 (ms) | p99 (ms) | failed or non-2xx |', '|---|---:|---:|---:|---:|');
  lines.push(`| sandbox (memory) | ${s.requests.average.toFixed(0)} | ${s.latency.p50} | ${s.latency.p99} | ${results.sandbox.reduce((n, r) => n + failuresOf(r), 0)} |`);
  lines.push(`| examples | ${e.requests.average.toFixed(0)} | ${e.latency.p50} | ${e.latency.p99} | ${results.examples.reduce((n, r) => n + failuresOf(r), 0)} |`);
  lines.push(`| ratio sandbox / examples | ${ratio.toFixed(2)} | | | |`, '');
  goal('lists: sandbox / examples requests/s', ratio >= 0.8, `${ratio.toFixed(2)} (>= 0.8)`);
  goal('lists: sandbox p99 at 32 connections', s.latency.p99 < 50, `${s.latency.p99} ms (< 50 ms)`);
}

/** 2. Time to listening, and RSS once listening and after one list request, per mode (median of STARTS starts). */
async function startup() {
  const figures = {};
  for (const [mode, args] of [
    ['sandbox (memory, seed)', []],
    ['examples', ['--examples']],
  ]) {
    const runs = [];
    for (let i = 0; i < STARTS; i++) {
      const mock = await startMock(args);
      const idle = rssMb(mock.child.pid);
      await call(mock.url, LIST_REQUESTS[0]);
      runs.push({ startupMs: mock.startupMs, idle, warm: rssMb(mock.child.pid) });
      await stop(mock.child);
    }
    const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    figures[mode] = { startupMs: median('startupMs'), idle: median('idle'), warm: median('warm') };
  }
  const [s, e] = Object.values(figures);
  lines.push(`### Startup and memory (${STARTS === 1 ? 'one start' : `median of ${STARTS} starts`})\n`);
  lines.push('| mode | time to listening | RSS listening (MB) | RSS after a list (MB) |', '|---|---:|---:|---:|');
  for (const [mode, f] of Object.entries(figures)) lines.push(`| ${mode} | ${ms(f.startupMs)} | ${f.idle.toFixed(0)} | ${f.warm.toFixed(0)} |`);
  lines.push(`| ratio sandbox / examples | ${(s.startupMs / e.startupMs).toFixed(2)} | ${(s.idle / e.idle).toFixed(2)} | ${(s.warm / e.warm).toFixed(2)} |`, '');
}

/** A snapshot of the seed with the employer's employees multiplied to `count`. */
async function bigSnapshot(url, count) {
  const snapshot = await call(url, '/__sandbox/snapshot', { token: 'bench-export' });
  const models = snapshot.collections.employees.filter((e) => e.employerId === EMPLOYER);
  const lastNames = ['Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters', 'Hendriks', 'van Leeuwen', 'Dekker'];
  const extra = [];
  for (let i = 0; extra.length + snapshot.collections.employees.length < count; i++) {
    const model = structuredClone(models[i % models.length]);
    model.id = randomUUID();
    model.employeeNumber = 100_000 + i;
    model.personalDetails.lastName = lastNames[i % lastNames.length];
    model.personalDetails.dateOfBirth = `19${60 + (i % 40)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    extra.push(model);
  }
  snapshot.collections.employees.push(...extra);
  return JSON.stringify(snapshot);
}

const BIG_QUERY = `${BASE}/${EMPLOYER}/employees?filter=${encodeURIComponent("personalDetails.lastName lk 'en' and employeeNumber gt 100500")}&orderBy=${encodeURIComponent('statusEmployeeSelfService,-employeeNumber')}&pageSize=25&pageNumber=3`;

/** One request at a time for `seconds`: the latency a client sees. */
async function sequentialLatency(url, token, pathname, seconds) {
  const requests = [{ method: 'GET', path: pathname, headers: headersFor(token) }];
  await load(url, requests, { connections: 1, amount: 20 });
  const result = await load(url, requests, { connections: 1, duration: seconds });
  failed += failuresOf(result);
  return result;
}

/** 3. EMPLOYEES employees in one sandbox: memory, then PostgreSQL. */
async function bigSandbox(database) {
  // With the answer cache off on both stores: every request runs the filter, the order and the page.
  const sandbox = await startMock(['--answer-cache', '0']);
  try {
    await bigSandboxOn(sandbox, database);
  } finally {
    await stop(sandbox.child);
  }
}

async function bigSandboxOn(sandbox, database) {
  const body = await bigSnapshot(sandbox.url, EMPLOYEES);
  let started = performance.now();
  await call(sandbox.url, '/__sandbox/snapshot', { method: 'PUT', token: 'bench-big', body });
  const importMemoryMs = performance.now() - started;
  const page = await call(sandbox.url, BIG_QUERY, { token: 'bench-big' });
  const memory = await sequentialLatency(sandbox.url, 'bench-big', BIG_QUERY, DURATION);
  const memory32 = await load(sandbox.url, [{ method: 'GET', path: BIG_QUERY, headers: headersFor('bench-big') }], { connections: 32, duration: DURATION });

  // Two processes on the one database: as deployed (the collection cache on), and with lists
  // run as SQL in PostgreSQL (--collection-cache 0).
  const postgresMocks = [];
  try {
    const postgresMock = await startMock(['--database-url', database.url, '--answer-cache', '0']);
    postgresMocks.push(postgresMock);
    const sqlMock = await startMock(['--database-url', database.url, '--answer-cache', '0', '--collection-cache', '0']);
    postgresMocks.push(sqlMock);
    started = performance.now();
    await call(postgresMock.url, '/__sandbox/snapshot', { method: 'PUT', token: 'bench-big', body });
    const importPostgresMs = performance.now() - started;
    const ids = (answer) => answer._embedded.map((e) => e.id).join(',');
    for (const server of [postgresMock, sqlMock]) {
      // Twice: the second is answered from the collection cache where it is on.
      for (let i = 0; i < 2; i++) {
        const samePage = await call(server.url, BIG_QUERY, { token: 'bench-big' });
        if (ids(samePage) !== ids(page) || samePage.totalSize !== page.totalSize) {
          failed++;
          console.error('sandbox bench: the PostgreSQL and memory stores answered different pages for the same query');
        }
      }
    }
    const postgres = await sequentialLatency(postgresMock.url, 'bench-big', BIG_QUERY, DURATION);
    const sql = await sequentialLatency(sqlMock.url, 'bench-big', BIG_QUERY, DURATION);
    // What a write costs the reads after it. Written through the process that reads, the kept
    // collection moves on with the write; written through another, the reads go on as SQL until
    // the second of them has loaded the collection again, beside them.
    const written = `${BASE}/employees/${page._embedded[0].id}`;
    const employee = JSON.stringify((await call(postgresMock.url, written, { token: 'bench-big' })).content);
    const afterWrite = {};
    for (const [through, writer] of [['this process', postgresMock], ['another process', sqlMock]]) {
      const times = (afterWrite[through] = [[], [], [], [], []]);
      for (let i = 0; i < 10; i++) {
        await call(writer.url, written, { method: 'PUT', token: 'bench-big', body: employee, contentType: EMPLOYEE_MEDIA });
        for (const at of times) {
          const started = performance.now();
          await call(postgresMock.url, BIG_QUERY, { token: 'bench-big' });
          at.push(performance.now() - started);
        }
      }
    }
    lines.push(`### One sandbox with ${count(EMPLOYEES)} employees: a filtered, ordered page (${page.totalSize} match, pageSize 25, page 3), one request at a time for ${DURATION} s, answer cache off (every request runs the query)\n`);
    lines.push('| store | snapshot import | requests/s | p50 (ms) | p99 (ms) |', '|---|---:|---:|---:|---:|');
    lines.push(`| memory | ${ms(importMemoryMs)} | ${memory.requests.average.toFixed(0)} | ${memory.latency.p50} | ${memory.latency.p99} |`);
    lines.push(`| PostgreSQL (same machine, fsync on), as deployed: the collection cache on | ${ms(importPostgresMs)} | ${postgres.requests.average.toFixed(0)} | ${postgres.latency.p50} | ${postgres.latency.p99} |`);
    lines.push(`| PostgreSQL, the query run as SQL (--collection-cache 0) | | ${sql.requests.average.toFixed(0)} | ${sql.latency.p50} | ${sql.latency.p99} |`);
    // Latencies come in whole milliseconds: a 0 has no ratio.
    const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : '–');
    lines.push(`| ratio PostgreSQL as deployed / memory | ${ratio(importPostgresMs, importMemoryMs)} | ${ratio(postgres.requests.average, memory.requests.average)} | ${ratio(postgres.latency.p50, memory.latency.p50)} | ${ratio(postgres.latency.p99, memory.latency.p99)} |`);
    const median = (times) => ms(percentile(times, 50));
    lines.push('\nThe reads right after a PUT of one of its employees, one at a time (10 writes each, median of each read):\n');
    lines.push('| written through | 1st read | 2nd | 3rd | 4th | 5th |', '|---|---:|---:|---:|---:|---:|');
    for (const [through, times] of Object.entries(afterWrite)) lines.push(`| ${through} | ${times.map(median).join(' | ')} |`);
    lines.push(`\nThe same page from memory at 32 connections: ${memory32.requests.average.toFixed(0)} requests/s, p99 ${memory32.latency.p99} ms.\n`);
    goal(`${count(EMPLOYEES)} employees: filtered, ordered page p99 (memory)`, memory.latency.p99 < 50, `${memory.latency.p99} ms (< 50 ms)`);
    goal(`${count(EMPLOYEES)} employees: filtered, ordered page p50 (PostgreSQL)`, postgres.latency.p50 <= 10, `${postgres.latency.p50} ms (<= 10 ms)`);
  } finally {
    await Promise.all(postgresMocks.map((server) => stop(server.child)));
  }
}

const SORTED_PAGE = `${BASE}/${EMPLOYER}/employees?orderBy=${encodeURIComponent('-employeeNumber')}&pageSize=10`;
const putHeaders = (token) => ({ ...headersFor(token), 'content-type': EMPLOYEE_MEDIA });

/** 6. The same requests against the memory store and PostgreSQL at 32 connections, rounds
 * alternating; the best round of each counts. PUT sends an employee back as it was read. */
async function postgresAgainstMemory(memory, database) {
  const postgres = await startMock(['--database-url', database.url]);
  const uncached = { memory: await startMock(['--answer-cache', '0']), postgres: await startMock(['--database-url', database.url, '--answer-cache', '0']) };
  try {
    const id = (await call(memory.url, SORTED_PAGE, { token: 'bench-pg' }))._embedded[0].id;
    const employeePath = `${BASE}/employees/${id}`;
    const body = JSON.stringify((await call(memory.url, employeePath, { token: 'bench-pg' })).content);
    const scenarios = [
      { name: 'sorted list page of 10', request: { method: 'GET', path: SORTED_PAGE, headersOf: () => headersFor('bench-pg-list') }, goal: 0.5 },
      { name: 'sorted list page of 10, answer cache off', request: { method: 'GET', path: SORTED_PAGE, headersOf: () => headersFor('bench-pg-list') }, servers: uncached },
      { name: 'PUT employee, one token', request: { method: 'PUT', path: employeePath, body, headersOf: () => putHeaders('bench-pg-put') }, goal: 0.5, p99: 50 },
      { name: 'PUT employee, 32 tokens', request: { method: 'PUT', path: employeePath, body, headersOf: (n) => putHeaders(`bench-pg-put-${n}`) }, goal: 0.5, p99: 50 },
      // Reported, no goal: a shared service's many sandboxes, each written now and then.
      { name: 'PUT employee, 300 tokens by turns', request: { method: 'PUT', path: employeePath, body, headersOfRequest: (n) => putHeaders(`bench-pg-turns-${n % 300}`) }, warmUp: 6 },
    ];
    lines.push(`### PostgreSQL against memory (same machine, fsync on), 32 connections, best of ${ROUNDS} rounds of ${DURATION} s\n`);
    lines.push('| request | memory requests/s | PostgreSQL requests/s | ratio | memory p99 (ms) | PostgreSQL p50 (ms) | PostgreSQL p99 (ms) | failed or non-2xx |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const scenario of scenarios) {
      // The warm-up also materializes the sandboxes the PUTs write (their first write copies the seed).
      const servers = scenario.servers ?? { memory, postgres };
      for (const server of [servers.memory, servers.postgres]) await load(server.url, scenario.request, { connections: 32, duration: (scenario.warmUp ?? 1) * WARM_UP_SCALE });
      const results = { memory: [], postgres: [] };
      for (let round = 0; round < ROUNDS; round++) {
        results.memory.push(await load(servers.memory.url, scenario.request, { connections: 32, duration: DURATION }));
        results.postgres.push(await load(servers.postgres.url, scenario.request, { connections: 32, duration: DURATION }));
      }
      const best = (list) => list.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
      const m = best(results.memory);
      const p = best(results.postgres);
      const failures = [...results.memory, ...results.postgres].reduce((n, r) => n + failuresOf(r), 0);
      failed += failures;
      const ratio = p.requests.average / m.requests.average;
      lines.push(`| ${scenario.name} | ${m.requests.average.toFixed(0)} | ${p.requests.average.toFixed(0)} | ${ratio.toFixed(2)} | ${m.latency.p99} | ${p.latency.p50} | ${p.latency.p99} | ${failures} |`);
      if (scenario.goal) goal(`PostgreSQL ÷ memory: ${scenario.name}`, ratio >= scenario.goal, `${ratio.toFixed(2)} (>= ${scenario.goal})`);
      if (scenario.p99) goal(`PostgreSQL p99: ${scenario.name}`, p.latency.p99 < scenario.p99, `${p.latency.p99} ms (< ${scenario.p99} ms)`);
    }
    lines.push('\nEvery row runs as deployed (the answer cache on: a list is read again from memory while the sandbox is unchanged) but the one marked answer cache off, which has it off on both stores.\n');
  } finally {
    await Promise.all([postgres, uncached.memory, uncached.postgres].map((server) => stop(server.child)));
  }
}

/** 4. TOKENS tokens, each its own sandbox, each reading a list once (RSS growth: 100 MB per 1,000 at most). */
async function manyTokens() {
  const mock = await startMock([]);
  try {
    await call(mock.url, LIST_REQUESTS[0], { token: 'warm-up' });
    const before = rssMb(mock.child.pid);
    const started = performance.now();
    for (let batch = 0; batch < TOKENS; batch += 25) {
      await Promise.all(Array.from({ length: Math.min(25, TOKENS - batch) }, (_, i) => call(mock.url, LIST_REQUESTS[0], { token: `reader-${batch + i}` })));
    }
    const seconds = (performance.now() - started) / 1000;
    const after = rssMb(mock.child.pid);
    const growth = after - before;
    const bound = (100 * TOKENS) / 1000;
    lines.push(`### ${count(TOKENS)} tokens, each reading a list once (25 at a time)\n`);
    lines.push(`RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after: growth ${growth.toFixed(0)} MB, in ${seconds.toFixed(1)} s.\n`);
    goal(`${count(TOKENS)} reading tokens: RSS growth`, growth <= bound, `${growth.toFixed(0)} MB (<= ${bound.toFixed(0)} MB)`);
  } finally {
    await stop(mock.child);
  }
}

/** 5. Reset a sandbox that has written (one write, then the reset), 100 times. */
async function resets(sandbox) {
  const times = [];
  for (let i = 0; i < 100; i++) {
    await call(sandbox.url, '/__sandbox/clock', { method: 'PUT', token: 'bench-reset', body: JSON.stringify({ now: '2030-01-01T00:00:00Z' }) });
    const started = performance.now();
    await call(sandbox.url, '/__sandbox/reset', { method: 'POST', token: 'bench-reset' });
    times.push(performance.now() - started);
  }
  lines.push('### Reset to the seed (a written sandbox, 100 resets, request round trip)\n');
  lines.push(`p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, max ${ms(Math.max(...times))}.\n`);
  goal('reset to the seed, p99', percentile(times, 99) <= 50, `${ms(percentile(times, 99))} (<= 50 ms)`);
}

const children = [];
const loadBefore = machineLoad();
try {
  const sandbox = await startMock([]);
  children.push(sandbox.child);
  const examples = await startMock(['--examples']);
  children.push(examples.child);
  await listThroughput(sandbox, examples);
  await stop(examples.child);
  await resets(sandbox);
  const database = await startPostgresServer({ durable: true });
  try {
    await postgresAgainstMemory(sandbox, database);
    await bigSandbox(database);
  } finally {
    database.stop();
  }
  await stop(sandbox.child);
  await startup();
  await manyTokens();
  console.log(lines.join('\n'));
  console.log(`Machine: ${loadBefore} at the start, ${machineLoad()} at the end.\n`);
  console.log('| goal | figure | result |\n|---|---:|---|');
  for (const g of goals) console.log(`| ${g.name} | ${g.figure} | ${g.met ? 'met' : '**missed**'} |`);
  const missed = goals.filter((g) => !g.met);
  console.log(`\n${goals.length - missed.length} of ${goals.length} goals met${missed.length ? `; missed: ${missed.map((g) => g.name).join('; ')}` : ''}.`);
  if (failed > 0) {
    console.error(`sandbox bench: ${failed} requests failed or answered non-2xx`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`sandbox bench: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGKILL');
}
