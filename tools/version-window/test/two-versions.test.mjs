// The six-month window, end to end, on a copy of the repository: real breaking changes made
// with `api:version` as a maintainer makes them (a rename and a removal on the employee, a new
// required field with a default on the employment, a retype on the employer), then every part
// of the toolchain at both versions: the bundle, the lint, the policy check, the types and the
// client compiled by a consumer app pinned to each version, and the docs' API changelog and
// deprecation calendar with the migration notes, and the sandbox serving both versions from one
// state, checked by conformance.
//
// Bounded: the copy holds the sources only (spec, types, client) with links to the installed
// dependencies; the types and the client are generated from the copy's bundle and the consumer
// app compiles against their sources, so no package is rebuilt.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { addDays, apiChangelog, findRepoRoot, linkInstalledDependencies, runNode, todayUtc, workspaceCopy } from '@payroll-api/api-policy';
import { changelogPage } from '@payroll-api/docs/src/changelog.mjs';
import { deprecationFiles } from '@payroll-api/docs/src/deprecations.mjs';
import { versionChanges } from '@payroll-api/version-changes';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = findRepoRoot();
const require = createRequire(import.meta.url);
const today = todayUtc();
// The new versions' date: two weeks on, or the day after the newest version of a resource
// changed below when that is later (a maintainer may have made versions already).
let date;
const GENERATED = ['packages/types', 'packages/client'];

let root;
let base;
let head;
const previous = {};

const node = (args, { cwd = root, timeout } = {}) => runNode(args, { cwd, timeout });
const linkDependencies = (dir) => linkInstalledDependencies(repo, root, dir, ['@payroll-api/spec', '@payroll-api/types', '@payroll-api/client']);

