import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'accept-header-required';
const LIST = '/v2/providers/employers/{employerId}/employees';

describe(RULE, () => {
  it('passes on the base document (Accept by $ref)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('passes with an inline Accept parameter, matched case-insensitively, or one on the path item', async () => {
    const doc = fixture();
    doc.paths[LIST].get.parameters[0] = { name: 'accept', in: 'header', required: true, schema: { type: 'string' } };
    doc.paths[LIST].post.parameters = [];
    doc.paths[LIST].parameters.push({ $ref: '#/components/parameters/Accept' });
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('fires when an operation lacks the Accept parameter', async () => {
    const doc = fixture();
    doc.paths[LIST].post.parameters = [];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `POST ${LIST} does not declare the Accept header parameter.`,
        path: ['paths', LIST, 'post', 'parameters'],
      }),
    ]);
  });

  it('fires when Accept is a query parameter rather than a header', async () => {
    const doc = fixture();
    doc.paths[LIST].post.parameters = [{ name: 'Accept', in: 'query', required: true, schema: { type: 'string' } }];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `POST ${LIST} does not declare the Accept header parameter.` }),
    ]);
  });

  it('fires when the Accept parameter is optional, resolving its $ref', async () => {
    const doc = fixture();
    doc.components.parameters.Accept.required = false;
    const results = await lintRule(RULE, doc);
    expect(results.map((r) => r.message)).toEqual([
      `The Accept header parameter of GET ${LIST} must be required.`,
      `The Accept header parameter of POST ${LIST} must be required.`,
      'The Accept header parameter of GET /v2/providers/employers/{employerId}/logo/{version} must be required.',
    ]);
    expect(results[0].path).toEqual(['components', 'parameters', 'Accept']);
  });
});
