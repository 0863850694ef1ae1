import { describe, expect, it } from 'vitest';
import { applicableSchemas, undeclaredProperties } from '../index.mjs';

const doc = {
  components: {
    schemas: {
      Envelope: { type: 'object', properties: { version: { type: 'object', properties: { resourceVersion: { type: 'string' } } }, messages: { type: 'array', items: {} } } },
      Person: { type: 'object', properties: { id: { type: 'string' }, personalDetails: { $ref: '#/components/schemas/Details' }, children: { type: 'array', items: { $ref: '#/components/schemas/Child' } } } },
      Details: { type: 'object', properties: { familyName: { type: 'string' } } },
      Child: { type: 'object', properties: { age: { type: 'integer' } } },
      Detail: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { content: { $ref: '#/components/schemas/Person' } } }] },
      Cat: { type: 'object', required: ['meows'], properties: { kind: { const: 'cat' }, meows: { type: 'boolean' } } },
      Dog: { type: 'object', required: ['barks'], properties: { kind: { const: 'dog' }, barks: { type: 'boolean' } } },
      Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }, { type: 'null' }] },
    },
  },
};
const schema = (name) => ({ $ref: `#/components/schemas/${name}` });
/** A stand-in for a validator: a branch matches when the value has its required properties and its kind. */
const matches = (branch, value) => {
  const s = branch.$ref ? doc.components.schemas[branch.$ref.split('/').pop()] : branch;
  if (s.type === 'null') return value === null;
  return !!value && typeof value === 'object' && (s.required ?? []).every((r) => r in value) && value.kind === s.properties.kind.const;
};

describe('undeclaredProperties', () => {
  it('finds a property nested under $ref and allOf that the schema does not name', () => {
    const body = { version: { resourceVersion: '2027-02-01' }, messages: [], content: { id: 'x', personalDetails: { lastName: 'Dijk', familyName: 'Dijk' } } };
    expect(undeclaredProperties(doc, schema('Detail'), body)).toEqual(['content.personalDetails.lastName']);
  });

  it('walks the items of arrays, naming each path once', () => {
    const body = { content: { children: [{ age: 3, name: 'a' }, { name: 'b' }] }, extra: true };
    expect(undeclaredProperties(doc, schema('Detail'), body)).toEqual(['content.children[].name', 'extra']);
    expect(undeclaredProperties(doc, { type: 'array', prefixItems: [schema('Child')], items: schema('Details') }, [{ age: 1 }, { age: 2 }])).toEqual(['[].age']);
  });

  it('judges a oneOf by the branch the value matches, and by all branches when none does', () => {
    expect(undeclaredProperties(doc, schema('Pet'), { kind: 'cat', meows: true, barks: false }, { matches })).toEqual(['barks']);
    expect(undeclaredProperties(doc, schema('Pet'), { kind: 'cat', meows: true, barks: false })).toEqual([]);
    expect(undeclaredProperties(doc, schema('Pet'), { kind: 'fish', swims: true }, { matches })).toEqual(['swims']);
  });

  it('reports nothing for a free-form object or one whose schema allows more', () => {
    expect(undeclaredProperties(doc, { type: 'object' }, { anything: 1 })).toEqual([]);
    expect(undeclaredProperties(doc, { type: 'object', properties: { a: {} }, additionalProperties: true }, { a: 1, b: 2 })).toEqual([]);
    expect(undeclaredProperties(doc, { type: 'object', properties: { a: {} }, additionalProperties: schema('Child') }, { a: 1, b: { age: 1, x: 2 } })).toEqual(['b.x']);
    expect(undeclaredProperties(doc, { type: 'object', properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2 })).toEqual(['b']);
    expect(undeclaredProperties(doc, { type: 'object', patternProperties: { '^x-': {} } }, { 'x-a': 1, b: 2 })).toEqual(['b']);
  });

  it('ignores values that are not objects', () => {
    expect(undeclaredProperties(doc, schema('Detail'), null)).toEqual([]);
    expect(undeclaredProperties(doc, schema('Detail'), 'text')).toEqual([]);
  });
});

describe('applicableSchemas', () => {
  it('follows a $ref that sits next to other keywords, and allOf parts', () => {
    const node = { $ref: '#/components/schemas/Details', properties: { nickname: {} } };
    expect(applicableSchemas(doc, node, {})).toEqual([node, doc.components.schemas.Details]);
    expect(undeclaredProperties(doc, node, { nickname: 'D', familyName: 'Dijk', lastName: 'Dijk' })).toEqual(['lastName']);
  });
});
