// Two versions live: the handlers and the seed are written in one shape per resource (the
// version the code was written at); the chain of version changes the description records
// (x-version-changes, read by @payroll-api/version-changes) takes a body written at any other
// served version to that shape, and the answer from it to the version the client asked for.
// Other resources that read the same data (a minimized view, a list across resources) keep
// answering the shape they were written at.
import { chainOf, VersionChangeError, type VersionChanges } from '@payroll-api/version-changes';
import { message } from '../http/errors.js';
import type { Operation } from '../http/spec.js';
import { SandboxError } from '../domain/context.js';

/**
 * The versions the handlers and the seed are written at: the contract's version of each
 * resource they store. A resource not named here is written at its oldest served version.
 * When a version named here leaves the registry, the code is rewritten in a served version's
 * shape and named here; until then the sandbox refuses to load the description, saying so.
 */
export const CODE_VERSIONS: Record<string, string> = {
  provider: '2018-01-01',
  employer: '2018-01-01',
  administration: '2018-01-01',
  employee: '2021-03-29',
  employment: '2019-12-16',
  conceptEmployee: '2018-01-01',
};

export interface Window {
  chain: VersionChanges;
  resource: string;
  /** The version the handlers read and write. */
  code: string;
}

export function windowOf(operation: Operation): Window | undefined {
  const resource = operation.resource;
  if (!resource || resource.versions.length < 2) return undefined;
  const chain = chainOf(operation.api.doc);
  if (!chain || chain.steps(resource.name).length === 0) return undefined;
  const code = CODE_VERSIONS[resource.name] ?? resource.versions[resource.versions.length - 1]!.version;
  if (!resource.versions.some((v) => v.version === code)) {
    throw new Error(`the sandbox's ${resource.name} handlers are written at version ${code}, which the description no longer serves: rewrite them in a served version's shape and name it in CODE_VERSIONS (packages/sandbox/src/engine/version-window.ts)`);
  }
  return { chain, resource: resource.name, code };
}

/** `value` at version `from`, in the shape of version `to` (either direction). */
function translate<T>(window: Window, from: string, to: string, value: T): T {
  if (from === to) return value;
  return from < to ? window.chain.upgrade<T>(window.resource, from, to, value) : window.chain.downgrade<T>(window.resource, from, to, value);
}

/** A body written at `version`, in the handlers' shape; a value the chain cannot convert is a 400 naming its field. */
export function bodyForHandler(window: Window, version: string, body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  try {
    return translate(window, version, window.code, body);
  } catch (error) {
    if (!(error instanceof VersionChangeError)) throw error;
    const field = error.field ?? 'body';
    throw new SandboxError(400, [message(400, `The field ${field} cannot be taken at version ${version}: ${error.message}`, [field])]);
  }
}

/** An answer (envelope or entity) in the handlers' shape, at `version`. */
export function answerAt<T>(window: Window, version: string, answer: T): T {
  return translate(window, window.code, version, answer);
}
