import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'path-source-marker';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document (one contract path, one inferred)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when a path item has no marker', async () => {
    const doc = fixture();
    delete doc.paths[LOGO]['x-path-source'];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ code: RULE, severity: 0, message: `Path ${LOGO} has no x-path-source (contract, published or inferred).`, path: ['paths', LOGO] }),
    ]);
  });

  it('fires on another value', async () => {
    const doc = fixture();
    doc.paths[LIST]['x-path-source'] = 'guessed';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `x-path-source of ${LIST} must be contract, published or inferred, not "guessed".`,
        path: ['paths', LIST, 'x-path-source'],
      }),
    ]);
  });

  it('accepts published, on a path item and on an operation', async () => {
    const doc = fixture();
    doc.paths[LOGO]['x-path-source'] = 'published';
    doc.paths[LIST].post['x-path-source'] = 'inferred';
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('fires on another value on an operation', async () => {
    const doc = fixture();
    doc.paths[LIST].post['x-path-source'] = 'assumed';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `x-path-source of POST ${LIST} must be contract, published or inferred, not "assumed".`,
        path: ['paths', LIST, 'post', 'x-path-source'],
      }),
    ]);
  });
});
