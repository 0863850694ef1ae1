// Tenancy of a shared (hosted) sandbox: the operator creates OAuth clients; every sandbox belongs
// to the client whose credentials issued its tokens, so two integrators who log in with the same
// seeded username reach two sandboxes. Clients live in the internal sandbox '__auth' (every
// process on one database knows them); a client's secret is kept as its SHA-256 only.
import { toBase64 } from '../util/bytes.js';
import { randomText, sha1Hex } from '../util/ids.js';
import type { Store } from '../store/types.js';
import { ACCESS_TOKENS, AUTH_SANDBOX, REFRESH_TOKENS, TENANT_CLIENTS } from './tokens.js';

export interface TenantClient {
  id: string;
  name: string;
  /** SHA-256 of the secret, base64. */
  secretDigest: string;
  createdAt: string;
}

/** The part of a sandbox id that names its client. */
export function tenantPrefix(clientId: string): string {
  return `client-${sha1Hex(clientId).slice(0, 16)}-`;
}

/** The prefix of a client's sandbox id (see tenantPrefix), when it is one. */
export function tenantPrefixOf(sandbox: string): string | undefined {
  return /^client-[0-9a-f]{16}-/.exec(sandbox)?.[0];
}

/** The sandbox of one user of one client. */
export function tenantSandbox(clientId: string, userId: string): string {
  return `${tenantPrefix(clientId)}user-${sha1Hex(userId).slice(0, 24)}`;
}

async function digest(secret: string): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))));
}

/** A new client with a fresh id and secret; the secret is shown this once. */
export async function createTenantClient(store: Store, name: string, now: Date): Promise<{ client: TenantClient; secret: string }> {
  const secret = randomText(24);
  const client: TenantClient = { id: `client-${randomText(8)}`, name, secretDigest: await digest(secret), createdAt: now.toISOString() };
  await store.transaction(AUTH_SANDBOX, 'write', (tx) => tx.insert(TENANT_CLIENTS, { ...client }));
  return { client, secret };
}

export async function tenantClients(store: Store): Promise<TenantClient[]> {
  const page = await store.transaction(AUTH_SANDBOX, 'read', (tx) => tx.find(TENANT_CLIENTS, { orderBy: [{ field: { path: ['createdAt'], type: 'string' }, descending: false }] }));
  return page.rows as unknown as TenantClient[];
}

/** The client, when the id is known and the secret is its secret. */
export async function verifyTenantClient(store: Store, clientId: string, secret: string | undefined): Promise<TenantClient | undefined> {
  if (secret === undefined) return undefined;
  const client = (await store.transaction(AUTH_SANDBOX, 'read', (tx) => tx.get(TENANT_CLIENTS, clientId))) as TenantClient | undefined;
  if (!client) return undefined;
  return client.secretDigest === (await digest(secret)) ? client : undefined;
}

/** Removes a client, the tokens it issued and its sandboxes; false when there is none. */
export async function removeTenantClient(store: Store, clientId: string): Promise<boolean> {
  const removed = await store.transaction(AUTH_SANDBOX, 'write', async (tx) => {
    if (!(await tx.remove(TENANT_CLIENTS, clientId))) return false;
    for (const collection of [ACCESS_TOKENS, REFRESH_TOKENS]) {
      const issued = await tx.find(collection, { where: { kind: 'in', field: { path: ['clientId'], type: 'string' }, values: [clientId] } });
      for (const doc of issued.rows) await tx.remove(collection, doc.id);
    }
    return true;
  });
  if (!removed) return false;
  const prefix = tenantPrefix(clientId);
  for (const sandbox of await store.list(prefix)) await store.reset(sandbox.id);
  return true;
}
