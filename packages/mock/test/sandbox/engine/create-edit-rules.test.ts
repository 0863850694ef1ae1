// One rule for create and edit, for every resource, in memory and in PostgreSQL: a create
// without a field its resource module requires is refused, an edit that would leave the entity
// without it is refused with the same message (the field named where the edit's body holds it)
// and changes nothing, and a valid edit still passes. The creates and the edits kept to them
// are read from the resource modules and the descriptions, so a new one fails here until it
// has a case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/server.js';
import { createSandbox } from '#sandbox/index.js';
import { RESOURCE_MODULES } from '#sandbox/resources/index.js';
import { createRuleTable } from '#sandbox/responder/responder.js';
import { createPairings, editRequirements } from '#sandbox/engine/create-requirements.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { JOURNAL_PROFILE_IDS } from '#sandbox/seed/journal.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import type { RequiredFields } from '#sandbox/domain/create-rules.js';
import { bundles, type ApiName } from '../../support/bundle-schemas.js';
import { newEmployee } from '../../support/new-employee.js';
import { freshToken, request } from '../../helpers.js';
import { usePostgres } from '../../support/postgres.js';

type Json = Record<string, any>;
const postgres = usePostgres();

/** The path ids a create or edit is called with (an edit's own id is the created entity's). */
const PARAMS: Record<string, string> = {
  employerId: SEED_IDS.employer,
  providerId: SEED_IDS.provider,
  wageModelId: SEED_IDS.wageModel,
  journalProfileId: JOURNAL_PROFILE_IDS.wageModelStandard,
  payrollAdministrationId: ORG_IDS.payrollAdministrations.bouwgroepMonthly,
};

/** Per create: a valid body, and the id of what it made (a new employer is hidden for minutes, §2.4: its edit uses the seed's). */
const CREATES: Record<string, { body: Json; madeId: (content: Json) => string }> = {
  PostEmployeeByEmployerId: { body: newEmployee(7001, 71), madeId: (content) => content.employeeId },
  PostEmployerByProviderId: { body: { companyName: 'Bakkerij De Korenaar' }, madeId: () => SEED_IDS.employer },
  PostConceptEmployeeByEmployerId: { body: { uniqueName: 'Concept Visser' }, madeId: (content) => content.id },
  PostCostCenterAtWageModelLevelByJournalProfileId: { body: { code: 'KR-71' }, madeId: (content) => content.id },
  PostCostUnitAtWageModelLevelByJournalProfileId: { body: { code: 'KD-71' }, madeId: (content) => content.id },
  PostJournalProfileByWageModelId: { body: { description: 'Profiel 71' }, madeId: (content) => content.id },
  PostJournalProfileByPayrollAdministrationId: { body: { description: 'Eigen profiel 71' }, madeId: (content) => content.id },
};

/** Edits a create's rule holds that the engine does not pair by their answer: the full concept employee PUT has no body or answer in the description. */
const UNDESCRIBED_EDITS: Record<string, string[]> = { PostConceptEmployeeByEmployerId: ['PutConceptEmployeeByConceptEmployeeId'] };

const sandbox = await createSandbox();
const rules = createRuleTable(RESOURCE_MODULES);
const operations = new Map(sandbox.apis.flatMap((api) => api.operations.map((o) => [o.operationId, o] as const)));
await sandbox.close();

/** The edits each create's rule holds to: the paired ones whose answer is the entity, and the undescribed ones. */
function editsOf(create: string): Array<{ operationId: string; at: string[] }> {
  const paired = sandbox.apis.flatMap((api) => [...createPairings(api)].filter(([edit, pairing]) => pairing.create === create && editRequirements(operations.get(edit)!, rules)));
  return [...paired.map(([operationId, pairing]) => ({ operationId, at: pairing.at })), ...(UNDESCRIBED_EDITS[create] ?? []).map((operationId) => ({ operationId, at: [] }))];
}

/** Every path of required fields (each level, not only the leaves). */
function requiredPaths(required: RequiredFields, at: string[] = []): string[][] {
  return Object.entries(required).flatMap(([name, inner]) => [[...at, name], ...requiredPaths(inner, [...at, name])]);
}

/** The required fields a body without `path` lacks: the field, or the fields it must hold. */
function lackedBy(required: RequiredFields, path: string[]): string[][] {
  const below = requiredPaths(required).filter((other) => path.every((name, i) => other[i] === name));
  return below.filter((leaf) => !below.some((other) => other.length > leaf.length && leaf.every((name, i) => other[i] === name)));
}

function without(body: Json, path: string[]): Json {
  const copy = structuredClone(body);
  let node = copy;
  for (const name of path.slice(0, -1)) node = node[name];
  delete node[path[path.length - 1]!];
  return copy;
}

