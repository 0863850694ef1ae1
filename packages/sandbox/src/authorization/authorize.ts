// The sandbox's side of the authorize stage: a caller that is a user of the authorization model
// (a token issued to a model user, or a fixed sandbox user token) goes through the five-step
// decision, read in the request's transaction of the caller's sandbox; any other caller is a
// user with every right, so that quick starts stay one curl. Every caller, either kind, is kept
// from new employers that are not visible yet (teams.ts).
import { dayOf } from '../util/dates.js';
import { unauthorized } from '../http/authenticate.js';
import { forbidden } from '../http/authorize.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { pathParams, type Routed } from '../http/route.js';
import type { Principal } from '../domain/context.js';
import type { Tx } from '../store/types.js';
import { decide } from './decision.js';
import { grantingActivities, ownEntry, readModel } from './model.js';
import { teamRefusal, withoutHidden } from './teams.js';

export async function authorizeCall(tx: Tx, routed: Routed, caller: Principal, now: number): Promise<{ caller: Principal } | Outgoing> {
  const isModelUser = caller.modelUser === true && caller.userId !== undefined;
  const hidden = caller.hiddenEmployers ?? [];
  if (!isModelUser && hidden.length === 0) return { caller };
  let granted: Principal = caller;
  if (isModelUser) {
    const username = caller.userId!;
    const model = await readModel(tx);
    const user = ownEntry(model?.users, username);
    // A user removed from the model (or a fixed token naming none) holds no valid token.
    if (!model || !user) return unauthorized();
    const clientId = caller.clientId ?? user.client;
    const today = dayOf(now);
    let decision: Awaited<ReturnType<typeof decide>>;
    try {
      const { operation } = routed;
      decision = await decide(tx, model, { username, user, clientId, activity: operation.operationId, grantedAs: grantingActivities(model, operation), params: pathParams(routed), today });
    } catch {
      // Only a model imported through a snapshot can be malformed (control edits are checked).
      return json(500, { message: `The sandbox's authorization model cannot decide for the user ${username}: it is malformed. Check it with GET /__sandbox/authorization, then fix it with PUT or POST /__sandbox/authorization/reset.` });
    }
    if ('step' in decision) return forbidden(decision);
    granted = { ...caller, clientId, dataScope: decision.dataScope };
  }
  if (hidden.length > 0) {
    const refusal = await teamRefusal(tx, hidden, pathParams(routed));
    if (refusal) return forbidden(refusal);
    granted = { ...granted, dataScope: await withoutHidden(tx, granted.dataScope ?? {}, hidden) };
  }
  return { caller: granted };
}
