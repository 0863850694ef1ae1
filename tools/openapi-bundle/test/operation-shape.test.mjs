import { describe, expect, it } from 'vitest';
import { collectionNameOf, operationShapes, parameterCollections, pathParameters } from '../operation-shape.mjs';

const json = (schema) => ({ content: { 'application/json': { schema } } });
const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const doc = {
  paths: {
    '/groups/{groupId}/things': {
      get: { operationId: 'GetThingsByGroupId', responses: { 200: json(ref('ThingList')) } },
      post: { operationId: 'PostThingByGroupId', requestBody: json(ref('NewThing')), responses: { 201: json(ref('ThingDetail')) } },
    },
    '/groups/things/{thingId}': {
      get: { operationId: 'GetThingByThingId', responses: { 200: json(ref('ThingDetail')) } },
      patch: { operationId: 'PatchThingByThingId', responses: { 200: json(ref('ThingDetail')) } },
      delete: { operationId: 'DeleteThingByThingId', responses: { 200: json(ref('EmptyDetail')) } },
    },
    '/groups/{groupId}': { get: { operationId: 'GetGroupByGroupId', responses: { 200: json({ allOf: [ref('Detail'), { properties: { content: { allOf: [ref('Category')] } } }] }) } } },
    '/groups/{groupId}/report': { get: { operationId: 'GetReportByGroupId', responses: { 200: json(ref('EmptyDetail')) } } },
    '/groups/{groupId}/notes': { 'x-sandbox-collection': 'groupNotes', delete: { operationId: 'DeleteNotesByGroupId', responses: { 204: { description: 'gone' } } } },
    '/odd': { get: { operationId: 'GetOdd', 'x-sandbox-collection': 'not a name', responses: { 200: json(ref('ThingDetail')) } } },
  },
  components: {
    schemas: {
      List: { type: 'object', properties: { totalSize: { type: 'integer' }, _embedded: { type: 'array' } } },
      Detail: { type: 'object', properties: { messages: { type: 'array' }, content: { type: 'object' } } },
      ThingList: { allOf: [ref('List'), { properties: { _embedded: { type: 'array', items: ref('Thing') } } }] },
      ThingDetail: { allOf: [ref('Detail'), { properties: { content: ref('Thing') } }] },
      EmptyDetail: { allOf: [ref('Detail')] },
      NewThing: { type: 'object' },
      Thing: { type: 'object', properties: { id: { type: 'string' } } },
      Category: { type: 'object' },
    },
  },
};

describe('operationShapes', () => {
  const shapes = operationShapes(doc);

  it('reads a list and a create under the path parameters as parents', () => {
    expect(shapes.get('GetThingsByGroupId')).toMatchObject({ kind: 'list', component: 'Thing', collection: 'things', idParameter: null, parents: ['groupId'], annotated: false });
    expect(shapes.get('PostThingByGroupId')).toMatchObject({ kind: 'create', component: 'Thing', collection: 'things', parents: ['groupId'] });
  });

  it('takes the last path parameter as the id of a detail, merge and remove', () => {
    expect(shapes.get('GetThingByThingId')).toMatchObject({ kind: 'detail', idParameter: 'thingId', parents: [] });
    expect(shapes.get('PatchThingByThingId')).toMatchObject({ kind: 'merge', idParameter: 'thingId' });
  });

  it("gives an answer without the entity the component of the path's other operations", () => {
    expect(shapes.get('DeleteThingByThingId')).toMatchObject({ kind: 'remove', component: 'Thing', collection: 'things' });
  });

  it('reads a content declared through allOf of one $ref', () => {
    expect(shapes.get('GetGroupByGroupId')).toMatchObject({ kind: 'detail', component: 'Category', collection: 'categories', idParameter: 'groupId' });
  });

  it('says what is missing when nothing names the component, and takes x-sandbox-collection of the path item', () => {
    expect(shapes.get('GetReportByGroupId')).toMatchObject({ problem: expect.stringContaining('names by $ref the component of the docs it reads') });
    expect(shapes.get('DeleteNotesByGroupId')).toMatchObject({ kind: 'remove', component: null, collection: 'groupNotes', annotated: true });
    expect(shapes.get('GetOdd')).toMatchObject({ problem: expect.stringContaining('must be a collection name') });
  });

  it('maps a path parameter to the collection whose id it is, only where one collection claims it', () => {
    expect(parameterCollections(shapes)).toEqual(new Map([['thingId', 'things'], ['groupId', 'categories']]));
    const clash = new Map([['A', { idParameter: 'x', collection: 'one' }], ['B', { idParameter: 'x', collection: 'two' }]]);
    expect(parameterCollections(clash)).toEqual(new Map());
  });
});

describe('names', () => {
  it('pluralizes a component into a collection name', () => {
    expect(['CostUnitGroup', 'Category', 'Address', 'Day', 'Box'].map(collectionNameOf)).toEqual(['costUnitGroups', 'categories', 'addresses', 'days', 'boxes']);
  });

  it('lists path parameters in order', () => {
    expect(pathParameters('/a/{x}/b/{y}')).toEqual(['x', 'y']);
  });
});
