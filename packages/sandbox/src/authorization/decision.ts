// The five-step authorization decision of contract §5.7, run in order for every call of a
// user the model knows: 1 the client is linked to the activity, 2 the user has a right
// granting it, 3 the user's role allows it (and may narrow the data scope), 4 the provider or
// employer has the module the activity needs, 5 the user has access to the entity. The
// entity a call is about is found from the path's ids through the store (an employment
// belongs to its employer, a journal profile to its administration's employer or its wage
// model's provider, ...); an id the store does not know is left to the handler (404).
import type { BoundFilter } from '../filter/tree.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import { JOURNAL_COLLECTIONS } from '../seed/journal.js';
import { COLLECTIONS } from '../domain/employments/model.js';
import type { Doc, Tx } from '../store/types.js';
import { EVERY_ACTIVITY, modulesOf, ownEntry, type AuthorizationModel, type UserEntry } from './model.js';

export type Step = 1 | 2 | 3 | 4 | 5;

/** Why a call is refused (403); `reason` is a short token for the sandbox-only header. */
export interface Refusal {
  step: Step;
  reason: string;
  message: string;
}

/** A granted call: the fixed constraints every list of a collection gets (data scope and entity access). */
export interface Grant {
  dataScope: Record<string, BoundFilter>;
}

/** Path parameters naming entities, and the collection each one is read from. */
const ENTITY_PARAMS: Record<string, string> = {
  providerId: ORG_COLLECTIONS.providers,
  logoId: ORG_COLLECTIONS.providerLogos,
  employerId: ORG_COLLECTIONS.employers,
  employeeId: COLLECTIONS.employees,
  employmentId: COLLECTIONS.employments,
  conceptEmployeeId: ORG_COLLECTIONS.conceptEmployees,
  payrollAdministrationId: ORG_COLLECTIONS.administrations,
  wageModelId: JOURNAL_COLLECTIONS.wageModels,
  journalProfileId: JOURNAL_COLLECTIONS.profiles,
  costCenterId: JOURNAL_COLLECTIONS.costCenters,
  costUnitId: JOURNAL_COLLECTIONS.costUnits,
};

/** Where an entity belongs: its employer, or (provider-level entities) its provider. */
interface Owner {
  employer?: Doc;
  providerId?: string;
}

/** Follows an entity's references up to its employer or provider (each hop one read). */
async function ownerOf(tx: Tx, collection: string, id: string, depth = 0): Promise<Owner | undefined> {
  const doc = await tx.get(collection, id);
  if (!doc || depth > 4) return undefined;
  if (collection === ORG_COLLECTIONS.employers) return { employer: doc };
  if (collection === ORG_COLLECTIONS.providers) return { providerId: doc.id };
  const via: Array<[string, string]> = [
    ['employerId', ORG_COLLECTIONS.employers],
    ['payrollAdministrationId', ORG_COLLECTIONS.administrations],
    ['journalProfileId', JOURNAL_COLLECTIONS.profiles],
    ['wageModelId', JOURNAL_COLLECTIONS.wageModels],
  ];
  for (const [field, target] of via) {
    const ref = doc[field];
    if (typeof ref === 'string') return (await ownerOf(tx, target, ref, depth + 1)) ?? {};
  }
  return typeof doc.providerId === 'string' ? { providerId: doc.providerId } : {};
}

/** Whether a list of activities grants the call: it names one of the activities the call is granted as (see grantingActivities), or every activity. */
const grants = (activities: string[] | undefined, grantedAs: readonly string[]) => Array.isArray(activities) && (activities.includes(EVERY_ACTIVITY) || grantedAs.some((activity) => activities.includes(activity)));
export const whereIn = (path: string[], values: string[]): BoundFilter => ({ kind: 'in', field: { path, type: 'string' }, values });
export const and = (left: BoundFilter | undefined, right: BoundFilter): BoundFilter => (left ? { kind: 'and', left, right } : right);

/** The collections listed across employers, each doc naming its employer (employerId). */
export const EMPLOYER_SCOPED_COLLECTIONS = [ORG_COLLECTIONS.administrations, ORG_COLLECTIONS.conceptEmployees, COLLECTIONS.employees, COLLECTIONS.employments];

/** The owners of the entities a call's path names (ids the store does not know are left out). */
async function entityOwners(tx: Tx, params: Record<string, string>): Promise<Owner[]> {
  const owners: Owner[] = [];
  for (const [param, collection] of Object.entries(ENTITY_PARAMS)) {
    const id = params[param];
    const owner = id === undefined ? undefined : await ownerOf(tx, collection, id);
    if (owner) owners.push(owner);
  }
  return owners;
}

/** The employers the entities of a call's path belong to. */
export async function entityEmployers(tx: Tx, params: Record<string, string>): Promise<string[]> {
  return (await entityOwners(tx, params)).flatMap((owner) => (owner.employer ? [owner.employer.id] : []));
}

/** The record of a dated chain that holds on `today`, else the last one started before it, else the first. */
function currentRecord(records: Doc[], today: string): Doc | undefined {
  const sorted = [...records].sort((a, b) => String(a.startDate).localeCompare(String(b.startDate)));
  const valid = sorted.filter((r) => String(r.startDate) <= today && (r.endDate === null || r.endDate === undefined || String(r.endDate) >= today));
  return valid.at(-1) ?? sorted.filter((r) => String(r.startDate) <= today).at(-1) ?? sorted[0];
}

