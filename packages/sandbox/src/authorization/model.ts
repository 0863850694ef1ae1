// The authorization model of a sandbox (contract §5.7): its shape, how it is read from and
// written to the sandbox's store, and the check every edit passes before anything changes.
// Each sandbox holds its own copy (reset and snapshots include it); employers' modules are
// the `modules` field of the employer docs, which the employment-notification rule reads too.
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import { AUTHORIZATION_COLLECTION, AUTHORIZATION_MODEL_ID } from '../seed/authorization.js';
import type { Doc, Tx } from '../store/types.js';

/** Every activity (in a client's or a right's activities). */
/** The entry of a model part under `key`, its own only: names such as constructor or
 * hasOwnProperty reach Object.prototype's members through a plain lookup, never an entry. */
export function ownEntry<T>(entries: Record<string, T> | undefined, key: string): T | undefined {
  return entries !== undefined && Object.prototype.hasOwnProperty.call(entries, key) ? entries[key] : undefined;
}

export const EVERY_ACTIVITY = '*';

/** Fixed sandbox tokens of the model's users: `sandbox-user-<username>` (sandbox only). */
export const USER_TOKEN_PREFIX = 'sandbox-user-';

export type DataScope = 'all' | 'department';

export interface ClientEntry {
  name: string;
  /** Required in the token request when not null (contract §5.4: depending on the client's configuration). */
  secret: string | null;
  activities: string[];
}
export interface RightEntry {
  name: string;
  activities: string[];
}
export interface RoleEntry {
  name: string;
  rights: string[];
  dataScope: DataScope;
}
export interface UserEntry {
  name: string;
  password: string;
  /** The client the user's fixed sandbox token acts through. */
  client: string;
  role: string;
  rights: string[];
  /** 'all' (a provider user) or the employers the user is linked to. */
  employers: 'all' | string[];
  /** The department a 'department' role is limited to: its code at one employer. */
  department: { employerId: string; code: number } | null;
}
export interface ModuleEntry {
  activities: string[];
}

export interface AuthorizationModel {
  clients: Record<string, ClientEntry>;
  rights: Record<string, RightEntry>;
  roles: Record<string, RoleEntry>;
  users: Record<string, UserEntry>;
  /** The module each listed activity needs. */
  modules: Record<string, ModuleEntry>;
  providers: Record<string, { modules: string[] }>;
}

/** The model as the control endpoints show it: with the employers' modules. */
export interface AuthorizationView extends AuthorizationModel {
  employers: Record<string, { modules: string[] }>;
}

export const KINDS = ['clients', 'rights', 'roles', 'users', 'modules', 'providers', 'employers'] as const;
export type Kind = (typeof KINDS)[number];

const FIELDS: Record<Kind, string[]> = {
  clients: ['name', 'secret', 'activities'],
  rights: ['name', 'activities'],
  roles: ['name', 'rights', 'dataScope'],
  users: ['name', 'password', 'client', 'role', 'rights', 'employers', 'department'],
  modules: ['activities'],
  providers: ['modules'],
  employers: ['modules'],
};

/** Usernames are lowercase so that they fit in a bearer token (`[\w-]+`) and match case-insensitively. */
const USERNAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const ID = /^[A-Za-z0-9][\w.@-]{0,99}$/;

export async function readModel(tx: Tx): Promise<AuthorizationModel | undefined> {
  const doc = await tx.get(AUTHORIZATION_COLLECTION, AUTHORIZATION_MODEL_ID);
  if (!doc) return undefined;
  const { id: _id, ...model } = doc;
  return model as unknown as AuthorizationModel;
}

export async function readView(tx: Tx): Promise<AuthorizationView> {
  const model = (await readModel(tx)) ?? { clients: {}, rights: {}, roles: {}, users: {}, modules: {}, providers: {} };
  const employers = await tx.find(ORG_COLLECTIONS.employers, {});
  return { ...model, employers: Object.fromEntries(employers.rows.map((e) => [e.id, { modules: modulesOf(e) }])) };
}

export function modulesOf(employer: Doc): string[] {
  return Array.isArray(employer.modules) ? (employer.modules as string[]) : [];
}

