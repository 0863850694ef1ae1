import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'list-operation-paging';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document (a list envelope composed through nested allOf)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when a list GET lacks list parameters', async () => {
    const doc = fixture();
    doc.paths[LIST].get.parameters = doc.paths[LIST].get.parameters.filter((p) => !/Filter|PageSize/.test(p.$ref));
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LIST} answers with the list envelope but lacks the query parameter(s) filter, pageSize.`,
        path: ['paths', LIST, 'get', 'parameters'],
      }),
    ]);
  });

  it('recognises an inline list envelope', async () => {
    const doc = fixture();
    const media = doc.paths[LOGO].get.responses['200'].content['application/json;version=2018-01-01'];
    media.schema = {
      type: 'object',
      properties: {
        totalSize: { type: 'integer' },
        pageSize: { type: 'integer' },
        totalPages: { type: 'integer' },
        currentPage: { type: 'integer' },
        _embedded: { type: 'array', items: {} },
      },
    };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `GET ${LOGO} answers with the list envelope but lacks the query parameter(s) filter, orderBy, pageNumber, pageSize.` }),
    ]);
  });

  it('does not take a schema without the paging fields for a list', async () => {
    const doc = fixture();
    delete doc.components.schemas.ListEnvelope.allOf[1].properties.totalPages;
    const results = await lintRule(RULE, doc);
    expect(results.map((r) => r.message)).toEqual([
      `GET ${LIST} takes pageNumber but does not answer with the list envelope.`,
      `GET ${LIST} takes pageSize but does not answer with the list envelope.`,
    ]);
  });

  it('fires when an operation takes paging parameters without answering with the list envelope', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.parameters.push({ $ref: '#/components/parameters/PageNumber' });
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `GET ${LOGO} takes pageNumber but does not answer with the list envelope.`,
        path: ['components', 'parameters', 'PageNumber'],
      }),
    ]);
  });
});
