// The request pipeline every transport shares: route, authenticate, fault, authorize, a one-off
// answer, negotiate, validate, respond; then the headers every answer carries (CORS, Expires). The
// Node server, sandbox.fetch and the MSW handlers all run this one function, so they answer
// alike byte for byte.
import { dayOf } from '../util/dates.js';
import { envelope, message } from '../http/errors.js';
import { AUTHENTICATION_HEADER, authenticate } from '../http/authenticate.js';
import { AUTHORIZATION_HEADER, authorize } from '../http/authorize.js';
import { negotiate, type Negotiation } from '../http/negotiate.js';
import { expires, isOutgoing, json, type Outgoing } from '../http/outgoing.js';
import type { Responder } from '../http/respond.js';
import type { SandboxRequest } from '../http/request.js';
import { checkPathEncoding, pathnameOf, preflight, route, type Routed } from '../http/route.js';
import type { LoadedApi, Operation } from '../http/spec.js';
import { validate, type BodyProblems, type ValidRequest } from '../http/validate.js';
import { FAULT_HEADER, FaultProblem, faultAnswer, parseFaultHeader, type FaultAction } from '../faults/faults.js';
import { isStoreUnavailable } from '../store/types.js';
import { SandboxError } from '../domain/context.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id.js';

/** The health endpoint for orchestration (both modes), outside the descriptions' paths. */
export const HEALTH_PATH = '/__health';

/** Headers a browser may read from answers (CORS). */
export const EXPOSED_HEADERS = `Content-Type, Content-Disposition, Deprecation, Sunset, Expires, Allow, Retry-After, ${REQUEST_ID_HEADER}, RateLimit, RateLimit-Policy, ${AUTHORIZATION_HEADER}, ${AUTHENTICATION_HEADER}`;

export interface PipelineOptions {
  /** The descriptions served now (they may be reloaded). */
  apis: () => LoadedApi[];
  /** The responder answering requests that passed the contract layer. */
  responder: () => Responder | undefined;
  mode: 'sandbox' | 'examples';
  maxBodyBytes: number;
  log: (line: string) => void;
  /** Waits `ms` (tests may pass a fake). Default: setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Whether `req` may wait out a fault's delay of `ms` now (a server bounds what one caller
   * holds): what to call once it has waited, or the answer that refuses it. Default: always. */
  holdDelay?: (req: SandboxRequest, ms: number) => (() => void) | Outgoing;
  /** The origins a browser may call from (CORS); undefined: any (local work). */
  corsOrigins?: readonly string[];
  /** Told of every answer with the operation it routed to, if any (metrics). */
  observe?: (req: SandboxRequest, result: PipelineResult, operationId: string | undefined) => void;
}

/** An answer, or the instruction to fail the connection (a network error). */
export type PipelineResult = Outgoing | 'network-error';

/** Answers of the stages that follow from the request alone (route; negotiate and validate, with
 * the date), kept for reads without a body so that a read repeated is not worked out again.
 * Valid for one set of descriptions; bounded, oldest out. */
class StageMemo<V> {
  private readonly entries = new Map<string, V>();
  private scope: unknown;

  constructor(private readonly limit: number) {}

  get(key: string, scope: unknown): V | undefined {
    if (scope !== this.scope) {
      this.entries.clear();
      this.scope = scope;
    }
    return this.entries.get(key);
  }

  keep(key: string, value: V): V {
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }
}

/** The CORS headers of an answer to a request from `origin`: any origin without an allow-list,
 * else the listed ones only (another origin's browser may not read the answer). */
export function corsHeaders(origin: string | undefined, allowed: readonly string[] | undefined): Record<string, string> {
  const allow = allowed === undefined ? (origin ?? '*') : origin !== undefined && allowed.includes(origin) ? origin : undefined;
  return allow === undefined ? {} : { 'Access-Control-Allow-Origin': allow, 'Access-Control-Expose-Headers': EXPOSED_HEADERS };
}

/** Whether every %-escape of a path decodes (the control and operator endpoints decode their ids). */
function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const isBodilessRead = (req: SandboxRequest) =>
  (req.method === 'GET' || req.method === 'HEAD') && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;

