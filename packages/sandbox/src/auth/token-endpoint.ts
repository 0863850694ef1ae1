// POST {auth_url}/token with auth_url = <mock url>/auth (contract section 5): the password
// and refresh_token grants, form fields grant_type, username, password, client_Id,
// client_secret, refresh_token. A username of the sandbox's authorization model needs its
// password and a client of the model (with its secret, when the client has one); its calls are
// then authorized step by step. Any other username and password are accepted, as a user with
// every right (quick starts). The user's data lives in the user's sandbox. Refresh tokens
// rotate: a used one is refused, and revokes every token of its login (RFC 6819, 5.2.2.3).
import type { SandboxRequest } from '../http/request.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { ownEntry, readModel } from '../authorization/model.js';
import type { Store, Tx } from '../store/types.js';
import { tenantSandbox, verifyTenantClient } from './tenants.js';
import { ACCESS_PREFIX, ACCESS_TOKENS, AUTH_SANDBOX, newToken, pruneExpired, REFRESH_LIFETIME_MS, REFRESH_PREFIX, REFRESH_TOKENS, revokeFamily, TENANT_CLIENTS, userSandbox, type AccessToken, type RefreshToken } from './tokens.js';

export const TOKEN_PATH = '/auth/token';
const MAX_FORM = 16 * 1024;
/** The two-factor step does not exist in the sandbox; the contract does not show the field's values. */
const TWO_FACTOR_STATE = 'NotRequired';

