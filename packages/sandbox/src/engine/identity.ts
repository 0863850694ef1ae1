// Who calls and which sandbox they reach: a token issued by the sandbox's OAuth endpoint
// reaches its user's sandbox (an expired or unknown one gets 401); any other well-formed
// bearer token is a sandbox of its own, like a test-mode key. A fixed sandbox token
// `sandbox-user-<username>` is that user of the authorization model, in the user's sandbox
// (so that the docs can show a refused call in one curl).
import { lookupAccessToken, ACCESS_PREFIX, tokenSandbox, userSandbox } from '../auth/tokens.js';
import { USER_TOKEN_PREFIX } from '../authorization/model.js';
import type { AuthenticationRefusal } from '../http/authenticate.js';
import type { Store } from '../store/types.js';
import type { Principal } from '../domain/context.js';

/** Requests without a token (an operation declaring `security: []`) share this sandbox. */
export const ANONYMOUS_SANDBOX = 'anonymous';

/** `hosted`: only tokens issued by the token endpoint are accepted (fixed and arbitrary tokens
 * would be one sandbox for everybody who uses them). */
export async function principalOf(store: Store, token: string | undefined, hosted = false): Promise<Principal | undefined> {
  if (token === undefined) return { sandbox: ANONYMOUS_SANDBOX, token: '' };
  if (hosted && !token.startsWith(ACCESS_PREFIX)) return undefined;
  if (token.startsWith(USER_TOKEN_PREFIX)) {
    const userId = token.slice(USER_TOKEN_PREFIX.length).toLowerCase();
    return { sandbox: userSandbox(userId), token, userId, modelUser: true };
  }
  if (!token.startsWith(ACCESS_PREFIX)) return { sandbox: tokenSandbox(token), token };
  const issued = await lookupAccessToken(store, token);
  if (!issued || issued.expiresAt <= Date.now()) return undefined;
  if (issued.sandbox) {
    // A tenant's user: authorized as the model user's own client (the tenant is not a client of the model).
    return { sandbox: issued.sandbox, token, userId: issued.userId, tenant: issued.clientId, modelUser: issued.modelUser === true };
  }
  return { sandbox: userSandbox(issued.userId), token, userId: issued.userId, clientId: issued.clientId, modelUser: issued.modelUser === true };
}

/** Where tokens come from, said with every refusal of a well-formed token. */
const TOKENS_COME_FROM = {
  hosted: "tokens must come from /auth/token with your client's credentials on this sandbox",
  local: 'tokens that start with sandbox-at- come from /auth/token on this sandbox; any other token is a sandbox of its own',
};

/** Why principalOf refused a well-formed token (sandbox only: X-Sandbox-Authentication). */
export async function tokenRefusal(store: Store, token: string, hosted = false): Promise<AuthenticationRefusal> {
  const explain = hosted ? TOKENS_COME_FROM.hosted : TOKENS_COME_FROM.local;
  if (!token.startsWith(ACCESS_PREFIX)) return { reason: 'token-not-issued-here', detail: 'a hosted sandbox accepts only the tokens its token endpoint issued', explain };
  const issued = await lookupAccessToken(store, token);
  if (issued) return { reason: 'token-expired', detail: 'the token has expired (expires_in); a new one, or the refresh token, from /auth/token', explain };
  return { reason: 'token-unknown', detail: 'this sandbox did not issue the token (or its client was removed)', explain };
}
