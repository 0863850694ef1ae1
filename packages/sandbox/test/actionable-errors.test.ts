// Errors an integrator can act on (issue 37, sections 4 to 6): conditional rules reported as
// the branch the body came closest to, in the description's words; formats named; every
// independent problem in one answer; what a create requires kept by every edit; X-Request-Id.
// The conditional rules and the create/edit pairs are read from the descriptions, so a new
// operation is covered without a new test.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.js';
import { PEOPLE_IDS } from '../src/seed/people.js';
import { JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';
import { createPairings } from '../src/engine/create-requirements.js';
import { MAX_PROBLEMS, RULE_EXTENSION } from '../src/http/schema-errors.js';
import { validateRequest } from '../src/http/request-schema.js';
import { call, EMPLOYEES, ORIGIN, sandboxPerFile } from './support.js';

type Json = Record<string, any>;
const V2018 = { accept: 'application/json;version=2018-01-01', 'content-type': 'application/json;version=2018-01-01' };
/** What the validator's own vocabulary looks like: none of it may reach a client. */
const RAW = /anyOf|oneOf|allOf|must match|schema|passingSchemas/i;

const current = sandboxPerFile();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox = current();
});

const messagesOf = async (res: Response) => ((await res.json()).messages ?? []) as Array<{ description: string; properties: string[] }>;

/** Every operation of both APIs with the schema of its newest JSON request body. */
function bodies(): Array<{ api: Sandbox['apis'][number]; operationId: string; method: string; path: string; schema: Json }> {
  return sandbox.apis.flatMap((api) =>
    api.operations.flatMap((o) => {
      const contents = (o.model.request?.body?.contents ?? []).filter((c) => /json/.test(c.mediaType) && c.schema);
      const schema = contents[contents.length - 1]?.schema as Json | undefined;
      return schema ? [{ api, operationId: o.operationId, method: o.method, path: o.path, schema }] : [];
    }),
  );
}

/** The combinators of a schema that are conditional rules (not just "X or null"), with where they sit. */
function conditionals(schema: Json, at: string[] = [], seen = new Set<Json>()): Array<{ at: string[]; branches: Json[] }> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const found: Array<{ at: string[]; branches: Json[] }> = [];
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key] as Json[] | undefined;
    if (Array.isArray(branches) && !branches.some((b) => b?.type === 'null')) found.push({ at, branches });
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const part of (schema[key] as Json[] | undefined) ?? []) found.push(...conditionals(part, at, seen));
  for (const [name, property] of Object.entries((schema.properties as Json | undefined) ?? {})) found.push(...conditionals(property as Json, [...at, name], seen));
  if (schema.items) found.push(...conditionals(schema.items as Json, [...at, '0'], seen));
  return found;
}

