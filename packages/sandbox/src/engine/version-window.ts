// Two versions live: the sandbox keeps one state, in the newest shape of each resource, and
// runs the chain of version changes the description records (x-version-changes, read by
// @payroll-api/version-changes) to take a body written at an older served version and to
// answer at the version the client asked for.
import { versionChanges, VersionChangeError, type VersionChanges } from '@payroll-api/version-changes';
import { message } from '../http/errors.js';
import type { LoadedApi, Operation } from '../http/spec.js';
import type { Doc, Snapshot } from '../store/types.js';
import { SandboxError } from './types.js';

const chains = new WeakMap<object, VersionChanges | null>();

/** The chain of a loaded description; null when it records no change. */
export function chainOf(api: LoadedApi): VersionChanges | null {
  let chain = chains.get(api.doc);
  if (chain === undefined) {
    const record = api.doc['x-version-changes'];
    chain = record && typeof record === 'object' && Object.keys(record).length > 0 ? versionChanges(api.doc) : null;
    chains.set(api.doc, chain);
  }
  return chain;
}

/** The versions a request is written at and answered at, when either is not the newest. */
export interface Window {
  chain: VersionChanges;
  resource: string;
  newest: string;
}

export function windowOf(operation: Operation): Window | undefined {
  const resource = operation.resource;
  const newest = resource?.versions[0]?.version;
  if (!resource || !newest || resource.versions.length < 2) return undefined;
  const chain = chainOf(operation.api);
  if (!chain || chain.steps(resource.name).length === 0) return undefined;
  return { chain, resource: resource.name, newest };
}

/** A body written at `version`, in the newest shape; a value the chain cannot convert is a 400 naming its field. */
export function upgradeBody(window: Window, version: string, body: unknown): unknown {
  if (version === window.newest || body === null || typeof body !== 'object') return body;
  try {
    return window.chain.upgrade(window.resource, version, window.newest, body);
  } catch (error) {
    if (!(error instanceof VersionChangeError)) throw error;
    const field = error.field ?? 'body';
    throw new SandboxError(400, [message(400, `The field ${field} cannot be taken at version ${version}: ${error.message}`, [field])]);
  }
}

/** An answer (envelope or entity) in the newest shape, at `version`. */
export function downgradeAnswer<T>(window: Window, version: string, answer: T): T {
  return version === window.newest ? answer : window.chain.downgrade<T>(window.resource, window.newest, version, answer);
}

/**
 * The seed is written in the shapes of these resource versions (the contract's, when it was
 * written); at load it is upgraded to each resource's newest shape. A version that leaves the
 * registry needs the seed rewritten, and says so.
 */
export const SEED_SHAPES: Record<string, { collection: string; version: string }> = {
  provider: { collection: 'providers', version: '2018-01-01' },
  employer: { collection: 'employers', version: '2018-01-01' },
  administration: { collection: 'administrations', version: '2018-01-01' },
  employee: { collection: 'employees', version: '2021-03-29' },
  employment: { collection: 'employments', version: '2019-12-16' },
  conceptEmployee: { collection: 'conceptEmployees', version: '2018-01-01' },
};

/** The seed in the newest shape of every resource the descriptions record changes for. */
export function upgradeSeed(seed: Snapshot, apis: LoadedApi[]): Snapshot {
  let collections = seed.collections;
  for (const api of apis) {
    const chain = chainOf(api);
    const registry = (api.doc['x-resource-versions'] as { resources?: Record<string, { versions?: Array<{ version: string }> }> } | undefined)?.resources ?? {};
    if (!chain) continue;
    for (const [resource, { collection, version }] of Object.entries(SEED_SHAPES)) {
      const versions = (registry[resource]?.versions ?? []).map((v) => v.version).sort();
      const newest = versions[versions.length - 1];
      if (!newest || newest === version || chain.steps(resource).length === 0) continue;
      if (!versions.includes(version)) throw new Error(`the seed's ${collection} are written at ${resource} version ${version}, which the description no longer serves: rewrite them in a served version's shape (packages/sandbox/src/seed) and name it in SEED_SHAPES`);
      const docs = collections[collection];
      if (!docs) continue;
      collections = { ...collections, [collection]: docs.map((doc) => chain.upgrade<Doc>(resource, version, newest, doc)) };
    }
  }
  return collections === seed.collections ? seed : { ...seed, collections };
}
