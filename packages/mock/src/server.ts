// The mock: a Node HTTP server that runs every request through the contract layer's stages
// (stages/: route, authenticate, negotiate, validate) and then one of two responders: the
// sandbox (stateful, the default) or the examples responder (Prism's examples, --examples).
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { envelope, message } from './errors.js';
import { createSandbox } from './sandbox/engine/sandbox.js';
import type { ResourceModule } from './sandbox/engine/types.js';
import { loadApi, type ApiName, type LoadedApi } from './spec.js';
import { AUTHENTICATION_HEADER, authenticate } from './stages/authenticate.js';
import { AUTHORIZATION_HEADER, authorize } from './stages/authorize.js';
import { negotiate } from './stages/negotiate.js';
import { expires, isOutgoing, json, type Outgoing } from './stages/outgoing.js';
import type { Responder } from './stages/respond.js';
import { checkPathEncoding, preflight, route, splitTarget } from './stages/route.js';
import { validate } from './stages/validate.js';

/** The health endpoint for orchestration (both modes), outside the descriptions' paths. */
export const HEALTH_PATH = '/__health';

export interface MockOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** 'sandbox' (default): answers from stored state; 'examples': from the description's examples. */
  mode?: 'sandbox' | 'examples';
  /** Examples mode: generate responses from the schemas instead of serving the examples. */
  dynamic?: boolean;
  /** Sandbox: keep the sandboxes in this directory across restarts (memory store). */
  dataDir?: string;
  /** Sandbox: store every sandbox in this PostgreSQL database (shared by several processes). */
  databaseUrl?: string;
  /** Sandbox: lifetime of access tokens issued by POST /auth/token, in seconds. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** Sandbox: the resource modules answering the operations (default: the sandbox's own, one
   * handler for every operation of both descriptions); for embedding and for tests. */
  resources?: ResourceModule[];
  /** Reload the bundles when they change on disk. */
  watch?: boolean;
  /** Folder holding payroll.json and journal.json. Default: the dist folder of @payroll-api/spec. */
  specDir?: string;
  /** Payroll bundle (overrides specDir). */
  payrollSpec?: string;
  /** Journal bundle (overrides specDir). */
  journalSpec?: string;
  /** Largest accepted request body in bytes; larger bodies get 413. Default 5 MiB. */
  maxBodyBytes?: number;
  /** Log every request to `log`. */
  verbose?: boolean;
  /** Where diagnostics go (reloads, warnings, request log). Default: standard error. */
  log?: (line: string) => void;
}

export interface Mock {
  /** Handles one request; usable inside another Node HTTP server. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  /** Loads (again) the bundles from disk; keeps the previous ones when a bundle is unreadable. */
  reload(): Promise<void>;
  /** The operations currently served, per API. */
  operations(): Array<{ api: ApiName; operationId: string; method: string; path: string }>;
  /** The path prefix requests to an API start with (its first server URL's path), when loaded. */
  basePath(api: ApiName): string | undefined;
  /** Stops watching. */
  dispose(): void;
  /** Stops watching and closes the sandbox's store. */
  close(): Promise<void>;
}

export interface RunningMock {
  /** Root address, e.g. http://127.0.0.1:4010. */
  url: string;
  port: number;
  /** The payroll API's base_url (host followed by /v2): append the contract's /v2/... paths. */
  payrollBaseUrl: string;
  /** Address the journal paths (/providers/...) follow. */
  journalBaseUrl: string;
  mock: Mock;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
const EXPOSED = `Content-Type, Content-Disposition, Deprecation, Sunset, Expires, Allow, ${AUTHORIZATION_HEADER}, ${AUTHENTICATION_HEADER}`;

function defaultSpecDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist');
}

/** The date (yyyy-MM-dd, UTC) of a clock reading in ms. */
const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

