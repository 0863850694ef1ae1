// The typed client of the reference sandbox's control endpoints (`/__sandbox/*`), described by
// spec/sandbox-control. It acts on the sandbox its token reaches, as API calls do. Paths the
// description marks `x-sandbox-status: planned` have no call here: the sandbox does not serve
// them yet. A refused call throws an ApiError, as the API clients do (`isApiError` of
// `@payroll-api/client/forms` recognises it).
import type {
  ActivityName,
  AuthorizationModel,
  EntityList,
  EntityOf,
  EntityPage,
  EntityQuery,
  FaultRule,
  FaultRuleInput,
  OneOffAnswer,
  OneOffAnswerOf,
  RequestBody,
  ResponseBody,
  ScenarioList,
  ScenarioOf,
  ScenarioResultOf,
  Schemas,
  Snapshot,
} from '@payroll-api/types/sandbox-control';
import { ABSOLUTE_URL, type FetchLike } from './auth.js';
import { ApiError, type Message } from './errors.js';
import { journalOperations, payrollOperations } from './generated/operations.js';
import type { ActivityRoutes } from './types.js';

export type {
  AnswerBody,
  AnswerStatus,
  AuthorizationModel,
  ClientEntry,
  ClockState,
  EntityList,
  EntityOf,
  EntityPage,
  EntityQuery,
  EntityWhere,
  FaultRule,
  FaultRuleInput,
  ModuleEntry,
  OneOffAnswer,
  OneOffAnswerOf,
  ModulesEntry,
  RightEntry,
  RoleEntry,
  Scenario,
  ScenarioEntity,
  ScenarioOf,
  ScenarioResult,
  ScenarioResultOf,
  Snapshot,
  StoredShapes,
  UserEntry,
} from '@payroll-api/types/sandbox-control';

export interface SandboxControlOptions {
  /** The sandbox's root address, e.g. `http://127.0.0.1:4010` (`startMock().url`). */
  baseUrl: string;
  /** The bearer token whose sandbox the calls act on. */
  token: string;
  fetch?: FetchLike;
}

/** An activity name (operationId) of either API. */
export type Activity = keyof ActivityRoutes;

/** The parts of the authorization model and the shape of one entry of each. */
export interface AuthorizationParts {
  clients: Schemas['ClientEntry'];
  rights: Schemas['RightEntry'];
  roles: Schemas['RoleEntry'];
  users: Schemas['UserEntry'];
  modules: Schemas['ModuleEntry'];
  providers: Schemas['ModulesEntry'];
  employers: Schemas['ModulesEntry'];
}
export type AuthorizationPart = keyof AuthorizationParts;

/** What makes a user restricted: any mix of a data scope, missing rights and missing modules. */
export interface RestrictedUserOptions {
  /** Lowercase letters, digits, `-` and `_` (it becomes part of a bearer token). */
  username: string;
  /** Default `Welkom01!`, the seeded users' password. */
  password?: string;
  /** A role whose data scope is this department: the user sees only its employees and employments. */
  department?: { employerId: string; code: number };
  /** Activities no right of the user grants (each call of them is refused at step 2). */
  withoutActivities?: readonly Activity[];
  /** Modules taken from every provider and employer of the user's sandbox (step 4). */
  withoutModules?: readonly string[];
  /** `all` (default) or the employers the user is linked to (step 5). */
  employers?: 'all' | string[];
  /** Start the user's sandbox from the caller's state (a snapshot copy) instead of the seed. */
  copyState?: boolean;
}

export interface RestrictedUser {
  username: string;
  password: string;
  /** The client of the model the user's token acts through. */
  clientId: string;
  /** The user's fixed sandbox token, `sandbox-user-<username>`: use it as the bearer token of API calls. */
  token: string;
  /** The control client of the user's sandbox. */
  control: SandboxControl;
}

/** The user's fixed sandbox token (the sandbox's own, never a production token). */
export const sandboxUserToken = (username: string): string => `sandbox-user-${username}`;

/** Every list the entity read offers (the mapped type makes the compiler hold it to the description's). */
const ENTITY_LISTS: { [L in EntityList]: true } = {
  providers: true,
  employers: true,
  administrations: true,
  employees: true,
  employments: true,
  conceptEmployees: true,
  providerJournalProfiles: true,
  journalProfiles: true,
  administrationJournalProfiles: true,
  costCenters: true,
  costUnits: true,
  matrixEntries: true,
};

