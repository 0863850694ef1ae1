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

/** Checked after authentication: a 400 for a path parameter Prism could not decode. */
export function checkPathEncoding(routed: Routed): Outgoing | undefined {
  const names = routed.operation.path.split('/');
  const values = routed.routedPath.split('/');
  for (let i = 0; i < names.length; i++) {
    const name = /^\{([^}]+)\}$/.exec(names[i] ?? '')?.[1];
    if (!name) continue;
    try {
      decodeURIComponent(values[i] ?? '');
    } catch {
      return badRequest(routed.operation, null, [message(400, `The path parameter ${name} is not valid percent-encoding.`, [name])]);
    }
  }
  return undefined;
}

/** Path parameters by name, percent-decoded (call after checkPathEncoding). */
export function pathParams(routed: Routed): Record<string, string> {
  const names = routed.operation.path.split('/');
  const values = routed.routedPath.split('/');
  const params: Record<string, string> = {};
  names.forEach((segment, i) => {
    const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
    if (name) params[name] = decodeURIComponent(values[i] ?? '');
  });
  return params;
}
