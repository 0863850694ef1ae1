// The mock: a Node HTTP server that applies the contract's rules (addresses, bearer token,
// resource versions, error envelopes, export) around Prism, which is used as a library for
// request validation and for producing responses from examples or schemas.
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@stoplight/prism-core';
import { createInstance } from '@stoplight/prism-http';
import { envelope, message, UNAUTHORIZED_MESSAGE, violationMessages, type Message, type NameLookup, type VersionInfo } from './errors.js';
import { buildCsv, buildXlsx, contentDisposition, listItems, parseReportInput } from './export.js';
import { contentForVersion, isJsonMedia, mediaMatches, negotiate, parseAccept, requestedVersion, type RequestedVersion } from './media.js';
import { parsePreferences, PREFER_QUERY } from './prefer.js';
import type { HttpOperation, MediaContent, PrismOutput, Violation } from './prism-types.js';
import { CSV, XLSX, essence, loadApi, matchRoute, successContents, successResponse, versionParam, type ApiName, type LoadedApi, type Operation } from './spec.js';
import { deprecationHeaders, selectVersion, today, type VersionChoice } from './versions.js';

export interface MockOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Generate responses from the schemas instead of serving the examples. */
  dynamic?: boolean;
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
const BEARER = /^Bearer\s[\w-]+$/;
const EXPOSED = 'Content-Type, Content-Disposition, Deprecation, Sunset, Expires, Allow';
// Most resources are not cacheable (Expires: now); logos and photos may be cached for a day.
const LONG_CACHED = /Logo|Photo/;

type Headers = Record<string, string | number | string[]>;

interface Outgoing {
  status: number;
  headers: Headers;
  body?: Buffer | string;
}

function defaultSpecDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist');
}

