#!/usr/bin/env node
// payroll-mock: serves the Payroll and HR API v2 and the Journal configuration API on one port.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('payroll-mock: dist/ is missing; build the package first (pnpm --filter @payroll-api/mock build)\n');
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv.slice(2));