describe('conditional rules', () => {
  it('answers PatchTerminateByEmploymentId with an end date and no illness flag with the one rule broken', async () => {
    const res = await call(sandbox, 'a', `${ORIGIN}/v2/v2/providers/employers/employees/employments/${PEOPLE_IDS.employment}/terminate`, {
      method: 'PATCH',
      headers: V2018,
      body: JSON.stringify({ endDate: '2026-12-31' }),
    });
    expect(res.status).toBe(400);
    expect(await messagesOf(res)).toEqual([
      expect.objectContaining({ description: 'The field endOfEmploymentDueToIllness is required. endOfEmploymentDueToIllness is mandatory when endDate is filled.', properties: ['endOfEmploymentDueToIllness'] }),
    ]);
  });

  it('states its rule on every branch of every conditional rule of a request body', () => {
    const unstated = bodies().flatMap(({ operationId, schema }) =>
      conditionals(schema).flatMap(({ at, branches }) => branches.filter((b) => typeof b[RULE_EXTENSION] !== 'string').map(() => `${operationId} ${at.join('.') || '(body)'}`)),
    );
    expect(unstated).toEqual([]);
  });

  it('reports, for each branch of each conditional rule left one field short, that field with the rule and nothing of the validator', async () => {
    const cases = bodies().flatMap((op) =>
      conditionals(op.schema).flatMap(({ at, branches }) =>
        branches.flatMap((branch) => ((branch.required as string[] | undefined) ?? []).map((left) => ({ op, at, branches, branch, left }))),
      ),
    );
    expect(cases.length).toBeGreaterThan(0);
    for (const { op, at, branches, branch, left } of cases) {
      // A body that fits the branch but for one of its required fields: the others given as the branch types them.
      const inner: Json = {};
      for (const name of branch.required as string[]) {
        if (name === left) continue;
        const type = (branch.properties?.[name] as Json | undefined)?.type;
        inner[name] = type === 'boolean' ? false : type === 'string' ? '2026-12-31' : {};
      }
      const body = at.reduceRight<Json>((value, name) => ({ [name]: value }), inner);
      const params = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], PEOPLE_IDS.employment]));
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
      const prefix = op.api.name === 'journal' ? '' : '/v2';
      const res = await call(sandbox, 'a', `${ORIGIN}${prefix}${path}`, { method: op.method.toUpperCase(), headers: op.api.name === 'journal' ? {} : V2018, body: JSON.stringify(body) });
      const messages = await messagesOf(res);
      expect(res.status, `${op.operationId} without ${left}`).toBe(400);
      for (const m of messages) expect(m.description, op.operationId).not.toMatch(RAW);
      // Branches of one rule (the start date's) may tie: any field one of them requires is named.
      const named = branches.filter((b) => b[RULE_EXTENSION] === branch[RULE_EXTENSION]).flatMap((b) => (b.required as string[]).map((name) => `The field ${[...at, name].join('.')} is required. ${b[RULE_EXTENSION]}`));
      expect(messages.some((m) => named.includes(m.description)), `${op.operationId} without ${left}: ${JSON.stringify(messages)}`).toBe(true);
    }
  });

  it('answers a value of no allowed type with one message naming the types, for every nullable object field of every request body', async () => {
    const nullableObjects = bodies().filter((op) => op.operationId === 'PutEmployeeByEmployeeId').flatMap((op) =>
      Object.entries((op.schema.properties as Json) ?? {})
        .filter(([, p]) => Array.isArray((p as Json).oneOf) && (p as Json).oneOf.some((b: Json) => b.type === 'null') && (p as Json).oneOf.some((b: Json) => b.type === 'object'))
        .map(([name]) => name),
    );
    expect(nullableObjects.length).toBeGreaterThan(0);
    const url = `${ORIGIN}/v2/v2/providers/employers/employees/${PEOPLE_IDS.employee}`;
    const body = Object.fromEntries(nullableObjects.map((name) => [name, 5]));
    const messages = await messagesOf(await call(sandbox, 'a', url, { method: 'PUT', body: JSON.stringify(body) }));
    expect(messages.map((m) => m.description).sort()).toEqual(nullableObjects.map((name) => `The field ${name} must be an object or null.`).sort());
  });
});

describe('formats and metadata', () => {
  it('names yyyy-MM-dd for a date and the metadata endpoint for a key that is no option', async () => {
    const url = `${ORIGIN}/v2/v2/providers/employers/employees/${PEOPLE_IDS.employee}`;
    const current = (await (await call(sandbox, 'a', url)).json()).content;
    const body = { ...current, personalDetails: { ...current.personalDetails, dateOfBirth: '02-11-1989' } };
    const dated = await messagesOf(await call(sandbox, 'a', url, { method: 'PUT', body: JSON.stringify(body) }));
    expect(dated).toEqual([expect.objectContaining({ description: 'The field personalDetails.dateOfBirth must be a date written yyyy-MM-dd (e.g. 2026-12-31).' })]);
    const keyed = { ...current, personalDetails: { ...current.personalDetails, nationality: { key: 987654 } } };
    const refused = await messagesOf(await call(sandbox, 'a', url, { method: 'PUT', body: JSON.stringify(keyed) }));
    expect(refused).toEqual([expect.objectContaining({ properties: ['personalDetails.nationality'] })]);
    expect(refused[0]!.description).toContain('GetEmployeeMetadataByEmployeeId');
  });

  it('suggests the dotted path of an unknown orderBy or filter field that ends one field', async () => {
    const ordered = await messagesOf(await call(sandbox, 'a', `${EMPLOYEES}?orderBy=lastName`));
    expect(ordered[0]!.description).toContain("Did you mean 'personalDetails.lastName'?");
    const filtered = await messagesOf(await call(sandbox, 'a', `${EMPLOYEES}?filter=${encodeURIComponent("lastName eq 'Bakker'")}`));
    expect(filtered[0]!.description).toContain("Did you mean 'personalDetails.lastName'?");
  });
});