function json(status: number, body: unknown, headers: Headers = {}): Outgoing {
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

function expires(operation: Operation | undefined): string {
  const ttl = operation?.method === 'get' && LONG_CACHED.test(operation.operationId) ? 86_400_000 : 0;
  return new Date(Date.now() + ttl).toUTCString();
}

/** The version object an envelope reports when no version could be negotiated (the newest served). */
function fallbackVersion(operation: Operation): VersionInfo | null {
  const newest = operation.resource?.versions[0];
  return newest ? { resourceVersion: newest.version, obsoleteDate: newest.obsoleteDate } : null;
}

/** An error answer in the contract's envelope, reporting `version` or else the newest served. */
function errorReply(status: number, operation: Operation, version: VersionInfo | null, messages: Message[], headers?: Headers): Outgoing {
  return json(status, envelope(version ?? fallbackVersion(operation), messages), headers);
}

function badRequest(operation: Operation, version: VersionInfo | null, messages: Message[]): Outgoing {
  return errorReply(400, operation, version, messages);
}

type Served = Extract<VersionChoice, { ok: true }>;

/**
 * The resource version that the `version=` of a header (Accept or Content-Type) selects:
 * undefined for an operation without versions, or the 400 that says why none is served.
 */
function versionFor(operation: Operation, header: 'Accept' | 'Content-Type', requested: RequestedVersion | undefined, reported: VersionInfo | null): Served | undefined | Outgoing {
  if (requested?.badVersion !== undefined) {
    return badRequest(operation, reported, [message(400, `The version in ${header} must be a date (yyyy-MM-dd), not '${requested.badVersion}'.`, [header])]);
  }
  if (!operation.resource) return undefined;
  const choice = selectVersion(operation.resource, requested?.version, today());
  return choice.ok ? choice : badRequest(operation, reported, [message(400, choice.reason, [header])]);
}

const isReply = (value: Served | Outgoing | undefined): value is Outgoing => value !== undefined && 'status' in value;

// Prism validates requests and produces responses; security, response validation and proxying
// are not its business here (the mock checks the bearer token itself).
const PRISM_CONFIG = { checkSecurity: false, validateRequest: true, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false };

/** Prism reports header and query names in lower case; messages use the description's spelling. */
function nameLookup(operation: Operation): NameLookup {
  const headers = new Map<string, string>([['accept', 'Accept'], ['content-type', 'Content-Type'], ['authorization', 'Authorization']]);
  for (const h of operation.prism.request?.headers ?? []) headers.set(h.name.toLowerCase(), h.name);
  const spelling = (params: Array<{ name: string }> | undefined) => {
    const names = new Map(params?.map((p) => [p.name.toLowerCase(), p.name]));
    return (name: string) => names.get(name.toLowerCase()) ?? name;
  };
  return {
    header: (name) => headers.get(name.toLowerCase()) ?? name,
    query: spelling(operation.prism.request?.query),
    path: spelling(operation.prism.request?.path),
  };
}

/** The operation narrowed to one response and one request content, so Prism cannot pick another version. */
function viewOf(operation: Operation, response: MediaContent | undefined, request: MediaContent | undefined, requestType: string | undefined): HttpOperation {
  const key = `${response?.mediaType ?? ''}\n${request?.mediaType ?? ''}\n${requestType ?? ''}`;
  let view = operation.views.get(key);
  if (view) return view;
  const prism = operation.prism;
  const success = successResponse(prism);
  view = {
    ...prism,
    responses: prism.responses.map((r) => (r === success && response ? { ...r, contents: [response] } : r)),
    request:
      prism.request && request && requestType
        ? { ...prism.request, body: { ...prism.request.body, contents: [{ ...request, mediaType: requestType }] } }
        : prism.request,
  };
  if (operation.views.size >= 64) operation.views.clear();
  operation.views.set(key, view);
  return view;
}

type BodyRead = { kind: 'empty' } | { kind: 'body'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

function readBody(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
    return Promise.resolve({ kind: 'empty' });
  }
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(size === 0 ? { kind: 'empty' } : { kind: 'body', bytes: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => finish({ kind: 'aborted' }));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function rewriteVersion(body: unknown, version: VersionInfo | null): unknown {
  if (!version || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const current = (body as Record<string, unknown>).version;
  if (!current || typeof current !== 'object') return body;
  return { ...(body as Record<string, unknown>), version: { ...version } };
}

function serialize(body: unknown, contentType: string): Buffer | string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' && !isJsonMedia(essence(contentType))) return body;
  if (Buffer.isBuffer(body)) return body;
  return JSON.stringify(body);
}

export function createMock(options: MockOptions = {}): Mock {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const specDir = options.specDir ?? (options.payrollSpec && options.journalSpec ? '' : defaultSpecDir());
  const files: Record<ApiName, string> = {
    payroll: options.payrollSpec ?? path.join(specDir, 'payroll.json'),
    journal: options.journalSpec ?? path.join(specDir, 'journal.json'),
  };
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let apis: LoadedApi[] = [];
  const loaded = new Map<ApiName, LoadedApi>();

  const prism = createInstance(
    { mock: { dynamic: false }, ...PRISM_CONFIG } as never,
    { logger: createLogger('payroll-mock', { level: 'silent' }) as never },
  );

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

  async function respond(req: http.IncomingMessage): Promise<Outgoing> {
    const method = (req.method ?? 'GET').toLowerCase();
    const rawUrl = req.url ?? '/';
    if (!rawUrl.startsWith('/')) return { status: 404, headers: {} };
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));

    if (method === 'options' && req.headers['access-control-request-method']) {
      return {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Authorization, Accept, Content-Type, Prefer, X-ReportInput',
          'Access-Control-Max-Age': '600',
        },
      };
    }

    let operation: Operation | undefined;
    let routedPath = '';
    let allow: string[] | undefined;
    for (const api of apis) {
      const match = matchRoute(api, pathname, method);
      if (match.kind === 'operation') {
        operation = match.operation;
        routedPath = match.path;
        break;
      }
      if (match.kind === 'method-not-allowed') allow ??= match.allow;
    }
    if (!operation) return allow ? { status: 405, headers: { Allow: allow.join(', ') } } : { status: 404, headers: {} };

    if (operation.secured && !BEARER.test(req.headers.authorization ?? '')) {
      return json(401, { message: UNAUTHORIZED_MESSAGE }, { 'WWW-Authenticate': 'Bearer' });
    }
    const undecodable = undecodableParam(operation.path, routedPath);
    if (undecodable) {
      return badRequest(operation, null, [message(400, `The path parameter ${undecodable} is not valid percent-encoding.`, [undecodable])]);
    }

    const prefs = parsePreferences(typeof req.headers.prefer === 'string' ? req.headers.prefer : undefined, query);
    if (!prefs.ok) return badRequest(operation, null, [message(400, prefs.description, ['Prefer'])]);

    // Response media type and resource version, from Accept.
    const acceptHeader = req.headers.accept;
    const ranges = parseAccept(acceptHeader);
    if (acceptHeader !== undefined && acceptHeader.trim() !== '' && ranges.length === 0) {
      return badRequest(operation, null, [message(400, `Accept holds no media type (e.g. application/json;version=yyyy-MM-dd): '${acceptHeader.slice(0, 100)}'.`, ['Accept'])]);
    }
    const negotiated = negotiate(ranges, successContents(operation.prism), operation.exportable);
    if (negotiated.kind === 'unacceptable') {
      return badRequest(operation, null, [
        message(400, `The media type in Accept is not offered by ${operation.operationId}; offered: ${negotiated.offered.join(', ') || 'none'}.`, ['Accept']),
      ]);
    }
    const choice = versionFor(operation, 'Accept', negotiated.range, null);
    if (isReply(choice)) return choice;
    const served = choice?.version;
    const version: VersionInfo | null = served ? { resourceVersion: served.version, obsoleteDate: served.obsoleteDate } : null;

    let responseContent: MediaContent | undefined;
    if (negotiated.kind === 'content') {
      responseContent = contentForVersion(negotiated.candidates, served?.version);
    } else if (negotiated.kind === 'export') {
      const jsonContents = successContents(operation.prism).filter((c) => isJsonMedia(essence(c.mediaType)));
      responseContent = contentForVersion(jsonContents, served?.version);
    }

    let report: ReturnType<typeof parseReportInput> | undefined;
    if (negotiated.kind === 'export') {
      const header = req.headers['x-reportinput'];
      report = parseReportInput(Array.isArray(header) ? header[0] : header);
      if (!report.ok) return badRequest(operation, version, report.messages);
    }

    // Request body: size, media type, version (from Content-Type) and JSON syntax.
    const read = await readBody(req, maxBody);
    if (read.kind === 'too-large') {
      return errorReply(413, operation, version, [message(413, `The request body exceeds the limit of ${maxBody} bytes.`, ['body'])], { Connection: 'close' });
    }
    if (read.kind === 'aborted') return { status: 400, headers: { Connection: 'close' } };
    const bodySpec = operation.prism.request?.body;
    let body: unknown;
    let requestContent: MediaContent | undefined;
    let requestType: string | undefined;
    if (read.kind === 'body' && bodySpec?.contents && bodySpec.contents.length > 0) {
      const contentType = req.headers['content-type'];
      const supported = [...new Set(bodySpec.contents.map((c) => essence(c.mediaType)))];
      if (!contentType) {
        return badRequest(operation, version, [message(400, `A request body needs a Content-Type header; supported: ${supported.join(', ')}.`, ['Content-Type'])]);
      }
      const ess = essence(contentType);
      const matching = bodySpec.contents.filter((c) => mediaMatches(essence(c.mediaType), ess));
      if (matching.length === 0) {
        return badRequest(operation, version, [message(400, `The Content-Type ${ess || contentType} is not accepted by ${operation.operationId}; supported: ${supported.join(', ')}.`, ['Content-Type'])]);
      }
      let requestVersion: string | undefined;
      if (matching.some((c) => versionParam(c.mediaType))) {
        const bodyChoice = versionFor(operation, 'Content-Type', requestedVersion(contentType), version);
        if (isReply(bodyChoice)) return bodyChoice;
        requestVersion = bodyChoice?.version.version;
      }
      requestContent = contentForVersion(matching, requestVersion);
      // Prism sees one media type per body: every JSON flavour (text/json, application/*+json) as
      // application/json, so that the set of operation views stays small whatever clients send.
      requestType = isJsonMedia(ess) ? 'application/json' : ess;
      if (isJsonMedia(ess) || (requestContent && isJsonMedia(essence(requestContent.mediaType)))) {
        let text: string;
        try {
          text = utf8.decode(read.bytes);
        } catch {
          return badRequest(operation, version, [message(400, 'The request body is not valid UTF-8 text.', ['body'])]);
        }
        try {
          body = JSON.parse(text);
        } catch (error) {
          return badRequest(operation, version, [message(400, `The request body is not valid JSON: ${(error as Error).message}.`, ['body'])]);
        }
        if (body === null && !acceptsNull(requestContent?.schema)) {
          return badRequest(operation, version, [message(400, 'The request body may not be null.', ['body'])]);
        }
      } else {
        body = read.bytes.toString('utf8');
      }
    }

    // Prism validates the request and produces the response.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'x-reportinput') continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (requestType) {
      headers['content-type'] = requestType;
      headers['content-length'] = String(read.kind === 'body' ? read.bytes.length : 0);
    } else {
      delete headers['content-type'];
      delete headers['content-length'];
      delete headers['transfer-encoding'];
    }
    const prismQuery: Record<string, string | string[]> = {};
    for (const name of new Set(query.keys())) {
      if (PREFER_QUERY.includes(name)) continue;
      const values = query.getAll(name);
      prismQuery[name] = values.length === 1 ? (values[0] as string) : values;
    }
    const view = viewOf(operation, responseContent, requestContent, requestType);
    const mediaTypes = responseContent ? [responseContent.mediaType, 'application/json;q=0.9', '*/*;q=0.1'] : ['*/*'];
    const result = await prism.request(
      { method: (method === 'head' ? 'get' : method) as never, url: { path: routedPath, query: prismQuery }, headers, body: requestType ? body : undefined },
      [view as never],
      {
        mock: { dynamic: prefs.prefer.dynamic ?? options.dynamic ?? false, code: prefs.prefer.code, exampleKey: prefs.prefer.example, seed: prefs.prefer.seed, mediaTypes },
        ...PRISM_CONFIG,
      } as never,
    )();

    if (result._tag === 'Left') {
      const error = result.left as Error & { status?: number; detail?: string; name: string };
      if (error.status === 404 || error.status === 406) {
        const what = error.status === 406 ? 'Accept' : 'Prefer';
        return badRequest(operation, version, [message(400, error.detail || error.message, [what])]);
      }
      log(`payroll-mock: ${operation.operationId}: ${error.detail || error.message}`);
      return errorReply(500, operation, version, [message(500, `The mock could not produce a response: ${error.detail || error.message}`, [], 'Exception')]);
    }
    const { output, validations } = result.right as { output: PrismOutput; validations: { input: Violation[] } };
    const errors = validations.input.filter((v) => v.severity === 0);
    if (errors.length > 0) return badRequest(operation, version, violationMessages(errors, nameLookup(operation)));

    const outHeaders: Headers = {};
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      if (value === null || value === undefined || name.toLowerCase() === 'expires' || name.toLowerCase() === 'content-type') continue;
      outHeaders[name] = String(value);
    }
    if (choice) Object.assign(outHeaders, deprecationHeaders(choice.version, choice.deprecatedSince));
    outHeaders.Expires = expires(operation);

    if (negotiated.kind === 'export' && report?.ok && output.statusCode >= 200 && output.statusCode < 300) {
      const items = listItems(output.body);
      const input = report.input;
      const base = input.fileNameWithoutExtension ?? operation.operationId;
      const suffix = served ? `;version=${served.version}` : '';
      if (negotiated.format === 'csv') {
        return {
          status: output.statusCode,
          headers: { ...outHeaders, 'Content-Type': `${CSV}${suffix};charset=utf-8`, 'Content-Disposition': contentDisposition(base, 'csv') },
          body: buildCsv(items, input),
        };
      }
      return {
        status: output.statusCode,
        headers: { ...outHeaders, 'Content-Type': `${XLSX}${suffix}`, 'Content-Disposition': contentDisposition(base, 'xlsx') },
        body: await buildXlsx(items, input, base),
      };
    }

    const contentType = (output.headers?.['Content-type'] as string | undefined) ?? (output.body === undefined ? undefined : 'application/json');
    const payload = serialize(rewriteVersion(output.body, version), contentType ?? '');
    if (contentType && payload !== undefined) outHeaders['Content-Type'] = contentType;
    return { status: output.statusCode, headers: outHeaders, body: payload };
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
  };
}

/** The name of a path parameter whose value is not valid percent-encoding (Prism would throw on it). */
function undecodableParam(template: string, path: string): string | undefined {
  const names = template.split('/');
  const values = path.split('/');
  for (let i = 0; i < names.length; i++) {
    const name = /^\{([^}]+)\}$/.exec(names[i] ?? '')?.[1];
    if (!name) continue;
    try {
      decodeURIComponent(values[i] ?? '');
    } catch {
      return name;
    }
  }
  return undefined;
}

function acceptsNull(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.some((s) => acceptsNull(s as Record<string, unknown>))) return true;
  }
  return type === undefined && !schema.properties && !schema.allOf && !schema.$ref && !schema.oneOf && !schema.anyOf;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const mock = createMock(options);
  try {
    await mock.reload();
  } catch (error) {
    mock.dispose();
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
        mock.dispose();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
