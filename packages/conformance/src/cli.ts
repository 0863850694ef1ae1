// Command line of the payroll-conformance bin: `run` checks a server, `proxy` checks the
// traffic of an application. Exit code 0 when nothing failed, 1 on any failure, 2 on bad usage.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { passwordGrant, refreshTokenGrant } from '@payroll-api/client';
import { progressLine, consoleSummary } from './report/console.js';
import { junitReport } from './report/junit.js';
import { markdownReport } from './report/markdown.js';
import type { RunSummary } from './findings.js';
import { runConformance } from './run.js';
import { startProxy } from './proxy.js';

const USAGE = `Usage:
  payroll-conformance run --payroll-url <base_url> --journal-url <host> (--token <t> | OAuth options) [options]
  payroll-conformance proxy --target <url> [--port <p>] [options]

run: checks a running server against the description, every operation at every served
resource version. Read-only (GETs only) unless --allow-writes is given.
  --payroll-url <url>      the payroll base_url: host followed by /v2 (paths begin with /v2 too)
  --journal-url <url>      the journal host (paths begin with /journal)
  --token <t>              bearer token (or $PAYROLL_TOKEN)
  --auth-url <url>         OAuth2: token service address ({auth_url}; tokens at {auth_url}/token)
  --client-id <id>         OAuth2 client_Id
  --client-secret <s>      OAuth2 client_secret (or $PAYROLL_CLIENT_SECRET)
  --username <u>           OAuth2 password grant user
  --password <p>           OAuth2 password grant password (or $PAYROLL_PASSWORD)
  --refresh-token <t>      OAuth2 refresh token grant instead of the password grant
  --allow-writes           also send POST, PUT, PATCH and DELETE and run the stateful sequences
  --read-only              GETs only (the default)
  --stateless              the server keeps no state (the examples mock): no 404 and paging
                           echo checks, no sequences
  --max-requests <n>       stop after n requests (default 5000)
  --rps <n>                at most n requests per second (default 0: no limit)
  --seed <n>               seed of the generated requests (default 1); the same seed repeats a run
  --param <name=value>     a path parameter value, e.g. --param wageModelId=<uuid> (repeatable)
  --operation <id>         only this operation (activity name; repeatable)
  --report-dir <dir>       write report.md, junit.xml and report.json there
  --markdown <file>        write the markdown report
  --junit <file>           write JUnit XML
  --json <file>            write the JSON report
  --payroll-spec <file>    payroll bundle to check against (default: @payroll-api/spec)
  --journal-spec <file>    journal bundle to check against
  --strict-properties      report every property of an answer that the schema of the served
                           version does not name (undeclared-property); on by default when the
                           server is the reference sandbox (it answers GET /__sandbox/sandboxes)
  --no-strict-properties   do not, even against the sandbox
  --quiet                  no progress lines

proxy: forwards traffic to --target unchanged and reports every exchange that breaks the
description at the version the server served. Stop it with Ctrl-C; reports are written then.
  --target <url>           the server to forward to
  --port <n>               port to listen on (default 4030)
  --host <addr>            interface to bind (default 127.0.0.1)
  --report-dir, --markdown, --junit, --json, --payroll-spec, --journal-spec,
  --strict-properties, --no-strict-properties, --quiet as above
`;

