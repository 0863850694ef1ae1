// A new employer is not visible at once (contract §2.4): it must be added to a team (an
// activity the contract does not describe, so the sandbox offers a control endpoint for it)
// and then becomes visible only after a delay, which production owes to caching. The sandbox
// has one team per sandbox that every user is in; the delay runs on the sandbox clock, so
// POST /__sandbox/clock/advance skips it. Until then the employer is left out of every list
// and any call addressing it (or anything of it) is refused at step 5 of the decision (§5.7:
// "the user has access to the given entity id"): 403, since the employer exists (404 is for a
// resource that does not, §7). The state is the sandbox's meta (kept by snapshots, dropped by
// reset), so every store holds it the same way.
import type { BoundFilter } from '../filter/tree.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import type { Tx } from '../store/types.js';
import { EMPLOYER_SCOPED_COLLECTIONS, and, entityEmployers, whereIn, type Refusal } from './decision.js';

const TEAMS_KEY = 'employerTeams';

/** How long a team assignment takes to show (a few minutes, §2.4), in sandbox time. */
export const TEAM_VISIBILITY_DELAY_MS = 5 * 60_000;

/** A new employer's team state; employers without one (the seed's) are in the team and visible. */
export interface TeamEntry {
  /** When it was added to the team (sandbox clock, ISO), null until then. */
  addedAt: string | null;
  /** From when callers see it, null until it is added. */
  visibleFrom: string | null;
}

export type Teams = Record<string, TeamEntry>;

export async function readTeams(tx: Tx): Promise<Teams> {
  const teams = await tx.getMeta<Teams>(TEAMS_KEY);
  return teams && typeof teams === 'object' ? teams : {};
}

const isVisible = (entry: TeamEntry, now: number) => entry.visibleFrom !== null && Date.parse(entry.visibleFrom) <= now;

/** The employers no caller sees yet at `now`. */
export async function hiddenEmployers(tx: Tx, now: number): Promise<string[]> {
  return Object.entries(await readTeams(tx))
    .filter(([, entry]) => !isVisible(entry, now))
    .map(([id]) => id);
}

/** Records a just-created employer as in no team yet. */
export async function recordNewEmployer(tx: Tx, employerId: string): Promise<void> {
  await tx.setMeta(TEAMS_KEY, { ...(await readTeams(tx)), [employerId]: { addedAt: null, visibleFrom: null } });
}

/** Adds an employer to the team at `now`; a second assignment changes nothing. */
export async function addToTeam(tx: Tx, employerId: string, now: number): Promise<TeamEntry & { visible: boolean }> {
  const teams = await readTeams(tx);
  let entry = teams[employerId];
  if (entry && entry.addedAt === null) {
    entry = { addedAt: new Date(now).toISOString(), visibleFrom: new Date(now + TEAM_VISIBILITY_DELAY_MS).toISOString() };
    await tx.setMeta(TEAMS_KEY, { ...teams, [employerId]: entry });
  }
  return teamState(entry, now);
}

/** An employer's team state as the control endpoint shows it. */
export function teamState(entry: TeamEntry | undefined, now: number): TeamEntry & { visible: boolean } {
  return entry ? { ...entry, visible: isVisible(entry, now) } : { addedAt: null, visibleFrom: null, visible: true };
}

/** The refusal of a call that addresses a hidden employer (or an entity of one), if it does. */
export async function teamRefusal(tx: Tx, hidden: string[], params: Record<string, string>): Promise<Refusal | undefined> {
  const teams = await readTeams(tx);
  for (const employerId of await entityEmployers(tx, params)) {
    if (!hidden.includes(employerId)) continue;
    const entry = teams[employerId];
    if (!entry?.addedAt) {
      return { step: 5, reason: 'employer-not-in-team', message: `The employer ${employerId} is new and not in your team yet, so you have no access to it. Add it (sandbox: PUT /__sandbox/authorization/teams/${employerId}); it becomes visible a few minutes after that.` };
    }
    return { step: 5, reason: 'employer-not-visible-yet', message: `The employer ${employerId} was added to your team at ${entry.addedAt}; it becomes visible at ${entry.visibleFrom} (a few minutes later, because of caching).` };
  }
  return undefined;
}

/** The data scope with the hidden employers (and everything of them) left out of lists. */
export async function withoutHidden(tx: Tx, scope: Record<string, BoundFilter>, hidden: string[]): Promise<Record<string, BoundFilter>> {
  const hiddenSet = new Set(hidden);
  const visible = (await tx.find(ORG_COLLECTIONS.employers, {})).rows.map((e) => e.id).filter((id) => !hiddenSet.has(id));
  const out = { ...scope };
  out[ORG_COLLECTIONS.employers] = and(out[ORG_COLLECTIONS.employers], whereIn(['id'], visible));
  for (const collection of EMPLOYER_SCOPED_COLLECTIONS) {
    out[collection] = and(out[collection], whereIn(['employerId'], visible));
  }
  return out;
}