describe('every independent problem in one answer', () => {
  it("refuses a new employee's schema problems and every broken create rule in one answer, creating nothing", async () => {
    const before = (await (await call(sandbox, 'a', EMPLOYEES)).json()).totalSize;
    const body = { employeeData: { personalDetails: { firstName: 'Sam', dateOfBirth: '02-11-1989' } }, citizenServiceNumber: { citizenServiceNumber: '123456789' } };
    const res = await call(sandbox, 'a', EMPLOYEES, { method: 'POST', headers: V2018, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect((await messagesOf(res)).map((m) => m.properties[0]).sort()).toEqual([
      'citizenServiceNumber.citizenServiceNumber',
      'employeeData.personalDetails.dateOfBirth',
      'employeeData.personalDetails.lastName',
      'workingHoursData.startDate',
    ]);
    expect((await (await call(sandbox, 'a', EMPLOYEES)).json()).totalSize).toBe(before);
  });

  it('bounds the problems of one request, saying how many more there are', () => {
    const view = { method: 'put', path: '/x', responses: [], request: { body: { required: true, contents: [{ mediaType: 'application/json', schema: { type: 'object', properties: { codes: { type: 'array', items: { type: 'string' } } } } }] } } };
    const violations = validateRequest(view, { query: {}, headers: {}, path: {}, body: { codes: Array.from({ length: MAX_PROBLEMS + 30 }, (_, i) => i) }, hasBody: true });
    expect(violations).toHaveLength(MAX_PROBLEMS + 1);
    expect(violations[MAX_PROBLEMS]!.message).toBe('30 more problems of this request are not listed');
  });
});

describe('one rule for create and edit', () => {
  const pairings = () => new Map(sandbox.apis.flatMap((api) => [...createPairings(api)]));

  it('pairs each edit with the create of its entity, read from the description', () => {
    const found = pairings();
    expect(found.get('PutEmployeeByEmployeeId')).toMatchObject({ create: 'PostEmployeeByEmployerId', at: ['employeeData'] });
    expect(found.get('PutEmploymentByEmploymentId')).toMatchObject({ create: 'PostEmployeeByEmployerId', at: ['employmentData'] });
    expect(found.get('PutEmployerByEmployerId')).toMatchObject({ create: 'PostEmployerByProviderId', at: [] });
    expect(found.get('PatchCostCenterAtWageModelLevelByJournalProfileId')).toMatchObject({ create: 'PostCostCenterAtWageModelLevelByJournalProfileId' });
    expect(found.get('PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId')).toMatchObject({ create: 'PostJournalProfileByPayrollAdministrationId' });
    // Every edit of a collection some create makes is paired.
    const creates = new Set(sandbox.apis.flatMap((api) => api.operations.filter((o) => o.method === 'post').map((o) => o.path.split('/').filter((s) => !s.startsWith('{')).pop()!.toLowerCase())));
    const edits = sandbox.apis.flatMap((api) => api.operations.filter((o) => (o.method === 'put' || o.method === 'patch') && o.model.request?.body?.contents?.some((c) => c.schema)));
    const unpaired = edits.filter((o) => {
      const segments = o.path.split('/');
      const collection = segments[segments.map((s) => s.startsWith('{')).lastIndexOf(true) - 1]?.toLowerCase();
      return collection !== undefined && creates.has(collection) && !found.has(o.operationId);
    });
    expect(unpaired.map((o) => o.operationId)).toEqual([]);
  });

  it('refuses a PUT of an employee with only an address as the create refuses a new employee without a name and date of birth, changing nothing', async () => {
    const url = `${ORIGIN}/v2/v2/providers/employers/employees/${PEOPLE_IDS.employee}`;
    const before = (await (await call(sandbox, 'a', url)).json()).content;
    const res = await call(sandbox, 'a', url, { method: 'PUT', body: JSON.stringify({ address: before.address }) });
    expect(res.status).toBe(400);
    expect((await messagesOf(res)).map((m) => m.description)).toEqual(['The field personalDetails.lastName is required.', 'The field personalDetails.dateOfBirth is required.']);
    expect((await (await call(sandbox, 'a', url)).json()).content).toEqual(before);
    const created = await messagesOf(await call(sandbox, 'a', EMPLOYEES, { method: 'POST', headers: V2018, body: JSON.stringify({ employeeData: { address: before.address }, workingHoursData: { startDate: '2027-01-01' } }) }));
    expect(created.map((m) => m.description)).toEqual(['The field employeeData.personalDetails.lastName is required.', 'The field employeeData.personalDetails.dateOfBirth is required.']);
    expect((await call(sandbox, 'a', url, { method: 'PUT', body: JSON.stringify(before) })).status).toBe(200);
  });

});

describe('X-Request-Id', () => {
  it('echoes a sane id and replaces one that is not, on answers of every kind', async () => {
    const given = await call(sandbox, 'a', EMPLOYEES, { headers: { 'X-Request-Id': 'support-42.a' } });
    expect(given.headers.get('x-request-id')).toBe('support-42.a');
    for (const bad of ['a b', 'x'.repeat(129), 'ü']) {
      const res = await call(sandbox, 'a', EMPLOYEES, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const refused = await sandbox.fetch(EMPLOYEES, { headers: { accept: 'application/json' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const a = (await call(sandbox, 'a', EMPLOYEES)).headers.get('x-request-id');
    const b = (await call(sandbox, 'a', EMPLOYEES)).headers.get('x-request-id');
    expect(a).not.toBe(b);
  });
});