class UsageError extends Error {}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, not '${value}'`);
  return Number(value);
}

function writeReports(values: Record<string, unknown>, summary: RunSummary): void {
  const dir = values['report-dir'] as string | undefined;
  const targets: Array<[string | undefined, () => string]> = [
    [(values.markdown as string | undefined) ?? (dir && path.join(dir, 'report.md')), () => markdownReport(summary)],
    [(values.junit as string | undefined) ?? (dir && path.join(dir, 'junit.xml')), () => junitReport(summary)],
    [(values.json as string | undefined) ?? (dir && path.join(dir, 'report.json')), () => `${JSON.stringify(summary, null, 2)}\n`],
  ];
  for (const [file, render] of targets) {
    if (!file) continue;
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(file, render());
  }
}

const OPTIONS = {
  'payroll-url': { type: 'string' },
  'journal-url': { type: 'string' },
  token: { type: 'string' },
  'auth-url': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  username: { type: 'string' },
  password: { type: 'string' },
  'refresh-token': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  stateless: { type: 'boolean' },
  'max-requests': { type: 'string' },
  rps: { type: 'string' },
  seed: { type: 'string' },
  param: { type: 'string', multiple: true },
  operation: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  markdown: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  'payroll-spec': { type: 'string' },
  'journal-spec': { type: 'string' },
  quiet: { type: 'boolean' },
  'strict-properties': { type: 'boolean' },
  'no-strict-properties': { type: 'boolean' },
  target: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function tokenOption(values: Record<string, unknown>): string | (() => Promise<string>) {
  const token = (values.token as string | undefined) ?? process.env.PAYROLL_TOKEN;
  if (token) return token;
  const authUrl = values['auth-url'] as string | undefined;
  const clientId = values['client-id'] as string | undefined;
  if (!authUrl || !clientId) throw new UsageError('give --token (or $PAYROLL_TOKEN), or --auth-url and --client-id with --username/--password or --refresh-token');
  const common = { authUrl, clientId, clientSecret: (values['client-secret'] as string | undefined) ?? process.env.PAYROLL_CLIENT_SECRET };
  const refreshToken = values['refresh-token'] as string | undefined;
  const session = refreshToken
    ? refreshTokenGrant({ ...common, refreshToken })
    : passwordGrant({ ...common, username: String(values.username ?? ''), password: (values.password as string | undefined) ?? process.env.PAYROLL_PASSWORD ?? '' });
  return () => session.getToken();
}

/** --strict-properties or --no-strict-properties; undefined leaves it to whether the server is the sandbox. */
function strictPropertiesOption(values: Record<string, unknown>): boolean | undefined {
  if (values['strict-properties'] && values['no-strict-properties']) throw new UsageError('--strict-properties and --no-strict-properties exclude each other');
  if (values['strict-properties']) return true;
  if (values['no-strict-properties']) return false;
  return undefined;
}

export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  try {
    const [command, ...rest] = argv;
    const { values } = parseArgs({ args: rest, options: OPTIONS, strict: true, allowPositionals: false });
    if (values.help || command === undefined || command === '--help' || command === '-h') {
      out.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command === 'run') {
      if (values['allow-writes'] && values['read-only']) throw new UsageError('--allow-writes and --read-only exclude each other');
      const params: Record<string, string> = {};
      for (const pair of values.param ?? []) {
        const at = pair.indexOf('=');
        if (at <= 0) throw new UsageError(`--param takes name=value, not '${pair}'`);
        params[pair.slice(0, at)] = pair.slice(at + 1);
      }
      for (const name of ['payroll-url', 'journal-url'] as const) {
        const value = values[name];
        if (value !== undefined && !/^https?:\/\/[^/\s]+/.test(value)) throw new UsageError(`--${name} must be an http(s) URL, not '${value}'`);
      }
      const summary = await runConformance({
        payrollUrl: values['payroll-url'],
        journalUrl: values['journal-url'],
        token: tokenOption(values),
        allowWrites: values['allow-writes'] === true,
        stateful: values.stateless !== true,
        maxRequests: integer('--max-requests', values['max-requests'], 5000),
        rps: integer('--rps', values.rps, 0),
        seed: integer('--seed', values.seed, 1),
        params,
        operations: values.operation,
        payrollSpec: values['payroll-spec'],
        journalSpec: values['journal-spec'],
        strictProperties: strictPropertiesOption(values),
        onCase: values.quiet ? undefined : (result, done) => err.write(`${progressLine(result, done)}\n`),
      });
      out.write(consoleSummary(summary));
      writeReports(values, summary);
      return summary.failures === 0 && !summary.stoppedEarly ? 0 : 1;
    }
    if (command === 'proxy') {
      if (!values.target || !/^https?:\/\/[^/\s]+/.test(values.target)) throw new UsageError('proxy needs --target <http(s) URL>');
      const proxy = await startProxy({
        target: values.target,
        port: integer('--port', values.port, 4030),
        host: values.host,
        payrollSpec: values['payroll-spec'],
        journalSpec: values['journal-spec'],
        strictProperties: strictPropertiesOption(values),
        onCase: values.quiet ? undefined : (result) => err.write(`${progressLine(result, 0)}\n`),
      });
      out.write(`payroll-conformance proxy listening on ${proxy.url}, forwarding to ${values.target}\n`);
      const summary = await new Promise<RunSummary>((resolve) => {
        const stop = () => void proxy.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      out.write(consoleSummary(summary));
      writeReports(values, summary);
      return summary.failures === 0 ? 0 : 1;
    }
    throw new UsageError(`unknown command '${command}' (run or proxy)`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err.write(`payroll-conformance: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    err.write(`payroll-conformance: ${(error as Error).message}\n`);
    return 2;
  }
}
