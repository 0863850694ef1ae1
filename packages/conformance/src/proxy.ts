// Proxy mode: forwards an application's traffic to the server unchanged and checks every
// exchange against the description at the resource version the server actually served (the
// version= of the response's media type, else the envelope's version object) — what a generic
// OpenAPI proxy cannot do for versioned media types.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkExchange, versionParamOf } from './checks.js';
import { loadDescriptions, type ApiDescription, type OperationSpec } from './description.js';
import type { CaseResult, Finding, RunSummary } from './findings.js';
import { failed } from './findings.js';
import { curlOf, parseBody, type Exchange } from './http.js';
import { bodyContent } from './plan/requests.js';
import { SchemaValidator } from './schemas.js';
import { strictnessFor, type Strictness } from './strictness.js';

export interface ProxyOptions {
  /** The server to forward to (scheme://host:port); requests keep their path and query. */
  target: string;
  port?: number;
  host?: string;
  payrollSpec?: string;
  journalSpec?: string;
  /** Report properties an answer holds that its version's schema does not name. Default: on when the target is the reference sandbox, off otherwise. */
  strictProperties?: boolean;
  /** Called for every exchange checked (findings empty when it conforms). */
  onCase?: (result: CaseResult) => void;
  timeoutMs?: number;
}

export interface RunningProxy {
  url: string;
  port: number;
  /** What was seen so far, as a run summary. */
  summary(): RunSummary;
  close(): Promise<RunSummary>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'content-encoding']);

interface Route {
  api: ApiDescription;
  operation: OperationSpec;
  pattern: RegExp;
}

