import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, deref, isListEnvelope, mediaTypeVersion, operationsOf, resolveRef, successContent } from '../index.mjs';

const doc = {
  paths: {
    '/a/{id}': { parameters: [], get: { operationId: 'GetA' }, post: { operationId: 'PostA' }, 'x-note': {} },
    '/b': { $ref: '#/components/pathItems/B' },
  },
  components: {
    pathItems: { B: { delete: { operationId: 'DeleteB' } } },
    schemas: { 'a/b~c': { type: 'string' }, Alias: { $ref: '#/components/schemas/a~1b~0c' }, Loop: { $ref: '#/components/schemas/Loop' } },
  },
};

describe('resolveRef', () => {
  it('walks a JSON pointer, unescaping ~1 and ~0', () => {
    expect(resolveRef(doc, '#/components/schemas/a~1b~0c')).toEqual({ type: 'string' });
    expect(resolveRef(doc, '#')).toBe(doc);
  });

  it('names the missing key of a dangling reference', () => {
    expect(() => resolveRef(doc, '#/components/schemas/Missing')).toThrow('cannot resolve $ref #/components/schemas/Missing: "Missing" does not exist');
  });

  it('refuses a reference outside the bundle', () => {
    expect(() => resolveRef(doc, 'other.yaml#/x')).toThrow(/only local references/);
  });
});

describe('deref', () => {
  it('follows a chain of references and passes other nodes through', () => {
    expect(deref(doc, { $ref: '#/components/schemas/Alias' })).toEqual({ type: 'string' });
    const plain = { type: 'integer' };
    expect(deref(doc, plain)).toBe(plain);
    expect(deref(doc, undefined)).toBeUndefined();
  });

  it('fails on a circular reference instead of looping', () => {
    expect(() => deref(doc, { $ref: '#/components/schemas/Loop' })).toThrow('circular $ref #/components/schemas/Loop');
  });
});

describe('operationsOf', () => {
  it('lists every operation in path then method order, following a referenced path item', () => {
    expect([...operationsOf(doc)].map((o) => `${o.method} ${o.path} ${o.operation.operationId}`)).toEqual([
      'get /a/{id} GetA',
      'post /a/{id} PostA',
      'delete /b DeleteB',
    ]);
  });

  it('hands over the path item with its shared parts', () => {
    const [first] = operationsOf(doc);
    expect(first.pathItem).toBe(doc.paths['/a/{id}']);
  });

  it('reads a document without paths as having none', () => {
    expect([...operationsOf({})]).toEqual([]);
    expect([...operationsOf(undefined)]).toEqual([]);
  });

  it('knows the eight HTTP methods of a path item', () => {
    expect(HTTP_METHODS).toHaveLength(8);
  });
});

describe('mediaTypeVersion', () => {
  it('reads the date of a version parameter, wherever it stands among the parameters', () => {
    expect(mediaTypeVersion('application/json;version=2021-03-29')).toBe('2021-03-29');
    expect(mediaTypeVersion('text/csv; charset=utf-8; version=2019-12-16')).toBe('2019-12-16');
    expect(mediaTypeVersion('application/json; VERSION=2018-01-01; q=0.5')).toBe('2018-01-01');
  });

  it('is null without a version, or with one that is not a yyyy-MM-dd date', () => {
    expect(mediaTypeVersion('application/json')).toBeNull();
    expect(mediaTypeVersion('application/json;version=2021-03-29x')).toBeNull();
    expect(mediaTypeVersion('application/json;version=latest')).toBeNull();
  });
});

describe('successContent and isListEnvelope', () => {
  const lists = {
    components: {
      schemas: {
        Envelope: { properties: { messages: {} } },
        List: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { properties: { _embedded: { type: 'array' } } }] },
      },
      responses: { Ok: { content: { 'application/json': { schema: { $ref: '#/components/schemas/List' } } } } },
    },
  };
  it('merges the content of the 2xx responses only', () => {
    const operation = { responses: { 200: { $ref: '#/components/responses/Ok' }, 201: { content: { 'text/csv': {} } }, 400: { content: { 'application/problem': {} } } } };
    expect(Object.keys(successContent(lists, operation)).sort()).toEqual(['application/json', 'text/csv']);
  });
  it('finds _embedded through $refs and allOf', () => {
    expect(isListEnvelope(lists, { $ref: '#/components/schemas/List' })).toBe(true);
    expect(isListEnvelope(lists, { $ref: '#/components/schemas/Envelope' })).toBe(false);
    expect(isListEnvelope(lists, undefined)).toBe(false);
  });
});
