// Version mix-ups, after a legitimate rename (a newer employee version than the newest, with a
// personal name field renamed, as `pnpm api:version employee <date> --rename personalDetails.lastName=familyName`
// makes it): the sandbox serves the description built with the rename, and a proxy in front of it
// answers the new version in the old shape (the old name under the new label). The schemas are open and
// the new name optional, so only the undeclared-property check and the
// sequences' read-back, with their fields taken from the version under test, can tell.
import { versionChanges } from '@payroll-api/version-changes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { startMock } from '@payroll-api/mock';
import { runConformance, startProxy, type RunSummary } from '../src/index.js';
import { bundleFile, newestPersonalTextField, payrollBundle, withRename } from './support/renamed.js';
import { EMPLOYER_ID, jsonOf, startFaulty, WAGE_MODEL_ID, withJson, type FaultyServer } from './support/servers.js';

// From the description as it is (a maintainer may have made employee versions already): the
// newest employee version, one after it, and the first text field of its personal details.
const base = payrollBundle();
const OLD: string = base['x-resource-versions'].resources.employee.versions[0].version;
// Yesterday, or the day after OLD when that is later (a new version is later than the newest):
// the older version is then served for six more months, so both are in use today.
const NEW = new Date(Math.max(Date.now() - 86_400_000, Date.parse(OLD) + 86_400_000)).toISOString().slice(0, 10);
const FROM = newestPersonalTextField(base);
const TO = `${FROM}Renamed`;
const renamed = withRename(base, 'employee', NEW, `personalDetails.${FROM}`, TO);
const chain = versionChanges(renamed);
const spec = bundleFile(renamed);
const READS = ['GetEmployeesByEmployerId', 'GetEmployeeByEmployeeId'];
const EMPLOYEE_SEQUENCE = ['PostEmployeeByEmployerId', 'GetEmployeeByEmployeeId', 'GetEmployeesByEmployerId', 'PutEmployeeByEmployeeId', 'GetEmploymentByEmploymentId', 'PatchTerminateByEmploymentId', 'PatchReinstateByEmploymentId', 'DeleteEmploymentByEmploymentId'];

let sandbox: RunningMock;
let mixing: FaultyServer;

beforeAll(async () => {
  sandbox = await startMock({ port: 0, payrollSpec: spec.file, log: () => {} });
  // Employees answered at the new version are turned into the old shape; the label stays new.
  mixing = await startFaulty(sandbox.url, [
    {
      name: 'the old shape under the new label',
      applies: (method, path, answer) => method === 'GET' && /\/employees(\/[0-9a-f-]{36})?$/.test(path) && (answer.headers['content-type'] ?? '').endsWith(`version=${NEW}`),
      change: (answer) => {
        const body = jsonOf(answer);
        return withJson(answer, { ...chain.downgrade<Record<string, unknown>>('employee', NEW, OLD, body), version: body.version });
      },
    },
  ]);
});
afterAll(async () => {
  await mixing?.close();
  await sandbox?.close();
  spec.remove();
});

function run(url: string, options: { operations: string[]; allowWrites?: boolean; strictProperties?: boolean; fetch?: typeof fetch }): Promise<RunSummary> {
  return runConformance({ payrollUrl: `${url}/v2`, journalUrl: url, payrollSpec: spec.file, token: `mix-${Math.random().toString(36).slice(2)}`, params: { wageModelId: WAGE_MODEL_ID, employerId: EMPLOYER_ID }, ...options });
}

const failures = (summary: RunSummary) => summary.cases.filter((c) => c.findings.length > 0).flatMap((c) => c.findings.map((f) => `${c.operationId} ${c.version}: ${f.check}: ${f.message}`));

