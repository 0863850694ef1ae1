// Client benchmark, in one run:
//  1. per-request overhead of @payroll-api/client against raw fetch (and openapi-fetch alone),
//     sequential GETs of a small list envelope from a local HTTP server on 127.0.0.1;
//  2. bundle size (esbuild, minified + gzip) of the client entry against openapi-fetch alone.
// Prints a markdown table and whether the goals were met. Exits non-zero only on error.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const RATIO_GOAL = 1.1;
const SIZE_BUDGET = 10_000; // bytes, min+gz (the client's size-limit budget)
const SAMPLES = 3000;
const WARMUP = 300;
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
    for (const name of names) for (let i = 0; i < WARMUP; i++) await contestants[name]();
    // Requests are interleaved one by one (the order rotating), so every contestant sees the
    // same machine load; each request is timed and the median per contestant is compared.
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < SAMPLES; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length];
        const t0 = process.hrtime.bigint();
        await contestants[name]();
        samples[name].push(Number(process.hrtime.bigint() - t0) / 1e3);
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const perRequest = Object.fromEntries(names.map((n) => [n, median(samples[n])]));
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
    const clientSize = await gz(`export * from ${JSON.stringify(clientEntry.replace(/index\.cjs$/, 'index.js'))};`, here);
    const baseSize = await gz(`export { default } from 'openapi-fetch';`, here);

    const ratio = perRequest['@payroll-api/client'] / raw;
    const fmt = (n) => n.toFixed(1);
    console.log(`Sequential GETs of a list envelope over HTTP on 127.0.0.1: ${SAMPLES} per contestant, interleaved; median per request.\n`);
    console.log('| measure | value | against | ratio |');
    console.log('|---|---:|---:|---:|');
    console.log(`| raw fetch, µs per request | ${fmt(raw)} | | 1.00 |`);
    console.log(`| openapi-fetch, µs per request | ${fmt(perRequest['openapi-fetch'])} | raw fetch | ${(perRequest['openapi-fetch'] / raw).toFixed(2)} |`);
    console.log(`| @payroll-api/client, µs per request | ${fmt(perRequest['@payroll-api/client'])} | raw fetch | ${ratio.toFixed(2)} |`);
    console.log(`| @payroll-api/client, µs per request | ${fmt(perRequest['@payroll-api/client'])} | openapi-fetch | ${(perRequest['@payroll-api/client'] / perRequest['openapi-fetch']).toFixed(2)} |`);
    console.log(`| client entry, bytes min | ${clientSize.min} | openapi-fetch ${baseSize.min} | ${(clientSize.min / baseSize.min).toFixed(2)} |`);
    console.log(`| client entry, bytes min+gz | ${clientSize.gzip} | openapi-fetch ${baseSize.gzip} | ${(clientSize.gzip / baseSize.gzip).toFixed(2)} |`);
    console.log('');
    console.log(`Overhead goal (ratio <= ${RATIO_GOAL.toFixed(2)}): ${ratio <= RATIO_GOAL ? 'met' : 'NOT met'} (${ratio.toFixed(3)}).`);
    console.log(`Size budget (<= ${SIZE_BUDGET} bytes min+gz): ${clientSize.gzip <= SIZE_BUDGET ? 'met' : 'NOT met'} (${clientSize.gzip}).`);
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
