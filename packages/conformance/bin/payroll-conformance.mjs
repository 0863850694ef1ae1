#!/usr/bin/env node
// payroll-conformance: checks a running server against the description, version by version.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('payroll-conformance: dist/ is missing; build the package first (pnpm --filter @payroll-api/conformance build)\n');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
