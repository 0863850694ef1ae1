import { describe, expect, it } from 'vitest';
import { exampleSeed } from '../operation-examples.mjs';
import { operationShapes } from '../operation-shape.mjs';

const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const answer = (schema, example) => ({ content: { 'application/json': { schema, ...(example ? { examples: { default: example } } : {}) } } });
const groupId = { name: 'groupId', in: 'path', required: true, schema: { type: 'string' }, example: 'g-1' };

function described({ listAnnotation = { seed: 'examples' }, parameter = groupId, listItems, detailContent } = {}) {
  return {
    paths: {
      '/groups/{groupId}/things': {
        parameters: [parameter],
        'x-sandbox-collection': listAnnotation,
        get: { operationId: 'GetThingsByGroupId', responses: { 200: answer(ref('ThingList'), { $ref: '#/components/examples/Things' }) } },
      },
      '/groups/things/{thingId}': {
        get: { operationId: 'GetThingByThingId', responses: { 200: answer(ref('ThingDetail'), detailContent ? { value: { content: detailContent } } : undefined) } },
      },
    },
    components: {
      examples: { Things: { value: { totalSize: 2, _embedded: listItems ?? [{ id: 't-1', name: 'Een' }, { id: 't-2', name: 'Twee' }] } } },
      schemas: {
        ThingList: { type: 'object', properties: { _embedded: { type: 'array', items: ref('Thing') } } },
        ThingDetail: { type: 'object', properties: { content: ref('Thing') } },
        Thing: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
      },
    },
  };
}
const seedOf = (doc) => exampleSeed(doc, operationShapes(doc).values());

describe('exampleSeed', () => {
  it('starts a collection that says seed: examples from its reads, under the path parameter examples', () => {
    const { collections, problems } = seedOf(described({ detailContent: { id: 't-3', name: 'Drie', groupId: 'g-2' } }));
    expect(problems).toEqual([]);
    expect(collections.get('things')).toEqual([
      { id: 't-1', name: 'Een', groupId: 'g-1' },
      { id: 't-2', name: 'Twee', groupId: 'g-1' },
      { id: 't-3', name: 'Drie', groupId: 'g-2' },
    ]);
  });

  it('leaves a collection without the annotation (or with the plain name) empty', () => {
    expect(seedOf(described({ listAnnotation: 'things' })).collections.size).toBe(0);
  });

  it('takes a parent from the doc itself, or from the same doc in another example', () => {
    const { name, in: where, required, schema } = groupId;
    const { collections, problems } = seedOf(described({ parameter: { name, in: where, required, schema }, listItems: [{ id: 't-1', groupId: 'g-5' }, { id: 't-3' }], detailContent: { id: 't-3', groupId: 'g-6' } }));
    expect(problems).toEqual([]);
    expect(collections.get('things')).toEqual([{ id: 't-1', groupId: 'g-5' }, { id: 't-3', groupId: 'g-6' }]);
  });

  it('refuses an example doc no example puts under its parent, an item without an id, and a collection with no example', () => {
    const { name, in: where, required, schema } = groupId;
    const noParent = seedOf(described({ parameter: { name, in: where, required, schema } }));
    expect(noParent.problems.map((p) => p.problem)).toEqual([expect.stringContaining('the example doc t-1 of things is under no groupId'), expect.stringContaining('t-2')]);
    expect(seedOf(described({ listItems: [{ name: 'zonder id' }] })).problems).toEqual([expect.objectContaining({ operationId: 'GetThingsByGroupId', problem: expect.stringContaining('item 0 has no string id') })]);
    expect(seedOf(described({ listItems: [] })).problems).toEqual([expect.objectContaining({ problem: expect.stringContaining('no list or detail read of it shows a doc') })]);
  });
});

describe('x-sandbox-collection, the object form', () => {
  it('names the collection and how it starts, and refuses what it does not know', () => {
    const shapes = operationShapes(described({ listAnnotation: { name: 'widgets', seed: 'examples' } }));
    expect(shapes.get('GetThingsByGroupId')).toMatchObject({ collection: 'widgets', annotated: true, seed: 'examples' });
    expect(shapes.get('GetThingByThingId')).toMatchObject({ collection: 'things', annotated: false, seed: 'empty' });
    expect(operationShapes(described({ listAnnotation: { seed: 'random' } })).get('GetThingsByGroupId')).toMatchObject({ problem: expect.stringContaining('seed must be empty or examples') });
    expect(operationShapes(described({ listAnnotation: { collection: 'x' } })).get('GetThingsByGroupId')).toMatchObject({ problem: expect.stringContaining('takes only name and seed') });
  });
});