/** The employments and employees in a department: those whose current organizational entity names it. */
export async function departmentMembers(tx: Tx, department: { employerId: string; code: number }, today: string): Promise<{ employments: Set<string>; employees: Set<string> }> {
  const where: BoundFilter = { kind: 'and', left: whereIn(['employerId'], [department.employerId]), right: whereIn(['section'], ['organizationalEntity']) };
  const byEmployment = new Map<string, Doc[]>();
  for (const record of (await tx.find(COLLECTIONS.employmentRecords, { where })).rows) {
    const key = String(record.employmentId);
    byEmployment.set(key, [...(byEmployment.get(key) ?? []), record]);
  }
  const employments = new Set<string>();
  for (const [employmentId, records] of byEmployment) {
    const data = currentRecord(records, today)?.data as { department?: { code?: unknown } | null } | undefined;
    if (data?.department?.code === department.code) employments.add(employmentId);
  }
  const rows = employments.size > 0 ? (await tx.find(COLLECTIONS.employments, { where: whereIn(['id'], [...employments]) })).rows : [];
  return { employments, employees: new Set(rows.map((e) => String(e.employeeId))) };
}

export async function decide(
  tx: Tx,
  model: AuthorizationModel,
  call: { username: string; user: UserEntry; clientId: string; activity: string; grantedAs?: readonly string[]; params: Record<string, string>; today: string },
): Promise<Refusal | Grant> {
  const { username, user, clientId, activity, params } = call;
  const grantedAs = call.grantedAs ?? [activity];

  // 1. The client is linked to the activity.
  const client = ownEntry(model.clients, clientId);
  if (!client) return { step: 1, reason: 'unknown-client', message: `The client ${clientId} is not known, so it is linked to no activity (${activity}).` };
  if (!grants(client.activities, grantedAs)) return { step: 1, reason: 'client-not-linked', message: `The client ${clientId} is not linked to the activity ${activity}.` };

  // 2. The user has a right granting the activity.
  if (!user.rights.some((right) => grants(ownEntry(model.rights, right)?.activities, grantedAs))) {
    return { step: 2, reason: 'no-right', message: `The user ${username} has no right granting the activity ${activity}.` };
  }

  // 3. The role allows it through a right, and may narrow the data scope.
  const role = ownEntry(model.roles, user.role);
  if (!role || !role.rights.some((right) => grants(ownEntry(model.rights, right)?.activities, grantedAs))) {
    return { step: 3, reason: 'role-not-allowed', message: `The role ${user.role} does not allow the activity ${activity}.` };
  }
  const dataScope: Record<string, BoundFilter> = {};
  if (role.dataScope === 'department' && user.department) {
    const members = await departmentMembers(tx, user.department, call.today);
    for (const [param, set, what] of [['employeeId', members.employees, 'employee'], ['employmentId', members.employments, 'employment']] as const) {
      const id = params[param];
      if (id !== undefined && !set.has(id) && (await tx.get(ENTITY_PARAMS[param]!, id))) {
        return { step: 3, reason: 'outside-data-scope', message: `The role ${user.role} limits the user ${username} to department ${user.department.code}; the ${what} ${id} is not in it.` };
      }
    }
    dataScope[COLLECTIONS.employees] = whereIn(['id'], [...members.employees]);
    dataScope[COLLECTIONS.employments] = whereIn(['id'], [...members.employments]);
  }

  const owners = await entityOwners(tx, params);

  // 4. The provider or employer has the module the activity needs enabled.
  const needed = Object.entries(model.modules).filter(([, entry]) => grantedAs.some((name) => entry.activities.includes(name))).map(([module]) => module);
  for (const module of needed) {
    for (const owner of owners) {
      if (owner.employer && !modulesOf(owner.employer).includes(module)) {
        return { step: 4, reason: 'module-disabled', message: `The employer ${String(owner.employer.companyName)} does not have the module ${module} enabled, which the activity ${activity} needs.` };
      }
      if (!owner.employer && owner.providerId && !(ownEntry(model.providers, owner.providerId)?.modules ?? []).includes(module)) {
        return { step: 4, reason: 'module-disabled', message: `The provider ${owner.providerId} does not have the module ${module} enabled, which the activity ${activity} needs.` };
      }
    }
  }

  // 5. The user has access to the entity.
  if (user.employers !== 'all') {
    const reachable = new Set(user.employers);
    for (const owner of owners) {
      if (owner.employer && !reachable.has(owner.employer.id)) {
        return { step: 5, reason: 'no-entity-access', message: `The user ${username} has no access to the employer ${owner.employer.id}.` };
      }
      if (!owner.employer && owner.providerId) {
        const ofProvider = await tx.find(ORG_COLLECTIONS.employers, { where: and(whereIn(['providerId'], [owner.providerId]), whereIn(['id'], user.employers)), limit: 1 });
        if (ofProvider.total === 0) return { step: 5, reason: 'no-entity-access', message: `The user ${username} has no access to the provider ${owner.providerId}.` };
      }
    }
    // Lists across employers show only the employers the user is linked to.
    const employers = [...reachable];
    dataScope[ORG_COLLECTIONS.employers] = whereIn(['id'], employers);
    for (const collection of EMPLOYER_SCOPED_COLLECTIONS) {
      dataScope[collection] = and(dataScope[collection], whereIn(['employerId'], employers));
    }
  }
  return { dataScope };
}
