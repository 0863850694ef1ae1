import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'sandbox-collection-inferable';
const LIST = '/v2/providers/employers/{employerId}/employees';

describe(RULE, () => {
  it('passes on the base document, whose answers name their entity by $ref', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires on an operation whose answer names no component and has no sibling that does', async () => {
    const doc = fixture();
    doc.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].schema = { type: 'object', properties: { _embedded: { type: 'array', items: { type: 'object' } } } };
    delete doc.paths[LIST].post;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: expect.stringContaining('GetEmployeesByEmployerId: the sandbox cannot tell which stored docs it serves'),
        path: ['paths', LIST, 'get'],
      }),
    ]);
  });

  it('passes once x-sandbox-collection names the collection, on the operation or its path item', async () => {
    for (const where of ['operation', 'path item']) {
      const doc = fixture();
      doc.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].schema = { type: 'object' };
      delete doc.paths[LIST].post;
      (where === 'operation' ? doc.paths[LIST].get : doc.paths[LIST])['x-sandbox-collection'] = 'employees';
      expect(await lintRule(RULE, doc)).toEqual([]);
    }
  });

  it('fires on an x-sandbox-collection that is no collection name', async () => {
    const doc = fixture();
    doc.paths[LIST].get['x-sandbox-collection'] = 'two words';
    expect((await lintRule(RULE, doc)).map((r) => r.message)).toEqual([expect.stringContaining('x-sandbox-collection must be a collection name')]);
  });
});
