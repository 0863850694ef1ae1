// Stage 3 of the sandbox, authorize: after authenticate, before the request reaches a handler,
// the responder runs the authorization decision of contract §5.7 (sandbox/authorization). A
// refusal is a 403 with the plain {message} body contract §7 allows for authorization
// failures, plus a sandbox-only header naming the step that failed, for debugging.
import type { Routed } from './route.js';
import { json, type Outgoing } from './outgoing.js';

/** Sandbox only (not an API header): `step=<1..5>; reason=<token>` of a refused call. */
export const AUTHORIZATION_HEADER = 'X-Sandbox-Authorization';

export interface AuthorizationRefusal {
  step: number;
  reason: string;
  message: string;
}

export function forbidden(refusal: AuthorizationRefusal): Outgoing {
  return json(403, { message: refusal.message }, { [AUTHORIZATION_HEADER]: `step=${refusal.step}; reason=${refusal.reason}` });
}

/** What a responder that authorizes calls offers this stage. */
export interface Authorizer {
  /** The caller as the handler sees it (e.g. with its data scope), or the answer refusing the call. */
  authorize(routed: Routed, caller: unknown, now: number, scope: unknown): Promise<{ caller: unknown } | Outgoing>;
}

export async function authorize(responder: Partial<Authorizer>, routed: Routed, caller: unknown, now: number, scope: unknown): Promise<{ caller: unknown } | Outgoing> {
  return responder.authorize ? responder.authorize(routed, caller, now, scope) : { caller };
}
