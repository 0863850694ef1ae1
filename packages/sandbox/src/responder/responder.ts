// The sandbox responder: the stateful answer to every operation, per bearer token. Over the
// store it is given (memory here; memory kept in a directory, or PostgreSQL, in the Node
// server) it runs the handlers of the resource modules, the authorization decision, the OAuth
// token endpoint, the control endpoints and the fault rules (kept in the store too).
import type { SandboxRequest } from '../http/request.js';
import type { LoadedApi } from '../http/spec.js';
import { bodyForHandler, codeVersionProblems, windowOf } from '../engine/version-window.js';
import type { BodyProblems } from '../http/validate.js';
import { createProblems, type CreateRule } from '../domain/create-rules.js';
import { unauthorized } from '../http/authenticate.js';
import type { Outgoing } from '../http/outgoing.js';
import type { Exchange, Responder } from '../http/respond.js';
import { AUTH_COLLECTIONS } from '../auth/tokens.js';
import { TOKEN_PATH, tokenEndpoint } from '../auth/token-endpoint.js';
import { authorizeCall } from '../authorization/authorize.js';
import { hiddenEmployers } from '../authorization/teams.js';
import { AUTHORIZATION_PATH, authorizationControl } from '../control/authorization.js';
import { CONTROL_PREFIX, control } from '../control/control-endpoints.js';
import { controlCheck } from '../control/control-check.js';
import { controlDescription } from '../generated/control-description.js';
import { bearerToken } from '../http/authenticate.js';
import { pathParams } from '../http/route.js';
import { OPERATOR_PREFIX, operatorControl } from '../control/operator.js';
import { RESOURCE_MODULES } from '../resources/index.js';
import { seedCollectionNames, sharedSeed } from '../seed/index.js';
import type { CollectionSpec, Snapshot, Store, StoreOptions, Tx } from '../store/types.js';
import { MemoryStore } from '../store/memory.js';
import { answersControl, faultsControl } from '../control/faults.js';
import { entitiesControl, ENTITIES_PATH } from '../control/entities.js';
import { answersFor, ANSWERS_PATH, takeAnswer } from '../faults/answers.js';
import { drawFault, faultsFor, FAULTS_PATH } from '../faults/faults.js';
import { sandboxNow } from '../domain/clock.js';
import { AnswerCache } from '../engine/answer-cache.js';
import { DocSchemas } from '../domain/doc-schemas.js';
import { dispatch, type HandlerLookup } from '../engine/dispatch.js';
import { DerivedBehaviour } from '../resources/derived.js';
import { seedWithExamples } from '../resources/derived-examples.js';
import { principalOf, tokenRefusal } from '../engine/identity.js';
import { Refused, SandboxError, type Handler, type Principal, type ResourceModule } from '../domain/context.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
export const DEFAULT_ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** Opens the store the sandbox runs on, given the seed and the collections (see store/types.ts). */
export type StoreFactory = (options: StoreOptions) => Promise<Store>;

export interface SandboxResponderOptions {
  /** The descriptions currently served (they may be reloaded). */
  apis: () => LoadedApi[];
  /** The store (default: in memory). */
  store?: StoreFactory;
  /** What a sandbox starts from and goes back to on reset (default: the seed). */
  seed?: Snapshot;
  tokenLifetimeSeconds?: number;
  /** How long an unused refresh token stays valid, in ms (default: 30 days); a server that
   * removes idle sandboxes gives its idle time, so that a login outlives no sandbox. */
  refreshTokenLifetimeMs?: number;
  /** The resource modules (default: all of resources/index.ts). */
  modules?: ResourceModule[];
  /** A shared sandbox: only tokens issued by the token endpoint, to clients the operator
   * created; every sandbox belongs to one client (auth/tenants.ts). */
  hosted?: boolean;
  /** Serves /__operator/* to callers with this bearer token (control/operator.ts). */
  operatorToken?: string;
  /** Bytes of read answers kept to answer the same read again while nothing it read changed
   * (engine/answer-cache.ts); 0 keeps none. Default 32 MiB. */
  answerCacheBytes?: number;
  log: (line: string) => void;
}

/** Every handler by operationId; two modules answering one operation is a mistake. */
export function handlerTable(modules: ResourceModule[]): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const module of modules) {
    for (const [operationId, handler] of Object.entries(module.handlers)) {
      if (handlers.has(operationId)) throw new Error(`sandbox: two resource modules answer ${operationId}`);
      handlers.set(operationId, handler);
    }
  }
  return handlers;
}

