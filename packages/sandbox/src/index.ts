// @payroll-api/sandbox: the stateful sandbox of both APIs as an engine that speaks the Fetch API.
//   const sandbox = await createSandbox();
//   const res = await sandbox.fetch('http://sandbox.test/v2/v2/providers', { headers: { Authorization: 'Bearer t' } });
// It answers exactly what `payroll-mock` answers over HTTP (the same pipeline runs there), in
// any runtime with fetch: Node, vitest (no port), a browser, a service worker (see ./msw).
import { payrollDescription, journalDescription } from './generated/descriptions.js';
import { createPipeline, type PipelineResult } from './engine/pipeline.js';
import { bytesBody, fromFetchRequest, fromUrlAndInit, type SandboxRequest } from './http/request.js';
import { toFetchResponse } from './http/response.js';
import { loadApi, type ApiName, type LoadedApi } from './http/spec.js';
import { createSandboxResponder, type StoreFactory } from './responder/responder.js';
import { snapshotProblems } from './control/snapshot-check.js';
import { DocSchemas } from './domain/doc-schemas.js';
import { collectionTable } from './responder/responder.js';
import { RESOURCE_MODULES } from './resources/index.js';
import { DerivedBehaviour } from './resources/derived.js';
import { seedWithExamples } from './resources/derived-examples.js';
import { seedCollectionNames, sharedSeed } from './seed/index.js';
import { buildScenario, type Scenario, type ScenarioResult } from './control/scenario.js';
import { emptySeed } from './seed/empty.js';
import type { Snapshot as StoredState } from './store/types.js';
import { utf8 } from './util/bytes.js';
import type { ActivityName, EntityList, EntityOf, EntityPage, EntityQuery, FaultRule, FaultRuleInput, OneOffAnswer, OneOffAnswerOf, ScenarioList, ScenarioOf, ScenarioResultOf, Snapshot } from '@payroll-api/types/sandbox-control';
import { ENTITY_LISTS } from './control/entities.js';

export type { Scenario, ScenarioEntity, ScenarioList, ScenarioResult } from './control/scenario.js';
// The public shapes: fault rules by activity name, scenario results named by the scenario
// given, snapshot collections by their stored shapes.
export type { ActivityName, AnswerBody, AnswerStatus, EntityList, EntityOf, EntityPage, EntityQuery, EntityWhere, FaultRule, FaultRuleInput, OneOffAnswer, OneOffAnswerOf, ScenarioOf, ScenarioResultOf, Snapshot, StoredShapes } from '@payroll-api/types/sandbox-control';
export { FAULT_HEADER, FAULTS_PATH } from './faults/faults.js';
export { ANSWERS_PATH } from './faults/answers.js';
export { SEED_IDS } from './seed/ids.js';

/** The token the convenience methods act for when none is given (each token has its own sandbox). */
export const DEFAULT_TOKEN = 'sandbox-token';

export interface CreateSandboxOptions {
  /** What every sandbox starts from and goes back to on reset: the seed (default), nothing, or a snapshot. */
  seed?: 'default' | 'empty' | Snapshot;
  /** Partial entities made whole on top of the seed (or of empty): what every sandbox starts from and goes back to on reset. A bad scenario throws a TypeError listing its problems. */
  scenario?: Scenario;
  /** Lifetime of access tokens issued by POST /auth/token, in seconds (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Parsed bundles to serve instead of the built-in descriptions. */
  descriptions?: Partial<Record<ApiName, Record<string, unknown>>>;
  /** Largest request body in bytes (default 5 MiB, as the server). */
  maxBodyBytes?: number;
  /** Bytes of read answers kept to answer the same read again while nothing it read has changed
   * (0 keeps none; default 32 MiB). Answers are the same either way, only faster. */
  answerCacheBytes?: number;
  /** The store (default: in memory). */
  store?: StoreFactory;
  /** Diagnostics (default: console.warn). */
  log?: (line: string) => void;
}

export interface ClockState {
  sandbox: string;
  now: string;
  today: string;
  offsetMs: number;
}

/** Options of the convenience methods: the sandbox they act on is the token's. */
export interface TokenOption {
  token?: string;
}