/** The OAuth 2.0 error body (RFC 6749, 5.2). */
function oauthError(status: number, error: string, description: string): Outgoing {
  return json(status, { error, error_description: description }, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
}

/** How long issued tokens live: an access token, and an unused refresh token. */
export interface TokenLifetimes {
  accessSeconds: number;
  refreshMs: number;
}

async function issue(tx: Tx, userId: string, clientId: string, modelUser: boolean, lifetimes: TokenLifetimes, now: number, sandbox?: string, family?: string): Promise<Outgoing> {
  const lifetimeSeconds = lifetimes.accessSeconds;
  // A tenant's client checked in the transaction that issues: a removal (the same lock) either
  // went first, and nothing is issued, or comes after, and removes what was issued.
  if (sandbox !== undefined && !(await tx.get(TENANT_CLIENTS, clientId))) return unknownClient();
  await pruneExpired(tx, now);
  const reaches = sandbox === undefined ? {} : { sandbox };
  const refreshId = newToken(REFRESH_PREFIX);
  const line = family ?? refreshId;
  const access: AccessToken = { id: newToken(ACCESS_PREFIX), userId, clientId, expiresAt: now + lifetimeSeconds * 1000, modelUser, family: line, ...reaches };
  const refresh: RefreshToken = { id: refreshId, userId, clientId, modelUser, expiresAt: now + lifetimes.refreshMs, family: line, ...reaches };
  await tx.insert(ACCESS_TOKENS, { ...access });
  await tx.insert(REFRESH_TOKENS, { ...refresh });
  return json(
    200,
    { access_token: access.id, token_type: 'bearer', expires_in: lifetimeSeconds, refresh_token: refresh.id, two_factor_state: TWO_FACTOR_STATE },
    { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  );
}

/** A lifetime as people say it (30 days, 12 hours, 45 seconds). */
function describeDuration(ms: number): string {
  for (const [unit, size] of [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}

const unknownClient = () => oauthError(401, 'invalid_client', 'The client is not known or its client_secret is not correct (the operator of this sandbox creates clients).');

/** `hosted`: the client must be one the operator created, with its secret, for every grant;
 * the user's sandbox is the user's within that client. */
export async function tokenEndpoint(req: SandboxRequest, store: Store, lifetimeSeconds: number, hosted = false, refreshLifetimeMs = REFRESH_LIFETIME_MS): Promise<Outgoing> {
  const lifetimes: TokenLifetimes = { accessSeconds: lifetimeSeconds, refreshMs: refreshLifetimeMs };
  if (req.method !== 'POST') return { status: 405, headers: { Allow: 'POST' } };
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const read = await req.readBody(MAX_FORM);
  if (read.kind === 'too-large') return oauthError(400, 'invalid_request', `The form is larger than ${MAX_FORM} bytes.`);
  if (read.kind === 'aborted') return { status: 400, headers: { Connection: 'close' } };
  if (type !== 'application/x-www-form-urlencoded') {
    return oauthError(400, 'invalid_request', 'The token request must be a form (Content-Type: application/x-www-form-urlencoded).');
  }
  const form = new URLSearchParams(read.kind === 'body' ? new TextDecoder().decode(read.bytes) : '');
  const field = (name: string) => {
    const value = form.get(name);
    return value === null || value === '' ? undefined : value;
  };
  // The contract spells it client_Id; client_id (RFC 6749) is understood too.
  const clientId = field('client_Id') ?? field('client_id');
  const grant = field('grant_type');
  if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required (password or refresh_token).');
  if (grant !== 'password' && grant !== 'refresh_token') {
    return oauthError(400, 'unsupported_grant_type', `The grant type '${grant.slice(0, 50)}' is not supported; use password or refresh_token.`);
  }
  if (!clientId) return oauthError(400, 'invalid_client', 'client_Id is required.');
  if (hosted && !(await verifyTenantClient(store, clientId, field('client_secret')))) return unknownClient();
  const now = Date.now();
  if (grant === 'password') {
    const username = field('username');
    const password = field('password');
    if (!username || !password) return oauthError(400, 'invalid_request', 'username and password are required for the password grant.');
    const userId = username.toLowerCase();
    const sandbox = hosted ? tenantSandbox(clientId, userId) : undefined;
    const model = await store.transaction(sandbox ?? userSandbox(userId), 'read', (tx) => readModel(tx));
    const user = ownEntry(model?.users, userId);
    if (model && user) {
      if (password !== user.password) return oauthError(400, 'invalid_grant', 'The username or password is not correct.');
      if (hosted) return store.transaction(AUTH_SANDBOX, 'write', (tx) => issue(tx, userId, clientId, true, lifetimes, now, sandbox));
      const client = ownEntry(model.clients, clientId);
      if (!client) return oauthError(400, 'invalid_client', `The client ${clientId.slice(0, 100)} is not a client of the sandbox's authorization model.`);
      if (client.secret !== null && field('client_secret') !== client.secret) return oauthError(400, 'invalid_client', 'The client_secret is missing or not correct for this client.');
    }
    return store.transaction(AUTH_SANDBOX, 'write', (tx) => issue(tx, userId, clientId, user !== undefined, lifetimes, now, sandbox));
  }
  const presented = field('refresh_token');
  if (!presented) return oauthError(400, 'invalid_request', 'refresh_token is required for the refresh_token grant.');
  return store.transaction(AUTH_SANDBOX, 'write', async (tx) => {
    const known = (await tx.get(REFRESH_TOKENS, presented)) as RefreshToken | undefined;
    const refused = `The refresh token is unknown, has expired (after ${describeDuration(refreshLifetimeMs)} unused) or was already used (refresh tokens rotate: use the one issued last).`;
    if (!known || known.expiresAt <= now) return oauthError(400, 'invalid_grant', refused);
    if (known.clientId !== clientId) return oauthError(400, 'invalid_grant', 'The refresh token was issued to another client.');
    if (known.used) {
      // Used twice: one of the two holders is not who it should be. Every token of the login goes.
      await revokeFamily(tx, known.family ?? known.id);
      return oauthError(400, 'invalid_grant', `${refused} Every token issued from it is revoked now.`);
    }
    await tx.replace(REFRESH_TOKENS, { ...known, used: true });
    return issue(tx, known.userId, clientId, known.modelUser === true, lifetimes, now, known.sandbox, known.family ?? known.id);
  });
}
