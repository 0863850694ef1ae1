import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'versioned-media-types';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';
const NEW = 'application/json;version=2021-03-29';
const OLD = 'application/json;version=2018-01-01';

/** Rebuilds an object with its keys in the given order. */
function reorder(object, keys) {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}

describe(RULE, () => {
  it('passes on the base document (two served versions, newest first)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('ignores non-JSON media types, which are not resource representations', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.responses['200'].content['image/png'] = { schema: { type: 'string', contentMediaType: 'image/png' } };
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('fires on an unversioned JSON response media type', async () => {
    const doc = fixture();
    const content = doc.paths[LOGO].get.responses['200'].content;
    content['application/json'] = content[OLD];
    delete content[OLD];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LOGO}: media type "application/json" of the 200 response is not versioned (;version=yyyy-MM-dd).`,
        path: ['paths', LOGO, 'get', 'responses', '200', 'content', 'application/json'],
      }),
    ]);
  });

  it('fires on an unversioned request body media type', async () => {
    const doc = fixture();
    doc.paths[LIST].post.requestBody.content['text/json'] = { schema: { type: 'object' } };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `POST ${LIST}: media type "text/json" of the request body is not versioned (;version=yyyy-MM-dd).` }),
    ]);
  });

  it('fires on a version the resource does not serve', async () => {
    const doc = fixture();
    const content = doc.paths[LOGO].get.responses['200'].content;
    content['application/json;version=2019-12-16'] = content[OLD];
    delete content[OLD];
    const messages = (await lintRule(RULE, doc)).map((r) => r.message);
    expect(messages.sort()).toEqual([
      `GET ${LOGO}: version 2019-12-16 of the 200 response is not served by resource "employerLogo" (2018-01-01).`,
      `GET ${LOGO}: the 200 response lacks application/json keys for the served version(s) 2018-01-01 of resource "employerLogo".`,
    ].sort());
  });

  it('fires when a served version has no media type key', async () => {
    const doc = fixture();
    delete doc.paths[LIST].post.requestBody.content[OLD];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `POST ${LIST}: the request body lacks application/json keys for the served version(s) 2018-01-01 of resource "employee".`,
        path: ['paths', LIST, 'post', 'requestBody', 'content'],
      }),
    ]);
  });

  it('fires when the keys are not newest first', async () => {
    const doc = fixture();
    const response = doc.paths[LIST].get.responses['200'];
    response.content = reorder(response.content, [OLD, NEW]);
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `GET ${LIST}: the application/json keys of the 200 response must list the versions newest first (2021-03-29, 2018-01-01).`,
      }),
    ]);
  });

  it("fires when an example reports another version than its media type's", async () => {
    const doc = fixture();
    doc.paths[LIST].get.responses['200'].content[NEW].examples.default.value.version.resourceVersion = '2018-01-01';
    doc.paths[LIST].post.responses['201'].content[OLD].example.version.resourceVersion = '2021-03-29';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: 'The example reports version.resourceVersion 2018-01-01, but its media type is version 2021-03-29.',
        path: ['paths', LIST, 'get', 'responses', '200', 'content', NEW, 'examples', 'default', 'value'],
      }),
      expect.objectContaining({
        message: 'The example reports version.resourceVersion 2021-03-29, but its media type is version 2018-01-01.',
        path: ['paths', LIST, 'post', 'responses', '201', 'content', OLD, 'example'],
      }),
    ]);
  });

  it('fires when an operation is in no registry resource', async () => {
    const doc = fixture();
    doc['x-resource-versions'].resources.employerLogo.operations = [];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `GET ${LOGO} (GetEmployerLogoByEmployerIdAndVersion) is in no resource of the x-resource-versions registry.`,
        path: ['paths', LOGO, 'get', 'operationId'],
      }),
    ]);
  });

  it('fires when an operation is in two registry resources', async () => {
    const doc = fixture();
    doc['x-resource-versions'].resources.employee.operations.push('GetEmployerLogoByEmployerIdAndVersion');
    const messages = (await lintRule(RULE, doc)).map((r) => r.message);
    expect(messages).toContain(
      `GET ${LOGO} (GetEmployerLogoByEmployerIdAndVersion) is in several registry resources: employee, employerLogo.`,
    );
  });

  it('fires when the registry lists an operation the document does not have', async () => {
    const doc = fixture();
    doc['x-resource-versions'].resources.employerLogo.operations.push('DeleteEmployerLogoByEmployerId');
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: 'Registry resource "employerLogo" lists "DeleteEmployerLogoByEmployerId", which is no operation of the document.',
        path: ['x-resource-versions', 'resources', 'employerLogo', 'operations'],
      }),
    ]);
  });

  it('fires when the registry lists versions oldest first', async () => {
    const doc = fixture();
    doc['x-resource-versions'].resources.employee.versions.reverse();
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: 'Registry resource "employee" must list its versions newest first, each once.',
        path: ['x-resource-versions', 'resources', 'employee', 'versions'],
      }),
    ]);
  });

  it('fires once when the registry is missing', async () => {
    const doc = fixture();
    delete doc['x-resource-versions'];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: 'The document has no x-resource-versions registry with resources.', path: [] }),
    ]);
  });
});