/** A body holding `value` at `path`. */
const nested = (path: string[], value: unknown): Json => path.reduceRight<Json>((inner, name) => ({ [name]: inner }), value as Json);

/** The media type the calls send and accept: no version, so each resource's newest. */
const TYPE = 'application/json';
/** The payroll version the resource modules' create rules name their fields at (a newer version may rename them). */
const PAYROLL_TYPE = 'application/json;version=2021-03-29';

function locate(operationId: string): { api: ApiName; path: string; method: string } {
  for (const api of ['payroll', 'journal'] as const)
    for (const [path, item] of Object.entries(bundles[api].paths as Json))
      for (const [method, operation] of Object.entries(item as Json)) if ((operation as Json)?.operationId === operationId) return { api, path, method };
  throw new Error(`no operation ${operationId}`);
}

it('has a case for every create rule and every edit it holds', () => {
  expect(Object.keys(CREATES).sort()).toEqual([...rules.keys()].sort());
  for (const create of rules.keys()) expect(editsOf(create).length, create).toBeGreaterThanOrEqual(create === 'PostJournalProfileByWageModelId' ? 0 : 1);
});

describe.each(['memory', 'postgres'] as const)('in %s', (store) => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, log: () => undefined, ...(store === 'postgres' ? { databaseUrl: await postgres().database('create_edit_rules') } : {}) });
  }, 60_000);
  afterAll(() => mock?.close());

  const token = freshToken('create-edit');
  const send = async (operationId: string, params: Record<string, string>, body?: Json) => {
    const { api, path, method } = locate(operationId);
    const url = `${api === 'payroll' ? mock.payrollBaseUrl : mock.journalBaseUrl}${path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? PARAMS[name]!)}`;
    const type = api === 'payroll' ? PAYROLL_TYPE : TYPE;
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: type };
    if (body !== undefined) headers['Content-Type'] = type;
    const res = await request(url, { method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: res.text ? res.json() : undefined, url, headers };
  };
  const descriptions = (body: Json | undefined) => ((body?.messages ?? []) as Json[]).map((m) => m.description as string);
  const required = (path: string[]) => `The field ${path.join('.')} is required.`;

  it.each(Object.keys(CREATES))('%s: a create without a required field and an edit taking it away get the same message; a valid edit passes', async (create) => {
    const { body, madeId } = CREATES[create]!;
    const made = await send(create, {}, body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rule = rules.get(create)!.required;
    for (const path of requiredPaths(rule)) {
      const refused = await send(create, {}, without(body, path));
      expect(refused.status).toBe(400);
      expect(descriptions(refused.body)).toEqual(expect.arrayContaining(lackedBy(rule, path).map(required)));
    }
    for (const { operationId, at } of editsOf(create)) {
      const { path: template, method } = locate(operationId);
      const own = template.match(/\{(\w+)\}/g)!.pop()!.slice(1, -1);
      const params = { [own]: madeId(made.body.content) };
      const kept = requiredPaths(rule).filter((path) => at.every((name, i) => path[i] === name) && path.length > at.length);
      expect(kept.length, operationId).toBeGreaterThan(0);
      // A PUT replaces the entity with what its GET (the same path) reads, less the field; a PATCH blanks the field.
      const readable = method === 'put';
      const read = async () => (readable ? (await request(mock.payrollBaseUrl + template.replace(`{${own}}`, params[own]!), { headers: { Authorization: `Bearer ${token}`, Accept: PAYROLL_TYPE } })).json().content : undefined);
      const before = await read();
      for (const full of kept) {
        const path = full.slice(at.length);
        const edit = readable ? without(before, path) : nested(path, '  ');
        const refused = await send(operationId, params, edit);
        expect(refused.status, `${operationId} without ${path.join('.')}`).toBe(400);
        expect(descriptions(refused.body)).toEqual(lackedBy(rule, full).map((lacked) => required(lacked.slice(at.length))));
        if (readable) expect(await read()).toEqual(before);
      }
      const valid = readable ? before : Object.assign({}, ...kept.map((full) => nested(full.slice(at.length), `${String(body[full[0]!])}-2`)));
      const passed = await send(operationId, params, valid);
      expect(passed.status, `${operationId}: ${JSON.stringify(passed.body)}`).toBe(200);
    }
  });
});

it("works an edit's requirements out once per operation, not on every request", () => {
  const edit = operations.get('PutEmployeeByEmployeeId')!;
  const required = editRequirements(edit, rules);
  expect(required).toBeDefined();
  expect(editRequirements(edit, rules)).toBe(required);
});
