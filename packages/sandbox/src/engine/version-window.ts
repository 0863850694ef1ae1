// Two versions live: the handlers and the seed are written in one shape per resource (the
// version the code was written at); the chain of version changes the description records
// (x-version-changes, read by @payroll-api/version-changes) takes a body written at any other
// served version to that shape, and the answer from it to the version the client asked for.
// Other resources that read the same data (a minimized view, a list across resources) keep
// answering the shape they were written at.
import { chainOf, changeFields, fieldSegments, VersionChangeError, type VersionChanges } from '@payroll-api/version-changes';
import { message } from '../http/errors.js';
import type { LoadedApi, Operation, Resource } from '../http/spec.js';
import { SandboxError } from '../domain/context.js';

/**
 * The versions the handlers and the seed are written at: the contract's version of each
 * resource they serve. A resource not named here is written at its oldest served version.
 * When a version named here leaves the registry, the code is rewritten in a served version's
 * shape and named here; until then the sandbox refuses to start on the description, saying so
 * (codeVersionProblems), rather than answer the old shape under the new version's label.
 */
export const CODE_VERSIONS: Record<string, string> = {
  provider: '2018-01-01',
  providerLogo: '2018-01-01',
  providerContactInformation: '2018-01-01',
  employer: '2018-01-01',
  employerMinimized: '2018-01-01',
  addEmployerWizardInformation: '2018-01-01',
  childEmployer: '2018-01-01',
  employerLogo: '2018-01-01',
  administration: '2018-01-01',
  employment: '2019-12-16',
  employmentMinimized: '2018-01-01',
  employmentComprehensive: '2018-01-01',
  employmentDeletion: '2018-01-01',
  employmentDeleteInformation: '2018-01-01',
  employmentTermination: '2018-01-01',
  employmentReinstatement: '2018-01-01',
  employmentStartDateCorrection: '2018-01-01',
  employmentMetadata: '2018-01-01',
  wageMetadata: '2018-01-01',
  payrollPeriodDataDefaults: '2018-01-01',
  employee: '2021-03-29',
  newEmployee: '2018-01-01',
  employeeMetadata: '2018-01-01',
  employeeEmail: '2018-12-31',
  citizenServiceNumber: '2018-01-01',
  employeePhoto: '2018-01-01',
  employeeSelfServiceAccess: '2018-01-01',
  jobApplicantMetadata: '2018-01-01',
  conceptEmployee: '2018-01-01',
  conceptEmployeeMinimized: '2018-01-01',
  conceptEmployeeMetadata: '2018-01-01',
  conceptEmployeeDefaults: '2018-01-01',
};

const codeVersionOf = (resource: Resource): string => CODE_VERSIONS[resource.name] ?? resource.versions[resource.versions.length - 1]!.version;

/** Why the handlers cannot serve a resource's versions: a version they are written at that is not served, or a served version no chain of changes joins to it. */
function resourceProblem(doc: object, resource: Resource): string | undefined {
  const code = codeVersionOf(resource);
  const served = resource.versions.map((v) => v.version);
  const where = 'packages/sandbox/src/engine/version-window.ts';
  if (!served.includes(code)) {
    return `the sandbox's ${resource.name} handlers are written at version ${code}, but the description serves ${resource.name} at ${served.join(', ')}: rewrite them in a served version's shape and name it in CODE_VERSIONS (${where})`;
  }
  const chain = chainOf(doc);
  for (const version of served) {
    if (version === code) continue;
    try {
      if (!chain) throw new VersionChangeError('the description records no version changes');
      version < code ? chain.upgrade(resource.name, version, code, {}) : chain.downgrade(resource.name, version, code, {});
    } catch (error) {
      if (!(error instanceof VersionChangeError)) throw error;
      return `the sandbox's ${resource.name} handlers are written at version ${code}, and the description serves ${resource.name} at ${version} too, but records no chain of version changes between them (${error.message}): the sandbox cannot answer ${version}`;
    }
  }
  return undefined;
}

/** Every disagreement between the versions the handlers are written at and the versions a description serves (empty when they agree). */
export function codeVersionProblems(api: LoadedApi): string[] {
  const resources = new Map(api.operations.flatMap((o) => (o.resource ? [[o.resource.name, o.resource] as const] : [])));
  return [...resources.values()].flatMap((resource) => resourceProblem(api.doc, resource) ?? []);
}

export interface Window {
  chain: VersionChanges;
  resource: string;
  /** The version the handlers read and write. */
  code: string;
}

/** Each loaded resource's problem (null: none), found once per load. */
const checked = new WeakMap<Resource, string | null>();

export function windowOf(operation: Operation): Window | undefined {
  const resource = operation.resource;
  if (!resource) return undefined;
  // Checked at start (codeVersionProblems) and again here, for a description loaded later.
  let problem = checked.get(resource);
  if (problem === undefined) checked.set(resource, (problem = resourceProblem(operation.api.doc, resource) ?? null));
  if (problem) throw new Error(problem);
  const chain = chainOf(operation.api.doc);
  if (resource.versions.length < 2 || !chain) return undefined;
  return { chain, resource: resource.name, code: codeVersionOf(resource) };
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

const startsWith = (path: readonly string[], prefix: readonly string[]) => prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);

/**
 * Where a field named at `version` (a list item's, for filter and orderBy) is in the handlers'
 * shape, through the same changes as bodies: renamed (or under a renamed object) it moves;
 * `unread` says why it cannot be compared there (a field the stored shape does not hold, or
 * whose values the changes convert).
 */
export function storedField(window: Window, version: string, path: readonly string[]): { path: string[] } | { unread: string } {
  const { code } = window;
  if (version === code) return { path: [...path] };
  const up = version < code;
  const [older, newer] = up ? [version, code] : [code, version];
  const between = window.chain.steps(window.resource).filter((step) => step.previous >= older && step.version <= newer);
  let at = [...path];
  // Steps newest first: an upgrade runs them oldest first, each step's changes in order; a downgrade the reverse.
  for (const step of up ? [...between].reverse() : between) {
    for (const change of up ? step.changes : [...step.changes].reverse()) {
      const { kind, before, after } = changeFields(change);
      const [here, there] = up ? [before, after] : [after, before];
      const segments = here === null ? null : fieldSegments(here);
      if (!segments || !startsWith(at, segments)) continue;
      if (there === null) return { unread: `is not kept by the sandbox at version ${version} (its stored shape is ${window.resource} ${code})` };
      if (kind === 'rename') at = [...fieldSegments(there)!, ...at.slice(segments.length)];
      else if (kind === 'retype' || kind === 'revalue') return { unread: `has values of another form at version ${version} than the sandbox stores (${window.resource} ${code})` };
    }
  }
  return { path: at };
}

/** An answer (envelope or entity) in the handlers' shape, at `version`. */
export function answerAt<T>(window: Window, version: string, answer: T): T {
  return translate(window, window.code, version, answer);
}
