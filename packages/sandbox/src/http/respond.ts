// Stage 5, respond: one of two responders answers a request that passed the contract layer,
// the examples responder (Prism, examples.ts) or the sandbox (../sandbox/engine). What they
// share is here: the headers of a success answer and csv/xlsx downloads built from list rows.
import type { SandboxRequest } from './request.js';
import { buildCsv, buildXlsx, contentDisposition } from './export.js';
import { CSV, XLSX, type Operation } from './spec.js';
import { deprecationHeaders } from './versions.js';
import type { Authorizer } from './authorize.js';
import type { Negotiation } from './negotiate.js';
import { expires, type Headers, type Outgoing } from './outgoing.js';
import type { Routed } from './route.js';
import type { BodyProblems, ValidRequest } from './validate.js';

/** Everything the stages before the responder found out about a request. */
export interface Exchange {
  req: SandboxRequest;
  routed: Routed;
  /** The bearer token (undefined for an operation that needs none). */
  token: string | undefined;
  negotiation: Negotiation;
  valid: ValidRequest;
  /** The caller's clock, in ms (real time in examples mode). */
  now: number;
  /** What the responder's clock found out about the caller (the sandbox's principal). */
  caller: unknown;
  /** What the responder's withClock handed on (the sandbox: the request's store transaction). */
  scope: unknown;
}

/** The caller's clock, in ms (real time in examples mode), and the caller as it knows them. */
export interface Clock {
  now: number;
  caller?: unknown;
}

/** What a fault makes of one call (the rules that draw it live in faults/). */
export interface FaultAction {
  /** Answer this status with the contract's body for it (none for 404 and 5xx). */
  status?: number;
  /** Wait this many milliseconds before answering (also before an error). */
  delayMs?: number;
  /** Fail at the network level: the server drops the connection, MSW answers a network error. */
  networkError?: boolean;
  /** Retry-After in seconds for 429 and 503 (default 1). */
  retryAfterSeconds?: number;
}

export interface Responder {
  /** Who a token is (the sandbox's principal), or the answer that refuses it (e.g. an expired one). */
  identify(token: string | undefined): Promise<{ caller?: unknown } | Outgoing>;
  /**
   * Runs the rest of a request with the caller's clock. The sandbox runs it in one transaction of
   * the caller's sandbox (a write's unless `write` is false), handed on as `scope`: the clock, the
   * authorization and the operation read one state, and a remote store opens it once, with the
   * reads the operation (`routed`) names before it runs (see Handler.reads).
   */
  withClock(caller: unknown, write: boolean, rest: (clock: Clock, scope: unknown) => Promise<Outgoing>, routed?: Routed): Promise<Outgoing>;
  respond(exchange: Exchange): Promise<Outgoing>;
  /** The responder's rules of a request body beyond its schema, reported with the schema's problems (the sandbox's create rules). */
  bodyProblems?: BodyProblems;
  /** The authorization decision (the sandbox); without it every authenticated call may proceed. */
  authorize?: Authorizer['authorize'];
  /** Requests outside the descriptions' paths this responder serves (control endpoints, OAuth):
   * undefined at once for a path none of them has, so that an API call waits for nothing here. */
  serveOther?(req: SandboxRequest, pathname: string): Promise<Outgoing | undefined> | undefined;
  /** Whether a fault rule of the caller's sandbox applies to calls of an operation, read in the
   * call's own transaction (`scope`), so that a call no rule applies to costs nothing more (sandbox only). */
  faultsFor?(scope: unknown, operationId: string): Promise<boolean>;
  /** The fault the rules of the caller's sandbox draw for one call of an operation, in a write of
   * its own: every process on one store draws from the same rules (sandbox only). */
  drawFault?(caller: unknown, operationId: string): Promise<FaultAction | undefined>;
  /** Whether a one-off answer of the caller's sandbox waits for a call of an operation, read in
   * the call's own transaction after its authorization (sandbox only). */
  answersFor?(scope: unknown, operationId: string): Promise<boolean>;
  /** The one-off answer given to one call of an operation, taken in a write of its own (every
   * process on one store counts the same answers); undefined when none is left (sandbox only). */
  takeAnswer?(caller: unknown, operationId: string): Promise<Outgoing | undefined>;
  close?(): Promise<void>;
}

/** Deprecation, Sunset and Expires of a success answer. */
export function successHeaders(operation: Operation, negotiation: Negotiation, now: number): Headers {
  const headers: Headers = {};
  const { choice } = negotiation;
  if (choice) Object.assign(headers, deprecationHeaders(choice.version, choice.deprecatedSince));
  headers.Expires = expires(operation, now);
  return headers;
}

/** A csv or xlsx download of list rows, as X-ReportInput asks (contract 4.1). */
export async function download(operation: Operation, negotiation: Negotiation, status: number, items: Record<string, unknown>[], headers: Headers): Promise<Outgoing> {
  const { negotiated, report, choice } = negotiation;
  if (negotiated.kind !== 'export' || !report) throw new Error('download() needs an export negotiation');
  const base = report.fileNameWithoutExtension ?? operation.operationId;
  const suffix = choice ? `;version=${choice.version.version}` : '';
  if (negotiated.format === 'csv') {
    return {
      status,
      headers: { ...headers, 'Content-Type': `${CSV}${suffix};charset=utf-8`, 'Content-Disposition': contentDisposition(base, 'csv') },
      body: buildCsv(items, report),
    };
  }
  return {
    status,
    headers: { ...headers, 'Content-Type': `${XLSX}${suffix}`, 'Content-Disposition': contentDisposition(base, 'xlsx') },
    body: await buildXlsx(items, report, base),
  };
}
