import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'path-params-uuid';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document (path-level, operation-level, by $ref and inline)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires on an integer path parameter', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.parameters[2].schema = { type: 'integer', format: 'int32' };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `The path parameter "version" of GET ${LOGO} must have schema {type: string, format: uuid}.`,
        path: ['paths', LOGO, 'get', 'parameters', '2', 'schema'],
      }),
    ]);
  });

  it('fires on a string path parameter without the uuid format', async () => {
    const doc = fixture();
    delete doc.paths[LOGO].get.parameters[2].schema.format;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `The path parameter "version" of GET ${LOGO} must have schema {type: string, format: uuid}.` }),
    ]);
  });

  it('fires on a nullable uuid', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.parameters[2].schema.type = ['string', 'null'];
    expect(await lintRule(RULE, doc)).toHaveLength(1);
  });

  it('fires on a path parameter that is not required, reporting a path-level one once', async () => {
    const doc = fixture();
    doc.paths[LIST].parameters[0] = { name: 'employerId', in: 'path', schema: { type: 'string', format: 'uuid' } };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `The path parameter "employerId" of ${LIST} must be required.`,
        path: ['paths', LIST, 'parameters', '0'],
      }),
    ]);
  });

  it('fires on a path parameter without a schema', async () => {
    const doc = fixture();
    delete doc.paths[LOGO].get.parameters[2].schema;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ path: ['paths', LOGO, 'get', 'parameters', '2'] }),
    ]);
  });
});
