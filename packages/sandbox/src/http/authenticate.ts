// Stage 2, authenticate: the contract's bearer token check (section 4.1, pattern
// ^Bearer\s[\w-]+$). Which sandbox a token reaches is the sandbox responder's business. A
// refusal keeps the contract's 401 {message} body and says why in a sandbox-only header.
import type { SandboxRequest } from './request.js';
import { UNAUTHORIZED_MESSAGE } from './errors.js';
import type { Operation } from './spec.js';
import { json, type Outgoing } from './outgoing.js';

const BEARER = /^Bearer\s([\w-]+)$/;

/** Sandbox only (not an API header): `reason=<token>` of a refused Authorization header. */
export const AUTHENTICATION_HEADER = 'X-Sandbox-Authentication';

export interface AuthenticationRefusal {
  reason: 'no-authorization-header' | 'not-bearer' | 'jwt-shaped' | 'token-characters' | 'token-not-issued-here' | 'token-unknown' | 'token-expired';
  /** One sentence for the server log. */
  detail: string;
  /** What to do instead, in the header too (a well-formed token this sandbox does not accept). */
  explain?: string;
}

/** The bearer token of a request, when it has a well-formed one. */
export function bearerToken(req: SandboxRequest): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

/** Why a request has no well-formed bearer token (undefined when it has one). */
export function authenticationRefusal(req: SandboxRequest): AuthenticationRefusal | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return { reason: 'no-authorization-header', detail: 'the request has no Authorization header' };
  if (BEARER.test(header)) return undefined;
  const scheme = /^Bearer\s(.*)$/s.exec(header);
  if (!scheme) return { reason: 'not-bearer', detail: 'the Authorization header is not "Bearer <token>"' };
  const pattern = String.raw`the contract's pattern ^Bearer\s[\w-]+$ allows letters, digits, _ and - only`;
  if (/^[\w-]+(\.[\w-]+){2}$/.test(scheme[1]!)) return { reason: 'jwt-shaped', detail: `the token has the shape of a JWT (three parts joined by dots); ${pattern}` };
  return { reason: 'token-characters', detail: `the token holds other characters; ${pattern}` };
}

export function unauthorized(refusal?: AuthenticationRefusal): Outgoing {
  const explained = refusal?.explain ? `; explain="${refusal.explain.replace(/["\\]/g, "'")}"` : '';
  return json(401, { message: UNAUTHORIZED_MESSAGE }, { 'WWW-Authenticate': 'Bearer', ...(refusal ? { [AUTHENTICATION_HEADER]: `reason=${refusal.reason}${explained}` } : {}) });
}

/** The token (undefined for an operation that needs none), or the 401 saying why. */
export function authenticate(operation: Operation, req: SandboxRequest): { token: string | undefined } | { refusal: AuthenticationRefusal; out: Outgoing } {
  const token = bearerToken(req);
  if (operation.secured && token === undefined) {
    const refusal = authenticationRefusal(req)!;
    return { refusal, out: unauthorized(refusal) };
  }
  return { token };
}
