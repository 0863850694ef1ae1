// The read shape of a stored doc (projectToSchema, named only): only what the answer schema names, at every depth.
import { describe, expect, it } from 'vitest';
import { declaredPropertiesDeep, projectToSchema } from '../src/http/schema-walk.js';

const projected = (value: unknown, schema: Record<string, unknown> | undefined) => projectToSchema(value, schema, { namedOnly: true });

const person = { type: 'object', additionalProperties: true, properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } }, tags: { type: 'array', items: { type: 'object', properties: { key: { type: 'integer' } } } } } };

describe('projected', () => {
  it('keeps the named properties at every depth, through arrays, even where further fields are allowed', () => {
    const stored = { name: 'Anna', employerId: 'e1', address: { city: 'Goes', geo: [1, 2] }, tags: [{ key: 1, internal: true }] };
    expect(projected(stored, person)).toEqual({ name: 'Anna', address: { city: 'Goes' }, tags: [{ key: 1 }] });
  });

  it('unites what allOf, oneOf and anyOf parts name, and every declaration of one property', () => {
    const schema = { allOf: [{ properties: { content: {} } }, { properties: { content: person } }], oneOf: [{ properties: { a: {} } }, { properties: { b: {} } }] };
    expect(projected({ content: { name: 'x', secret: 1 }, a: 1, b: 2, c: 3 }, schema)).toEqual({ content: { name: 'x' }, a: 1, b: 2 });
    expect(projected({ list: [{ key: 1, more: 2 }] }, { allOf: [{ properties: { list: { type: 'array', items: {} } } }, { properties: { list: { type: 'array', items: { properties: { key: {} } } } } }] })).toEqual({ list: [{ key: 1 }] });
  });

  it('passes whole what the schema does not describe: objects naming no property, values without a schema', () => {
    expect(projected({ any: { thing: 1 } }, { type: 'object', properties: { any: { type: 'object', additionalProperties: true } } })).toEqual({ any: { thing: 1 } });
    expect(projected({ x: 1 }, undefined)).toEqual({ x: 1 });
    expect(projected('text', person)).toBe('text');
  });

  it('keeps an object that allows more whole, unless named only', () => {
    expect(projectToSchema({ name: 'Anna', employerId: 'e1' }, person)).toEqual({ name: 'Anna', employerId: 'e1' });
  });

  it('follows a schema that refers to itself, as dereferenced descriptions do, as deep as the value goes', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { name: { type: 'string' } } };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const tree = { name: 'a', secret: 1, children: [{ name: 'b', children: [{ name: 'c', secret: 2, children: [] }] }] };
    expect(projected(tree, node)).toEqual({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] });
  });

  it('hands back the value itself, not a copy, where nothing is dropped; what it drops from leaves the value as it was', () => {
    const stored = { name: 'Anna', address: { city: 'Goes' }, tags: [{ key: 1 }] };
    expect(projected(stored, person)).toBe(stored);
    const withInternal = { name: 'Anna', address: { city: 'Goes', geo: [1] }, tags: [{ key: 1 }] };
    const answer = projected(withInternal, person);
    expect(answer.tags).toBe(withInternal.tags);
    expect(withInternal.address).toEqual({ city: 'Goes', geo: [1] });
  });

  it('names the properties of every part', () => {
    expect([...declaredPropertiesDeep({ anyOf: [{ properties: { a: {} } }, { allOf: [{ properties: { b: {} } }] }] })].sort()).toEqual(['a', 'b']);
  });
});
