import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'media-type-example-served';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';
const SERVED = '(2021-03-29, 2018-01-01)';

const accept = (extra) => ({ name: 'Accept', in: 'header', required: true, schema: { type: 'string' }, ...extra });

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('passes when the Accept examples name served versions, no version, or a list with a served one', async () => {
    const doc = fixture();
    doc.paths[LIST].get.parameters[0] = accept({
      examples: {
        newest: { value: 'application/json;version=2021-03-29' },
        older: { value: 'application/json;version=2018-01-01' },
        unversioned: { value: 'application/json' },
        list: { value: 'application/json;version=2021-03-29, text/plain, */*' },
      },
    });
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('fires on an Accept example naming a version the operation does not serve', async () => {
    const doc = fixture();
    doc.paths[LIST].get.parameters[0] = accept({ example: 'application/json;version=2019-12-16' });
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LIST}: the Accept example "application/json;version=2019-12-16" names version 2019-12-16, which resource "employee" does not serve ${SERVED}.`,
        path: ['paths', LIST, 'get', 'parameters', '0', 'example'],
      }),
    ]);
  });

  it('fires on a Content-Type example, and on a version inside a list of media ranges', async () => {
    const doc = fixture();
    doc.paths[LIST].post.parameters.push({
      name: 'Content-Type',
      in: 'header',
      schema: { type: 'string' },
      examples: { wrong: { value: 'text/plain, application/json;version=2019-12-16' } },
    });
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `POST ${LIST}: the Content-Type example "application/json;version=2019-12-16" names version 2019-12-16, which resource "employee" does not serve ${SERVED}.`,
        path: ['paths', LIST, 'post', 'parameters', '1', 'examples', 'wrong', 'value'],
      }),
    ]);
  });

  it('fires on a shared Accept example that one referencing operation does not serve', async () => {
    const doc = fixture();
    // Served by employee, not by employerLogo: the mistake of one example for every operation.
    doc.components.parameters.Accept.example = 'application/json;version=2021-03-29';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `GET ${LOGO}: the Accept example "application/json;version=2021-03-29" names version 2021-03-29, which resource "employerLogo" does not serve (2018-01-01).`,
        path: ['components', 'parameters', 'Accept', 'example'],
      }),
    ]);
  });

  it('reads the schema example too', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.parameters[0] = accept({ schema: { type: 'string', example: 'application/json;version=2021-03-29' } });
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ path: ['paths', LOGO, 'get', 'parameters', '0', 'schema', 'example'] }),
    ]);
  });
});
