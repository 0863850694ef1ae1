// Command line of the payroll-mock bin. Prints exactly one line on standard output when
// ready (`payroll-mock listening on http://127.0.0.1:<port>`); everything else goes to
// standard error, so that tools can wait for that line.
import { parseArgs } from 'node:util';
import type { MockOptions } from './server.js';

const USAGE = `Usage: payroll-mock [options]

Serves the Payroll and HR API v2 (under /v2, followed by the contract's /v2/... paths) and
the Journal configuration API (under /journal) on one port.

Options:
  --port <n>        port to listen on; 0 picks a free one (default: $PORT or 4010)
  --host <addr>     interface to bind (default: 127.0.0.1)
  --dynamic         generate responses from the schemas instead of the examples
                    (also PAYROLL_MOCK_DYNAMIC=true)
  --watch           reload the bundles when they change
  --spec-dir <dir>  folder with payroll.json and journal.json (default: @payroll-api/spec/dist)
  --payroll <file>  payroll bundle (overrides --spec-dir)
  --journal <file>  journal bundle (overrides --spec-dir)
  --max-body <n>    largest request body in bytes (default: 5242880)
  --verbose         log every request to standard error
  -h, --help        show this help
`;

function fail(text: string): never {
  process.stderr.write(`payroll-mock: ${text}\n`);
  process.exit(2);
}

function integer(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) fail(`${name} must be an integer from ${min} to ${max}, not '${value}'`);
  return Number(value);
}

export async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dynamic: { type: 'boolean' },
        watch: { type: 'boolean' },
        'spec-dir': { type: 'string' },
        payroll: { type: 'string' },
        journal: { type: 'string' },
        'max-body': { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  const values = parsed.values;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port ?? process.env.PORT;
  const env = process.env.PAYROLL_MOCK_DYNAMIC?.toLowerCase();
  const options: MockOptions = {
    port: port === undefined || port === '' ? 4010 : integer(values.port !== undefined ? '--port' : 'PORT', port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    dynamic: values.dynamic ?? (env === 'true' || env === '1'),
    watch: values.watch ?? false,
    verbose: values.verbose ?? false,
  };
  if (values['spec-dir']) options.specDir = values['spec-dir'];
  if (values.payroll) options.payrollSpec = values.payroll;
  if (values.journal) options.journalSpec = values.journal;
  if (values['max-body']) options.maxBodyBytes = integer('--max-body', values['max-body'], 1, 1024 * 1024 * 1024);

  let running;
  try {
    // Loaded after the arguments are checked: Prism takes a while to load.
    const { startMock } = await import('./server.js');
    running = await startMock(options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    process.stderr.write(`payroll-mock: ${e.code === 'EADDRINUSE' ? `port ${options.port} is already in use` : e.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`payroll-mock listening on ${running.url}\n`);
  process.stderr.write(`payroll-mock: payroll base_url ${running.payrollBaseUrl}, journal ${running.journalBaseUrl}${options.dynamic ? ', dynamic responses' : ''}${options.watch ? ', watching the bundles' : ''}\n`);

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(0), 2_000);
    force.unref();
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A mock must outlive whatever a client sends it: report and keep serving.
  process.on('uncaughtException', (error) => process.stderr.write(`payroll-mock: ${error.stack ?? error}\n`));
  process.on('unhandledRejection', (error) => process.stderr.write(`payroll-mock: ${(error as Error)?.stack ?? error}\n`));
}