/** Stores a checked view: the model doc, and the modules of the employers it names. */
export async function writeView(tx: Tx, view: AuthorizationView): Promise<void> {
  const { employers, ...model } = view;
  await tx.replace(AUTHORIZATION_COLLECTION, { id: AUTHORIZATION_MODEL_ID, ...model });
  for (const [employerId, { modules }] of Object.entries(employers)) {
    const employer = await tx.get(ORG_COLLECTIONS.employers, employerId);
    if (employer && JSON.stringify(modulesOf(employer)) !== JSON.stringify(modules)) await tx.replace(ORG_COLLECTIONS.employers, { ...employer, modules });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '');

export interface CheckContext {
  /** The operationIds the mock serves (activity names). */
  activities: Set<string>;
  employers: Set<string>;
  providers: Set<string>;
}

/** What is wrong with a model (empty when it can be stored), each naming the field. */
export function modelProblems(value: unknown, known: CheckContext): Array<{ field: string; problem: string }> {
  const problems: Array<{ field: string; problem: string }> = [];
  const add = (field: string, problem: string) => problems.length < 20 && problems.push({ field, problem });
  if (!isObject(value)) return [{ field: 'body', problem: 'The model must be an object with clients, rights, roles, users, modules, providers and employers.' }];
  for (const key of Object.keys(value)) if (!(KINDS as readonly string[]).includes(key)) add(key, `unknown part; the model has ${KINDS.join(', ')}.`);
  const part = (kind: Kind): Record<string, Record<string, unknown>> => {
    const entries = value[kind];
    if (entries === undefined && kind === 'employers') return {};
    if (!isObject(entries)) {
      add(kind, 'must be an object of entries by id.');
      return {};
    }
    const out: Record<string, Record<string, unknown>> = {};
    for (const [id, entry] of Object.entries(entries)) {
      const at = `${kind}.${id}`;
      if (!(kind === 'users' ? USERNAME : ID).test(id)) add(at, kind === 'users' ? 'a username is 1 to 64 lowercase letters, digits, - and _, starting with a letter or digit.' : 'an id is 1 to 100 letters, digits, ., @, - and _.');
      if (!isObject(entry)) {
        add(at, 'must be an object.');
        continue;
      }
      for (const field of Object.keys(entry)) if (!FIELDS[kind].includes(field)) add(`${at}.${field}`, `unknown field; an entry of ${kind} has ${FIELDS[kind].join(', ')}.`);
      for (const field of FIELDS[kind]) if (!Object.prototype.hasOwnProperty.call(entry, field)) add(`${at}.${field}`, 'is required.');
      out[id] = entry;
    }
    return out;
  };
  const name = (at: string, v: unknown) => (typeof v === 'string' && v.trim() !== '' && v.length <= 200) || add(`${at}.name`, 'must be a non-empty string of at most 200 characters.');
  const activities = (at: string, v: unknown, wildcard: boolean) => {
    if (!isStringList(v)) return add(at, 'must be a list of activity names (operationIds).');
    for (const a of v) if (!(known.activities.has(a) || (wildcard && a === EVERY_ACTIVITY))) add(at, `${a} is not an activity of the API${wildcard ? " (operationIds, or '*' for every activity)" : ' (operationIds)'}.`);
  };
  const references = (at: string, v: unknown, ids: Set<string> | Record<string, unknown>, what: string) => {
    if (!isStringList(v)) return add(at, `must be a list of ${what} ids.`);
    for (const id of v) if (!(ids instanceof Set ? ids.has(id) : ownEntry(ids, id) !== undefined)) add(at, `${id} is not one of the ${what}.`);
  };

  const clients = part('clients');
  for (const [id, c] of Object.entries(clients)) {
    name(`clients.${id}`, c.name);
    if (c.secret !== null && (typeof c.secret !== 'string' || c.secret === '')) add(`clients.${id}.secret`, 'must be a non-empty string, or null when the client needs no secret.');
    activities(`clients.${id}.activities`, c.activities, true);
  }
  const rights = part('rights');
  for (const [id, r] of Object.entries(rights)) {
    name(`rights.${id}`, r.name);
    activities(`rights.${id}.activities`, r.activities, true);
  }
  const roles = part('roles');
  for (const [id, r] of Object.entries(roles)) {
    name(`roles.${id}`, r.name);
    references(`roles.${id}.rights`, r.rights, rights, 'rights');
    if (r.dataScope !== 'all' && r.dataScope !== 'department') add(`roles.${id}.dataScope`, "must be 'all' or 'department'.");
  }
  for (const [id, u] of Object.entries(part('users'))) {
    const at = `users.${id}`;
    name(at, u.name);
    if (typeof u.password !== 'string' || u.password === '') add(`${at}.password`, 'must be a non-empty string.');
    if (typeof u.client !== 'string' || ownEntry(clients, u.client) === undefined) add(`${at}.client`, 'must be one of the clients.');
    const role = typeof u.role === 'string' ? ownEntry(roles, u.role) : undefined;
    if (!role) add(`${at}.role`, 'must be one of the roles.');
    references(`${at}.rights`, u.rights, rights, 'rights');
    if (u.employers !== 'all') references(`${at}.employers`, u.employers, known.employers, 'employers');
    const department = u.department;
    if (department === null) {
      if (role?.dataScope === 'department') add(`${at}.department`, `is required: the role ${String(u.role)} limits the data scope to a department.`);
    } else if (!isObject(department) || typeof department.employerId !== 'string' || !Number.isInteger(department.code) || Object.keys(department).length !== 2) {
      add(`${at}.department`, 'must be null or {"employerId": "<uuid>", "code": <department code>}.');
    } else if (!(u.employers === 'all' || (Array.isArray(u.employers) && u.employers.includes(department.employerId)))) {
      add(`${at}.department.employerId`, 'must be an employer the user has access to.');
    }
  }
  for (const [id, m] of Object.entries(part('modules'))) activities(`modules.${id}.activities`, m.activities, false);
  for (const kind of ['providers', 'employers'] as const) {
    const ids = kind === 'providers' ? known.providers : known.employers;
    for (const [id, p] of Object.entries(part(kind))) {
      if (!ids.has(id)) add(`${kind}.${id}`, `is not one of the sandbox's ${kind}.`);
      if (!isStringList(p.modules)) add(`${kind}.${id}.modules`, 'must be a list of module names.');
    }
  }
  return problems;
}

/** An operation as the model reads it: its activity, its API's operations, and where to find its tags. */
export interface ActivityOperation {
  operationId: string;
  method: string;
  path: string;
  api: { doc: Record<string, unknown>; operations: ReadonlyArray<{ operationId: string; method: string; path: string }> };
}

function firstTag(doc: Record<string, unknown>, path: string, method: string): string | undefined {
  const item = (doc.paths as Record<string, Record<string, { tags?: unknown }>> | undefined)?.[path]?.[method];
  return Array.isArray(item?.tags) && typeof item.tags[0] === 'string' ? item.tags[0] : undefined;
}

const isRead = (method: string) => method === 'get' || method === 'head';

/** How many leading path segments two templates share (parameters count by name). */
function commonSegments(a: string, b: string): number {
  const left = a.split('/').filter(Boolean);
  const right = b.split('/').filter(Boolean);
  let count = 0;
  while (count < left.length && count < right.length && left[count] === right[count]) count += 1;
  return count;
}

/**
 * The activities whose grants an operation's activity takes. Its own name, where the model names
 * it anywhere (a client, a right or a module). An activity the model names nowhere, as one
 * described after the model was made, is granted as its API's other activities of the same tag
 * and kind (read: GET; write: the rest) are: the rights, clients and modules that list those;
 * with a tag no named activity has, as the activities of its kind nearest in the path tree.
 */
export function grantingActivities(model: AuthorizationModel, operation: ActivityOperation): string[] {
  const named = new Set<string>();
  for (const entries of [model.clients, model.rights, model.modules]) {
    for (const entry of Object.values(entries ?? {})) for (const activity of entry?.activities ?? []) named.add(activity);
  }
  if (named.has(operation.operationId)) return [operation.operationId];
  const candidates = operation.api.operations.filter((other) => other.operationId !== operation.operationId && named.has(other.operationId) && isRead(other.method) === isRead(operation.method));
  const tag = firstTag(operation.api.doc, operation.path, operation.method);
  let peers = tag === undefined ? [] : candidates.filter((other) => firstTag(operation.api.doc, other.path, other.method) === tag);
  if (peers.length === 0) {
    // A tag of its own: the activities nearest in the path tree (the longest shared prefix).
    const shared = (other: { path: string }) => commonSegments(other.path, operation.path);
    const nearest = Math.max(0, ...candidates.map(shared));
    peers = nearest > 0 ? candidates.filter((other) => shared(other) === nearest) : [];
  }
  return [operation.operationId, ...new Set(peers.map((peer) => peer.operationId))];
}