export interface Sandbox {
  /** Answers a request exactly as the server does; a network-error fault rejects with a TypeError, as fetch does. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Back to the seed: one token's sandbox, or every sandbox of this engine when no token is given. */
  reset(options?: TokenOption): Promise<void>;
  /** The state of the token's sandbox. */
  snapshot(options?: TokenOption): Promise<Snapshot>;
  /**
   * Imports a snapshot into the token's sandbox (checked first: a bad one throws and changes
   * nothing). `mode: 'replace'` (default): the state becomes the snapshot, the collections it
   * leaves out emptied. `mode: 'merge'`: its docs are merged into the state by id (a stored id
   * replaced, a new one added, the rest kept), refused whole when that would break a unique
   * field or leave a relation dangling.
   */
  restore(snapshot: Snapshot, options?: TokenOption & { mode?: 'replace' | 'merge' }): Promise<void>;
  /**
   * Starts the token's sandbox from the seed or from empty plus the scenario's entities, in one
   * step (a bad scenario throws and changes nothing); the ids of the entities added. `mode:
   * 'merge'`: no start; the entities join the current state, merged by id.
   */
  scenario<L extends ScenarioList = never, const R extends string = never>(
    scenario: ScenarioOf<L, R>,
    options?: TokenOption & { mode?: 'replace' | 'merge' },
  ): Promise<ScenarioResultOf<L, R> & { sandbox: string }>;
  /** The sandbox clock of the token's sandbox (Expires, version obsolescence and every date rule read it). */
  clock: {
    get(options?: TokenOption): Promise<ClockState>;
    /** Sets the clock to an instant; null goes back to real time. */
    set(at: Date | string | null, options?: TokenOption): Promise<ClockState>;
    advance(by: { days?: number; hours?: number; minutes?: number; seconds?: number }, options?: TokenOption): Promise<ClockState>;
  };
  /** Fault rules of the token's sandbox (see FaultRule): activities by name, or '*' for every operation. */
  faults: {
    list(options?: TokenOption): Promise<FaultRule[]>;
    add(rules: FaultRuleInput[], options?: TokenOption): Promise<FaultRule[]>;
    clear(options?: TokenOption): Promise<void>;
  };
  /**
   * One-off answers of the token's sandbox: the next `times` calls (default 1) of an activity that
   * pass authentication and authorization are answered with a status, body and headers typed by
   * the activity's description, and change nothing stored. A reset clears them.
   *   await sandbox.answers.next('PutEmployeeByEmployeeId', { status: 400, body: { version, messages } });
   */
  answers: {
    next<A extends ActivityName>(activity: A, answer: OneOffAnswerOf<A>, options?: TokenOption & { times?: number }): Promise<OneOffAnswer>;
    list(options?: TokenOption): Promise<OneOffAnswer[]>;
    clear(options?: TokenOption): Promise<void>;
  };
  /**
   * The token's sandbox's entities in the shape the API serves them, without the API's paths:
   * `where` by equality of fields (typed by the read shape), `filter` and `orderBy` in the API's
   * syntax, at most `take` (default 100, at most 1000) after `skip`.
   *   await sandbox.entities.employees.findMany({ where: { personalDetails: { lastName: 'Visser' } } });
   */
  entities: { [L in EntityList]: EntityFinder<L> };
  /** The descriptions served. */
  readonly apis: ReadonlyArray<LoadedApi>;
  close(): Promise<void>;
}

/** Finds entities of one list in their read shape. */
export interface EntityFinder<L extends EntityList> {
  /** The matching entities (a page of them) and how many match. */
  find(query?: EntityQuery<L>, options?: TokenOption): Promise<EntityPage<L>>;
  /** The matching entities (at most `take`). */
  findMany(query?: EntityQuery<L>, options?: TokenOption): Promise<Array<EntityOf<L>>>;
  /** The first match, or undefined. */
  findFirst(query?: Omit<EntityQuery<L>, 'take'>, options?: TokenOption): Promise<EntityOf<L> | undefined>;
}

/** A refused control call of the convenience methods: the status and the messages the sandbox gave. */
export class SandboxControlError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    const messages = (body as { messages?: Array<{ description?: string }> } | null)?.messages;
    super(`the sandbox refused the call (${status})${messages?.length ? `: ${messages.map((m) => m.description).join(' ')}` : ''}`);
    this.name = 'SandboxControlError';
  }
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;

/** The seed to start from; undefined: the default seed, which the responder generates once. */
function seedOf(option: CreateSandboxOptions['seed'], apis: LoadedApi[]): StoredState | undefined {
  if (option === undefined || option === 'default') return undefined;
  if (option === 'empty') return emptySeed();
  const collections = collectionTable(RESOURCE_MODULES, seedCollectionNames(), apis);
  const problems = snapshotProblems(option as StoredState, collections, new DocSchemas(Object.fromEntries(apis.map((a) => [a.name, a.doc]))));
  if (problems.length > 0) throw new TypeError(`createSandbox: the seed snapshot is not valid:\n- ${problems.slice(0, 20).join('\n- ')}`);
  return { format: option.format, collections: option.collections as StoredState['collections'], meta: option.meta ?? {} };
}

/** The seed with the scenario's entities added, or a TypeError listing the scenario's problems. */
function withScenario(seed: StoredState | undefined, scenario: Scenario, apis: LoadedApi[]): StoredState {
  const base = seed ?? seedWithExamples(sharedSeed(), apis, new DerivedBehaviour(RESOURCE_MODULES));
  const collections = collectionTable(RESOURCE_MODULES, seedCollectionNames(), apis);
  const built = buildScenario(scenario, { seed: () => base, empty: emptySeed, collections, schemas: new DocSchemas(Object.fromEntries(apis.map((a) => [a.name, a.doc]))), apis });
  if (!built.ok) throw new TypeError(`createSandbox: the scenario is not valid:\n- ${built.problems.map((p) => `${p.path} ${p.message}`).join('\n- ')}`);
  return built.snapshot;
}

