// Generated request data: repeatable for a seed, and valid against the schema it came from for
// every request body of both descriptions.
import { expect, test } from 'vitest';
import { sample } from '../src/arbitraries.js';
import { loadDescriptions } from '../src/description.js';
import { SchemaValidator } from '../src/schemas.js';

const apis = loadDescriptions();
const validator = new SchemaValidator(apis);
const bodies = apis.flatMap((api) => api.operations.flatMap((o) => (o.body?.contents ?? []).filter((c) => c.schema && c.essence === 'application/json').map((c) => ({ api, operation: o, content: c }))));

test('there are request bodies to generate', () => {
  expect(bodies.length).toBeGreaterThan(20);
});

test.each(bodies.map((b) => [`${b.operation.operationId} ${b.content.mediaType}`, b] as const))('%s: generated bodies validate', (_name, { api, content }) => {
  const values = sample(api.doc, content.schema, 42, 5, { writing: true });
  for (const value of values) expect(validator.validate(api.name, content.schema as never, value)).toEqual([]);
});

test('the same seed gives the same data, another seed other data', () => {
  const { api, content } = bodies.find((b) => b.operation.operationId === 'PutEmployerByEmployerId') ?? bodies[0]!;
  expect(sample(api.doc, content.schema, 7, 3, { writing: true })).toEqual(sample(api.doc, content.schema, 7, 3, { writing: true }));
  expect(sample(api.doc, content.schema, 7, 3, { writing: true })).not.toEqual(sample(api.doc, content.schema, 8, 3, { writing: true }));
});
