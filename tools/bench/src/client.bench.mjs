// Client benchmark, in one run:
//  1. per-request overhead of @payroll-api/client against raw fetch (and openapi-fetch alone),
//     sequential GETs of a small list envelope from a local HTTP server on 127.0.0.1;
//  2. bundle sizes (esbuild, minified + gzip) against openapi-fetch alone: a minimal app (one
//     client, one call) by path and by activity name, the whole entry, and with toBody.
// Prints a markdown table and whether the goals were met. Exits non-zero only on error.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const RATIO_GOAL = 1.1;
const SIZE_BUDGET = 10_000; // bytes, min+gz (the client's size-limit budget)
const MINIMAL_BUDGET = 7_500; // bytes, min+gz: one client and one call by activity name
// Measured in ROUNDS rounds of SAMPLES requests per contestant, after WARMUP requests per
// contestant (the JIT needs about 2000 calls per path to settle; with fewer, the first rounds
// still time compilation). The figures are the medians over the rounds of each round's median,
// so that a burst of load on a shared machine spoils one round, not the result.
// Both counts are multiples of 6, whole cycles of the interleaving order (see below).
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 5);
const SAMPLES = Number(process.env.BENCH_CLIENT_SAMPLES ?? 1200);
const WARMUP = Number(process.env.BENCH_CLIENT_WARMUP ?? 2400);
const DEADLINE_MS = 60_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const started = Date.now();

const body = JSON.stringify({
  totalSize: 1,
  pageSize: 250,
  totalPages: 1,
  currentPage: 1,
  version: { resourceVersion: '2018-01-01', obsoleteDate: null },
  messages: [],
  _embedded: [{ id: '5d0e5c1a-8b7f-4a2e-9c61-0f3b2a4d7e91', name: 'Administratiekantoor Van der Berg B.V.' }],
});