describe('a read-only run', () => {
  it('passes the sandbox at every served version, the new one and the older ones, with undeclared properties reported', async () => {
    const summary = await run(sandbox.url, { operations: READS });
    expect(summary.strictProperties).toEqual({ strict: true, reason: 'the server is the sandbox' });
    expect(failures(summary)).toEqual([]);
    expect(new Set(summary.cases.filter((c) => c.kind === 'valid').map((c) => c.version))).toEqual(new Set(renamed['x-resource-versions'].resources.employee.versions.map((v: { version: string }) => v.version)));
  });

  it('fails the proxy that answers the old name at the new version, naming the property, at the new version only', async () => {
    const summary = await run(mixing.url, { operations: READS });
    const found = failures(summary);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => f.startsWith(`GetEmployee`) && f.includes(` ${NEW}: undeclared-property: `))).toBe(true);
    expect(found).toContain(`GetEmployeesByEmployerId ${NEW}: undeclared-property: \`_embedded[].personalDetails.${FROM}\` is not named by the schema of application/json;version=${NEW}`);
    expect(found).toContain(`GetEmployeeByEmployeeId ${NEW}: undeclared-property: \`content.personalDetails.${FROM}\` is not named by the schema of application/json;version=${NEW}`);
  });

  it('lets the proxy pass when the check is turned off, as the open schemas allow', async () => {
    const summary = await run(mixing.url, { operations: READS, strictProperties: false });
    expect(summary.strictProperties.strict).toBe(false);
    expect(failures(summary)).toEqual([]);
  });
});

describe('the employee sequence', () => {
  /** The run, with what it sent at each version: queries, and the personalDetails of bodies. */
  async function sequence(url: string) {
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const version = /version=([\d-]+)/.exec(new Headers(init?.headers).get('accept') ?? '')?.[1];
      const query = decodeURIComponent(new URL(String(input)).search);
      if (query) sent.push(`${version} ${query}`);
      const details = typeof init?.body === 'string' ? (JSON.parse(init.body) as { personalDetails?: object }).personalDetails : undefined;
      if (init?.method === 'PUT' && details) sent.push(`${version} PUT ${Object.keys(details).join(',')}`);
      return fetch(input, init);
    };
    const summary = await run(url, { operations: EMPLOYEE_SEQUENCE, allowWrites: true, fetch: recording });
    const result = summary.cases.find((c) => c.kind === 'sequence' && c.operationId === 'PostEmployeeByEmployerId');
    if (!result) throw new Error('the employee sequence did not run');
    expect(result.skipped).toBeUndefined();
    return { result, sent };
  }

  it('passes the sandbox, writing and reading back the field under the name the version under test gives it', async () => {
    const { result, sent } = await sequence(sandbox.url);
    expect(result.findings).toEqual([]);
    // Nothing at the new version names its old field (lastNamePartner and the like are other fields).
    expect(sent.filter((q) => q.startsWith(NEW) && new RegExp(`[\\s,.=-]${FROM}\\b`).test(q))).toEqual([]);
    expect(sent).toContainEqual(expect.stringMatching(new RegExp(`^${NEW} PUT .*\\b${TO}\\b`)));
    expect(sent).toContainEqual(expect.stringMatching(new RegExp(`^${NEW} \\?orderBy=-personalDetails\\.\\w+&pageSize=250$`)));
  });

  it('fails the proxy that answers the old shape: the new name is not read back', async () => {
    const { result } = await sequence(mixing.url);
    expect(result.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(new RegExp(`^the updated personalDetails\\.${TO} is not read back: "Conformance.+" was written, nothing is read$`)));
  });
});

describe('proxy mode', () => {
  it('reports the old shape under the new label once it knows the target is the sandbox', async () => {
    const proxy = await startProxy({ target: mixing.url, payrollSpec: spec.file });
    try {
      const headers = { Authorization: 'Bearer mix-proxy', Accept: `application/json;version=${NEW}` };
      const answer = await fetch(`${proxy.url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees?pageSize=2`, { headers });
      expect(answer.status).toBe(200);
      const summary = proxy.summary();
      expect(summary.strictProperties).toEqual({ strict: true, reason: 'the server is the sandbox' });
      expect(failures(summary)).toEqual([`GetEmployeesByEmployerId ${NEW}: undeclared-property: \`_embedded[].personalDetails.${FROM}\` is not named by the schema of application/json;version=${NEW}`]);
    } finally {
      await proxy.close();
    }
  });
});
