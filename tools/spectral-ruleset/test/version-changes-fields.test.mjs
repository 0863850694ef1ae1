import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'version-changes-fields';
const LIST = '/v2/providers/employers/{employerId}/employees';
const STEP = 'x-version-changes employee 2018-01-01 → 2021-03-29';

/** The base document with employee 2021-03-29 renaming lastName to familyName and adding nickname. */
function renamed() {
  const doc = fixture();
  doc.components.schemas.EmployeeV2021 = { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, familyName: { type: 'string' }, nickname: { type: 'string' } } };
  doc.components.schemas.EmployeeListV2021 = { allOf: [{ $ref: '#/components/schemas/ListEnvelope' }, { type: 'object', properties: { _embedded: { items: { $ref: '#/components/schemas/EmployeeV2021' } } } }] };
  doc.paths[LIST].get.responses['200'].content['application/json;version=2021-03-29'].schema = { $ref: '#/components/schemas/EmployeeListV2021' };
  doc.paths[LIST].post.requestBody.content['application/json;version=2021-03-29'].schema = { $ref: '#/components/schemas/EmployeeV2021' };
  doc['x-version-changes'].employee[0].changes = [{ rename: 'lastName', to: 'familyName' }, { add: 'nickname', type: 'string' }];
  return doc;
}

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('passes on a record whose fields exist on each side (through the list envelope and a request body)', async () => {
    expect(await lintRule(RULE, renamed())).toEqual([]);
  });

  it('fires on a field the version before does not have, and on a result the new version does not have', async () => {
    const doc = renamed();
    doc['x-version-changes'].employee[0].changes = [{ rename: 'surname', to: 'familyName' }, { rename: 'lastName', to: 'name' }];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ code: RULE, severity: 0, message: `${STEP}, rename surname: "surname" is not a field of employee 2018-01-01.`, path: ['x-version-changes', 'employee', '0', 'changes', '0'] }),
      expect.objectContaining({ message: `${STEP}, rename lastName: "name" is not a field of employee 2021-03-29.`, path: ['x-version-changes', 'employee', '0', 'changes', '1'] }),
    ]);
  });

  it('fires on a removed field still there and an added field already there', async () => {
    const doc = renamed();
    doc['x-version-changes'].employee[0].changes = [{ remove: 'id' }, { add: 'id', type: 'string' }];
    const messages = (await lintRule(RULE, doc)).map((r) => r.message);
    expect(messages).toEqual([`${STEP}, remove id: "id" is still a field of employee 2021-03-29.`, `${STEP}, add id: "id" is already a field of employee 2018-01-01.`]);
  });

  it('fires on a step between versions the registry does not list, and on an unknown resource', async () => {
    const doc = fixture();
    doc['x-version-changes'].employee[0].previous = '2017-01-01';
    doc['x-version-changes'].widget = [{ version: '2021-01-01', previous: '2020-01-01', changes: [] }];
    expect((await lintRule(RULE, doc)).map((r) => r.message)).toEqual([
      'x-version-changes employee 2017-01-01 → 2021-03-29: 2017-01-01 is not a version the registry lists for "employee" (2021-03-29, 2018-01-01).',
      'x-version-changes: "widget" is not a resource of the x-resource-versions registry.',
    ]);
  });

  it('fires on a malformed record, with what is wrong', async () => {
    const doc = fixture();
    doc['x-version-changes'].employee[0].changes = [{ retype: 'lastName', type: 'string', conversion: 'to-text' }];
    const [finding] = await lintRule(RULE, doc);
    expect(finding.message).toMatch(/^x-version-changes: employee 2021-03-29: retype lastName: "conversion" is one of number-to-string/);
    expect(finding.path).toEqual(['x-version-changes']);
  });
});
