// The reference's curl samples and the rule pages' steps, run as shown (with curl itself)
// against the real mock in its default sandbox mode, each on a freshly reset sandbox.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthorizationModel } from '../src/guides.mjs';
import { RULES_TOKEN, stepCurl } from '../src/rules.mjs';
import { SAMPLE_TOKEN, SANDBOX_ORIGIN } from '../src/samples.mjs';
import { builtSite } from './built-site.mjs';
import { resetSandbox, startMock } from './mock.mjs';

const run = promisify(execFile);
const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));
let site;
let mock;
let scratch;

beforeAll(async () => {
  site = builtSite();
  scratch = mkdtempSync(path.join(tmpdir(), 'payroll-docs-curl-'));
  mock = await startMock();
});

afterAll(async () => {
  await mock?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Runs a shown curl command against the test's sandbox: { status, headers, body }. */
async function curl(command) {
  const bodyFile = path.join(scratch, 'body');
  const headerFile = path.join(scratch, 'headers');
  rmSync(bodyFile, { force: true });
  const line = `${command.replaceAll(SANDBOX_ORIGIN, mock.origin)} -s --max-time 10 -D '${headerFile}' -o '${bodyFile}' -w '%{http_code}'`;
  const { stdout } = await run('sh', ['-c', line], { timeout: 15_000 });
  const headers = Object.fromEntries(
    readFileSync(headerFile, 'utf8')
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]),
  );
  let body = '';
  try {
    body = readFileSync(bodyFile, 'utf8');
  } catch {
    // no body
  }
  return { status: Number(stdout), headers, body };
}

describe('curl samples of every operation', () => {
  it('succeed as shown against a freshly reset sandbox, in the version asked for', async () => {
    const results = [];
    const problems = [];
    for (const sample of [...site.samples.payroll, ...site.samples.journal]) {
      await resetSandbox(mock.origin, SAMPLE_TOKEN);
      const { status, headers, body } = await curl(sample.curl);
      results.push({ api: sample.api, operationId: sample.operationId, status, allFromSeed: sample.allFromSeed });
      // Each sample is a realistic successful call on the seed: nothing but a 2xx will do.
      if (status < 200 || status >= 300) {
        problems.push(`${sample.operationId}: ${status}: ${body.slice(0, 200)}`);
        continue;
      }
      if (!sample.statuses.includes(String(status))) problems.push(`${sample.operationId}: ${status} is not a status it documents (${sample.statuses.join(', ')})`);
      if (sample.accept && headers['content-type']) {
        // A payroll answer comes in the resource version the sample asks for.
        const asked = /version=([\d-]+)/.exec(sample.accept)?.[1];
        if (asked && !headers['content-type'].includes(`version=${asked}`)) problems.push(`${sample.operationId}: asked for ${asked}, got ${headers['content-type']}`);
      }
    }
    writeFileSync(path.join(ARTIFACTS, 'samples.json'), `${JSON.stringify(results, null, 2)}\n`);
    expect(problems).toEqual([]);
    expect(results.length).toBe(Object.values(site.samples).flat().length);
  }, 180_000);
});

/** The headers a step expects ({ name: value }, or one "Name: value" string) that the answer lacks or differs in. */
function headerProblems(expected, headers) {
  if (!expected) return [];
  const wanted = typeof expected === 'string' ? Object.fromEntries([[expected.slice(0, expected.indexOf(':')), expected.slice(expected.indexOf(':') + 1).trim()]]) : expected;
  return Object.entries(wanted)
    .filter(([name, value]) => headers[name.toLowerCase()] !== String(value))
    .map(([name, value]) => `header ${name}: expected '${value}', got '${headers[name.toLowerCase()] ?? '(none)'}'`);
}

describe('rule pages', () => {
  it('reproduce every catalogued rule, and the authorization page every seeded user\'s refusal, against a freshly reset sandbox', async () => {
    const entries = [
      ...Object.values(site.rules).flat(),
      ...readAuthorizationModel().users.map((user) => ({ api: 'authorization', id: user.username, token: user.token, steps: [user.step] })),
    ];
    const problems = [];
    let headersChecked = 0;
    for (const entry of entries) {
      const token = entry.token ?? RULES_TOKEN;
      await resetSandbox(mock.origin, token);
      for (const [index, step] of entry.steps.entries()) {
        const { status, headers, body } = await curl(stepCurl(step, token));
        const where = `${entry.api} ${entry.id} step ${index + 1}`;
        if (status !== Number(step.expect.status)) {
          problems.push(`${where}: expected ${step.expect.status}, got ${status}: ${body.slice(0, 200)}`);
          break;
        }
        if (step.expect.header) headersChecked += 1;
        for (const problem of headerProblems(step.expect.header, headers)) problems.push(`${where}: ${problem}`);
        if (step.expect.code || step.expect.messageProperty) {
          const messages = JSON.parse(body || '{}').messages ?? [];
          if (step.expect.code && !messages.some((m) => String(m.code) === String(step.expect.code))) problems.push(`${where}: no message with code ${step.expect.code}: ${body.slice(0, 200)}`);
          if (step.expect.messageProperty && !messages.some((m) => (m.properties ?? []).includes(step.expect.messageProperty))) {
            problems.push(`${where}: no message about ${step.expect.messageProperty}: ${body.slice(0, 200)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The journal catalogue lists every validation code of the description.
    expect(site.rules.journal.length).toBeGreaterThan(0);
    // The authorization entries and the seeded users name the sandbox's X-Sandbox-Authorization header.
    expect(headersChecked).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it('check an expected header for real', () => {
    const step = { 'X-Sandbox-Authorization': 'step=2; reason=no-right' };
    expect(headerProblems(step, { 'x-sandbox-authorization': 'step=2; reason=no-right' })).toEqual([]);
    expect(headerProblems(step, { 'x-sandbox-authorization': 'step=3; reason=role-not-allowed' })).toHaveLength(1);
    expect(headerProblems('X-Sandbox-Authorization: step=2; reason=no-right', {})).toEqual(["header X-Sandbox-Authorization: expected 'step=2; reason=no-right', got '(none)'"]);
  });
});
