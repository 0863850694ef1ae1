// The fault rules' control endpoints, for the caller's sandbox (its bearer token):
//   GET    /__sandbox/faults        the rules in force
//   PUT    /__sandbox/faults        replace them: {"faults": [rule, ...]}
//   POST   /__sandbox/faults        add rules:    {"faults": [rule, ...]}
//   DELETE /__sandbox/faults        remove every rule
//   DELETE /__sandbox/faults/{id}   remove one
import { message } from '../http/errors.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import type { SandboxRequest } from '../http/request.js';
import { jsonBody, refused } from './control-endpoints.js';
import type { Principal } from '../domain/context.js';
import { addFaults, checkRule, FaultProblem, FAULTS_PATH, listFaults, removeFaults, type FaultRule } from '../faults/faults.js';
import type { Store } from '../store/types.js';

export interface FaultsControlContext {
  store: Store;
  activities(): Set<string>;
  principal(token: string): Promise<Principal | undefined>;
}

const MAX_RULES = 100;

export async function faultsControl(req: SandboxRequest, pathname: string, ctx: FaultsControlContext): Promise<Outgoing> {
  const id = pathname.length > FAULTS_PATH.length + 1 ? decodeURIComponent(pathname.slice(FAULTS_PATH.length + 1)) : undefined;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const allowed = id === undefined ? ['GET', 'PUT', 'POST', 'DELETE'] : ['DELETE'];
  if (!allowed.includes(method)) return { status: 405, headers: { Allow: allowed.join(', ') } };
  const token = bearerToken(req);
  const principal = token === undefined ? undefined : await ctx.principal(token);
  if (!principal) return unauthorized();
  const { sandbox } = principal;
  if (method === 'GET') return json(200, { faults: await ctx.store.transaction(sandbox, 'read', listFaults) });
  if (method === 'DELETE') {
    const left = await ctx.store.transaction(sandbox, 'write', async (tx) => ((await removeFaults(tx, id)) ? listFaults(tx) : undefined));
    return left ? json(200, { faults: left }) : refused(404, `There is no fault rule ${id!.slice(0, 100)} in this sandbox.`, ['id']);
  }
  const body = await jsonBody(req, 64 * 1024);
  if (!body.ok) return body.out;
  const list = (body.value as { faults?: unknown } | null)?.faults;
  if (!Array.isArray(list)) return refused(400, 'The body must be {"faults": [rule, ...]}, e.g. {"faults": [{"operations": ["GetEmployeesByEmployerId"], "status": 503, "times": 1}]}.', ['faults']);
  if (list.length > MAX_RULES) return refused(400, `At most ${MAX_RULES} fault rules per sandbox.`, ['faults']);
  let rules: Array<Omit<FaultRule, 'id'>>;
  try {
    const known = ctx.activities();
    rules = list.map((rule, index) => checkRule(rule, index, known));
  } catch (error) {
    if (!(error instanceof FaultProblem)) throw error;
    return json(400, { messages: [message(400, error.message, [error.property])] });
  }
  // Counted and added in one transaction: two instances adding at once cannot pass the bound.
  const result = await ctx.store.transaction(sandbox, 'write', async (tx) => {
    if (method === 'POST' && (await listFaults(tx)).length + rules.length > MAX_RULES) return undefined;
    return addFaults(tx, rules, method === 'PUT');
  });
  if (!result) return refused(400, `At most ${MAX_RULES} fault rules per sandbox.`, ['faults']);
  return json(method === 'POST' ? 201 : 200, { faults: result });
}
