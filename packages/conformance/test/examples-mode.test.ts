// The examples mock: every operation at every served version, with writes, and 0 failures.
// It keeps no state, so the run is --stateless (no 404 for unknown ids, no sequences).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { runConformance } from '../src/index.js';
import { startExamples, WAGE_MODEL_ID } from './support/servers.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startExamples();
});
afterAll(() => mock?.close());

test('the examples mock conforms: every operation and served version covered, nothing fails', async () => {
  const summary = await runConformance({
    payrollUrl: mock.payrollBaseUrl,
    journalUrl: mock.url,
    token: 'conformance-examples',
    allowWrites: true,
    stateful: false,
    params: { wageModelId: WAGE_MODEL_ID },
  });
  const failures = summary.cases.filter((c) => c.findings.length > 0).map((c) => `${c.operationId} ${c.title}: ${c.findings.map((f) => f.message).join('; ')}`);
  expect(failures).toEqual([]);
  expect(summary.coverage.uncovered).toEqual([]);
  expect(summary.coverage.total).toBeGreaterThanOrEqual(83);
  expect(summary.cases.some((c) => c.kind === 'negotiation')).toBe(true);
  expect(summary.cases.some((c) => c.kind === 'invalid')).toBe(true);
  expect(summary.cases.some((c) => c.kind === 'unauthorized')).toBe(true);
});
