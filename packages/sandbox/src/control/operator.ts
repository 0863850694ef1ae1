// The operator's endpoints of a shared sandbox, behind the operator token given on the command
// line (never a sandbox token): OAuth clients (the tenants) and every sandbox.
//
//   GET    /__operator/clients           the clients (without secrets)
//   POST   /__operator/clients           {"name": "Acme payroll"} creates one: 201 {client_id, client_secret, name}
//   DELETE /__operator/clients/{id}      removes it, its tokens and its sandboxes
//   GET    /__operator/sandboxes         every sandbox with data of its own, and its client
//   DELETE /__operator/sandboxes/{id}    removes one (it reads the seed again)
import type { SandboxRequest } from '../http/request.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { createTenantClient, removeTenantClient, tenantClients, tenantPrefix, tenantPrefixOf } from '../auth/tenants.js';
import type { Store } from '../store/types.js';
import { jsonBody, refused } from './control-endpoints.js';

export const OPERATOR_PREFIX = '/__operator';

/** Compares without leaking, through timing, how much of a guess was right. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i % Math.max(b.length, 1));
  return difference === 0;
}

export async function operatorControl(req: SandboxRequest, pathname: string, ctx: { store: Store; reset(sandbox: string): Promise<void>; operatorToken: string | undefined }): Promise<Outgoing> {
  if (ctx.operatorToken === undefined) return { status: 404, headers: {} };
  const token = bearerToken(req);
  if (token === undefined || !sameText(token, ctx.operatorToken)) return unauthorized();
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const [, collection, id, ...rest] = pathname.slice(OPERATOR_PREFIX.length).split('/');
  const allowed = id === undefined ? (collection === 'clients' ? ['GET', 'POST'] : ['GET']) : ['DELETE'];
  if ((collection !== 'clients' && collection !== 'sandboxes') || rest.length > 0 || id === '') return { status: 404, headers: {} };
  if (!allowed.includes(method)) return { status: 405, headers: { Allow: allowed.join(', ') } };
  const key = decodeURIComponent(id ?? '');

  if (collection === 'clients') {
    if (method === 'GET') return json(200, { clients: (await tenantClients(ctx.store)).map((c) => ({ client_id: c.id, name: c.name, createdAt: c.createdAt })) });
    if (method === 'DELETE') return (await removeTenantClient(ctx.store, key)) ? { status: 204, headers: {} } : refused(404, `There is no client ${key}.`, ['id']);
    const body = await jsonBody(req, 4096);
    if (!body.ok) return body.out;
    const name = (body.value as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) return refused(400, 'name is required: a text of 1 to 200 characters naming the integrator.', ['name']);
    const { client, secret } = await createTenantClient(ctx.store, name.trim(), new Date());
    return json(201, { client_id: client.id, client_secret: secret, name: client.name, createdAt: client.createdAt }, { 'Cache-Control': 'no-store' });
  }

  if (method === 'DELETE') {
    if (!(await ctx.store.list(key)).some((s) => s.id === key)) return refused(404, `There is no sandbox ${key} with data of its own.`, ['id']);
    await ctx.reset(key);
    return { status: 204, headers: {} };
  }
  const owners = new Map((await tenantClients(ctx.store)).map((c) => [tenantPrefix(c.id), c.id]));
  return json(200, {
    sandboxes: (await ctx.store.list()).map((s) => ({ ...s, client: owners.get(tenantPrefixOf(s.id) ?? '') ?? null })),
  });
}
