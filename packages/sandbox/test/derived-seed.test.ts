// The collections the sandbox derives from the description start empty, or from the examples
// of their reads (`x-sandbox-collection: { seed: examples }`); their docs are made by the
// generic factory, in process and in a scenario's `derived` lists.
import { afterEach, describe, expect, it } from 'vitest';
import { journalDescription } from '../src/generated/descriptions.js';
import { createSandbox, SandboxControlError, type Sandbox } from '../src/index.js';
import { createFixtures, DerivedFixtureError } from '../src/fixtures.js';
import { JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';
import { call, ORIGIN } from './support.js';

const PROFILE = JOURNAL_PROFILE_IDS.wageModelStandard;
const GROUPS = '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunitgroups';
const GROUP = '/journal/providers/wagemodels/journalprofiles/costunitgroups/{costUnitGroupId}';
const groupsOf = (profile: string) => `${ORIGIN}/journal/providers/wagemodels/journalprofiles/${profile}/costunitgroups`;
const EXAMPLE_GROUPS = [
  { id: '5b0e7c1a-2d3f-4a5b-8c6d-7e8f9a0b1c2d', code: 'VERK', description: 'Verkoop' },
  { id: '6c1f8d2b-3e4a-4b6c-9d7e-8f9a0b1c2d3e', code: 'PROD', description: null },
];

type Json = Record<string, any>;

/** The journal description with cost unit groups, listed (with an example) and read one by one. */
function describedJournal({ annotation = { seed: 'examples' } as unknown, parameterExample = PROFILE as string | null, items = EXAMPLE_GROUPS as unknown[] } = {}): Json {
  const doc = structuredClone(journalDescription) as Json;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  Object.assign(doc.components.schemas, {
    CostUnitGroup: { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, code: { type: 'string', maxLength: 10 }, description: { type: ['string', 'null'], maxLength: 50 }, active: { type: 'boolean', default: true } } },
    CostUnitGroupList: { allOf: [ref('JournalListResult'), { type: 'object', properties: { _embedded: { type: 'array', items: ref('CostUnitGroup') } } }] },
    CostUnitGroupDetail: { allOf: [ref('JournalDetailResult'), { type: 'object', properties: { content: ref('CostUnitGroup') } }] },
  });
  const parameter = { name: 'journalProfileId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, ...(parameterExample ? { example: parameterExample } : {}) };
  const answer = (schema: string, example?: unknown) => ({ description: 'The groups.', content: { 'application/json': { schema: ref(schema), ...(example ? { example } : {}) } } });
  doc.paths[GROUPS] = {
    ...(annotation === null ? {} : { 'x-sandbox-collection': annotation }),
    parameters: [parameter],
    get: { operationId: 'GetCostUnitGroupsByJournalProfileId', tags: ['Cost units'], responses: { '200': answer('CostUnitGroupList', { totalSize: items.length, _embedded: items }) } },
  };
  doc.paths[GROUP] = {
    parameters: [{ name: 'costUnitGroupId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    get: { operationId: 'GetCostUnitGroupByCostUnitGroupId', tags: ['Cost units'], responses: { '200': answer('CostUnitGroupDetail') } },
  };
  return doc;
}

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());
const start = async (journal: Json, options: Parameters<typeof createSandbox>[0] = {}) => (sandbox = await createSandbox({ descriptions: { journal }, log: () => {}, ...options }));
const listed = async (token: string, profile = PROFILE) => (await (await call(sandbox!, token, groupsOf(profile))).json())._embedded;

describe('a derived collection', () => {
  it('starts from the examples of its reads when its x-sandbox-collection says seed: examples, for every token', async () => {
    await start(describedJournal());
    expect(await listed('examples-a')).toEqual(EXAMPLE_GROUPS);
    const one = await call(sandbox!, 'examples-a', `${ORIGIN}/journal/providers/wagemodels/journalprofiles/costunitgroups/${EXAMPLE_GROUPS[0]!.id}`);
    expect((await one.json()).content).toEqual(EXAMPLE_GROUPS[0]);
    // Under the profile the path parameter's example names, nowhere else.
    expect(await listed('examples-a', JOURNAL_PROFILE_IDS.wageModelProjects)).toEqual([]);
    expect(await listed('examples-b')).toEqual(EXAMPLE_GROUPS);
  });

  it('starts empty without the annotation, or with the plain name', async () => {
    for (const annotation of [null, 'costUnitGroups']) {
      await start(describedJournal({ annotation }));
      expect(await listed('empty')).toEqual([]);
      await sandbox!.close();
      sandbox = undefined;
    }
  });

  it('is refused at start when an example doc is under no parent, or under one the sandbox does not hold', async () => {
    await expect(start(describedJournal({ parameterExample: null }))).rejects.toThrow(/the example doc 5b0e7c1a-.* of costUnitGroups is under no journalProfileId/);
    await expect(start(describedJournal({ parameterExample: '00000000-0000-4000-8000-000000000000' }))).rejects.toThrow(/under journalProfileId "00000000-0000-4000-8000-000000000000", which names no doc of journalProfiles/);
    await expect(start(describedJournal({ items: [{ code: 'X' }] }))).rejects.toThrow(/item 0 has no string id/);
  });
});

describe('the factory of derived collections', () => {
  const make = () => createFixtures({ seed: 3, descriptions: { journal: describedJournal({ annotation: null }) } });

  it('completes a doc: an id from the seed, the schema defaults, the relation given', () => {
    const first = make().derived('costUnitGroups', { journalProfileId: PROFILE, code: 'F1' });
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), journalProfileId: PROFILE, code: 'F1', active: true });
    expect(make().derived('costUnitGroups', { journalProfileId: PROFILE, code: 'F1' })).toEqual(first);
    const factory = make();
    factory.derived('costUnitGroups', { journalProfileId: PROFILE, code: 'A', active: false });
    expect(factory.derived.collections().costUnitGroups).toEqual([expect.objectContaining({ code: 'A', active: false })]);
  });

  it('refuses a doc without its relation, one under nothing, one its schema refuses, and a collection not derived', () => {
    const factory = make();
    const problems = (partial: Record<string, unknown>, collection = 'costUnitGroups') => {
      try {
        factory.derived(collection, partial);
      } catch (error) {
        expect(error).toBeInstanceOf(DerivedFixtureError);
        return (error as DerivedFixtureError).problems;
      }
      throw new Error('not refused');
    };
    expect(problems({ code: 'X' })).toEqual([{ path: 'journalProfileId', message: expect.stringContaining('is required') }]);
    expect(problems({ journalProfileId: '00000000-0000-4000-8000-000000000000' })).toEqual([{ path: 'journalProfileId', message: expect.stringContaining('names no doc of journalProfiles') }]);
    expect(problems({ journalProfileId: PROFILE, code: 'MUCH TOO LONG' })).toEqual([{ path: 'code', message: expect.stringContaining('10 characters') }]);
    expect(problems({}, 'costUnits')[0]!.message).toContain('is no derived collection (costUnitGroups)');
    expect(factory.derived.collections()).toEqual({});
  });
});

