// Stage 1, route: the address and method to one operation of the loaded descriptions, or the
// answer that ends the request there (CORS preflight 204, 404 without body, 405 with Allow,
// a path parameter that is not valid percent-encoding).
import type { SandboxRequest } from './request.js';
import { message } from './errors.js';
import { matchRoute, type LoadedApi, type Operation } from './spec.js';
import { badRequest, type Outgoing } from './outgoing.js';

export interface Routed {
  method: string;
  pathname: string;
  query: URLSearchParams;
  operation: Operation;
  /** The path after the API's base path (what the description's templates match). */
  routedPath: string;
}

/** The request's path alone (no query parsed); undefined for a request target that is not a path. */
export function pathnameOf(rawUrl: string): string | undefined {
  if (!rawUrl.startsWith('/')) return undefined;
  const q = rawUrl.indexOf('?');
  return q < 0 ? rawUrl : rawUrl.slice(0, q);
}

/** The request's path and query; undefined for a request target that is not a path. */
export function splitTarget(rawUrl: string): { pathname: string; query: URLSearchParams } | undefined {
  if (!rawUrl.startsWith('/')) return undefined;
  const q = rawUrl.indexOf('?');
  return { pathname: q < 0 ? rawUrl : rawUrl.slice(0, q), query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)) };
}

export function preflight(req: SandboxRequest): Outgoing | undefined {
  if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return undefined;
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Authorization, Accept, Content-Type, Prefer, X-ReportInput',
      'Access-Control-Max-Age': '600',
    },
  };
}

export function route(apis: LoadedApi[], req: SandboxRequest): Routed | Outgoing {
  const method = (req.method ?? 'GET').toLowerCase();
  const target = splitTarget(req.url ?? '/');
  if (!target) return { status: 404, headers: {} };
  let allow: string[] | undefined;
  for (const api of apis) {
    const match = matchRoute(api, target.pathname, method);
    if (match.kind === 'operation') return { method, ...target, operation: match.operation, routedPath: match.path };
    if (match.kind === 'method-not-allowed') allow ??= match.allow;
  }
  return allow ? { status: 405, headers: { Allow: allow.join(', ') } } : { status: 404, headers: {} };
}

/** Where a path template's parameters sit: their segment's index and their name, worked out once
 * per template (every request needs them, several times). */
const parameterSegments = new Map<string, ReadonlyArray<readonly [number, string]>>();

function segmentsOf(template: string): ReadonlyArray<readonly [number, string]> {
  let segments = parameterSegments.get(template);
  if (!segments) {
    segments = template.split('/').flatMap((segment, i) => {
      const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
      return name ? [[i, name] as const] : [];
    });
    parameterSegments.set(template, segments);
  }
  return segments;
}

type Decoded = { params: Readonly<Record<string, string>> } | { invalid: string };

/** A routed request's parameters, decoded once: a repeated read is routed to the same object
 * (the pipeline keeps it), so it decodes nothing again. */
const decodedOf = new WeakMap<Routed, Decoded>();

function decoded(routed: Routed): Decoded {
  let result = decodedOf.get(routed);
  if (result === undefined) {
    const values = routed.routedPath.split('/');
    const params: Record<string, string> = {};
    result = { params };
    for (const [i, name] of segmentsOf(routed.operation.path)) {
      try {
        params[name] = decodeURIComponent(values[i] ?? '');
      } catch {
        result = { invalid: name };
        break;
      }
    }
    decodedOf.set(routed, result);
  }
  return result;
}

/** Checked after authentication: a 400 for a path parameter Prism could not decode. */
export function checkPathEncoding(routed: Routed): Outgoing | undefined {
  const result = decoded(routed);
  if (!('invalid' in result)) return undefined;
  return badRequest(routed.operation, null, [message(400, `The path parameter ${result.invalid} is not valid percent-encoding.`, [result.invalid])]);
}

/** Path parameters by name, percent-decoded (call after checkPathEncoding). A new object each
 * call: handlers may add to it. */
export function pathParams(routed: Routed): Record<string, string> {
  const result = decoded(routed);
  if ('invalid' in result) throw new URIError(`The path parameter ${result.invalid} is not valid percent-encoding.`);
  return { ...result.params };
}