export async function createSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? ((line: string) => console.warn(line));
  const docs = { payroll: payrollDescription, journal: journalDescription, ...options.descriptions };
  const apis = (['payroll', 'journal'] as const).filter((name) => docs[name]).map((name) => loadApi(name, docs[name]!));
  const responder = await createSandboxResponder({
    apis: () => apis,
    seed: options.scenario ? withScenario(seedOf(options.seed, apis), options.scenario, apis) : seedOf(options.seed, apis),
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    answerCacheBytes: options.answerCacheBytes,
    store: options.store,
    log,
  });
  const pipeline = createPipeline({ apis: () => apis, responder: () => responder, mode: 'sandbox', maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY, log });

  async function answer(request: SandboxRequest): Promise<Response> {
    const out: PipelineResult = await pipeline(request);
    if (out === 'network-error') throw new TypeError('Failed to fetch (network error injected by the sandbox)');
    return toFetchResponse(out, request.method);
  }

  /** A control call through the pipeline, as a client would make it. */
  async function control(method: string, path: string, token: string, body?: unknown): Promise<unknown> {
    const bytes = body === undefined ? undefined : utf8(JSON.stringify(body));
    const req: SandboxRequest = {
      method,
      url: path,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}) },
      readBody: bytesBody(bytes),
    };
    const out = await pipeline(req);
    if (out === 'network-error') throw new SandboxControlError(0, null);
    const text = out.body === undefined ? '' : typeof out.body === 'string' ? out.body : new TextDecoder().decode(out.body);
    const parsed = text ? JSON.parse(text) : undefined;
    if (out.status >= 300) throw new SandboxControlError(out.status, parsed);
    return parsed;
  }
  const tokenOf = (o?: TokenOption) => o?.token ?? DEFAULT_TOKEN;

  return {
    apis,
    fetch: (input, init) => {
      if (init?.signal?.aborted) return Promise.reject(init.signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      const direct = input instanceof Request ? undefined : fromUrlAndInit(input, init);
      return answer(direct ?? fromFetchRequest(input instanceof Request && init === undefined ? input : new Request(input, init)));
    },
    async reset(o) {
      if (o?.token !== undefined) await control('POST', '/__sandbox/reset', o.token);
      else await responder.reset();
    },
    snapshot: async (o) => (await control('GET', '/__sandbox/snapshot', tokenOf(o))) as Snapshot,
    async restore(snapshot, o) {
      await control('PUT', `/__sandbox/snapshot?mode=${o?.mode ?? 'replace'}`, tokenOf(o), snapshot);
    },
    scenario: (async (scenario: Scenario, o?: TokenOption & { mode?: 'replace' | 'merge' }) =>
      (await control('POST', `/__sandbox/scenario?mode=${o?.mode ?? 'replace'}`, tokenOf(o), scenario)) as ScenarioResult & { sandbox: string }) as Sandbox['scenario'],
    clock: {
      get: async (o) => (await control('GET', '/__sandbox/clock', tokenOf(o))) as ClockState,
      set: async (at, o) => (await control('PUT', '/__sandbox/clock', tokenOf(o), { now: at instanceof Date ? at.toISOString() : at })) as ClockState,
      advance: async (by, o) => (await control('POST', '/__sandbox/clock/advance', tokenOf(o), by)) as ClockState,
    },
    faults: {
      list: async (o) => ((await control('GET', '/__sandbox/faults', tokenOf(o))) as { faults: FaultRule[] }).faults,
      add: async (rules, o) => ((await control('POST', '/__sandbox/faults', tokenOf(o), { faults: rules })) as { faults: FaultRule[] }).faults,
      async clear(o) {
        await control('DELETE', '/__sandbox/faults', tokenOf(o));
      },
    },
    answers: {
      async next(activity, answer, o) {
        const given: object = { operation: activity, ...(answer as object), ...(o?.times === undefined ? {} : { times: o.times }) };
        const { answers } = (await control('POST', '/__sandbox/answers', tokenOf(o), { answers: [given] })) as { answers: OneOffAnswer[] };
        return answers[answers.length - 1]!;
      },
      list: async (o) => ((await control('GET', '/__sandbox/answers', tokenOf(o))) as { answers: OneOffAnswer[] }).answers,
      async clear(o) {
        await control('DELETE', '/__sandbox/answers', tokenOf(o));
      },
    },
    entities: Object.fromEntries(
      Object.keys(ENTITY_LISTS).map((list) => {
        const find = async (query: object = {}, o?: TokenOption) => (await control('POST', `/__sandbox/entities/${list}/find`, tokenOf(o), query)) as EntityPage<EntityList>;
        return [list, { find, findMany: async (query?: object, o?: TokenOption) => (await find(query, o)).entities, findFirst: async (query?: object, o?: TokenOption) => (await find({ ...query, take: 1 }, o)).entities[0] }];
      }),
    ) as unknown as Sandbox['entities'],
    close: () => responder.close(),
  };
}