async function main() {
  let clientEntry;
  try {
    clientEntry = require.resolve('@payroll-api/client');
  } catch {
    throw new Error('@payroll-api/client is not built: run pnpm --filter @payroll-api/client build');
  }
  const { createPayrollClient } = await import('@payroll-api/client');
  const createClient = (await import('openapi-fetch')).default;

  const server = createServer((req, res) => {
    if (req.headers.authorization !== 'Bearer bench-token' || !/version=2018-01-01/.test(req.headers.accept ?? '')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"message":"bad request"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json;version=2018-01-01', expires: '0' });
    res.end(body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const guard = setTimeout(() => {
    console.error(`bench: client benchmark exceeded ${DEADLINE_MS} ms`);
    process.exit(1);
  }, DEADLINE_MS);

  try {
    const headers = { Accept: 'application/json;version=2018-01-01', Authorization: 'Bearer bench-token' };
    const contestants = {
      'raw fetch': async () => {
        const res = await fetch(`${origin}/v2/v2/providers`, { headers });
        if (res.status !== 200) throw new Error(`raw fetch: status ${res.status}`);
        return res.json();
      },
      'openapi-fetch': (() => {
        const client = createClient({ baseUrl: `${origin}/v2`, headers });
        return async () => {
          const { data, response } = await client.GET('/v2/providers');
          if (response.status !== 200) throw new Error(`openapi-fetch: status ${response.status}`);
          return data;
        };
      })(),
      '@payroll-api/client': (() => {
        const client = createPayrollClient({ baseUrl: `${origin}/v2`, auth: 'bench-token' });
        return async () => {
          const { data, response } = await client.GET('/v2/providers');
          if (response.status !== 200) throw new Error(`client: status ${response.status}`);
          return data;
        };
      })(),
    };
    const names = Object.keys(contestants);
    // Requests are interleaved one by one, so every contestant sees the same machine load. A
    // request is a little faster or slower depending on which code ran just before it (caches,
    // branch predictors), so the order is balanced: the six permutations of the three
    // contestants, chained so that each starts with the contestant that ended the one before.
    // In every 18 requests each contestant takes each position twice and follows each
    // contestant, itself included, exactly twice.
    const orders = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1], [1, 0, 2], [2, 1, 0]].map((order) => order.map((k) => names[k]));
    for (let i = 0; i < WARMUP; i++) for (const name of orders[i % orders.length]) await contestants[name]();
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const samples = Object.fromEntries(names.map((n) => [n, []]));
      for (let i = 0; i < SAMPLES; i++) {
        for (const name of orders[i % orders.length]) {
          const t0 = process.hrtime.bigint();
          await contestants[name]();
          samples[name].push(Number(process.hrtime.bigint() - t0) / 1e3);
        }
      }
      rounds.push(Object.fromEntries(names.map((n) => [n, median(samples[n])])));
    }
    const perRequest = Object.fromEntries(names.map((n) => [n, median(rounds.map((round) => round[n]))]));
    // The ratio of each round (both medians from the same stretch of time), then their median.
    const ratioOf = (name, base) => median(rounds.map((round) => round[name] / round[base]));
    const ratios = rounds.map((round) => round['@payroll-api/client'] / round['raw fetch']);
    const raw = perRequest['raw fetch'];

    const gz = async (contents, resolveDir) => {
      const out = await build({
        stdin: { contents, resolveDir, loader: 'js' },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      });
      const code = out.outputFiles[0].contents;
      return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
    };
    // What apps carry: one client and one call by path, the same by activity name, the whole
    // entry, and the whole entry with the toBody helper (its own entry, @payroll-api/client/body).
    const esm = JSON.stringify(clientEntry.replace(/index\.cjs$/, 'index.js'));
    const bodyEntry = JSON.stringify(clientEntry.replace(/index\.cjs$/, 'body.js'));
    const minimal = (call) =>
      `import { createPayrollClient } from ${esm};\n` +
      `const payroll = createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', auth: 'token' });\n` +
      `${call}.then(({ data }) => console.log(data));`;
    const pathSize = await gz(minimal(`payroll.GET('/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: 'e' } } })`), here);
    const nameSize = await gz(minimal(`payroll.GetEmployeesByEmployerId({ employerId: 'e' })`), here);
    const clientSize = await gz(`export * from ${esm};`, here);
    const withBodySize = await gz(`export * from ${esm};\nexport { toBody } from ${bodyEntry};`, here);
    const baseSize = await gz(`export { default } from 'openapi-fetch';`, here);

    const ratio = ratioOf('@payroll-api/client', 'raw fetch');
    const fmt = (n) => n.toFixed(1);
    console.log(
      `Sequential GETs of a list envelope over HTTP on 127.0.0.1: ${ROUNDS} rounds of ${SAMPLES} per contestant, interleaved, ` +
        `after ${WARMUP} each to warm up; median per request, median over the rounds.\n`,
    );
    console.log('| measure | value | against | ratio |');
    console.log('|---|---:|---:|---:|');
    console.log(`| raw fetch, µs per request | ${fmt(raw)} | | 1.00 |`);
    console.log(`| openapi-fetch, µs per request | ${fmt(perRequest['openapi-fetch'])} | raw fetch | ${ratioOf('openapi-fetch', 'raw fetch').toFixed(2)} |`);
    console.log(`| @payroll-api/client, µs per request | ${fmt(perRequest['@payroll-api/client'])} | raw fetch | ${ratio.toFixed(2)} |`);
    console.log(`| @payroll-api/client, µs per request | ${fmt(perRequest['@payroll-api/client'])} | openapi-fetch | ${ratioOf('@payroll-api/client', 'openapi-fetch').toFixed(2)} |`);
    const sizeRow = (what, size) => console.log(`| ${what}, bytes min+gz | ${size.gzip} | openapi-fetch ${baseSize.gzip} | ${(size.gzip / baseSize.gzip).toFixed(2)} |`);
    console.log(`| client entry, bytes min | ${clientSize.min} | openapi-fetch ${baseSize.min} | ${(clientSize.min / baseSize.min).toFixed(2)} |`);
    sizeRow('minimal app, one call by path', pathSize);
    sizeRow('minimal app, one call by activity name', nameSize);
    sizeRow('client entry (all features)', clientSize);
    sizeRow('client entry with toBody', withBodySize);
    console.log('');
    console.log(
      `Overhead goal (ratio <= ${RATIO_GOAL.toFixed(2)}): ${ratio <= RATIO_GOAL ? 'met' : 'NOT met'} (${ratio.toFixed(3)}; ` +
        `rounds ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}).`,
    );
    console.log(`Size budget (<= ${SIZE_BUDGET} bytes min+gz): ${clientSize.gzip <= SIZE_BUDGET ? 'met' : 'NOT met'} (${clientSize.gzip}).`);
    console.log(
      `Minimal app by activity name (<= ${MINIMAL_BUDGET} bytes min+gz): ${nameSize.gzip <= MINIMAL_BUDGET ? 'met' : 'NOT met'} (${nameSize.gzip}).`,
    );
    console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    clearTimeout(guard);
    await new Promise((resolve) => server.close(resolve));
    server.closeAllConnections?.();
  }
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
