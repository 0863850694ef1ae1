// Command line of the payroll-mock bin. Prints exactly one line on standard output when
// ready (`payroll-mock listening on http://127.0.0.1:<port>`); everything else goes to
// standard error, so that tools can wait for that line.
import { parseArgs } from 'node:util';
import type { MockOptions } from './server.js';

const USAGE = `Usage: payroll-mock [options]

Serves the Payroll and HR API v2 (under /v2, followed by the contract's /v2/... paths) and
the Journal configuration API (under /journal) on one port. By default a stateful sandbox
answers (one per bearer token); --examples serves the descriptions' examples instead.

Options:
  --port <n>        port to listen on; 0 picks a free one (default: $PORT or 4010)
  --host <addr>     interface to bind (default: 127.0.0.1)
  --examples        answer from the descriptions' examples (no state)
  --dynamic         examples generated from the schemas (implies --examples; with
                    --examples also PAYROLL_MOCK_DYNAMIC=true)
  --data <dir>      sandbox: keep the sandboxes in this directory across restarts
  --database-url <url>
                    sandbox: keep every sandbox in PostgreSQL (postgres://...), shared by
                    every process given the same URL
  --hosted          sandbox: a shared service for many integrators: fixed and arbitrary
                    tokens are refused; tokens come from POST /auth/token with a client the
                    operator created (see --operator-token), and every sandbox belongs to
                    that client
  --operator-token <t>
                    sandbox: serve /__operator/* (clients, sandboxes) to this bearer token
                    (also $PAYROLL_MOCK_OPERATOR_TOKEN); required with --hosted
  --sandbox-ttl <d> sandbox: remove sandboxes not used for this long, with their tokens (30d,
                    12h, 90m, 45s; 0 never): not written, and no token of theirs issued or
                    refreshed (an unused refresh token lives this long). Default: 30d with
                    --hosted or --database-url, never otherwise
  --rate-limit <n>  sandbox: requests per second per client with --hosted (whichever of its
                    tokens it uses; per bearer token otherwise) and per remote address without
                    a client's token (429 with Retry-After beyond; 0 none). Default: 100 with
                    --hosted, none otherwise. Processes on one --database-url count each other
                    and each lets a client through at its share
  --max-connections <n>
                    sandbox: connections one client (or address without a client's token) may
                    have a request open on, per process; beyond, 429 (0 none). Default: 64 with
                    --hosted, none otherwise
  --max-fault-delay <ms>
                    sandbox: milliseconds of fault delays one client may have waiting at once,
                    added up, per process; a delay beyond gets 429 (0 none). Default: 300000
                    with --hosted, none otherwise
  --admin-port <n>  with --hosted: serve /__ready and /__metrics on this port (0 picks one)
                    and not on the public one; without it they answer the operator token only
  --max-failures <n>
                    sandbox: failed authentications (401) per remote address per minute; beyond,
                    its attempts get 429 (0 none). Default: 30 with --hosted, none otherwise
  --max-entities <n>
                    sandbox: entities one sandbox may hold; a write beyond gets 400
                    naming the limit (default: 100000)
  --max-sandboxes <n>
                    sandbox with --hosted: sandboxes one client may hold; the first write of
                    one more gets 400 naming the limit (0 none; default: 200)
  --answer-cache <MiB>
                    sandbox: memory for read answers kept to answer the same read again
                    while nothing it read has changed (0 none; default: 32)
  --collection-cache <MiB>
                    sandbox with --database-url: collections (as JSON) kept parsed in this
                    process, so that gets and lists of collections read again are answered
                    here, without a round trip (0 none; default: 64)
  --max-upload-bytes <n>
                    sandbox: bytes of uploaded files (photos, logos; decoded) one sandbox
                    may hold; an upload beyond gets 400 naming the limit (default: 52428800)
  --max-sandbox-bytes <n>
                    sandbox: bytes one sandbox may store: documents, meta and uploads as JSON,
                    and the tokens of its logins; a write or login beyond gets 400 naming the
                    limit (0 none). Default: 67108864 with --hosted, none otherwise
  --token-lifetime <s>
                    sandbox: expires_in of tokens from POST /auth/token (default: 3600)
  --watch           reload the bundles when they change
  --spec-dir <dir>  folder with payroll.json and journal.json (default: @payroll-api/spec/dist)
  --payroll <file>  payroll bundle (overrides --spec-dir)
  --journal <file>  journal bundle (overrides --spec-dir)
  --max-body <n>    largest request body in bytes, for every endpoint (API, /__sandbox,
                    /__operator, /auth/token); larger ones get 413 (default: 5242880)
  --max-snapshot-body <n>
                    sandbox: largest body of a snapshot import or scenario in bytes; larger
                    ones get 413 (default: 268435456; 33554432 with --hosted)
  --cors-origin <origin>
                    an origin browsers may call from (https://app.example.com); repeat it for
                    several. Default: any origin
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

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

function duration(name: string, value: string): number {
  if (value === '0') return 0;
  const match = /^(\d+)([dhms])$/.exec(value);
  if (!match || Number(match[1]) === 0) fail(`${name} must be a duration such as 30d, 12h, 90m or 45s (or 0 for never), not '${value}'`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

export async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        examples: { type: 'boolean' },
        dynamic: { type: 'boolean' },
        data: { type: 'string' },
        'database-url': { type: 'string' },
        'token-lifetime': { type: 'string' },
        hosted: { type: 'boolean' },
        'operator-token': { type: 'string' },
        'sandbox-ttl': { type: 'string' },
        'rate-limit': { type: 'string' },
        'max-failures': { type: 'string' },
        'max-connections': { type: 'string' },
        'max-fault-delay': { type: 'string' },
        'admin-port': { type: 'string' },
        'max-entities': { type: 'string' },
        'max-sandboxes': { type: 'string' },
        'answer-cache': { type: 'string' },
        'collection-cache': { type: 'string' },
        'max-upload-bytes': { type: 'string' },
        'max-sandbox-bytes': { type: 'string' },
        watch: { type: 'boolean' },
        'spec-dir': { type: 'string' },
        payroll: { type: 'string' },
        journal: { type: 'string' },
        'max-body': { type: 'string' },
        'max-snapshot-body': { type: 'string' },
        verbose: { type: 'boolean' },
        'cors-origin': { type: 'string', multiple: true },
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
  // --dynamic only means something for examples, so it implies --examples.
  const examples = (values.examples ?? false) || (values.dynamic ?? false);
  const dynamic = values.dynamic ?? (env === 'true' || env === '1');
  if (examples) {
    for (const name of ['data', 'database-url', 'token-lifetime', 'hosted', 'operator-token', 'sandbox-ttl', 'rate-limit', 'max-entities', 'max-upload-bytes', 'max-sandbox-bytes', 'answer-cache', 'collection-cache', 'max-snapshot-body', 'max-failures', 'max-connections', 'max-fault-delay', 'admin-port'] as const) if (values[name] !== undefined) fail(`--${name} is a sandbox option; it cannot be combined with --examples`);
  }
  if (values.data !== undefined && values['database-url'] !== undefined) fail('--data and --database-url exclude each other (PostgreSQL keeps the data itself)');
  if (values['database-url'] !== undefined && !/^postgres(ql)?:\/\//.test(values['database-url'])) fail(`--database-url must be a postgres:// URL, not '${values['database-url'].replace(/:[^:@/]*@/, ':***@')}'`);
  const options: MockOptions = {
    mode: examples ? 'examples' : 'sandbox',
    port: port === undefined || port === '' ? 4010 : integer(values.port !== undefined ? '--port' : 'PORT', port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    dynamic: examples && dynamic,
    watch: values.watch ?? false,
    verbose: values.verbose ?? false,
  };
  if (values['spec-dir']) options.specDir = values['spec-dir'];
  if (values.payroll) options.payrollSpec = values.payroll;
  if (values.journal) options.journalSpec = values.journal;
  if (values.data !== undefined) options.dataDir = values.data;
  if (values['database-url'] !== undefined) options.databaseUrl = values['database-url'];
  if (values['token-lifetime'] !== undefined) options.tokenLifetimeSeconds = integer('--token-lifetime', values['token-lifetime'], 1, 31_536_000);
  const operatorToken = values['operator-token'] ?? (process.env.PAYROLL_MOCK_OPERATOR_TOKEN || undefined);
  if (operatorToken !== undefined && !/^[\w-]{16,}$/.test(operatorToken)) fail('--operator-token must be at least 16 letters, digits, _ or - (a bearer token)');
  if (values.hosted && operatorToken === undefined) fail('--hosted needs --operator-token (or PAYROLL_MOCK_OPERATOR_TOKEN): the operator creates the clients integrators log in with');
  if (!examples) {
    options.hosted = values.hosted ?? false;
    if (operatorToken !== undefined) options.operatorToken = operatorToken;
  }
  if (values['rate-limit'] !== undefined) options.rateLimit = integer('--rate-limit', values['rate-limit'], 0, 1_000_000);
  if (values['max-failures'] !== undefined) options.maxFailures = integer('--max-failures', values['max-failures'], 0, 1_000_000);
  if (values['max-connections'] !== undefined) options.maxConnections = integer('--max-connections', values['max-connections'], 0, 1_000_000);
  if (values['max-fault-delay'] !== undefined) options.maxFaultDelayMs = integer('--max-fault-delay', values['max-fault-delay'], 0, 86_400_000);
  if (values['admin-port'] !== undefined) {
    if (!values.hosted) fail('--admin-port moves /__ready and /__metrics off the public port of a hosted sandbox; it needs --hosted');
    options.adminPort = integer('--admin-port', values['admin-port'], 0, 65535);
  }
  if (values['max-sandboxes'] !== undefined) {
    if (!values.hosted) fail('--max-sandboxes limits the sandboxes of each client of a hosted sandbox; it needs --hosted');
    options.maxSandboxes = integer('--max-sandboxes', values['max-sandboxes'], 0, 1_000_000);
  }
  if (values['max-entities'] !== undefined) options.maxEntities = integer('--max-entities', values['max-entities'], 1, 1_000_000_000);
  if (values['answer-cache'] !== undefined) options.answerCacheBytes = integer('--answer-cache', values['answer-cache'], 0, 65_536) * 1024 * 1024;
  if (values['collection-cache'] !== undefined) {
    if (values['database-url'] === undefined) fail('--collection-cache keeps collections read from PostgreSQL; it needs --database-url');
    options.collectionCacheBytes = integer('--collection-cache', values['collection-cache'], 0, 65_536) * 1024 * 1024;
  }
  if (values['max-upload-bytes'] !== undefined) options.maxUploadBytes = integer('--max-upload-bytes', values['max-upload-bytes'], 0, Number.MAX_SAFE_INTEGER);
  if (values['max-sandbox-bytes'] !== undefined) options.maxSandboxBytes = integer('--max-sandbox-bytes', values['max-sandbox-bytes'], 0, Number.MAX_SAFE_INTEGER);
  if (values['sandbox-ttl'] !== undefined) options.sandboxTtlMs = duration('--sandbox-ttl', values['sandbox-ttl']);
  if (values['cors-origin'] !== undefined) {
    for (const origin of values['cors-origin']) if (!/^https?:\/\/[^/\s]+$/.test(origin)) fail(`--cors-origin must be an origin such as https://app.example.com (scheme and host, no path), not '${origin}'`);
    options.corsOrigins = values['cors-origin'];
  }
  if (values['max-body']) options.maxBodyBytes = integer('--max-body', values['max-body'], 1, 1024 * 1024 * 1024);
  if (values['max-snapshot-body'] !== undefined) options.maxSnapshotBytes = integer('--max-snapshot-body', values['max-snapshot-body'], 1, 256 * 1024 * 1024);

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
  if (running.adminUrl) process.stderr.write(`payroll-mock: /__ready and /__metrics on ${running.adminUrl}\n`);
  process.stderr.write(`payroll-mock: payroll base_url ${running.payrollBaseUrl}, journal ${running.journalBaseUrl}${examples ? (options.dynamic ? ', examples mode with dynamic responses' : ', examples mode') : `, sandbox mode (${options.databaseUrl ? 'PostgreSQL' : options.dataDir ? `kept in ${options.dataDir}` : 'in memory'}; OAuth at ${running.url}/auth/token)`}${options.watch ? ', watching the bundles' : ''}\n`);

  let closing = false;
  /** Stops accepting, lets the requests in flight finish (8 s at most), closes the store (the
   * pool) and exits with `code`; whatever still hangs after 9.5 s is cut, inside an
   * orchestrator's 10 s. */
  const stop = (code: number) => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(code), 9_500);
    force.unref();
    void running.close(8_000).then(() => process.exit(code));
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  // After an uncaught error the process is in a state nobody knows: it serves no new request,
  // finishes the ones in flight and exits non-zero, so that its supervisor (the container's
  // restart policy) starts a fresh one.
  const crashed = (error: unknown) => {
    process.stderr.write(`payroll-mock: uncaught error, stopping (exit 1): ${(error as Error)?.stack ?? error}\n`);
    stop(1);
  };
  process.on('uncaughtException', crashed);
  process.on('unhandledRejection', crashed);
}
