// Stage 2, authenticate: the contract's bearer token check (section 4.1, pattern
// ^Bearer\s[\w-]+$). Which sandbox a token reaches is the sandbox responder's business.
import type { SandboxRequest } from './request.js';
import { UNAUTHORIZED_MESSAGE } from './errors.js';
import type { Operation } from './spec.js';
import { json, type Outgoing } from './outgoing.js';

const BEARER = /^Bearer\s([\w-]+)$/;

/** The bearer token of a request, when it has a well-formed one. */
export function bearerToken(req: SandboxRequest): string | undefined {
  return BEARER.exec(req.headers.authorization ?? '')?.[1];
}

export function unauthorized(): Outgoing {
  return json(401, { message: UNAUTHORIZED_MESSAGE }, { 'WWW-Authenticate': 'Bearer' });
}

/** The token (undefined for an operation that needs none), or the 401. */
export function authenticate(operation: Operation, req: SandboxRequest): { token: string | undefined } | Outgoing {
  const token = bearerToken(req);
  if (operation.secured && token === undefined) return unauthorized();
  return { token };
}
