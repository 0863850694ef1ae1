import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'sandbox-collection-seedable';
const LIST = '/v2/providers/employers/{employerId}/employees';
const EMPLOYER = '0b3c8d2e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';

/** The base document with the employees starting from their examples. */
function seededFromExamples() {
  const doc = fixture();
  doc.paths[LIST]['x-sandbox-collection'] = { seed: 'examples' };
  return doc;
}

describe(RULE, () => {
  it('passes on the base document, whose collections start empty', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when an example doc is under no parent: the path parameter has no example and the doc no field', async () => {
    expect(await lintRule(RULE, seededFromExamples())).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: expect.stringContaining('GetEmployeesByEmployerId: the example doc 6f1c2a9e-3b5d-4c7e-9a1f-2d3e4f5a6b7c of employees is under no employerId'),
        path: ['paths', LIST, 'get'],
      }),
    ]);
  });

  it('passes once the path parameter has an example, or the doc names its parent', async () => {
    const byParameter = seededFromExamples();
    byParameter.components.parameters.EmployerId.example = EMPLOYER;
    expect(await lintRule(RULE, byParameter)).toEqual([]);
    const byField = seededFromExamples();
    byField.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].examples.default.value._embedded[0].employerId = EMPLOYER;
    expect(await lintRule(RULE, byField)).toEqual([]);
  });

  it('fires on an example item without an id', async () => {
    const doc = seededFromExamples();
    doc.components.parameters.EmployerId.example = EMPLOYER;
    delete doc.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].examples.default.value._embedded[0].id;
    expect((await lintRule(RULE, doc)).map((r) => r.message)).toEqual([expect.stringContaining('item 0 has no string id')]);
  });
});