/** Every create rule by operationId; a rule must be of an operation its own module answers. */
export function createRuleTable(modules: ResourceModule[]): Map<string, CreateRule> {
  const rules = new Map<string, CreateRule>();
  for (const module of modules) {
    for (const [operationId, rule] of Object.entries(module.creates ?? {})) {
      if (!module.handlers[operationId]) throw new Error(`sandbox: a create rule for ${operationId}, which its module does not answer`);
      rules.set(operationId, rule);
    }
  }
  return rules;
}

/** A create's body problems under its rule, read in the handlers' shape (as its handler will read it). */
function createBodyProblems(rules: ReadonlyMap<string, CreateRule>): BodyProblems {
  return (operation, body, requestVersion) => {
    const rule = rules.get(operation.operationId);
    if (!rule) return [];
    const window = windowOf(operation);
    try {
      return createProblems(rule, window && requestVersion ? bodyForHandler(window, requestVersion, body) : body);
    } catch (error) {
      if (error instanceof SandboxError) return error.messages;
      throw error;
    }
  };
}

/** The collections of the modules, of the operations derived from the descriptions, of the seed
 * and of the token endpoint, by name. */
export function collectionTable(modules: ResourceModule[], seedCollections: string[], apis: LoadedApi[] = [], derived = new DerivedBehaviour(modules)): Map<string, CollectionSpec> {
  const table = new Map<string, CollectionSpec>();
  for (const spec of [...AUTH_COLLECTIONS, ...modules.flatMap((m) => m.collections), ...apis.flatMap((api) => derived.of(api.name, api.doc).collections)]) {
    const known = table.get(spec.name);
    table.set(spec.name, { ...known, ...spec, unique: [...(known?.unique ?? []), ...(spec.unique ?? [])] });
  }
  for (const name of seedCollections) if (!table.has(name)) table.set(name, { name });
  return table;
}

export interface SandboxResponder extends Responder {
  store: Store;
  /** Puts one sandbox back at its start: its stored state (clock, settings and fault rules included); without an id, every sandbox. */
  reset(sandbox?: string): Promise<void>;
  close(): Promise<void>;
}

