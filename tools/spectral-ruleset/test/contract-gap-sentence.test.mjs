import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'contract-gap-sentence';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';
const OLD = 'application/json;version=2018-01-01';

describe(RULE, () => {
  it('passes on the base document (on a shared response and an inline schema)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires on a flag instead of a sentence, once for a shared component', async () => {
    const doc = fixture();
    doc.components.responses.NotFound['x-contract-gap'] = true;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: 'x-contract-gap must be a sentence saying what the contract does not show.',
        path: ['components', 'responses', 'NotFound', 'x-contract-gap'],
      }),
    ]);
  });

  it('fires on an empty string', async () => {
    const doc = fixture();
    doc.components.responses.NotFound['x-contract-gap'] = '  ';
    expect(await lintRule(RULE, doc)).toHaveLength(1);
  });

  it('fires on a fragment', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.responses['200'].content[OLD].schema['x-contract-gap'] = 'not shown';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: 'x-contract-gap "not shown" must be a sentence: capitalised, several words, ending with a full stop.',
        path: ['paths', LOGO, 'get', 'responses', '200', 'content', OLD, 'schema', 'x-contract-gap'],
      }),
    ]);
  });
});
