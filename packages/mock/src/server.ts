// The mock: a Node HTTP server that runs every request through the contract layer's stages
// (the pipeline of @payroll-api/sandbox: route, authenticate, negotiate, validate) and then one
// of two responders: the sandbox (stateful, the default) or the examples responder (Prism's
// examples, --examples).
import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  createPipeline,
  createSandboxResponder,
  envelope,
  corsHeaders,
  json,
  HEALTH_PATH,
  lookupAccessToken,
  ACCESS_PREFIX,
  message,
  loadApi,
  pathnameOf,
  REQUEST_ID_HEADER,
  requestIdOf,
  type ApiName,
  type LoadedApi,
  type Outgoing,
  type Responder,
  type ResourceModule,
} from '@payroll-api/sandbox/engine';
import { createRateLimiter, rateLimitHeaders } from './rate-limit.js';
import { createMetrics, METRICS_PATH, type Metrics } from './metrics.js';
import { fromNodeRequest, type BodyCap } from './node-request.js';
import { createJsonThread } from './json-thread.js';
import { createStore, sandboxCount, type OperatedStore } from './store/index.js';
import { limitSandboxes, uploadCollections } from './store/limits.js';
import { joinInstances, type Instances } from './store/instances.js';
import { snapshotBytes } from './store/stored-bytes.js';
import { sweepIdleSandboxes } from './idle-sweep.js';

export { HEALTH_PATH, METRICS_PATH };

