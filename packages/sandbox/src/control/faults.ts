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
import { checkRule, FaultProblem, FAULTS_PATH, type Faults, type FaultRule } from '../faults/faults.js';

export interface FaultsControlContext {
  faults: Faults;
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
  if (method === 'GET') return json(200, { faults: ctx.faults.list(sandbox) });
  if (method === 'DELETE') {
    if (id === undefined) {
      ctx.faults.remove(sandbox);
      return json(200, { faults: [] });
    }
    return ctx.faults.remove(sandbox, id) ? json(200, { faults: ctx.faults.list(sandbox) }) : refused(404, `There is no fault rule ${id.slice(0, 100)} in this sandbox.`, ['id']);
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
  if (method === 'POST' && ctx.faults.list(sandbox).length + rules.length > MAX_RULES) return refused(400, `At most ${MAX_RULES} fault rules per sandbox.`, ['faults']);
  const result = method === 'PUT' ? ctx.faults.replace(sandbox, rules) : ctx.faults.add(sandbox, rules);
  return json(method === 'POST' ? 201 : 200, { faults: result });
}
