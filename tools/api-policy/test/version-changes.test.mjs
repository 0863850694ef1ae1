// Real breaking changes on a copy of the payroll sources, made with `api:version` and its
// change options, as a maintainer makes them: a rename and a removal on the employee, a new
// required field with a default on the employment, a retype on the employer (a payroll
// resource the journal does not touch). The copy bundles, the policy check passes (each
// breaking difference between the served versions is explained by the record), the new
// examples are the old ones run through the chain, and a difference the record does not
// explain is refused, naming the field.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { versionChanges } from '@payroll-api/version-changes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCheck } from '../src/check.mjs';
import { bundleCopy } from './fixtures/bundle-copy.mjs';
import { addDays, todayUtc } from '../src/dates.mjs';
import { checkApi } from '../src/policy.mjs';
import { workspaceCopy } from '../src/release.mjs';
import { PACKAGE_DIR, findRepoRoot } from '../src/repo.mjs';

const repo = findRepoRoot();
const today = todayUtc();
const cli = path.join(PACKAGE_DIR, 'bin', 'api-policy.mjs');


function apiVersion(root, ...args) {
  return spawnSync(process.execPath, [cli, 'version', ...args, '--root', root], { encoding: 'utf8', timeout: 60_000 });
}

const newestVersion = (doc, resource) => doc['x-resource-versions'].resources[resource].versions[0].version;
const getEmployee = (doc) => Object.values(doc.paths).find((item) => item.get?.operationId === 'GetEmployeeByEmployeeId').get.responses['200'].content;
/** The suffix of the schema files a version of the employee reads ('' for the originals, `V<date>` for an api:version copy). */
const employeeSchemaSuffix = (doc, version) => getEmployee(doc)[`application/json;version=${version}`].schema.$ref.split('/').at(-1).replace(/^EmployeeDetail/, '');
/** The default example of the employee's detail at a version, as the bundle holds it. */
function employeeExample(doc, version) {
  const example = getEmployee(doc)[`application/json;version=${version}`].examples.default;
  return (example.$ref ? doc.components.examples[example.$ref.split('/').at(-1)] : example).value;
}
const readYaml = (root, file) => YAML.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('api:version with changes, on the real payroll description', () => {
  let root;
  let base;
  let head;
  // Two weeks on, or the day after the newest version of a resource changed below when that is later.
  let date;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'api-policy-changes-'));
    workspaceCopy(repo, root, { fullDirs: ['spec'], nodeModules: { spec: path.join(repo, 'spec', 'node_modules') } });
    for (const file of fs.readdirSync(path.join(root, '.changeset'))) if (file.endsWith('.md') && file !== 'README.md') fs.rmSync(path.join(root, '.changeset', file));
    base = bundleCopy(root);
    date = [addDays(today, 14), ...['employee', 'employment', 'employer'].map((resource) => addDays(newestVersion(base, resource), 1))].sort().at(-1);
  }, 240_000);

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('refuses a field the old version does not have, and writes nothing', () => {
    const run = apiVersion(root, 'employee', date, '--rename', 'personalDetails.noSuchField=x');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('"personalDetails.noSuchField"');
    expect(fs.existsSync(path.join(root, '.changeset', `employee-${date}.md`))).toBe(false);
    const bad = apiVersion(root, 'employer', date, '--retype', 'providerSettings.groupCode:string', '--conversion', 'to-text');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/"conversion" is one of number-to-string/);
  });

  it('scaffolds each change: schema copies, rewired references, examples through the chain, the record, the changeset', () => {
    const runs = [
      apiVersion(root, 'employee', date, '--rename', 'personalDetails.placeOfBirth=birthPlace', '--remove', 'exclusionFromAbsenceStatus'),
      apiVersion(root, 'employment', date, '--add', 'workingCountry:string=NL'),
      apiVersion(root, 'employer', date, '--retype', 'providerSettings.groupCode:string', '--conversion', 'integer-to-string'),
    ];
    for (const run of runs) expect(run.stderr, run.stdout).toBe('');
    const registry = readYaml(root, 'spec/payroll/resource-versions.yaml');
    expect(registry.resources.employee.versions[0]).toMatchObject({
      version: date,
      changes: [{ rename: 'personalDetails.placeOfBirth', to: 'birthPlace' }, { remove: 'exclusionFromAbsenceStatus' }],
    });
    expect(registry.resources.employment.versions[0].changes).toEqual([{ add: 'workingCountry', type: 'string', default: 'NL' }]);
    expect(registry.resources.employer.versions[0].changes).toEqual([{ retype: 'providerSettings.groupCode', type: 'string', conversion: 'integer-to-string' }]);

    const compact = date.replaceAll('-', '');
    const schemas = 'spec/payroll/components/schemas';
    // The schemas the version before reads: the originals, or an earlier api:version's copies
    // (whose own copies add this version's suffix to theirs).
    const oldEmployee = newestVersion(base, 'employee');
    const before = employeeSchemaSuffix(base, oldEmployee);
    const copy = `${before}V${compact}`;
    expect(readYaml(root, `${schemas}/PersonalDetails${copy}.yaml`).properties).toHaveProperty('birthPlace');
    expect(readYaml(root, `${schemas}/PersonalDetails${before}.yaml`).properties).toHaveProperty('placeOfBirth');
    expect(readYaml(root, `${schemas}/Employee${copy}.yaml`).properties).not.toHaveProperty('exclusionFromAbsenceStatus');
    expect(readYaml(root, `${schemas}/Employee${before}.yaml`).properties).toHaveProperty('exclusionFromAbsenceStatus');
    // Where a schema names its resource version, the new version's copy names the new one.
    expect(readYaml(root, `${schemas}/Employee${before}.yaml`).description).toContain(`resource version ${oldEmployee}`);
    expect(readYaml(root, `${schemas}/Employee${copy}.yaml`).description).toContain(`resource version ${date}`);
    expect(readYaml(root, `${schemas}/Employee${copy}.yaml`).description).not.toContain(`resource version ${oldEmployee}`);
    expect(readYaml(root, `${schemas}/Employer${'V' + compact}.yaml`).properties.providerSettings.properties.groupCode.type).toBe('string');
    expect(fs.readFileSync(path.join(root, '.changeset', `employee-${date}.md`), 'utf8')).toContain('- `personalDetails.placeOfBirth` is now `personalDetails.birthPlace`.');

    head = bundleCopy(root);
    expect(Object.keys(head['x-version-changes']).sort()).toEqual(['employee', 'employer', 'employment']);
    // Only the new version's media types point at the copies.
    const get = head.paths[Object.keys(head.paths).find((p) => head.paths[p].get?.operationId === 'GetEmployeeByEmployeeId')].get;
    const content = get.responses['200'].content;
    const oldVersion = newestVersion(base, 'employee');
    expect(JSON.stringify(content[`application/json;version=${date}`].schema)).not.toBe(JSON.stringify(content[`application/json;version=${oldVersion}`].schema));
  });

  it('makes the new examples the old ones run through the chain, and back', () => {
    const chain = versionChanges(head);
    const examples = 'spec/payroll/components/examples';
    const old = employeeExample(base, newestVersion(base, 'employee'));
    const next = employeeExample(head, date);
    expect(next.content.personalDetails.birthPlace).toBe(old.content.personalDetails.placeOfBirth);
    expect(next.content).not.toHaveProperty('exclusionFromAbsenceStatus');
    const back = chain.downgrade('employee', date, newestVersion(base, 'employee'), next);
    const { exclusionFromAbsenceStatus: _removed, ...kept } = old.content;
    expect(back.content).toEqual(kept);
    const put = readYaml(root, `${examples}/PutEmploymentByEmploymentIdRequestV${date.replaceAll('-', '')}.yaml`);
    expect(put.value.workingCountry).toBe('NL');
  });

  it('passes the policy check against the release before, with the changesets', async () => {
    fs.mkdirSync(path.join(root, 'tools', 'api-policy', 'baseline'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), JSON.stringify(base));
    const result = await runCheck({ root, today, apis: ['payroll'] });
    expect(result.violations).toEqual([]);
    expect(result.ok).toBe(true);
    const breaking = result.apis[0].deltas.flatMap((d) => d.changes).filter((c) => c.severity === 'breaking');
    expect(breaking.map((c) => c.element)).toEqual(expect.arrayContaining(['placeOfBirth', 'exclusionFromAbsenceStatus', 'workingCountry', 'groupCode']));
  });

  it('refuses a breaking difference between served versions that the record does not explain, naming the field', () => {
    const edited = structuredClone(head);
    edited['x-version-changes'].employee[0].changes = edited['x-version-changes'].employee[0].changes.filter((c) => !c.remove);
    const result = checkApi({ baseDoc: base, headDoc: edited, today });
    const refused = result.violations.filter((v) => v.policyRule === 'P-EXPLAINED');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((v) => v.finding.field))).toEqual(new Set(['exclusionFromAbsenceStatus']));
    expect(refused[0].message).toContain('does not name `exclusionFromAbsenceStatus`');
  });
});
