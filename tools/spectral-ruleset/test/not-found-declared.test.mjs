import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'not-found-declared';
const LIST = '/v2/providers/employers/{employerId}/employees';

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when an operation on a path with a parameter lacks 404', async () => {
    const doc = fixture();
    delete doc.paths[LIST].get.responses['404'];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LIST} addresses an entity by path parameter but does not declare 404.`,
        path: ['paths', LIST, 'get', 'responses'],
      }),
    ]);
  });

  it('does not ask for 404 on a path without parameters', async () => {
    const doc = fixture();
    const item = structuredClone(doc.paths[LIST]);
    delete item.parameters;
    delete item.get.responses['404'];
    delete item.post.responses['404'];
    doc.paths['/v2/providers/employers/employees'] = item;
    delete doc.paths[LIST];
    expect(await lintRule(RULE, doc)).toEqual([]);
  });
});
