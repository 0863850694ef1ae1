import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'post-returns-201';
const LIST = '/v2/providers/employers/{employerId}/employees';

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when a POST answers 200 instead of 201', async () => {
    const doc = fixture();
    const responses = doc.paths[LIST].post.responses;
    responses['200'] = responses['201'];
    delete responses['201'];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ code: RULE, severity: 0, message: 'A POST must declare the 201 response.', path: ['paths', LIST, 'post', 'responses'] }),
      expect.objectContaining({ message: 'A POST answers 201, never 200: remove the 200 response.', path: ['paths', LIST, 'post', 'responses', '200'] }),
    ]);
  });

  it('fires when a POST declares 200 next to 201', async () => {
    const doc = fixture();
    doc.paths[LIST].post.responses['200'] = { description: 'Processed.' };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: 'A POST answers 201, never 200: remove the 200 response.' }),
    ]);
  });

  it('leaves other methods alone', async () => {
    const doc = fixture();
    expect(doc.paths[LIST].get.responses['201']).toBeUndefined();
    doc.paths[LIST].put = { ...doc.paths[LIST].post, operationId: 'PutEmployeesByEmployerId' };
    delete doc.paths[LIST].post;
    expect(await lintRule(RULE, doc)).toEqual([]);
  });
});