/** Finds entities of one list of the sandbox in their read shape (PostSandboxEntitiesFind). */
export interface EntityFinder<L extends EntityList> {
  /** The matching entities (at most `take`, default 100, after `skip`) and how many match. */
  find(query?: EntityQuery<L>): Promise<EntityPage<L>>;
  findMany(query?: EntityQuery<L>): Promise<Array<EntityOf<L>>>;
  /** The first match, or undefined. */
  findFirst(query?: Omit<EntityQuery<L>, 'take'>): Promise<EntityOf<L> | undefined>;
}

const EVERY_ACTIVITY = '*';
const PART_NAMES: Record<AuthorizationPart, string> = { clients: 'Client', rights: 'Right', roles: 'Role', users: 'User', modules: 'Module', providers: 'Provider', employers: 'Employer' };
const USERNAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export type SandboxControl = ReturnType<typeof createSandboxControl>;

export function createSandboxControl(options: SandboxControlOptions) {
  if (!ABSOLUTE_URL.test(options?.baseUrl ?? '')) throw new TypeError(`baseUrl must be the sandbox's absolute http(s) address, got ${JSON.stringify(options?.baseUrl)}`);
  if (!/^[\w-]+$/.test(options.token ?? '')) throw new TypeError('token must be a bearer token of letters, digits, _ and - (the contract pattern)');
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));

  async function call<T>(operation: string, method: string, path: string, body?: unknown, form?: boolean): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    const response = await fetchFn(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the ApiError carries the text.
    }
    if (!response.ok) throw new ApiError<Message>(response.status, operation, parsed);
    return parsed as T;
  }
  /** The operationId of a call on a part: `GetAuthorization${Entries}`, `PutAuthorization${Entry}ById`. */
  const named = (verb: string, part: AuthorizationPart, one: boolean) => `${verb}Authorization${PART_NAMES[part]}${one ? 'ById' : 's'}`;
  const entryPath = (part: AuthorizationPart, id?: string) => `/__sandbox/authorization/${part}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

  const control = {
    /** Back to the seed (PostSandboxReset). */
    reset: () => call<ResponseBody<'PostSandboxReset'>>('PostSandboxReset', 'POST', '/__sandbox/reset'),
    /** The whole state (GetSandboxSnapshot). */
    exportSnapshot: () => call<Snapshot>('GetSandboxSnapshot', 'GET', '/__sandbox/snapshot'),
    /**
     * Import a snapshot; a bad one throws a 400 ApiError listing its problems and changes nothing
     * (PutSandboxSnapshot). `mode: 'replace'` (default): the state becomes the snapshot;
     * `mode: 'merge'`: its docs are merged into the state by id, the rest kept.
     */
    importSnapshot: (snapshot: Snapshot, options?: { mode?: 'replace' | 'merge' }) =>
      call<ResponseBody<'PutSandboxSnapshot'>>('PutSandboxSnapshot', 'PUT', `/__sandbox/snapshot?mode=${options?.mode ?? 'replace'}`, snapshot),
    /**
     * Start from the seed or from empty plus partial entities made whole, relations by id or by
     * `ref`, in one step; a bad scenario throws a 400 ApiError naming every problem's path and
     * changes nothing (PostSandboxScenario). `mode: 'merge'`: no start; the entities are merged
     * into the current state by id. The result names the lists and refs of the scenario given:
     * `(await control.scenario({ entities: { employers: [{ ref: 'bakery' }] } })).refs.bakery`.
     */
    scenario: <L extends ScenarioList = never, const R extends string = never>(scenario: ScenarioOf<L, R>, options?: { mode?: 'replace' | 'merge' }) =>
      call<ScenarioResultOf<L, R>>('PostSandboxScenario', 'POST', `/__sandbox/scenario?mode=${options?.mode ?? 'replace'}`, scenario),
    /** The seeded providers, employers, payroll administrations, wage models and journal profiles this sandbox still holds: ids to start from (GetSandboxSeededIds). */
    seededIds: async () => (await call<ResponseBody<'GetSandboxSeededIds'>>('GetSandboxSeededIds', 'GET', '/__sandbox/seeded-ids')).entities,
    /** Every sandbox that has written (GetSandboxes). */
    sandboxes: async () => (await call<ResponseBody<'GetSandboxes'>>('GetSandboxes', 'GET', '/__sandbox/sandboxes')).sandboxes,
    clock: {
      get: () => call<ResponseBody<'GetSandboxClock'>>('GetSandboxClock', 'GET', '/__sandbox/clock'),
      /** A date, a date-time or a Date; null goes back to real time. */
      set: (now: string | Date | null) =>
        call<ResponseBody<'PutSandboxClock'>>('PutSandboxClock', 'PUT', '/__sandbox/clock', { now: now instanceof Date ? now.toISOString() : now } satisfies RequestBody<'PutSandboxClock'>),
      advance: (by: RequestBody<'PostSandboxClockAdvance'>) => call<ResponseBody<'PostSandboxClockAdvance'>>('PostSandboxClockAdvance', 'POST', '/__sandbox/clock/advance', by),
    },
    /** Fault rules of the sandbox: chosen activities answer an error status, lag or fail at the network level. */
    faults: {
      list: async () => (await call<{ faults: FaultRule[] }>('GetSandboxFaults', 'GET', '/__sandbox/faults')).faults,
      /**
       * Add rules, e.g. `[{ operations: ['GetEmployeesByEmployerId'], status: 503, times: 1 }]`: the
       * activities by name (a misspelt one is a type error), or `'*'` for every operation; a bad
       * rule throws a 400 ApiError naming its field.
       */
      add: async (rules: FaultRuleInput[]) => (await call<{ faults: FaultRule[] }>('PostSandboxFaults', 'POST', '/__sandbox/faults', { faults: rules })).faults,
      replace: async (rules: FaultRuleInput[]) => (await call<{ faults: FaultRule[] }>('PutSandboxFaults', 'PUT', '/__sandbox/faults', { faults: rules })).faults,
      remove: async (id: string) => (await call<{ faults: FaultRule[] }>('DeleteSandboxFaultById', 'DELETE', `/__sandbox/faults/${encodeURIComponent(id)}`)).faults,
      clear: async () => (await call<{ faults: FaultRule[] }>('DeleteSandboxFaults', 'DELETE', '/__sandbox/faults')).faults,
    },
    /**
     * One-off answers of the sandbox: the next `times` calls (default 1) of an activity that pass
     * authentication and authorization get the status, body and headers given (typed by the
     * activity's description: a status it does not answer, or a body of another shape, is a type
     * error), and change nothing stored.
     */
    answers: {
      list: async () => (await call<{ answers: OneOffAnswer[] }>('GetSandboxAnswers', 'GET', '/__sandbox/answers')).answers,
      /** E.g. `next('PutEmployeeByEmployeeId', { status: 400, body: { version, messages } }, { times: 1 })`; the answer as kept. */
      next: async <A extends ActivityName>(activity: A, answer: OneOffAnswerOf<A>, options?: { times?: number }): Promise<OneOffAnswer> => {
        const given = { operation: activity, ...(answer as object), ...(options?.times === undefined ? {} : { times: options.times }) };
        const { answers } = await call<{ answers: OneOffAnswer[] }>('PostSandboxAnswers', 'POST', '/__sandbox/answers', { answers: [given] });
        return answers[answers.length - 1]!;
      },
      remove: async (id: string) => (await call<{ answers: OneOffAnswer[] }>('DeleteSandboxAnswerById', 'DELETE', `/__sandbox/answers/${encodeURIComponent(id)}`)).answers,
      clear: async () => (await call<{ answers: OneOffAnswer[] }>('DeleteSandboxAnswers', 'DELETE', '/__sandbox/answers')).answers,
    },
    /**
     * The sandbox's entities in the shape the API serves them, without the API's paths:
     * `control.entities.employees.findMany({ where: { personalDetails: { lastName: 'Visser' } } })`;
     * `filter` and `orderBy` take the API's syntax.
     */
    entities: Object.fromEntries(
      Object.keys(ENTITY_LISTS).map((list) => {
        const find = (query: object = {}) => call<EntityPage<EntityList>>('PostSandboxEntitiesFind', 'POST', `/__sandbox/entities/${list}/find`, query);
        return [list, { find, findMany: async (query?: object) => (await find(query)).entities, findFirst: async (query?: object) => (await find({ ...query, take: 1 })).entities[0] }];
      }),
    ) as unknown as { [L in EntityList]: EntityFinder<L> },
    settings: {
      get: () => call<ResponseBody<'GetSandboxSettings'>>('GetSandboxSettings', 'GET', '/__sandbox/settings'),
      /** Change the given settings, e.g. `{ unknownFields: 'warn' }`; the others stay. */
      set: (settings: RequestBody<'PutSandboxSettings'>) => call<ResponseBody<'PutSandboxSettings'>>('PutSandboxSettings', 'PUT', '/__sandbox/settings', settings),
    },
    authorization: {
      get: () => call<AuthorizationModel>('GetAuthorizationModel', 'GET', '/__sandbox/authorization'),
      /** Replace the model; checked whole, a 400 changes nothing. Employers left out keep their modules. */
      put: (model: RequestBody<'PutAuthorizationModel'>) => call<AuthorizationModel>('PutAuthorizationModel', 'PUT', '/__sandbox/authorization', model),
      reset: () => call<AuthorizationModel>('PostAuthorizationModelReset', 'POST', '/__sandbox/authorization/reset'),
      list: <P extends AuthorizationPart>(part: P) => call<Record<string, AuthorizationParts[P]>>(named('Get', part, false), 'GET', entryPath(part)),
      entry: <P extends AuthorizationPart>(part: P, id: string) => call<AuthorizationParts[P]>(named('Get', part, true), 'GET', entryPath(part, id)),
      /** Create or replace one entry. */
      putEntry: <P extends AuthorizationPart>(part: P, id: string, entry: AuthorizationParts[P]) => call<AuthorizationParts[P]>(named('Put', part, true), 'PUT', entryPath(part, id), entry),
      /** Remove one entry (not of providers or employers). */
      deleteEntry: (part: Exclude<AuthorizationPart, 'providers' | 'employers'>, id: string) => call<ResponseBody<'DeleteAuthorizationUserById'>>(named('Delete', part, true), 'DELETE', entryPath(part, id)),
    },

    /**
     * A user of the authorization model restricted as asked, in one call: its own client
     * (linked to every activity), a right granting every activity but `withoutActivities`, a
     * role with the right and, with `department`, a department data scope, and
     * `withoutModules` taken from every provider and employer. The model is replaced in one
     * checked request in the user's sandbox (a bad option changes nothing), and the user's
     * token is returned.
     */
    async restrictedUser(restriction: RestrictedUserOptions): Promise<RestrictedUser> {
      const { username, password = 'Welkom01!', department, withoutActivities = [], withoutModules = [], employers = 'all' } = restriction;
      if (!USERNAME.test(username ?? '')) throw new TypeError(`restrictedUser: username must be 1 to 64 lowercase letters, digits, - and _, got ${JSON.stringify(username)}`);
      const token = sandboxUserToken(username);
      const user = createSandboxControl({ ...options, token });
      if (restriction.copyState) await user.importSnapshot(await control.exportSnapshot());
      const model = await user.authorization.get();
      const every = [...Object.values(payrollOperations), ...Object.values(journalOperations)].map((entry) => entry[0] as string);
      const removed = new Set<string>(withoutActivities);
      const unknown = [...removed].filter((activity) => !every.includes(activity));
      if (unknown.length > 0) throw new TypeError(`restrictedUser: ${unknown.join(', ')} is not an activity of the API`);
      const clientId = `${username}-client`;
      const rightId = `${username}-right`;
      const roleId = `${username}-role`;
      const withoutModule = (entries: Record<string, { modules: string[] }>) =>
        Object.fromEntries(Object.entries(entries).map(([id, entry]) => [id, { modules: entry.modules.filter((m) => !withoutModules.includes(m)) }]));
      await user.authorization.put({
        ...model,
        clients: { ...model.clients, [clientId]: { name: `${username} (restricted)`, secret: null, activities: [EVERY_ACTIVITY] } },
        rights: { ...model.rights, [rightId]: { name: `${username}: every activity but ${removed.size}`, activities: removed.size === 0 ? [EVERY_ACTIVITY] : every.filter((a) => !removed.has(a)) } },
        roles: { ...model.roles, [roleId]: { name: `${username} role`, rights: [rightId], dataScope: department ? 'department' : 'all' } },
        users: { ...model.users, [username]: { name: username, password, client: clientId, role: roleId, rights: [rightId], employers, department: department ?? null } },
        providers: withoutModule(model.providers),
        employers: withoutModule(model.employers),
      });
      return { username, password, clientId, token, control: user };
    },
  };
  return control;
}