/** Routes with fewer parameters first, so that a literal segment wins over a parameter. */
function routesOf(apis: ApiDescription[]): Route[] {
  const params = (r: Route) => (r.operation.path.match(/\{/g) ?? []).length;
  return apis.flatMap((api) =>
    api.operations.map((operation) => ({
      api,
      operation,
      pattern: new RegExp(`^${api.basePath}${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
    })),
  ).sort((a, b) => params(a) - params(b));
}

function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const apis = loadDescriptions({ payroll: options.payrollSpec, journal: options.journalSpec });
  const validator = new SchemaValidator(apis);
  const routes = routesOf(apis);
  const cases: CaseResult[] = [];
  const startedAt = new Date().toISOString();
  let requests = 0;
  // Asked of the target once, with the first exchange and its token (the target may start after the proxy).
  let strictness: Promise<Strictness> | undefined;
  let decided: Strictness = { strict: options.strictProperties ?? false, reason: 'not yet known' };
  const strictnessOnce = (authorization: string | undefined): Promise<Strictness> => {
    // The sandbox's control API wants a token: an exchange without one cannot tell yet.
    if (options.strictProperties === undefined && !authorization) return Promise.resolve(decided);
    return (strictness ??= strictnessFor(options.strictProperties, target.origin, async (url) => {
      const response = await fetch(url, { headers: { Accept: 'application/json', ...(authorization ? { Authorization: authorization } : {}) }, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
      return { status: response.status, json: await response.json().catch(() => undefined) };
    }).then((found) => (decided = found)));
  };

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readAll(req);
    const url = new URL(req.url ?? '/', target);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const request = { method: req.method ?? 'GET', url: url.href, headers, body: body.length > 0 ? body.toString('utf8') : undefined };
    const started = performance.now();
    let exchange: Exchange;
    let answer: { status: number; headers: Record<string, string>; bytes: Buffer };
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        body: body.length > 0 && request.method !== 'GET' && request.method !== 'HEAD' ? new Uint8Array(body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        out[name.toLowerCase()] = value;
      });
      exchange = { request, response: parseBody(response.status, out, bytes), ms: performance.now() - started };
      answer = { status: response.status, headers: out, bytes };
    } catch (error) {
      exchange = { request, error: (error as Error).message, ms: performance.now() - started };
      answer = { status: 502, headers: {}, bytes: Buffer.alloc(0) };
    }
    requests++;
    // Checked before the answer goes back, so that a case is recorded when the application has its answer.
    if (req.method !== 'OPTIONS') {
      await inspect(exchange, url.pathname, request.method.toLowerCase()).catch((error: Error) => {
        cases.push({ api: 'payroll', operationId: '', version: null, kind: 'proxied', title: `${request.method} ${url.pathname}`, findings: [{ check: 'transport', message: `the exchange could not be checked: ${error.message}`, curl: curlOf(request) }], requests: 1, ms: exchange.ms });
      });
    }
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) res.setHeader(name, value);
    res.setHeader('Content-Length', answer.bytes.length);
    res.end(answer.bytes);
  }

  async function inspect(exchange: Exchange, pathname: string, method: string): Promise<void> {
    const route = routes.find((r) => r.operation.method === method && r.pattern.test(pathname));
    if (!route) return;
    const { operation, api } = route;
    const contentType = exchange.response?.headers['content-type'] ?? '';
    const envelopeVersion = ((exchange.response?.json as { version?: { resourceVersion?: unknown } } | undefined)?.version?.resourceVersion ?? null) as string | null;
    const served = versionParamOf(contentType) ?? (typeof envelopeVersion === 'string' ? envelopeVersion : null);
    const version = operation.resource ? served : null;
    const registered = operation.resource?.versions.find((v) => v.version === version);
    const { strict } = await strictnessOnce(exchange.request.headers.authorization);
    const findings: Finding[] = checkExchange({ api, validator, strictProperties: strict }, operation, exchange, { version, obsoleteDate: registered?.obsoleteDate });
    if (operation.resource && version && !registered && exchange.response && exchange.response.status < 300) {
      findings.push({ check: 'content-type', message: `version ${version} was served, but the description serves ${operation.resource.versions.map((v) => v.version).join(', ')}`, curl: curlOf(exchange.request), status: exchange.response.status });
    }
    const requested = versionParamOf(exchange.request.headers.accept ?? '');
    if (operation.resource && requested && version && exchange.response?.status && exchange.response.status < 300) {
      const expected = operation.resource.versions.find((v) => v.version <= requested)?.version;
      if (expected && expected !== version) findings.push({ check: 'negotiation', message: `Accept asked for version=${requested}, so ${expected} (the newest on or before it) should be served, not ${version}`, curl: curlOf(exchange.request) });
    }
    const content = bodyContent(operation, versionParamOf(exchange.request.headers['content-type'] ?? '') ?? version);
    if (exchange.request.body && content?.schema && exchange.response && exchange.response.status < 300) {
      try {
        const sent = JSON.parse(exchange.request.body) as unknown;
        for (const issue of validator.validate(api.name, content.schema, sent)) {
          findings.push({ check: 'schema', message: `the request body${issue.at} ${issue.message}, yet the server accepted it`, curl: curlOf(exchange.request) });
        }
      } catch {
        findings.push({ check: 'schema', message: 'the request body is not JSON, yet the server accepted it', curl: curlOf(exchange.request) });
      }
    }
    const result: CaseResult = { api: api.name, operationId: operation.operationId, version, kind: 'proxied', title: `${exchange.request.method} ${pathname}`, findings, requests: 1, ms: exchange.ms };
    cases.push(result);
    options.onCase?.(result);
  }

  const server = http.createServer((req, res) => {
    forward(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 502;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const summary = (): RunSummary => ({
    startedAt,
    finishedAt: new Date().toISOString(),
    target: { payrollUrl: target.origin, journalUrl: target.origin },
    seed: 0,
    readOnly: false,
    strictProperties: decided,
    requests,
    cases: [...cases],
    coverage: { covered: new Set(cases.map((c) => `${c.api} ${c.operationId} ${c.version}`)).size, total: apis.reduce((n, a) => n + a.operations.length, 0), uncovered: [] },
    failures: cases.filter(failed).length,
  });
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    summary,
    close: () =>
      new Promise<RunSummary>((resolve) => {
        server.close(() => resolve(summary()));
        server.closeAllConnections();
      }),
  };
}