/** What a call's transaction hands back, compared by identity, when a fault rule applies to it. */
const RULES_APPLY: Outgoing = { status: 0, headers: {} };
/** What a call's transaction hands back, compared by identity, when a one-off answer waits for it. */
const ANSWER_WAITS: Outgoing = { status: 0, headers: {} };
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPipeline(options: PipelineOptions): (req: SandboxRequest) => Promise<PipelineResult> {
  const sleep = options.sleep ?? defaultSleep;
  const routes = new StageMemo<ReturnType<typeof route>>(2000);
  const checked = new StageMemo<Outgoing | { negotiation: Negotiation; valid: ValidRequest }>(2000);

  /** Negotiate, then validate (a bodiless read's result kept for the same request on the same date). */
  async function negotiateAndValidate(req: SandboxRequest, routed: Routed, day: string, apis: LoadedApi[], bodyProblems: BodyProblems | undefined) {
    const key = isBodilessRead(req) ? `${routed.operation.operationId}\n${req.url}\n${day}\n${JSON.stringify(req.headers)}` : undefined;
    const kept = key === undefined ? undefined : checked.get(key, apis);
    if (kept) return kept;
    const keep = (result: Outgoing | { negotiation: Negotiation; valid: ValidRequest }) => (key === undefined ? result : checked.keep(key, result));
    const negotiation = negotiate(routed.operation, req, day);
    if (isOutgoing(negotiation)) return keep(negotiation);
    const valid = await validate(routed, req, negotiation, options.maxBodyBytes, bodyProblems);
    return keep(isOutgoing(valid) ? valid : { negotiation, valid });
  }

  function health(): Outgoing {
    const apis = options.apis();
    return json(200, { status: 'ok', mode: options.mode, apis: apis.map((api) => ({ name: api.name, operations: api.operations.length })) }, { 'Cache-Control': 'no-store' });
  }

  /** The fault the X-Sandbox-Fault header asks for, or the answer that refuses the header. */
  function headerFault(req: SandboxRequest): FaultAction | Outgoing | undefined {
    const header = req.headers[FAULT_HEADER.toLowerCase()];
    if (header === undefined) return undefined;
    try {
      return parseFaultHeader(header);
    } catch (error) {
      if (!(error instanceof FaultProblem)) throw error;
      return json(400, envelope(null, [message(400, error.message, [error.property])]));
    }
  }

  /** A fault's delay waited out (outside any transaction: it must not hold one, nor a write's
   * lock), then its answer; undefined when the call goes on. */
  async function applyFault(req: SandboxRequest, operation: Operation, action: FaultAction | undefined): Promise<PipelineResult | undefined> {
    if (!action) return undefined;
    if (action.delayMs) {
      const held = options.holdDelay?.(req, action.delayMs);
      if (held !== undefined && typeof held !== 'function') return held;
      try {
        await sleep(action.delayMs);
      } finally {
        held?.();
      }
    }
    return faultAnswer(operation, action);
  }

  async function respond(req: SandboxRequest, routedTo: { operationId?: string }, requestId: string): Promise<PipelineResult> {
    const active = options.responder();
    if (!active) throw new Error('the descriptions are not loaded yet');
    const pathname = pathnameOf(req.url);
    if (pathname === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) return health();
    const pre = preflight(req);
    if (pre) return pre;
    if (pathname !== undefined && active.serveOther) {
      if (pathname.startsWith('/__') && !decodable(pathname)) {
        return json(400, envelope(null, [message(400, 'The path is not valid percent-encoding (a % must start a UTF-8 sequence such as %C3%A9).', ['path'])]));
      }
      const serving = active.serveOther(req, pathname);
      const other = serving && (await serving);
      if (other) return other;
    }
    const apis = options.apis();
    const routeKey = isBodilessRead(req) ? `${req.method} ${req.url}` : undefined;
    const routed = routeKey === undefined ? route(apis, req) : (routes.get(routeKey, apis) ?? routes.keep(routeKey, route(apis, req)));
    if (isOutgoing(routed)) return routed;
    routedTo.operationId = routed.operation.operationId;
    const auth = authenticate(routed.operation, req);
    if ('refusal' in auth) {
      options.log(`payroll-mock: 401 ${req.method} ${pathname ?? ''}: ${auth.refusal.detail} (${AUTHENTICATION_HEADER}: reason=${auth.refusal.reason}; ${REQUEST_ID_HEADER}: ${requestId})`);
      return auth.out;
    }
    const badPath = checkPathEncoding(routed);
    if (badPath) return badPath;
    const identified = await active.identify(auth.token);
    if (isOutgoing(identified)) return identified;
    const asked = headerFault(req);
    if (isOutgoing(asked)) return asked;
    const faulted = await applyFault(req, routed.operation, asked);
    if (faulted) return faulted;
    const { operationId } = routed.operation;
    const write = routed.operation.method !== 'get' && routed.operation.method !== 'head';
    // The body is in hand before the transaction opens: a slow or vanished client never holds
    // its sandbox's writers up (the read is kept for validate).
    await req.readBody(options.maxBodyBytes);
    // The sandbox's fault rules are read with the call's own transaction; when one applies, the
    // call leaves it, draws (a write of its own), waits and answers outside it, or goes on anew.
    const rules = asked === undefined && active.faultsFor !== undefined && active.drawFault !== undefined;
    // A one-off answer is looked for after authorization, in the same way: taken in a write of
    // its own, or, when another call took the last one meanwhile, the call goes on anew.
    const oneOff = active.answersFor !== undefined && active.takeAnswer !== undefined;
    let answered = await operate(active, req, routed, auth.token, identified.caller, write, apis, rules, oneOff);
    if (answered === RULES_APPLY) {
      const drawn = await applyFault(req, routed.operation, await active.drawFault!(identified.caller, operationId));
      if (drawn) return drawn;
      answered = await operate(active, req, routed, auth.token, identified.caller, write, apis, false, oneOff);
    }
    if (answered !== ANSWER_WAITS) return answered;
    return (await active.takeAnswer!(identified.caller, operationId)) ?? operate(active, req, routed, auth.token, identified.caller, write, apis, false, false);
  }

  /** The call in the caller's transaction: authorize, negotiate, validate, respond; RULES_APPLY
   * (and nothing done) when `rules` and a fault rule of the sandbox applies to the operation;
   * ANSWER_WAITS (once authorized, nothing done) when `oneOff` and a one-off answer waits for it. */
  function operate(active: Responder, req: SandboxRequest, routed: Routed, token: string | undefined, caller: unknown, write: boolean, apis: LoadedApi[], rules: boolean, oneOff: boolean): Promise<Outgoing> {
    return active.withClock(caller, write, async (clock, scope) => {
      if (rules && (await active.faultsFor!(scope, routed.operation.operationId))) return RULES_APPLY;
      const authorized = await authorize(active, routed, clock.caller, clock.now, scope);
      if (isOutgoing(authorized)) return authorized;
      if (oneOff && (await active.answersFor!(scope, routed.operation.operationId))) return ANSWER_WAITS;
      const checks = await negotiateAndValidate(req, routed, dayOf(clock.now), apis, active.bodyProblems);
      if (isOutgoing(checks)) return checks;
      const { negotiation, valid } = checks;
      return active.respond({ req, routed, token, negotiation, valid, now: clock.now, caller: authorized.caller, scope });
    }, routed);
  }

  return async function handle(req) {
    let out: PipelineResult;
    const routedTo: { operationId?: string } = {};
    const requestId = requestIdOf(req.headers);
    try {
      out = await respond(req, routedTo, requestId);
    } catch (error) {
      if (isStoreUnavailable(error)) {
        // An outage, not a bug: the client may retry; nothing of the request was applied.
        out = json(503, envelope(null, [message(503, 'The sandbox is temporarily unavailable (its storage cannot be reached); retry later.', [], 'Exception')]), {
          'Retry-After': String(error.retryAfterSeconds),
        });
      } else if (error instanceof SandboxError) {
        // A store's limit refused the request before any handler ran (the number of sandboxes).
        out = json(error.status, envelope(null, error.messages));
      } else {
        options.log(`payroll-mock: ${req.method} ${req.url} (${REQUEST_ID_HEADER}: ${requestId}): ${(error as Error).stack ?? error}`);
        out = json(500, envelope(null, [message(500, 'The mock failed to handle this request.', [], 'Exception')]));
      }
    }
    options.observe?.(req, out, routedTo.operationId);
    if (out === 'network-error') return out;
    const origin = req.headers.origin;
    // One object, filled in order (this runs for every answer): the stage's own fields last, so
    // that they win.
    const headers: Outgoing['headers'] = corsHeaders(origin, options.corsOrigins);
    // Answers hold personal data: never sniffed as another type, never kept by a cache.
    headers['X-Content-Type-Options'] = 'nosniff';
    headers['Cache-Control'] = 'no-store';
    headers[REQUEST_ID_HEADER] = requestId;
    if (origin) headers.Vary = 'Origin';
    if (out.status !== 204 && out.headers.Expires === undefined) headers.Expires = expires(undefined);
    return { status: out.status, headers: Object.assign(headers, out.headers), body: out.body };
  };
}
