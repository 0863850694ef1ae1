// What the sandbox's tests share: the seed's well-known ids and request helpers.
import { SEED_IDS } from '../src/seed/ids.js';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createSandbox, type Sandbox } from '../src/index.js';
import { FixtureError } from '../src/fixtures.js';
import { createAjv } from './schema-oracle.js';

export const ORIGIN = 'http://sandbox.test';
export const EMPLOYER = SEED_IDS.employer;
export const EMPLOYEES = `${ORIGIN}/v2/v2/providers/employers/${EMPLOYER}/employees`;
export const PAYROLL_ACCEPT = 'application/json;version=2021-03-29';

/** A sandbox clock `days` ahead of today, at 10:00 UTC. A version served today stays served for
 * at least six months (a successor dates from today at the earliest), so a clock moved less far
 * keeps PAYROLL_ACCEPT served, whatever versions the description gains. */
export function daysAhead(days: number): string {
  const at = new Date();
  at.setUTCDate(at.getUTCDate() + days);
  return `${at.toISOString().slice(0, 10)}T10:00:00Z`;
}

export function call(sandbox: Sandbox, token: string, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  if (!headers.has('accept')) headers.set('accept', url.includes('/journal/') ? 'application/json' : PAYROLL_ACCEPT);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', url.includes('/journal/') ? 'application/json' : PAYROLL_ACCEPT);
  return sandbox.fetch(url, { ...init, headers });
}

/** The problems of an answer's JSON body against the description's schema of the operation's success answer (none: it validates). */
export async function answerProblems(sandbox: Sandbox, res: Response, operationId: string): Promise<string[]> {
  const [api, path, method] = operationOf(sandbox, operationId);
  const status = String(res.status);
  // A shared answer ($ref to components/responses) is validated where it is described.
  const answer = (api.doc as OpenApi).paths[path]![method]!.responses[status];
  const at = answer?.$ref ? answer.$ref.slice(2).split('/') : ['paths', path, method, 'responses', status].map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'));
  const described = answer?.$ref ? (at.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api.doc) as typeof answer) : answer;
  const media = Object.keys(described?.content ?? {}).find((type) => type.startsWith('application/json'));
  if (!media) return [`${operationId} answers no JSON with status ${status}`];
  const pointer = [...at, 'content', media.replace(/~/g, '~0').replace(/\//g, '~1'), 'schema'].join('/');
  let ajv = validators.get(api.name);
  if (!ajv) {
    ajv = createAjv();
    ajv.addSchema({ ...(api.doc as object), $id: `answer:${api.name}` });
    validators.set(api.name, ajv);
  }
  const validate = ajv.compile({ $ref: `answer:${api.name}#/${pointer}` });
  return validate(await res.clone().json()) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

type OpenApi = { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>> };
const validators = new Map<string, ReturnType<typeof createAjv>>();

function operationOf(sandbox: Sandbox, operationId: string): [Sandbox['apis'][number], string, string] {
  for (const api of sandbox.apis)
    for (const [path, item] of Object.entries((api.doc as OpenApi).paths))
      for (const [method, operation] of Object.entries(item)) if (operation?.operationId === operationId) return [api, path, method];
  throw new Error(`no operation ${operationId}`);
}

/** The fields a factory call's FixtureError names; fails the test when the call throws none. */
export function fixtureProblemPaths(make: () => unknown): string[] {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return (error as FixtureError).problems.map((p) => p.path);
  }
  throw new Error('no FixtureError');
}

/** One in-process sandbox for a test file, reset to the seed before each test; call `current()` inside a test. */
export function sandboxPerFile(): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    await sandbox!.reset();
  });
  return () => sandbox!;
}