export function createMock(options: MockOptions = {}): Mock {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const mode = options.mode ?? (options.dynamic ? 'examples' : 'sandbox');
  const specDir = options.specDir ?? (options.payrollSpec && options.journalSpec ? '' : defaultSpecDir());
  const files: Record<ApiName, string> = {
    payroll: options.payrollSpec ?? path.join(specDir, 'payroll.json'),
    journal: options.journalSpec ?? path.join(specDir, 'journal.json'),
  };
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let apis: LoadedApi[] = [];
  const loaded = new Map<ApiName, LoadedApi>();
  let responder: Responder | undefined;

  async function reload(): Promise<void> {
    for (const name of ['payroll', 'journal'] as const) {
      const file = files[name];
      if (!fs.existsSync(file)) {
        if (!loaded.has(name)) log(`payroll-mock: ${file} does not exist; the ${name} API is not served (build it with the spec package's bundle script)`);
        continue;
      }
      try {
        const api = await loadApi(name, file);
        const before = loaded.get(name);
        loaded.set(name, api);
        if (before) log(`payroll-mock: reloaded ${name} (${api.operations.length} operations)`);
      } catch (error) {
        log(`payroll-mock: could not load ${file}: ${(error as Error).message}${loaded.has(name) ? ' (serving the previous version)' : ''}`);
      }
    }
    apis = (['payroll', 'journal'] as const).map((n) => loaded.get(n)).filter((a): a is LoadedApi => a !== undefined);
    if (apis.length === 0) throw new Error(`no API description could be loaded (looked for ${files.payroll} and ${files.journal})`);
    if (!responder) {
      responder =
        mode === 'examples'
          ? // Prism's mocker is loaded in examples mode only: it adds seconds to the start-up.
            (await import('./stages/examples.js')).examplesResponder({ dynamic: options.dynamic ?? false, log })
          : await createSandbox({
              apis: () => apis,
              dataDir: options.dataDir,
              databaseUrl: options.databaseUrl,
              tokenLifetimeSeconds: options.tokenLifetimeSeconds,
              modules: options.resources,
              log,
            });
    }
  }

  const watchers: fs.FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (options.watch) {
    const dirs = new Map<string, Set<string>>();
    for (const file of Object.values(files)) {
      const dir = path.dirname(path.resolve(file));
      if (!dirs.has(dir)) dirs.set(dir, new Set());
      dirs.get(dir)?.add(path.basename(file));
    }
    for (const [dir, names] of dirs) {
      try {
        watchers.push(
          fs.watch(dir, (_event, filename) => {
            if (filename && !names.has(filename.toString())) return;
            clearTimeout(timer);
            timer = setTimeout(() => void reload().catch((e: Error) => log(`payroll-mock: ${e.message}`)), 150);
          }),
        );
      } catch (error) {
        log(`payroll-mock: cannot watch ${dir}: ${(error as Error).message}`);
      }
    }
  }

  function health(): Outgoing {
    return json(200, { status: 'ok', mode, apis: apis.map((api) => ({ name: api.name, operations: api.operations.length })) }, { 'Cache-Control': 'no-store' });
  }

  /** The stages: route, authenticate, authorize (sandbox), negotiate, validate, respond. */
  async function respond(req: http.IncomingMessage): Promise<Outgoing> {
    const active = responder;
    if (!active) throw new Error('the mock has not loaded its descriptions (call reload() first)');
    const target = splitTarget(req.url ?? '/');
    if (target?.pathname === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) return health();
    const pre = preflight(req);
    if (pre) return pre;
    if (target && active.serveOther) {
      const other = await active.serveOther(req, target.pathname, target.query);
      if (other) return other;
    }

    const routed = route(apis, req);
    if (isOutgoing(routed)) return routed;
    const auth = authenticate(routed.operation, req);
    if ('refusal' in auth) {
      log(`payroll-mock: 401 ${req.method} ${target?.pathname ?? ''}: ${auth.refusal.detail} (${AUTHENTICATION_HEADER}: reason=${auth.refusal.reason})`);
      return auth.out;
    }
    const badPath = checkPathEncoding(routed);
    if (badPath) return badPath;
    const clock = await active.clock(auth.token);
    if (isOutgoing(clock)) return clock;
    const authorized = await authorize(active, routed, clock.caller, clock.now);
    if (isOutgoing(authorized)) return authorized;
    const negotiation = negotiate(routed.operation, req, dayOf(clock.now));
    if (isOutgoing(negotiation)) return negotiation;
    const valid = await validate(routed, req, negotiation, maxBody);
    if (isOutgoing(valid)) return valid;
    return active.respond({ req, routed, token: auth.token, negotiation, valid, now: clock.now, caller: authorized.caller });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = options.verbose ? process.hrtime.bigint() : 0n;
    let out: Outgoing;
    try {
      out = await respond(req);
    } catch (error) {
      log(`payroll-mock: ${req.method} ${req.url}: ${(error as Error).stack ?? error}`);
      out = json(500, envelope(null, [message(500, 'The mock failed to handle this request.', [], 'Exception')]));
    }
    if (res.headersSent || res.destroyed) return;
    res.statusCode = out.status;
    res.setHeader('Access-Control-Allow-Origin', typeof req.headers.origin === 'string' ? req.headers.origin : '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    if (req.headers.origin) res.setHeader('Vary', 'Origin');
    if (out.status !== 204 && out.headers.Expires === undefined) res.setHeader('Expires', expires(undefined));
    for (const [name, value] of Object.entries(out.headers)) res.setHeader(name, value);
    if (out.body !== undefined) res.setHeader('Content-Length', Buffer.byteLength(out.body));
    else if (out.status !== 204) res.setHeader('Content-Length', 0);
    res.end(out.body);
    if (options.verbose) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${req.method} ${req.url} -> ${out.status} (${ms.toFixed(1)} ms)`);
    }
  }

  return {
    handle,
    reload,
    operations: () => apis.flatMap((api) => api.operations.map((o) => ({ api: api.name, operationId: o.operationId, method: o.method.toUpperCase(), path: o.path }))),
    basePath: (name) => loaded.get(name)?.basePath,
    dispose() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
    async close() {
      this.dispose();
      const active = responder;
      responder = undefined;
      await active?.close?.();
    },
  };
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const mock = createMock(options);
  try {
    await mock.reload();
  } catch (error) {
    await mock.close();
    throw error;
  }
  const server = http.createServer((req, res) => void mock.handle(req, res));
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${shown}:${port}`;
  return {
    url,
    port,
    payrollBaseUrl: `${url}/v2`,
    journalBaseUrl: `${url}${mock.basePath('journal') ?? '/journal'}`,
    mock,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => void mock.close().then(() => resolve()));
        server.closeAllConnections();
      }),
  };
}
