import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'success-example';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';
const OLD = 'application/json;version=2018-01-01';

describe(RULE, () => {
  it('passes on the base document (example and examples both count)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when a success media type has a schema but no example', async () => {
    const doc = fixture();
    delete doc.paths[LOGO].get.responses['200'].content[OLD].example;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LOGO}: the 200 media type "${OLD}" has a schema but no example or examples.`,
        path: ['paths', LOGO, 'get', 'responses', '200', 'content', OLD],
      }),
    ]);
  });

  it('fires when examples is empty', async () => {
    const doc = fixture();
    doc.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].examples = {};
    expect(await lintRule(RULE, doc)).toHaveLength(1);
  });

  it('leaves error responses and media types without a schema alone', async () => {
    const doc = fixture();
    doc.components.responses.BadRequest.content = { 'application/json': { schema: { type: 'object' } } };
    doc.paths[LOGO].get.responses['200'].content['image/png'] = {};
    expect(await lintRule(RULE, doc)).toEqual([]);
  });
});