export async function createSandboxResponder(options: SandboxResponderOptions): Promise<SandboxResponder> {
  // Fail closed: a description whose versions the handlers are not written at is refused here.
  const disagreements = options.apis().flatMap((api) => codeVersionProblems(api).map((problem) => `${api.file}: ${problem}`));
  if (disagreements.length > 0) throw new Error(`the sandbox cannot serve this description: ${disagreements.join('; ')}`);
  const modules = options.modules ?? RESOURCE_MODULES;
  const handlers = handlerTable(modules);
  const createRules = createRuleTable(modules);
  const derived = new DerivedBehaviour(modules);
  const handlerOf: HandlerLookup = (operation) =>
    handlers.get(operation.operationId) ??
    derived.handlerFor(operation.api.name, operation.api.doc, operation.operationId) ?? {
      problem: derived.of(operation.api.name, operation.api.doc).problems.get(operation.operationId) ?? 'no resource module claims it',
    };
  // The default seed gains the docs of the derived collections that start from their examples.
  const seed = options.seed ?? seedWithExamples(sharedSeed(), options.apis(), derived);
  // A seed given as a snapshot may leave collections out; the default seed names them all.
  // Collections of operations described after the store opened (a reloaded description) need
  // no declaration: an undeclared collection reads empty and takes writes in every store.
  const collections = collectionTable(modules, options.seed ? seedCollectionNames() : Object.keys(seed.collections), options.apis(), derived);
  const open: StoreFactory = options.store ?? (async (storeOptions) => new MemoryStore(storeOptions));
  const store: Store = await open({ seed, seedOwned: options.seed === undefined, collections: [...collections.values()] });
  // The one place a reset happens: everything a sandbox holds lives in the store.
  const reset = async (sandbox?: string) => {
    if (sandbox !== undefined) return store.reset(sandbox);
    for (const { id } of await store.list()) await store.reset(id);
  };
  const cacheBytes = options.answerCacheBytes ?? DEFAULT_ANSWER_CACHE_BYTES;
  const answers = cacheBytes > 0 ? new AnswerCache(cacheBytes) : undefined;
  const activities = () => new Set(options.apis().flatMap((api) => api.operations.map((o) => o.operationId)));
  const lifetime = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  let schemas: { apis: LoadedApi[]; value: DocSchemas } | undefined;
  const docSchemas = () => {
    const apis = options.apis();
    if (schemas?.apis.length !== apis.length || schemas.apis.some((a, i) => a !== apis[i])) {
      const bundles = Object.fromEntries(apis.map((api) => [api.name, api.doc]));
      schemas = { apis, value: new DocSchemas(bundles) };
    }
    return schemas.value;
  };
  const hosted = options.hosted ?? false;
  const principal = (token: string | undefined) => principalOf(store, token, hosted);
  const checkControl = controlCheck(controlDescription);

  /** The control and operator endpoints, all under `/__`. */
  async function serveUnderscored(given: SandboxRequest, pathname: string): Promise<Outgoing | undefined> {
    if (pathname === OPERATOR_PREFIX || pathname.startsWith(`${OPERATOR_PREFIX}/`)) return operatorControl(given, pathname, { store, reset, operatorToken: options.operatorToken });
    let req = given;
    const token = bearerToken(given);
    if (pathname.startsWith(`${CONTROL_PREFIX}/`) && token !== undefined && (await principal(token))) {
      const checked = await checkControl(given, pathname);
      if (!checked.ok) return checked.out;
      req = checked.req;
    }
    if (pathname === AUTHORIZATION_PATH || pathname.startsWith(`${AUTHORIZATION_PATH}/`)) {
      return authorizationControl(req, pathname, { store, activities, principal });
    }
    if (pathname === FAULTS_PATH || pathname.startsWith(`${FAULTS_PATH}/`)) return faultsControl(req, pathname, { store, activities, principal });
    if (pathname === ANSWERS_PATH || pathname.startsWith(`${ANSWERS_PATH}/`)) return answersControl(req, pathname, { store, activities, principal });
    if (pathname.startsWith(`${ENTITIES_PATH}/`)) return entitiesControl(req, pathname, { store, schemas: docSchemas, principal });
    if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      return control(req, pathname, { store, reset, collections, schemas: docSchemas, apis: options.apis, principal: (token) => principal(token), seed: () => seed, hosted });
    }
    return undefined;
  }

  return {
    store,
    reset,
    async identify(token) {
      const who = await principal(token);
      if (who) return { caller: who };
      return unauthorized(token === undefined ? undefined : await tokenRefusal(store, token, hosted));
    },
    async withClock(caller, write, rest, routed) {
      const who = caller as Principal;
      const handler = routed && handlerOf(routed.operation);
      const reads = typeof handler === 'function' && handler.reads ? handler.reads(pathParams(routed!)) : undefined;
      try {
        return await store.transaction(
          who.sandbox,
          write ? 'write' : 'read',
          async (tx) => {
            // The clock, and the new employers not visible at that time, read with the operation.
            const now = await sandboxNow(tx);
            const hidden = await hiddenEmployers(tx, now);
            return rest({ now, caller: hidden.length > 0 ? { ...who, hiddenEmployers: hidden } : who }, tx);
          },
          { reads },
        );
      } catch (error) {
        // A refused operation: its writes went with the transaction, its answer is given.
        if (error instanceof Refused) return error.answer;
        throw error;
      }
    },
    bodyProblems: createBodyProblems(createRules),
    authorize: (routed, caller, now, scope) => authorizeCall(scope as Tx, routed, caller as Principal, now),
    async respond(exchange: Exchange): Promise<Outgoing> {
      return dispatch(exchange.scope as Tx, handlerOf, createRules, exchange, exchange.caller as Principal, options.log, answers);
    },
    serveOther(given: SandboxRequest, pathname: string): Promise<Outgoing | undefined> | undefined {
      if (pathname === TOKEN_PATH) return tokenEndpoint(given, store, lifetime, hosted, options.refreshTokenLifetimeMs);
      if (!pathname.startsWith('/__')) return undefined;
      return serveUnderscored(given, pathname);
    },
    faultsFor: (scope, operationId) => faultsFor(scope as Tx, operationId),
    drawFault: (caller, operationId) => store.transaction((caller as Principal).sandbox, 'write', (tx) => drawFault(tx, operationId)),
    answersFor: (scope, operationId) => answersFor(scope as Tx, operationId),
    takeAnswer: (caller, operationId) => store.transaction((caller as Principal).sandbox, 'write', (tx) => takeAnswer(tx, operationId)),
    close: () => store.close(),
  };
}
