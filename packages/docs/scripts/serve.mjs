#!/usr/bin/env node
// Serves the built site (dist/) on 127.0.0.1:4020, beside the mock on 4010.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT, startServer } from '../src/server.mjs';

const USAGE = `Usage: node scripts/serve.mjs [--port <n>] [--host <addr>] [--dir <folder>]

Serves the documentation site.
  --port <n>      port to listen on; 0 picks a free one (default: $DOCS_PORT or ${DEFAULT_PORT})
  --host <addr>   interface to bind (default: ${DEFAULT_HOST})
  --dir <folder>  the built site (default: dist/ of this package)
  -h, --help      show this help
`;

function fail(message) {
  process.stderr.write(`docs: ${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail(`${error.message}\n\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const portText = values.port ?? process.env.DOCS_PORT ?? String(DEFAULT_PORT);
if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
  fail(`${values.port !== undefined ? '--port' : 'DOCS_PORT'} must be a port number from 0 to 65535, got ${JSON.stringify(portText)}`);
}
const root = path.resolve(values.dir ?? fileURLToPath(new URL('../dist', import.meta.url)));

try {
  const running = await startServer({ root, port: Number(portText), host: values.host ?? DEFAULT_HOST });
  process.stdout.write(`docs: serving ${root} at ${running.url}\n`);
  const stop = () => running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  fail(error.code === 'EADDRINUSE' ? `port ${portText} is already in use (set --port or DOCS_PORT)` : error.message);
}
