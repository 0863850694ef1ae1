// Tokens the sandbox's OAuth endpoint issues, kept in the store (the internal sandbox
// '__auth') so that every process on one PostgreSQL database knows them. An access token
// maps to its user's sandbox; refresh tokens rotate (each is used once).
import { toBase64 } from '../util/bytes.js';
import { sha1Hex } from '../util/ids.js';
import type { CollectionSpec, Store, Tx } from '../store/types.js';

export const AUTH_SANDBOX = '__auth';
export const ACCESS_TOKENS = 'oauthAccessTokens';
export const REFRESH_TOKENS = 'oauthRefreshTokens';
/** The OAuth clients an operator created for a hosted sandbox (tenants.ts). */
export const TENANT_CLIENTS = 'tenantClients';
export const AUTH_COLLECTIONS: CollectionSpec[] = [{ name: ACCESS_TOKENS }, { name: REFRESH_TOKENS }, { name: TENANT_CLIENTS }];

/** Issued tokens start with these; any other well-formed bearer token is a sandbox of its own. */
export const ACCESS_PREFIX = 'sandbox-at-';
export const REFRESH_PREFIX = 'sandbox-rt-';

export interface AccessToken {
  id: string;
  userId: string;
  clientId: string;
  /** Epoch ms. */
  expiresAt: number;
  /** The user was in the authorization model of its sandbox (its calls are authorized). */
  modelUser?: boolean;
  /** Hosted: the sandbox of the user within its client (clientId is then the tenant). */
  sandbox?: string;
  /** The id of the first refresh token of the login it comes from (revoked together). */
  family?: string;
}

export interface RefreshToken {
  id: string;
  userId: string;
  clientId: string;
  modelUser?: boolean;
  sandbox?: string;
  /** Epoch ms: an unused refresh token lapses after REFRESH_LIFETIME_MS. */
  expiresAt: number;
  /** The id of the first refresh token of its login (see AccessToken.family). */
  family?: string;
  /** It was exchanged: presented again, its whole family is revoked. */
  used?: boolean;
}

/** How long an unused refresh token stays valid (the contract does not say; 30 days). */
export const REFRESH_LIFETIME_MS = 30 * 86_400_000;

export function newToken(prefix: string): string {
  return `${prefix}${toBase64(crypto.getRandomValues(new Uint8Array(24))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** The sandbox of a user (stable across tokens and refreshes). */
export function userSandbox(userId: string): string {
  return `user-${sha1Hex(userId).slice(0, 24)}`;
}

const tokenSandboxes = new Map<string, string>();

/** The sandbox of a bearer token not issued here: derived from it, without revealing it (remembered for the recent tokens). */
export function tokenSandbox(token: string): string {
  let sandbox = tokenSandboxes.get(token);
  if (sandbox === undefined) {
    sandbox = `token-${sha1Hex(token).slice(0, 24)}`;
    if (tokenSandboxes.size >= 10_000) tokenSandboxes.clear();
    tokenSandboxes.set(token, sandbox);
  }
  return sandbox;
}

/** The issued access token; a tenant's only while its client exists (checked at every use, so
 * that a token issued while the client was being removed never works). */
export async function lookupAccessToken(store: Store, token: string): Promise<AccessToken | undefined> {
  return store.transaction(AUTH_SANDBOX, 'read', async (tx) => {
    const issued = (await tx.get(ACCESS_TOKENS, token)) as AccessToken | undefined;
    if (issued?.sandbox !== undefined && !(await tx.get(TENANT_CLIENTS, issued.clientId))) return undefined;
    return issued;
  });
}

/** Revokes every token of a refresh family (RFC 6819, 5.2.2.3: a refresh token used twice). */
export async function revokeFamily(tx: Tx, family: string): Promise<void> {
  for (const collection of [ACCESS_TOKENS, REFRESH_TOKENS]) {
    const issued = await tx.find(collection, { where: { kind: 'in', field: { path: ['family'], type: 'string' }, values: [family] } });
    for (const doc of issued.rows) await tx.remove(collection, doc.id);
  }
}

/** Drops access and refresh tokens that expired before `now` (keeps the internal sandbox small). */
export async function pruneExpired(tx: Tx, now: number): Promise<void> {
  for (const collection of [ACCESS_TOKENS, REFRESH_TOKENS]) {
    const expired = await tx.find(collection, { where: { kind: 'compare', field: { path: ['expiresAt'], type: 'integer' }, op: 'lt', value: now } });
    for (const doc of expired.rows) await tx.remove(collection, doc.id);
  }
}
