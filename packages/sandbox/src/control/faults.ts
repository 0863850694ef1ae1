// The control endpoints of the rule lists a sandbox keeps in its meta, for the caller's sandbox
// (its bearer token):
//   GET    /__sandbox/faults        the fault rules in force
//   PUT    /__sandbox/faults        replace them: {"faults": [rule, ...]}
//   POST   /__sandbox/faults        add rules:    {"faults": [rule, ...]}
//   DELETE /__sandbox/faults        remove every rule
//   DELETE /__sandbox/faults/{id}   remove one
//   GET, POST, DELETE /__sandbox/answers and DELETE /__sandbox/answers/{id}: the one-off answers, alike
import { message } from '../http/errors.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import type { SandboxRequest } from '../http/request.js';
import { jsonBody, refused } from './control-endpoints.js';
import type { Principal } from '../domain/context.js';
import { addFaults, checkRule, FaultProblem, FAULTS_PATH, listFaults, removeFaults } from '../faults/faults.js';
import { addAnswers, ANSWERS_PATH, checkAnswer, listAnswers, removeAnswers } from '../faults/answers.js';
import type { Store, Tx } from '../store/types.js';

export interface FaultsControlContext {
  store: Store;
  activities(): Set<string>;
  principal(token: string): Promise<Principal | undefined>;
}

const MAX_RULES = 100;

/** One list a sandbox keeps: where it is served, how its body names it and how it is kept. */
interface RuleList<G> {
  path: string;
  field: string;
  /** What one entry is called in messages. */
  noun: string;
  example: string;
  /** Whether PUT replaces the whole list. */
  replaceable: boolean;
  bodyLimit: number;
  check(value: unknown, index: number, known: Set<string>): G;
  list(tx: Tx): Promise<unknown[]>;
  add(tx: Tx, given: G[], replace: boolean): Promise<unknown[]>;
  remove(tx: Tx, id?: string): Promise<boolean>;
}

const FAULT_LIST: RuleList<ReturnType<typeof checkRule>> = {
  path: FAULTS_PATH,
  field: 'faults',
  noun: 'fault rule',
  example: '{"faults": [{"operations": ["GetEmployeesByEmployerId"], "status": 503, "times": 1}]}',
  replaceable: true,
  bodyLimit: 64 * 1024,
  check: checkRule,
  list: listFaults,
  add: addFaults,
  remove: removeFaults,
};

const ANSWER_LIST: RuleList<ReturnType<typeof checkAnswer>> = {
  path: ANSWERS_PATH,
  field: 'answers',
  noun: 'answer',
  example: '{"answers": [{"operation": "PutEmployeeByEmployeeId", "status": 400, "body": {"messages": []}, "times": 1}]}',
  replaceable: false,
  bodyLimit: 1024 * 1024,
  check: checkAnswer,
  list: listAnswers,
  add: (tx, given) => addAnswers(tx, given),
  remove: removeAnswers,
};

export const faultsControl = (req: SandboxRequest, pathname: string, ctx: FaultsControlContext) => ruleListControl(FAULT_LIST, req, pathname, ctx);
export const answersControl = (req: SandboxRequest, pathname: string, ctx: FaultsControlContext) => ruleListControl(ANSWER_LIST, req, pathname, ctx);

async function ruleListControl<G>(kind: RuleList<G>, req: SandboxRequest, pathname: string, ctx: FaultsControlContext): Promise<Outgoing> {
  const id = pathname.length > kind.path.length + 1 ? decodeURIComponent(pathname.slice(kind.path.length + 1)) : undefined;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const allowed = id === undefined ? ['GET', ...(kind.replaceable ? ['PUT'] : []), 'POST', 'DELETE'] : ['DELETE'];
  if (!allowed.includes(method)) return { status: 405, headers: { Allow: allowed.join(', ') } };
  const token = bearerToken(req);
  const principal = token === undefined ? undefined : await ctx.principal(token);
  if (!principal) return unauthorized();
  const { sandbox } = principal;
  const listed = (items: unknown[]) => ({ [kind.field]: items });
  if (method === 'GET') return json(200, listed(await ctx.store.transaction(sandbox, 'read', kind.list)));
  if (method === 'DELETE') {
    const left = await ctx.store.transaction(sandbox, 'write', async (tx) => ((await kind.remove(tx, id)) ? kind.list(tx) : undefined));
    return left ? json(200, listed(left)) : refused(404, `There is no ${kind.noun} ${id!.slice(0, 100)} in this sandbox.`, ['id']);
  }
  const body = await jsonBody(req, kind.bodyLimit);
  if (!body.ok) return body.out;
  const list = (body.value as Record<string, unknown> | null)?.[kind.field];
  if (!Array.isArray(list)) return refused(400, `The body must be {"${kind.field}": [...]}, e.g. ${kind.example}.`, [kind.field]);
  const tooMany = () => refused(400, `At most ${MAX_RULES} ${kind.noun}s per sandbox.`, [kind.field]);
  if (list.length > MAX_RULES) return tooMany();
  let given: G[];
  try {
    const known = ctx.activities();
    given = list.map((entry, index) => kind.check(entry, index, known));
  } catch (error) {
    if (!(error instanceof FaultProblem)) throw error;
    return json(400, { messages: [message(400, error.message, [error.property])] });
  }
  // Counted and added in one transaction: two instances adding at once cannot pass the bound.
  const result = await ctx.store.transaction(sandbox, 'write', async (tx) => {
    if (method === 'POST' && (await kind.list(tx)).length + given.length > MAX_RULES) return undefined;
    return kind.add(tx, given, method === 'PUT');
  });
  if (!result) return tooMany();
  return json(method === 'POST' ? 201 : 200, listed(result));
}
