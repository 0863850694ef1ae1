import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'operation-id-activity';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document, including an operation carrying x-activity', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when the operationId is not an activity name', async () => {
    const doc = fixture();
    doc.paths[LIST].get.operationId = 'listEmployees';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `operationId "listEmployees" of GET ${LIST} is not an activity name (Get|Post|Put|Patch|Delete followed by a PascalCase name).`,
        path: ['paths', LIST, 'get', 'operationId'],
      }),
    ]);
  });

  it('fires when the verb is not the HTTP method', async () => {
    const doc = fixture();
    doc.paths[LIST].post.operationId = 'PutEmployeeByEmployerId';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `operationId "PutEmployeeByEmployerId" starts with the verb Put, but the operation's method is POST.`,
        path: ['paths', LIST, 'post', 'operationId'],
      }),
    ]);
  });

  it('fires when the operationId is missing', async () => {
    const doc = fixture();
    delete doc.paths[LIST].get.operationId;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `GET ${LIST} has no operationId; it must be the activity name.`, path: ['paths', LIST, 'get'] }),
    ]);
  });

  it('fires when the operationId does not start with its x-activity', async () => {
    const doc = fixture();
    doc.paths[LOGO].get['x-activity'] = 'GetProviderLogoByEmployerId';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: 'operationId "GetEmployerLogoByEmployerIdAndVersion" does not start with its x-activity "GetProviderLogoByEmployerId".',
        path: ['paths', LOGO, 'get', 'operationId'],
      }),
    ]);
  });

  it('fires when x-activity is not an activity name', async () => {
    const doc = fixture();
    doc.paths[LOGO].get['x-activity'] = 'employer logo';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `x-activity of GET ${LOGO} is not an activity name.`, path: ['paths', LOGO, 'get', 'x-activity'] }),
    ]);
  });
});
