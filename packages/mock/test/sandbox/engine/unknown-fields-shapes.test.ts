// The unknown fields of a body are found by a walk of the body alone: its schema's shape is
// worked out once per schema, and the split is the same on every request.
import { expect, it } from 'vitest';
import { splitUnknownFields } from '#sandbox/http/unknown-fields.js';

it('walks a schema once, however many bodies it splits, and splits each alike', () => {
  let propertiesRead = 0;
  const counted = <T extends object>(schema: T, properties: Record<string, unknown>) => Object.defineProperty(schema, 'properties', { enumerable: true, get: () => (propertiesRead++, properties) });
  const address = counted({ type: 'object' }, { street: { type: 'string' } });
  const schema = { allOf: [counted({ type: 'object' }, { name: { type: 'string' }, addresses: { type: 'array', items: address } })] };
  const body = { name: 'A', extra: 1, addresses: [{ street: 'B', floor: 2 }] };
  const first = splitUnknownFields(schema, body);
  const reads = propertiesRead;
  for (let i = 0; i < 5; i++) expect(splitUnknownFields(schema, body)).toEqual(first);
  expect(first).toEqual({ fields: ['extra', 'addresses[0].floor'], known: { name: 'A', addresses: [{ street: 'B' }] } });
  expect(propertiesRead).toBe(reads);
});