describe("a scenario's derived lists", () => {
  it('makes the docs of a derived collection, under a seeded or a scenario-made parent, by ref', async () => {
    await start(describedJournal({ annotation: null }));
    const made = await sandbox!.scenario(
      { start: 'seed', entities: { journalProfiles: [{ ref: 'profile' }] }, derived: { costUnitGroups: [{ ref: 'sales', journalProfileId: PROFILE, code: 'S1' }] } },
      { token: 'scenario' },
    );
    expect(await listed('scenario')).toEqual([{ id: made.refs.sales, code: 'S1', active: true }]);
    const merged = await sandbox!.scenario({ entities: {}, derived: { costUnitGroups: [{ journalProfileId: made.refs.profile, code: 'P1' }] } }, { token: 'scenario', mode: 'merge' });
    expect(merged.refs).toEqual({});
    expect(await listed('scenario', made.refs.profile)).toEqual([expect.objectContaining({ code: 'P1', active: true })]);
  });

  it('refuses a bad doc whole, with its path, and changes nothing', async () => {
    await start(describedJournal({ annotation: null }));
    await sandbox!.scenario({ start: 'seed', entities: {}, derived: { costUnitGroups: [{ journalProfileId: PROFILE, code: 'K1' }] } }, { token: 'refused' });
    const refused = sandbox!.scenario({ start: 'seed', entities: {}, derived: { costUnitGroups: [{ journalProfileId: PROFILE, code: 'OK' }, { code: 'ZONDER' }], costUnits: [{}] } }, { token: 'refused' });
    await expect(refused).rejects.toBeInstanceOf(SandboxControlError);
    const body = (await refused.catch((error: SandboxControlError) => error.body)) as { messages: Array<{ description: string }> };
    const said = body.messages.map((m) => m.description).join(' | ');
    expect(said).toContain('derived.costUnitGroups[1].journalProfileId');
    expect(said).toContain('derived.costUnits');
    expect(await listed('refused')).toEqual([expect.objectContaining({ code: 'K1' })]);
  });
});