/** Readiness for orchestrators: 200 once the descriptions are loaded and the store answers. */
export const READY_PATH = '/__ready';

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
  /** Sandbox: a shared service: only tokens the token endpoint issued to clients the operator
   * created; every sandbox belongs to one client. Needs operatorToken. */
  hosted?: boolean;
  /** Sandbox: serves /__operator/* (clients, sandboxes) to callers with this bearer token. */
  operatorToken?: string;
  /** Sandbox: a sandbox not used for this long (not written, and no token of it issued or
   * refreshed; an unused refresh token lives this long) is removed with its tokens (back to the
   * seed); 0 never. Default: 30 days with hosted or on PostgreSQL, never otherwise. */
  sandboxTtlMs?: number;
  /** Requests per second one client may make, whichever of its tokens it uses (hosted; else one
   * bearer token), and one remote address without a client's token (429 with Retry-After
   * beyond); 0 no limit. Default: 100 with hosted, no limit otherwise. On PostgreSQL the
   * processes sharing the database are counted, and each holds its share of the limit. */
  rateLimit?: number;
  /** Connections one client (or remote address, without a client's token) may have a request
   * open on in this process; beyond, 429 naming --max-connections. 0 no limit. Default: 64 with
   * hosted, no limit otherwise. */
  maxConnections?: number;
  /** Milliseconds of fault delays (X-Sandbox-Fault delay=, a rule's delayMs) one client may have
   * waiting at once in this process, added up; a delay beyond gets 429 naming
   * --max-fault-delay. 0 no limit. Default: 300000 with hosted, no limit otherwise. */
  maxFaultDelayMs?: number;
  /** Hosted: serve /__metrics and /__ready on this port (0 picks one) instead of the public one,
   * where they then answer 404; without it they answer the operator's token only. */
  adminPort?: number;
  /** Failed authentications (401: wrong client secrets, operator tokens, unknown tokens) one
   * remote address may make per minute; beyond, its attempts get 429 until the minute has
   * refilled. 0 no limit. Default: 30 with hosted, no limit otherwise. */
  maxFailures?: number;
  /** Sandbox: entities one sandbox may hold (a write beyond is refused, 400). Default 100,000. */
  maxEntities?: number;
  /** Hosted: sandboxes one client may hold; the first write of one more is refused (400). 0 no
   * limit. Default: 200 with hosted. */
  maxSandboxes?: number;
  /** Sandbox: bytes of read answers kept to answer the same read again (0 none). Default 32 MiB. */
  answerCacheBytes?: number;
  /** Sandbox on PostgreSQL: bytes (as JSON) of the collections kept parsed in this process for
   * the lists of reads (0 none). Default 64 MiB. */
  collectionCacheBytes?: number;
  /** Sandbox: bytes of uploaded files (photos, logos; decoded) one sandbox may hold (a write
   * beyond is refused, 400). Default 50 MiB. */
  maxUploadBytes?: number;
  /** Sandbox: bytes one sandbox may store (documents, meta and uploads as JSON, and the token rows
   * of its logins); a write or login beyond is refused (400). 0 no limit. Default: 64 MiB with
   * hosted, no limit otherwise. */
  maxSandboxBytes?: number;
  /** Largest accepted request body in bytes, for every endpoint (API, control, operator, token);
   * larger bodies get 413 naming --max-body. Default 5 MiB. */
  maxBodyBytes?: number;
  /** Sandbox: largest snapshot import or scenario body in bytes (PUT /__sandbox/snapshot, POST
   * /__sandbox/scenario); larger ones get 413 naming --max-snapshot-body. Default: 256 MiB, 32 MiB
   * with hosted. */
  maxSnapshotBytes?: number;
  /** Origins a browser may call the mock from (CORS); undefined: any. */
  corsOrigins?: string[];
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
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Answers /__ready and /__metrics (the admin port's server), and 404 to anything else. */
  monitor(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
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
  /** The admin port's root address (--admin-port), when there is one. */
  adminUrl?: string;
  /** Stops accepting connections, lets the requests in flight finish (at most `graceMs`, default
   * 8 s; then their connections are cut), then closes the store. */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
const DEFAULT_MAX_SNAPSHOT = 256 * 1024 * 1024;
const DEFAULT_HOSTED_MAX_SNAPSHOT = 32 * 1024 * 1024;
/** The control requests whose bodies are whole sandboxes, under their own cap. */
const SNAPSHOT_BODIES = new Set(['PUT /__sandbox/snapshot', 'POST /__sandbox/scenario']);
const DEFAULT_TTL_MS = 30 * 86_400_000;
const DEFAULT_HOSTED_RATE = 100;
const DEFAULT_HOSTED_MAX_FAILURES = 30;
const DEFAULT_HOSTED_MAX_CONNECTIONS = 64;
const DEFAULT_HOSTED_MAX_FAULT_DELAY_MS = 300_000;
/** How long the client behind a token is remembered for rate accounting. */
const CALLER_MEMORY_MS = 10_000;
const DEFAULT_MAX_ENTITIES = 100_000;
const DEFAULT_HOSTED_MAX_SANDBOXES = 200;
const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** The heap of the snapshot parse (json-thread.ts): megabytes per MiB of the largest body, at least MIN_PARSE_HEAP_MB. */
const PARSE_HEAP_MB_PER_BODY_MIB = 16;
const MIN_PARSE_HEAP_MB = 256;
/** Twice the largest hosted snapshot import, about 45 seeds. */
const DEFAULT_HOSTED_MAX_SANDBOX_BYTES = 64 * 1024 * 1024;

function defaultSpecDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist');
}

export function createMock(options: MockOptions = {}): Mock {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const mode = options.mode ?? (options.dynamic ? 'examples' : 'sandbox');
  const specDir = options.specDir ?? (options.payrollSpec && options.journalSpec ? '' : defaultSpecDir());
  const files: Record<ApiName, string> = {
    payroll: options.payrollSpec ?? path.join(specDir, 'payroll.json'),
    journal: options.journalSpec ?? path.join(specDir, 'journal.json'),
  };
  const ttl = options.sandboxTtlMs ?? (options.databaseUrl !== undefined || options.hosted ? DEFAULT_TTL_MS : 0);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const bodyCap: BodyCap = { limit: maxBody, setting: '--max-body' };
  const snapshotLimit = options.maxSnapshotBytes ?? (options.hosted ? DEFAULT_HOSTED_MAX_SNAPSHOT : DEFAULT_MAX_SNAPSHOT);
  // Snapshot bodies are parsed on a worker thread, whose heap is bounded by the cap.
  const jsonThread = createJsonThread({ maxHeapMb: Math.max(MIN_PARSE_HEAP_MB, Math.ceil(snapshotLimit / 1048576) * PARSE_HEAP_MB_PER_BODY_MIB), setting: '--max-snapshot-body' });
  const snapshotCap: BodyCap = { limit: snapshotLimit, setting: '--max-snapshot-body', parseJson: (bytes) => jsonThread.parse(bytes) };
  /** The cap of a request's body: a snapshot's, or the one every other endpoint shares. */
  const capOf = (req: http.IncomingMessage) => (SNAPSHOT_BODIES.has(`${req.method} ${pathnameOf(req.url ?? '')}`) ? snapshotCap : bodyCap);
  let apis: LoadedApi[] = [];
  const loaded = new Map<ApiName, LoadedApi>();
  let responder: Responder | undefined;
  let store: OperatedStore | undefined;
  const metrics: Metrics = createMetrics({ sandboxes: async () => (store ? sandboxCount(store) : 0), cachedBytes: () => store?.cachedBytes?.() ?? 0 });
  let inFlight = 0;
  const rate = options.rateLimit ?? (options.hosted ? DEFAULT_HOSTED_RATE : 0);
  /** The processes on this database (counted once the store is open); one without a database. */
  let instances: Instances | undefined;
  const sharedBy = () => instances?.count() ?? 1;
  const limiter = rate > 0 ? createRateLimiter(rate, rate, sharedBy) : undefined;
  const maxConnections = options.maxConnections ?? (options.hosted ? DEFAULT_HOSTED_MAX_CONNECTIONS : 0);
  const maxFaultDelay = options.maxFaultDelayMs ?? (options.hosted ? DEFAULT_HOSTED_MAX_FAULT_DELAY_MS : 0);
  /** Per caller (callerOf's key): the requests open, and the fault delays waiting (ms). */
  const open = new Map<string, number>();
  const delaying = new Map<string, number>();
  const callerOfRequest = new WeakMap<object, string>();
  /** Adds `by` to `key`'s figure in `figures`, forgetting it at 0 (the maps stay as small as what is open). */
  const count = (figures: Map<string, number>, key: string, by: number) => {
    const now = (figures.get(key) ?? 0) + by;
    if (now <= 0) figures.delete(key);
    else figures.set(key, now);
  };
  const operatorDigest = options.operatorToken === undefined ? undefined : createHash('sha256').update(options.operatorToken).digest();
  /** Whether the request carries the operator's token (compared in constant time). */
  const fromOperator = (token: string | undefined) => token !== undefined && operatorDigest !== undefined && timingSafeEqual(createHash('sha256').update(token).digest(), operatorDigest);
  const maxFailures = options.maxFailures ?? (options.hosted ? DEFAULT_HOSTED_MAX_FAILURES : 0);
  const failures = maxFailures > 0 ? createRateLimiter(maxFailures / 60, maxFailures) : undefined;
  const callers = new Map<string, { key: string; until: number }>();

  /** What a request's rate is counted against: its client (hosted: every token of one client is
   * one caller), its token (not hosted), or its remote address when no token identifies it. */
  async function callerOf(token: string | undefined, address: string): Promise<{ key: string; identified: boolean }> {
    const byAddress = { key: `address ${address}`, identified: false };
    if (token === undefined) return byAddress;
    if (!options.hosted) return { key: `token ${token}`, identified: true };
    const now = Date.now();
    const known = callers.get(token);
    if (known && known.until > now) return { key: known.key, identified: true };
    const issued = store && token.startsWith(ACCESS_PREFIX) ? await lookupAccessToken(store, token).catch(() => undefined) : undefined;
    if (!issued || issued.expiresAt <= now) return byAddress;
    if (callers.size >= 10_000) callers.clear();
    const key = `client ${issued.clientId}`;
    callers.set(token, { key, until: Math.min(now + CALLER_MEMORY_MS, issued.expiresAt) });
    return { key, identified: true };
  }

  /** A refusal the server answers itself, in the contract's envelope: `status` with `description`. */
  function refuse(req: http.IncomingMessage, res: http.ServerResponse, started: bigint, status: number, wait: number, description: string, limitHeaders: Record<string, string> = {}): void {
    metrics.observe(undefined, status, Number(process.hrtime.bigint() - started) / 1e9);
    const body = JSON.stringify(envelope(null, [message(status, description, [], 'Exception')]));
    const requestId = requestIdOf(req.headers);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...(status === 401 ? { 'WWW-Authenticate': 'Bearer' } : { 'Retry-After': String(wait) }), 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...corsHeaders(req.headers.origin, options.corsOrigins), [REQUEST_ID_HEADER]: requestId, ...limitHeaders });
    res.end(body);
    if (options.verbose) log(`${req.method} ${req.url} -> ${status} (${REQUEST_ID_HEADER}: ${requestId})`);
  }

  function tooMany(req: http.IncomingMessage, res: http.ServerResponse, started: bigint, wait: number, description: string, limitHeaders: Record<string, string> = {}): void {
    refuse(req, res, started, 429, wait, description, limitHeaders);
  }

  async function reload(): Promise<void> {
    for (const name of ['payroll', 'journal'] as const) {
      const file = files[name];
      if (!fs.existsSync(file)) {
        if (!loaded.has(name)) log(`payroll-mock: ${file} does not exist; the ${name} API is not served (build it with the spec package's bundle script)`);
        continue;
      }
      try {
        const api = loadApi(name, JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, file);
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
            (await import('./examples.js')).examplesResponder({ dynamic: options.dynamic ?? false, log })
          : await createSandboxResponder({
              apis: () => apis,
              store: async (storeOptions) =>
                (store = limitSandboxes(
                  await createStore({ ...storeOptions, dataDir: options.dataDir, databaseUrl: options.databaseUrl, collectionCacheBytes: options.collectionCacheBytes, onError: (kind) => metrics.storeError(kind) }),
                  {
                    maxEntities: options.maxEntities ?? DEFAULT_MAX_ENTITIES,
                    maxSandboxesPerClient: options.hosted ? (options.maxSandboxes ?? DEFAULT_HOSTED_MAX_SANDBOXES) : 0,
                    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
                    stored: { maxBytes: options.maxSandboxBytes ?? (options.hosted ? DEFAULT_HOSTED_MAX_SANDBOX_BYTES : 0), seedBytes: snapshotBytes(storeOptions.seed) },
                    uploadCollections: uploadCollections(storeOptions.collections, apis),
                  },
                )),
              tokenLifetimeSeconds: options.tokenLifetimeSeconds,
              refreshTokenLifetimeMs: ttl > 0 ? ttl : undefined,
              modules: options.resources,
              hosted: options.hosted,
              operatorToken: options.operatorToken,
              answerCacheBytes: options.answerCacheBytes,
              log,
            });
      if (mode === 'sandbox') startSweeping();
      if (mode === 'sandbox' && options.databaseUrl && rate > 0) instances = await joinInstances(options.databaseUrl, log);
    }
  }

  /** Removes the sandboxes idle for the time to live, now and then (idle-sweep.ts). */
  let sweeper: NodeJS.Timeout | undefined;
  function startSweeping(): void {
    if (ttl <= 0) return;
    const sweep = async () => {
      if (!store) return;
      try {
        await sweepIdleSandboxes(store, ttl);
      } catch (error) {
        log(`payroll-mock: removing idle sandboxes failed: ${(error as Error).message}`);
      }
    };
    void sweep();
    sweeper = setInterval(() => void sweep(), Math.max(1_000, Math.min(ttl / 4, 3_600_000)));
    sweeper.unref();
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

  const routedTo = new WeakMap<object, string | undefined>();
  const pipeline = createPipeline({
    apis: () => apis,
    responder: () => responder,
    mode,
    maxBodyBytes: maxBody,
    corsOrigins: options.corsOrigins,
    log,
    observe: (req, _out, operationId) => routedTo.set(req, operationId),
    holdDelay: maxFaultDelay > 0 ? holdDelay : undefined,
  });

  /** Holds a fault's delay for the request's caller, unless the delays it holds would pass --max-fault-delay. */
  function holdDelay(req: object, ms: number): (() => void) | Outgoing {
    const key = callerOfRequest.get(req);
    if (key === undefined) return () => undefined;
    const held = delaying.get(key) ?? 0;
    if (held + ms > maxFaultDelay) {
      const description = `The fault delays this caller has waiting would add up to more than ${maxFaultDelay} ms (the limit --max-fault-delay); retry once some have passed.`;
      return json(429, envelope(null, [message(429, description, [], 'Exception')]), { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) });
    }
    count(delaying, key, ms);
    return () => count(delaying, key, -ms);
  }

  const isMonitoring = (req: http.IncomingMessage) => {
    const pathname = pathnameOf(req.url ?? '');
    return (pathname === READY_PATH || pathname === METRICS_PATH) && (req.method === 'GET' || req.method === 'HEAD');
  };

  /** /__ready and /__metrics: answered by the server, before the pipeline. */
  async function operations(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    if (!isMonitoring(req)) return false;
    const pathname = pathnameOf(req.url ?? '');
    let status = 200;
    let type = 'application/json; charset=utf-8';
    let body: string;
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if (pathname === METRICS_PATH) {
      type = metrics.contentType;
      body = await metrics.text();
    } else {
      try {
        if (!responder) throw new Error('the descriptions are not loaded');
        await store?.ping?.();
        body = JSON.stringify({ status: 'ready', mode, store: options.databaseUrl ? 'postgresql' : 'memory' });
      } catch (error) {
        status = 503;
        headers['Retry-After'] = '2';
        body = JSON.stringify({ status: 'unavailable', reason: (error as Error).message });
      }
    }
    res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: requestIdOf(req.headers) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    inFlight++;
    try {
      await answer(req, res);
    } finally {
      inFlight--;
    }
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    // Hosted, the monitoring endpoints show every tenant's figures: on the public port they
    // answer the operator only, or nobody when the admin port serves them.
    const monitoring = isMonitoring(req);
    if (monitoring && !options.hosted && (await operations(req, res))) return;
    const address = req.socket.remoteAddress ?? 'unknown';
    const token = /^Bearer\s(\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const operator = (req.url ?? '').startsWith('/__operator') || monitoring;
    const caller = limiter || failures || maxConnections > 0 || maxFaultDelay > 0 ? await callerOf(operator ? undefined : token, address) : undefined;
    if (failures && caller && !caller.identified) {
      const wait = failures.wait(address);
      if (wait > 0) return tooMany(req, res, started, wait, `Too many failed authentications from this address (more than ${maxFailures} a minute, the limit --max-failures); retry after ${wait} s.`);
    }
    if (monitoring && options.adminPort === undefined) {
      if (fromOperator(token)) {
        await operations(req, res);
        return;
      }
      failures?.take(address);
      return refuse(req, res, started, 401, 0, 'The monitoring endpoints answer the operator token only (or serve them on --admin-port).');
    }
    // The operator's endpoints are not rate limited: wrong operator tokens are failures.
    const limited = limiter && caller && !operator ? caller.key : undefined;
    const wait = limited !== undefined ? limiter!.take(limited) : 0;
    // The one place the rate limit's header fields are made: on every answer the limit applies to.
    const limitHeaders = limited !== undefined ? rateLimitHeaders(rate, wait > 0 ? { remaining: 0, resetSeconds: wait } : limiter!.left(limited), sharedBy()) : {};
    const who = caller?.identified ? (options.hosted ? 'This client' : 'This token') : 'This address (without a token of a client)';
    if (wait > 0) return tooMany(req, res, started, wait, `${who} made more than ${rate} requests per second (the limit --rate-limit); retry after ${wait} s.`, limitHeaders);
    const held = maxConnections > 0 && caller && !operator ? caller.key : undefined;
    if (held !== undefined && (open.get(held) ?? 0) >= maxConnections) {
      return tooMany(req, res, started, 1, `${who} has ${maxConnections} connections with a request open here (the limit --max-connections); retry once one is answered.`, limitHeaders);
    }
    const cap = capOf(req);
    const request = Object.assign(fromNodeRequest(req, cap), { cap: cap.limit });
    if (caller) callerOfRequest.set(request, caller.key);
    if (held !== undefined) count(open, held, 1);
    let out;
    try {
      out = await pipeline(request);
    } finally {
      if (held !== undefined) count(open, held, -1);
    }
    metrics.observe(routedTo.get(request), out === 'network-error' ? 'dropped' : out.status, Number(process.hrtime.bigint() - started) / 1e9);
    if (failures && out !== 'network-error' && out.status === 401) failures.take(address);
    if (res.headersSent || res.destroyed) return;
    if (out === 'network-error') {
      // A fault asked for a dropped connection: no status line at all.
      req.socket.destroy();
      if (options.verbose) log(`${req.method} ${req.url} -> connection dropped (fault)`);
      return;
    }
    if (out.status === 413) dropRest(req, res, request.cap);
    const length = out.body !== undefined ? (typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.byteLength) : out.status !== 204 ? 0 : undefined;
    // One writeHead rather than a setHeader per field: this runs for every answer. The pipeline's
    // answer is a new object each time, so its headers take the server's own in place.
    const headers: Record<string, string | number | string[]> = Object.assign(out.headers, limitHeaders);
    if (length !== undefined) headers['Content-Length'] = length;
    res.writeHead(out.status, headers);
    res.end(out.body);
    if (options.verbose) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${req.method} ${req.url} -> ${out.status} (${ms.toFixed(1)} ms, ${REQUEST_ID_HEADER}: ${out.headers[REQUEST_ID_HEADER]})`);
    }
  }

  return {
    handle,
    reload,
    operations: () => apis.flatMap((api) => api.operations.map((o) => ({ api: api.name, operationId: o.operationId, method: o.method.toUpperCase(), path: o.path }))),
    basePath: (name) => loaded.get(name)?.basePath,
    get inFlight() {
      return inFlight;
    },
    async monitor(req, res) {
      if (await operations(req, res)) return;
      res.writeHead(404, { 'Content-Length': 0, 'Cache-Control': 'no-store' }).end();
    },
    dispose() {
      clearTimeout(timer);
      clearInterval(sweeper);
      for (const w of watchers) w.close();
    },
    async close() {
      this.dispose();
      const active = responder;
      responder = undefined;
      await instances?.close();
      await jsonThread.close();
      await active?.close?.();
    },
  };
}

/** Bytes of a refused body read and dropped at least (see dropRest). */
const DROPPED_AT_LEAST = 4 * 1024 * 1024;

/**
 * After a 413 the rest of the body is read and dropped, up to the cap or 4 MiB, whichever is
 * more, so that the client, still sending, gets the answer rather than a reset connection; a
 * body beyond that loses its connection.
 */
function dropRest(req: http.IncomingMessage, res: http.ServerResponse, cap: number): void {
  if (req.complete) return;
  res.removeHeader('Connection');
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > Math.max(cap, DROPPED_AT_LEAST)) req.socket.destroy();
  });
  req.resume();
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const mock = createMock(options);
  try {
    await mock.reload();
  } catch (error) {
    await mock.close();
    throw error;
  }
  let closing = false;
  const answering = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (closing) res.shouldKeepAlive = false;
    answering.add(res);
    res.once('close', () => answering.delete(res));
    mock.handle(req, res).catch((error: unknown) => {
      // A failure outside the pipeline's own handling: this request fails, the process serves on.
      process.stderr.write(`payroll-mock: ${req.method} ${req.url}: ${(error as Error)?.stack ?? error}\n`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' }).end(JSON.stringify(envelope(null, [message(500, 'The mock failed to handle this request.', [], 'Exception')])));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 4010, host);
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${shown}:${port}`;
  // The monitoring endpoints on a port of their own, for the orchestrator and the scraper only.
  const admin = options.adminPort === undefined ? undefined : http.createServer((req, res) => void mock.monitor(req, res).catch(() => res.destroy()));
  const adminPort = admin && (await listen(admin, options.adminPort!, host).catch(async (error: unknown) => {
    server.close();
    await mock.close();
    throw error;
  }));
  return {
    url,
    port,
    ...(admin ? { adminUrl: `http://${shown}:${adminPort}` } : {}),
    payrollBaseUrl: `${url}/v2`,
    journalBaseUrl: `${url}${mock.basePath('journal') ?? '/journal'}`,
    mock,
    close: (graceMs = 8_000) =>
      new Promise<void>((resolve) => {
        closing = true;
        // Answers still to come close their connection; idle keep-alive connections go now.
        for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
        admin?.close();
        admin?.closeAllConnections();
        server.close(() => void mock.close().then(() => resolve()));
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        cut.unref();
      }),
  };
}

/** Listens on `port` of `host` (0 picks a free one); the port taken. */
async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
