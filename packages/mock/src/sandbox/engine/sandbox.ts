// The sandbox responder: the stateful answer to every operation, per bearer token. It owns the
// store (memory, memory kept in a directory, or PostgreSQL), the seed, the handlers of the
// resource modules, the authorization decision, the OAuth token endpoint and the control endpoints.
import type http from 'node:http';
import type { LoadedApi } from '../../spec.js';
import { unauthorized } from '../../stages/authenticate.js';
import type { Outgoing } from '../../stages/outgoing.js';
import type { Exchange, Responder } from '../../stages/respond.js';
import { AUTH_COLLECTIONS } from '../auth/tokens.js';
import { TOKEN_PATH, tokenEndpoint } from '../auth/token-endpoint.js';
import { authorizeCall } from '../authorization/authorize.js';
import { AUTHORIZATION_PATH, authorizationControl } from '../authorization/control.js';
import { CONTROL_PREFIX, control } from '../control/control-endpoints.js';
import { RESOURCE_MODULES } from '../resources/index.js';
import { seedSnapshot } from '../seed/index.js';
import { createStore } from '../store/index.js';
import type { CollectionSpec, Store } from '../store/types.js';
import { sandboxNow } from './clock.js';
import { DocSchemas } from './doc-schemas.js';
import { dispatch } from './dispatch.js';
import { principalOf } from './identity.js';
import type { Handler, Principal, ResourceModule } from './types.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

export interface SandboxOptions {
  /** The descriptions currently served (they may be reloaded). */
  apis: () => LoadedApi[];
  dataDir?: string;
  databaseUrl?: string;
  tokenLifetimeSeconds?: number;
  /** The resource modules (default: all of resources/index.ts). */
  modules?: ResourceModule[];
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

/** The collections of the modules, of the seed and of the token endpoint, by name. */
export function collectionTable(modules: ResourceModule[], seedCollections: string[]): Map<string, CollectionSpec> {
  const table = new Map<string, CollectionSpec>();
  for (const spec of [...AUTH_COLLECTIONS, ...modules.flatMap((m) => m.collections)]) {
    const known = table.get(spec.name);
    table.set(spec.name, { ...known, ...spec, unique: [...(known?.unique ?? []), ...(spec.unique ?? [])] });
  }
  for (const name of seedCollections) if (!table.has(name)) table.set(name, { name });
  return table;
}

export async function createSandbox(options: SandboxOptions): Promise<Responder> {
  const modules = options.modules ?? RESOURCE_MODULES;
  const handlers = handlerTable(modules);
  const seed = seedSnapshot();
  const collections = collectionTable(modules, Object.keys(seed.collections));
  const store: Store = await createStore({ seed, collections: [...collections.values()], dataDir: options.dataDir, databaseUrl: options.databaseUrl });
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
  const principal = (token: string | undefined) => principalOf(store, token);

  return {
    async clock(token) {
      const who = await principal(token);
      if (!who) return unauthorized();
      return { now: await store.transaction(who.sandbox, 'read', (tx) => sandboxNow(tx)), caller: who };
    },
    authorize: (routed, caller, now) => authorizeCall(store, routed, caller as Principal, now),
    async respond(exchange: Exchange): Promise<Outgoing> {
      return dispatch(store, handlers, exchange, exchange.caller as Principal, options.log);
    },
    async serveOther(req: http.IncomingMessage, pathname: string): Promise<Outgoing | undefined> {
      if (pathname === TOKEN_PATH) return tokenEndpoint(req, store, lifetime);
      if (pathname === AUTHORIZATION_PATH || pathname.startsWith(`${AUTHORIZATION_PATH}/`)) {
        const activities = () => new Set(options.apis().flatMap((api) => api.operations.map((o) => o.operationId)));
        return authorizationControl(req, pathname, { store, activities, principal });
      }
      if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) {
        return control(req, pathname, { store, collections, schemas: docSchemas, principal: (token) => principal(token) });
      }
      return undefined;
    },
    close: () => store.close(),
  };
}
