// The sandbox, in memory and in PostgreSQL: every operation at every served version, the
// negotiation, the refusals and the stateful sequences, with 0 failures.
import { afterAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { runConformance, type RunSummary } from '../src/index.js';
// One real PostgreSQL per test file, started the way the mock's own store tests start it.
import { startPostgres, type TestPostgres } from '../../mock/test/support/postgres.js';
import { EMPLOYER_ID, startSandbox, WAGE_MODEL_ID } from './support/servers.js';

const running: Array<{ close(): unknown }> = [];
afterAll(async () => {
  for (const r of running.reverse()) await r.close();
});

async function check(mock: RunningMock, token: string): Promise<RunSummary> {
  return runConformance({ payrollUrl: mock.payrollBaseUrl, journalUrl: mock.url, token, allowWrites: true, params: { wageModelId: WAGE_MODEL_ID, employerId: EMPLOYER_ID } });
}

function expectConforming(summary: RunSummary): void {
  const failures = summary.cases.filter((c) => c.findings.length > 0).map((c) => `${c.operationId} ${c.title}: ${c.findings.map((f) => f.message).join('; ')}`);
  expect(failures).toEqual([]);
  expect(summary.strictProperties).toEqual({ strict: true, reason: 'the server is the sandbox' });
  expect(summary.coverage.uncovered).toEqual([]);
  const sequences = summary.cases.filter((c) => c.kind === 'sequence');
  expect(sequences.filter((c) => c.skipped).map((c) => `${c.operationId}: ${c.skipped}`)).toEqual([]);
  expect(sequences.length).toBeGreaterThanOrEqual(7);
  expect(summary.cases.filter((c) => c.kind === 'not-found').length).toBeGreaterThan(10);
}

describe.each([
  ['in memory', async () => startSandbox()],
  [
    'in PostgreSQL',
    async () => {
      const pg: TestPostgres = await startPostgres();
      running.push({ close: () => pg.stop() });
      return startSandbox({ databaseUrl: await pg.database('conformance') });
    },
  ],
])('the sandbox %s', (_name, start) => {
  test('conforms: every operation and served version covered, nothing fails', async () => {
    const mock = await start();
    running.push(mock);
    expectConforming(await check(mock, `conformance-${Date.now()}`));
  });
});

/** The findings of one sequence against the sandbox whose lists ordered on a nested field at `listPath` come back reversed. */
async function unorderedSequence(owner: string, operations: string[], listPath: RegExp) {
  const mock = await startSandbox();
  running.push(mock);
  const reversing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!listPath.test(url.pathname) || !url.searchParams.get('orderBy')?.includes('.') || !response.ok) return response;
    const body = (await response.json()) as { _embedded: unknown[] };
    return new Response(JSON.stringify({ ...body, _embedded: [...body._embedded].reverse() }), { status: response.status, headers: response.headers });
  };
  const summary = await runConformance({ payrollUrl: mock.payrollBaseUrl, journalUrl: mock.url, token: `conformance-order-${owner}-${Date.now()}`, allowWrites: true, operations, fetch: reversing, params: { wageModelId: WAGE_MODEL_ID, employerId: EMPLOYER_ID } });
  return summary.cases.find((c) => c.kind === 'sequence' && c.operationId === owner)?.findings.map((f) => f.message);
}

test('a server that does not order on a nested field fails the employee sequence with a clear finding', async () => {
  const operations = ['PostEmployeeByEmployerId', 'GetEmployeeByEmployeeId', 'GetEmployeesByEmployerId', 'PutEmployeeByEmployeeId', 'GetEmploymentByEmploymentId', 'PatchTerminateByEmploymentId', 'PatchReinstateByEmploymentId', 'DeleteEmploymentByEmploymentId'];
  expect(await unorderedSequence('PostEmployeeByEmployerId', operations, /\/employees$/)).toEqual([expect.stringMatching(/^orderBy=-personalDetails\.\w+: ".+" comes before ".+"$/)]);
});

test('a server that does not order the concept employees fails the concept employee sequence on their own list', async () => {
  const operations = ['PostConceptEmployeeByEmployerId', 'GetConceptEmployeeByConceptEmployeeId', 'GetConceptEmployeesByEmployerId', 'PutConceptEmployeeMinimizedByConceptEmployeeId', 'GetConceptEmployeeMinimizedByConceptEmployeeId'];
  expect(await unorderedSequence('PostConceptEmployeeByEmployerId', operations, /\/conceptemployees$/)).toEqual([expect.stringMatching(/^orderBy=-employeeData\.personalDetails\.\w+: ".+" comes before ".+"$/)]);
});
