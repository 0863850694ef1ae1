// The control endpoints of the authorization model (sandbox only, documented in the mock's
// README, not in the API descriptions). They act on the sandbox the bearer token reaches, as
// every control endpoint does. An edit is checked whole (references resolve, activities exist)
// before anything is written: a 400 changes nothing.
//
//   GET    /__sandbox/authorization               the model, with the employers' modules
//   PUT    /__sandbox/authorization               replace it (employers left out keep their modules)
//   POST   /__sandbox/authorization/reset         back to the seed's model and the seeded employers' modules
//   GET    /__sandbox/authorization/<kind>        one part: clients, rights, roles, users, modules, providers, employers
//   GET    /__sandbox/authorization/<kind>/<id>   one entry
//   PUT    /__sandbox/authorization/<kind>/<id>   create (201) or replace (200) one entry
//   DELETE /__sandbox/authorization/<kind>/<id>   remove one entry (not providers or employers)
//   GET    /__sandbox/authorization/teams          the new employers' team state (teams.ts)
//   GET    /__sandbox/authorization/teams/<id>     one employer's team state
//   PUT    /__sandbox/authorization/teams/<id>     add a new employer to the team (no body): visible a few minutes later
import type { SandboxRequest } from '../http/request.js';
import { message } from '../http/errors.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { jsonBody, refused } from './control-endpoints.js';
import type { Principal } from '../domain/context.js';
import { authorizationModelSeed } from '../seed/authorization.js';
import { organisationSeed } from '../seed/organisation.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import type { Store, Tx } from '../store/types.js';
import { sandboxNow } from '../domain/clock.js';
import { addToTeam, readTeams, teamState } from '../authorization/teams.js';
import { KINDS, modelProblems, modulesOf, ownEntry, readView, writeView, type AuthorizationView, type Kind } from '../authorization/model.js';

export const AUTHORIZATION_PATH = '/__sandbox/authorization';
const MAX_MODEL = 1024 * 1024;

export interface AuthorizationControlContext {
  store: Store;
  /** The activities (operationIds) currently served. */
  activities(): Set<string>;
  principal(token: string): Promise<Principal | undefined>;
}

/** A checked, stored view; or the 400 naming what is wrong (nothing written). */
async function store(tx: Tx, candidate: unknown, activities: Set<string>): Promise<Outgoing | undefined> {
  const ids = async (collection: string) => new Set((await tx.find(collection, {})).rows.map((d) => d.id));
  const problems = modelProblems(candidate, { activities, employers: await ids(ORG_COLLECTIONS.employers), providers: await ids(ORG_COLLECTIONS.providers) });
  if (problems.length > 0) return json(400, { messages: problems.map((p) => message(400, `${p.field}: ${p.problem}`, [p.field])) });
  await writeView(tx, candidate as AuthorizationView);
  return undefined;
}

/** The seed's model, with the seeded employers' modules for the employers still in the sandbox. */
async function seedView(tx: Tx): Promise<AuthorizationView> {
  const employers: AuthorizationView['employers'] = {};
  for (const seeded of organisationSeed()[ORG_COLLECTIONS.employers] ?? []) {
    if (await tx.get(ORG_COLLECTIONS.employers, seeded.id)) employers[seeded.id] = { modules: modulesOf(seeded) };
  }
  return { ...(authorizationModelSeed() as unknown as Omit<AuthorizationView, 'employers'>), employers };
}

export async function authorizationControl(req: SandboxRequest, pathname: string, ctx: AuthorizationControlContext): Promise<Outgoing> {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const [kindText, id, ...rest] = pathname.slice(AUTHORIZATION_PATH.length).split('/').filter(Boolean).map(decodeURIComponent);
  if (kindText === 'teams' && rest.length === 0) return teamsControl(req, id, ctx);
  const kind = kindText as Kind | 'reset' | undefined;
  if (rest.length > 0 || (kind !== undefined && kind !== 'reset' && !KINDS.includes(kind)) || (kind === 'reset' && id !== undefined)) {
    return refused(404, `No such control endpoint; the authorization model's parts are ${KINDS.join(', ')}, and teams.`);
  }
  const allowed = kind === undefined ? ['GET', 'PUT'] : kind === 'reset' ? ['POST'] : id === undefined ? ['GET'] : kind === 'providers' || kind === 'employers' ? ['GET', 'PUT'] : ['GET', 'PUT', 'DELETE'];
  if (!allowed.includes(method)) return { status: 405, headers: { Allow: allowed.join(', ') } };

  const token = bearerToken(req);
  const principal = token === undefined ? undefined : await ctx.principal(token);
  if (!principal) return unauthorized();
  const body = method === 'PUT' ? await jsonBody(req, MAX_MODEL) : undefined;
  if (body && !body.ok) return body.out;

  return ctx.store.transaction(principal.sandbox, method === 'GET' ? 'read' : 'write', async (tx): Promise<Outgoing> => {
    const view = await readView(tx);
    if (kind === 'reset') return (await store(tx, await seedView(tx), ctx.activities())) ?? json(200, await readView(tx));
    if (kind === undefined) {
      if (method === 'GET') return json(200, view);
      const candidate = body!.ok ? body!.value : undefined;
      // Employers a replacement leaves out keep their modules.
      const merged = candidate && typeof candidate === 'object' && !Array.isArray(candidate) ? { employers: {}, ...candidate } : candidate;
      return (await store(tx, merged, ctx.activities())) ?? json(200, await readView(tx));
    }
    const part = view[kind] as Record<string, unknown>;
    if (id === undefined) return json(200, part);
    const existing = ownEntry(part, id);
    if (method === 'GET') return existing === undefined ? refused(404, `${kind} has no entry ${id}.`) : json(200, existing);
    if (method === 'DELETE') {
      if (existing === undefined) return refused(404, `${kind} has no entry ${id}.`);
      const { [id]: _removed, ...remaining } = part;
      return (await store(tx, { ...view, [kind]: remaining }, ctx.activities())) ?? json(200, { deleted: id });
    }
    const entry = body!.ok ? body!.value : undefined;
    return (await store(tx, { ...view, [kind]: { ...part, [id]: entry } }, ctx.activities())) ?? json(existing === undefined ? 201 : 200, entry);
  });
}

/** The team assignment of new employers (contract §2.4; the activity itself is not described). */
async function teamsControl(req: SandboxRequest, employerId: string | undefined, ctx: AuthorizationControlContext): Promise<Outgoing> {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const allowed = employerId === undefined ? ['GET'] : ['GET', 'PUT'];
  if (!allowed.includes(method)) return { status: 405, headers: { Allow: allowed.join(', ') } };
  const token = bearerToken(req);
  const principal = token === undefined ? undefined : await ctx.principal(token);
  if (!principal) return unauthorized();
  return ctx.store.transaction(principal.sandbox, method === 'GET' ? 'read' : 'write', async (tx): Promise<Outgoing> => {
    const now = await sandboxNow(tx);
    const teams = await readTeams(tx);
    if (employerId === undefined) return json(200, Object.fromEntries(Object.entries(teams).map(([id, entry]) => [id, teamState(entry, now)])));
    if (!(await tx.get(ORG_COLLECTIONS.employers, employerId))) return refused(404, `There is no employer ${employerId}.`);
    return json(200, method === 'PUT' ? await addToTeam(tx, employerId, now) : teamState(teams[employerId], now));
  });
}
