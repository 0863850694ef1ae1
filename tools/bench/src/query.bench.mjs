// Query benchmark: what @payroll-api/query adds to a minimal app (esbuild, minified + gzip).
// Baseline, in the same run: the same app with the client and @tanstack/query-core and a
// hand-written query (key and queryFn) and mutation (with its invalidation). The figure is the
// difference; goal: at most 2.5 kB.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET = 2_500; // bytes, min+gz, on top of the client and query-core
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

async function gz(contents) {
  const out = await build({ stdin: { contents, resolveDir: here, loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  return gzipSync(out.outputFiles[0].contents, { level: 9 }).length;
}

async function main() {
  let entry;
  try {
    entry = require.resolve('@payroll-api/query').replace(/index\.cjs$/, 'index.js');
  } catch {
    throw new Error('@payroll-api/query is not built: run pnpm --filter @payroll-api/query build');
  }
  const setup =
    `import { QueryClient, QueryObserver, MutationObserver } from '@tanstack/query-core';\n` +
    `import { createPayrollClient, unwrap } from '@payroll-api/client';\n` +
    `const payroll = createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', auth: 'token' });\n` +
    `const queryClient = new QueryClient();\n`;
  const handWritten =
    setup +
    `new QueryObserver(queryClient, { queryKey: ['payroll', 'employee', { employerId: 'e' }], queryFn: async ({ signal }) => unwrap(await payroll.GetEmployeesByEmployerId({ employerId: 'e' }, { signal })) }).subscribe(console.log);\n` +
    `new MutationObserver(queryClient, { mutationFn: async ({ params, body }) => unwrap(await payroll.PatchTerminateByEmploymentId(params, body)),` +
    ` onSuccess: () => queryClient.invalidateQueries({ queryKey: ['payroll', 'employment'] }) }).mutate({ params: { employmentId: 'x' }, body: {} });\n`;
  const withQuery =
    setup +
    `import { payrollQueries } from ${JSON.stringify(entry)};\n` +
    `const api = payrollQueries(payroll);\n` +
    `new QueryObserver(queryClient, api.GetEmployeesByEmployerId({ employerId: 'e' })).subscribe(console.log);\n` +
    `new MutationObserver(queryClient, api.mutation.PatchTerminateByEmploymentId()).mutate({ params: { employmentId: 'x' }, body: {} });\n`;
  const base = await gz(handWritten);
  const ours = await gz(withQuery);
  const added = ours - base;
  console.log('| measure | value | against | ratio |');
  console.log('|---|---:|---:|---:|');
  console.log(`| minimal app with @payroll-api/query, bytes min+gz | ${ours} | hand-written keys ${base} | ${(ours / base).toFixed(2)} |`);
  console.log('');
  console.log(`Added on top of the client and query-core (<= ${BUDGET} bytes min+gz): ${added <= BUDGET ? 'met' : 'NOT met'} (${added}).`);
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