const readBundle = () => JSON.parse(fs.readFileSync(path.join(root, 'spec', 'dist', 'payroll.json'), 'utf8'));
const newestOf = (doc, resource) => doc['x-resource-versions'].resources[resource].versions[0].version;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'version-window-'));
  workspaceCopy(repo, root, { fullDirs: ['spec', ...GENERATED], nodeModules: { spec: path.join(repo, 'spec', 'node_modules') } });
  for (const dir of GENERATED) linkDependencies(dir);
  for (const file of fs.readdirSync(path.join(root, '.changeset'))) if (file.endsWith('.md') && file !== 'README.md') fs.rmSync(path.join(root, '.changeset', file));
  node(['spec/scripts/bundle.mjs'], { cwd: root });
  base = readBundle();
  for (const resource of ['employee', 'employment', 'employer']) previous[resource] = newestOf(base, resource);
  date = [addDays(today, 14), ...Object.values(previous).map((version) => addDays(version, 1))].sort().at(-1);
});

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('two versions live: the six-month window on real breaking changes', () => {
  it('api:version makes each change and the copy bundles with the record', () => {
    const cli = path.join(repo, 'tools', 'api-policy', 'bin', 'api-policy.mjs');
    node([cli, 'version', 'employee', date, '--root', root, '--rename', 'personalDetails.placeOfBirth=birthPlace', '--remove', 'exclusionFromAbsenceStatus']);
    node([cli, 'version', 'employment', date, '--root', root, '--add', 'workingCountry:string=NL']);
    node([cli, 'version', 'employer', date, '--root', root, '--retype', 'providerSettings.groupCode:string', '--conversion', 'integer-to-string']);
    node(['spec/scripts/bundle.mjs'], { cwd: root });
    head = readBundle();
    // The newest step of each (steps recorded before it follow).
    expect(Object.fromEntries(Object.entries(head['x-version-changes']).map(([resource, steps]) => [resource, `${steps[0].previous} → ${steps[0].version}`]))).toEqual({
      employee: `${previous.employee} → ${date}`,
      employer: `${previous.employer} → ${date}`,
      employment: `${previous.employment} → ${date}`,
    });
    // The chain reads the record the bundle carries.
    const chain = versionChanges(head);
    const upgraded = chain.upgrade('employee', previous.employee, date, { personalDetails: { placeOfBirth: 'Utrecht' }, exclusionFromAbsenceStatus: true });
    expect(upgraded).toEqual({ personalDetails: { birthPlace: 'Utrecht' } });
  });

  it('lints clean, house rules included', () => {
    const run = node(['scripts/lint.mjs'], { cwd: path.join(root, 'spec'), timeout: 240_000 });
    expect(run.stdout).not.toMatch(/\berror\b.*version-changes-fields/);
  });

  it('passes api:check against the release before, and refuses the change without its record', () => {
    fs.mkdirSync(path.join(root, 'tools', 'api-policy', 'baseline'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), JSON.stringify(base));
    const cli = path.join(repo, 'tools', 'api-policy', 'bin', 'api-policy.mjs');
    const check = spawnSync(process.execPath, [cli, 'check', '--root', root, '--api', 'payroll', '--today', today], { encoding: 'utf8', timeout: 120_000 });
    expect(check.stdout + check.stderr).toContain('Result: **passes**');
    expect(check.status).toBe(0);

    const unrecorded = structuredClone(head);
    unrecorded['x-version-changes'].employer[0].changes = [];
    const file = path.join(root, 'unrecorded.json');
    fs.writeFileSync(file, JSON.stringify(unrecorded));
    const refused = spawnSync(process.execPath, [cli, 'check', '--base', path.join(root, 'tools', 'api-policy', 'baseline', 'payroll.json'), '--head', file, '--today', today], { encoding: 'utf8', timeout: 120_000 });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('P-EXPLAINED');
    expect(refused.stdout).toContain('does not name `providerSettings.groupCode`');
  });

  it('types both versions: a consumer app pinned to each compiles, and each version refuses the other shape', () => {
    node(['packages/types/scripts/generate.mjs']);
    node(['packages/client/scripts/generate.mjs']);
    const app = path.join(root, 'consumer');
    fs.mkdirSync(app);
    const source = (dir, file) => path.join(root, dir, 'src', file);
    fs.writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(repo, 'tsconfig.base.json'),
        compilerOptions: {
          typeRoots: [path.join(repo, 'node_modules', '@types')],
          paths: {
            '@payroll-api/client': [source('packages/client', 'index.ts')],
            '@payroll-api/client/body': [source('packages/client', 'body.ts')],
            '@payroll-api/types/payroll': [source('packages/types', 'payroll.ts')],
            '@payroll-api/types/journal': [source('packages/types', 'journal.ts')],
          },
        },
        files: ['app.ts'],
      }),
    );
    const employee = previous.employee;
    const employment = previous.employment;
    fs.writeFileSync(
      path.join(app, 'app.ts'),
      `import { createPayrollClient } from '@payroll-api/client';
import { toBody } from '@payroll-api/client/body';
import type { RequestBody, ResponseBody } from '@payroll-api/types/payroll';

const baseUrl = 'https://payroll.example.nl/v2';
const employeeId = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const newest = createPayrollClient({ baseUrl });
// Pinned to the day before the new versions: every operation is typed at the version it sends.
const pinned = createPayrollClient({ baseUrl, resourceVersionDate: '${addDays(date, -1)}' });

export async function atNewest(): Promise<void> {
  const { data } = await newest.GetEmployeeByEmployeeId({ employeeId });
  const place: string | null | undefined = data?.content?.personalDetails?.birthPlace;
  // @ts-expect-error placeOfBirth is birthPlace from ${date}
  void data?.content?.personalDetails?.placeOfBirth;
  // @ts-expect-error exclusionFromAbsenceStatus is removed in ${date}
  void data?.content?.exclusionFromAbsenceStatus;
  if (data?.content) await newest.PutEmployeeByEmployeeId({ employeeId }, toBody('PutEmployeeByEmployeeId', data.content));
  void place;
}

export async function atPrevious(): Promise<void> {
  const { data } = await pinned.GetEmployeeByEmployeeId({ employeeId });
  const place: string | null | undefined = data?.content?.personalDetails?.placeOfBirth;
  const excluded: boolean | undefined = data?.content?.exclusionFromAbsenceStatus;
  // @ts-expect-error birthPlace comes with ${date}
  void data?.content?.personalDetails?.birthPlace;
  if (data?.content) await pinned.PutEmployeeByEmployeeId({ employeeId }, toBody('PutEmployeeByEmployeeId', data.content, '${employee}'));
  void place;
  void excluded;
}

// Naming an older version's types.
type OldEmployee = NonNullable<ResponseBody<'GetEmployeeByEmployeeId', '${employee}'>['content']>;
export const old: OldEmployee['personalDetails'] = { placeOfBirth: 'Utrecht' };

// The employment's new required field: an older body lacks it; the pinned client still takes it.
declare const olderEmployment: RequestBody<'PutEmploymentByEmploymentId', '${employment}'>;
// @ts-expect-error workingCountry is required from ${date}
export const asNewest: RequestBody<'PutEmploymentByEmploymentId'> = olderEmployment;
export const completed: RequestBody<'PutEmploymentByEmploymentId'> = { ...olderEmployment, workingCountry: 'NL' };
export async function employments(employmentId: string): Promise<void> {
  await pinned.PutEmploymentByEmploymentId({ employmentId }, olderEmployment);
  // @ts-expect-error the newest version requires workingCountry
  await newest.PutEmploymentByEmploymentId({ employmentId }, olderEmployment);
}

// The employer's retyped groupCode.
type GroupCode<Employer> = Employer extends { content?: { providerSettings?: { groupCode?: infer G } | null } | null } ? NonNullable<G> : never;
export const code: GroupCode<ResponseBody<'GetEmployerByEmployerId'>> = 'A1';
export const oldCode: GroupCode<ResponseBody<'GetEmployerByEmployerId', '${previous.employer}'>> = 12;
// @ts-expect-error groupCode is a string from ${date}
export const wrongCode: GroupCode<ResponseBody<'GetEmployerByEmployerId'>> = 12;
`,
    );
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [path.join(repo, 'packages', 'client')] }), '-p', app], { encoding: 'utf8', timeout: 180_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('serves both versions from one state in the sandbox, and conformance finds the window consistent', async () => {
    const { startMock } = await import('@payroll-api/mock');
    const { runConformance } = await import('@payroll-api/conformance');
    const mock = await startMock({ port: 0, specDir: path.join(root, 'spec', 'dist'), log: () => undefined });
    try {
      const employerId = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
      const call = async (method, pathname, version, body) => {
        const media = `application/json;version=${version}`;
        const res = await fetch(`${mock.payrollBaseUrl}${pathname}`, { method, headers: { Authorization: 'Bearer window', Accept: media, ...(body ? { 'Content-Type': media } : {}) }, body: body ? JSON.stringify(body) : undefined });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      };
      const list = await call('GET', `/v2/providers/employers/${employerId}/employees?pageSize=1`, previous.employee);
      const employeeId = list.body._embedded[0].id;
      const detail = `/v2/providers/employers/employees/${employeeId}`;
      // The seed, written at the older shape, reads at both.
      const old = await call('GET', detail, previous.employee);
      expect(old.status).toBe(200);
      expect(old.body.version.resourceVersion).toBe(previous.employee);
      expect(typeof old.body.content.personalDetails.placeOfBirth).toBe('string');
      const fresh = await call('GET', detail, date);
      expect(fresh.body.version.resourceVersion).toBe(date);
      expect(fresh.body.content.personalDetails.birthPlace).toBe(old.body.content.personalDetails.placeOfBirth);
      expect(fresh.body.content.personalDetails).not.toHaveProperty('placeOfBirth');
      expect(fresh.body.content).not.toHaveProperty('exclusionFromAbsenceStatus');
      // A write at the older version reads back at the newer one under the new name.
      const { id: _id, ...written } = old.body.content;
      const put = await call('PUT', detail, previous.employee, { ...written, personalDetails: { ...written.personalDetails, placeOfBirth: 'Zierikzee' } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.content.personalDetails.placeOfBirth).toBe('Zierikzee');
      expect((await call('GET', detail, date)).body.content.personalDetails.birthPlace).toBe('Zierikzee');
      // The same through the client generated from the copy: one pinned to the older version, one at the newest.
      const clientModule = path.join(root, 'client.mjs');
      await build({ entryPoints: [path.join(root, 'packages', 'client', 'src', 'index.ts')], bundle: true, format: 'esm', platform: 'node', outfile: clientModule, logLevel: 'silent' });
      const { createPayrollClient, unwrap } = await import(clientModule);
      const pinned = createPayrollClient({ baseUrl: mock.payrollBaseUrl, auth: 'window-client', resourceVersionDate: addDays(date, -1), retry: false });
      const newest = createPayrollClient({ baseUrl: mock.payrollBaseUrl, auth: 'window-client', retry: false });
      const before = unwrap(await pinned.GetEmployeeByEmployeeId({ employeeId })).content;
      expect(before.personalDetails).toHaveProperty('placeOfBirth');
      const { id: _ignored, ...editable } = before;
      unwrap(await pinned.PutEmployeeByEmployeeId({ employeeId }, { ...editable, personalDetails: { ...editable.personalDetails, placeOfBirth: 'Goes' } }));
      const after = unwrap(await newest.GetEmployeeByEmployeeId({ employeeId }));
      expect(after.version.resourceVersion).toBe(date);
      expect(after.content.personalDetails.birthPlace).toBe('Goes');
      expect(after.content.personalDetails).not.toHaveProperty('placeOfBirth');
      // Filter and orderBy take each version's own name of the renamed field, with the same answer; the other name is unknown at each.
      const employees = `/v2/providers/employers/${employerId}/employees?pageSize=250`;
      const query = (version, text) => call('GET', `${employees}&${text}`, version);
      const ids = (answer) => answer.body._embedded.map((e) => e.id);
      const filterOld = await query(previous.employee, `filter=${encodeURIComponent("personalDetails.placeOfBirth eq 'Zierikzee'")}`);
      const filterNew = await query(date, `filter=${encodeURIComponent("personalDetails.birthPlace eq 'Zierikzee'")}`);
      expect(filterOld.body.totalSize).toBeGreaterThan(0);
      expect(ids(filterNew)).toEqual(ids(filterOld));
      for (const direction of ['', '-']) {
        const orderOld = await query(previous.employee, `orderBy=${direction}personalDetails.placeOfBirth`);
        const orderNew = await query(date, `orderBy=${direction}personalDetails.birthPlace`);
        expect(orderNew.body._embedded.map((e) => e.personalDetails.birthPlace ?? null)).toEqual(orderOld.body._embedded.map((e) => e.personalDetails.placeOfBirth ?? null));
      }
      expect((await query(date, 'orderBy=personalDetails.placeOfBirth')).status).toBe(400);
      expect((await query(previous.employee, `filter=${encodeURIComponent("personalDetails.birthPlace eq 'Goes'")}`)).status).toBe(400);
      // The older name in a body at the newer version is an unknown field: ignored, as the warning says.
      const settings = (unknownFields) => fetch(`${mock.url}/__sandbox/settings`, { method: 'PUT', headers: { Authorization: 'Bearer window', 'Content-Type': 'application/json' }, body: JSON.stringify({ unknownFields }) });
      expect((await settings('warn')).status).toBe(200);
      const current = (await call('GET', detail, date)).body.content;
      const { id: _current, ...newer } = current;
      const warned = await call('PUT', detail, date, { ...newer, personalDetails: { ...newer.personalDetails, placeOfBirth: 'Tholen' } });
      expect(warned.status, JSON.stringify(warned.body)).toBe(200);
      expect(warned.body.messages.map((m) => m.properties)).toEqual([['personalDetails.placeOfBirth']]);
      expect((await call('GET', detail, previous.employee)).body.content.personalDetails.placeOfBirth).toBe(current.personalDetails.birthPlace);
      expect((await settings('ignore')).status).toBe(200);
      // The employment's new field carries its default at the newer version only.
      const employments = await call('GET', `/v2/providers/employers/employees/${employeeId}/employments`, date);
      const employmentId = employments.body._embedded[0].id;
      expect((await call('GET', `/v2/providers/employers/employees/employments/${employmentId}`, date)).body.content.workingCountry).toBe('NL');
      expect((await call('GET', `/v2/providers/employers/employees/employments/${employmentId}`, previous.employment)).body.content).not.toHaveProperty('workingCountry');
      // The employer's groupCode: an integer at the older version, a string at the newer.
      const employer = `/v2/providers/employers/${employerId}`;
      expect(typeof (await call('GET', employer, previous.employer)).body.content.providerSettings.groupCode).toBe('number');
      expect(typeof (await call('GET', employer, date)).body.content.providerSettings.groupCode).toBe('string');

      const summary = await runConformance({
        payrollUrl: mock.payrollBaseUrl,
        journalUrl: mock.url,
        token: 'window-conformance',
        allowWrites: true,
        payrollSpec: path.join(root, 'spec', 'dist', 'payroll.json'),
        journalSpec: path.join(root, 'spec', 'dist', 'journal.json'),
        params: { wageModelId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', employerId },
      });
      const failures = summary.cases.filter((c) => c.findings.length > 0).map((c) => `${c.operationId} ${c.version}: ${c.findings.map((f) => f.message).join('; ')}`);
      expect(failures).toEqual([]);
      const window = summary.cases.filter((c) => c.kind === 'sequence' && /^written at .*, read at .*, and back$/.test(c.title) && !c.skipped);
      // One round trip per older version each resource serves (more where versions were made before).
      const olderVersions = (resource) => head['x-resource-versions'].resources[resource].versions.length - 1;
      const expected = { PutEmployeeByEmployeeId: olderVersions('employee'), PutEmployerByEmployerId: olderVersions('employer'), PutEmploymentByEmploymentId: olderVersions('employment') };
      expect(window.map((c) => c.operationId).sort()).toEqual(Object.entries(expected).flatMap(([operationId, count]) => Array(count).fill(operationId)));
    } finally {
      await mock.close();
    }
  });

  it('fails closed: with the older employee version gone from the description, the sandbox refuses to start, naming both versions', async () => {
    const { startMock } = await import('@payroll-api/mock');
    const gone = structuredClone(head);
    const entry = gone['x-resource-versions'].resources.employee;
    entry.versions = entry.versions.filter((v) => v.version === date);
    delete gone['x-version-changes'].employee;
    const file = path.join(root, 'spec', 'dist', 'payroll-gone.json');
    fs.writeFileSync(file, JSON.stringify(gone));
    // The handlers are written at the oldest employee version served before (the contract's).
    const written = base['x-resource-versions'].resources.employee.versions.at(-1).version;
    await expect(startMock({ port: 0, payrollSpec: file, journalSpec: path.join(root, 'spec', 'dist', 'journal.json'), log: () => undefined })).rejects.toThrow(new RegExp(`employee handlers are written at version ${written}, but the description serves employee at ${date}`));
  });

  it('documents each change: migration notes in the API changelog and the deprecation calendar', () => {
    fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
    const entries = apiChangelog({ root, today, apis: ['payroll'] });
    const html = changelogPage(root, entries).html;
    expect(html).toContain('<h5>Migration notes</h5>');
    expect(html).toContain('<code>personalDetails.placeOfBirth</code> is now <code>personalDetails.birthPlace</code>.');
    expect(html).toContain('<code>exclusionFromAbsenceStatus</code> is removed.');
    expect(html).toContain('<code>workingCountry</code> is new and required (a string)');
    expect(html).toContain('<code>providerSettings.groupCode</code> is now a string (was an integer)');
    const calendar = deprecationFiles(head);
    expect(calendar.markdown).toContain(`### \`employee\` ${previous.employee} → ${date}`);
    expect(calendar.html).toMatch(new RegExp(`<td>${date}</td>[\\s\\S]*?<td class="changes"><ul><li><code>(personalDetails|workingCountry|providerSettings)`));
  });
});
