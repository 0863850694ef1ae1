// The invalidation table against the sandbox: every write of both APIs runs in the in-process
// sandbox, every GET is read before and after it (test/sandbox-writes.ts), and each query whose
// answer changed must be one the write's derived invalidation reaches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { createSandbox, type Sandbox } from '@payroll-api/sandbox';
import { journalOperations, payrollOperations } from '../src/generated/operations.js';
import { invalidationOf } from '../src/index.js';
import { bundle, runWrites, type WriteRun } from './sandbox-writes.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ log: () => {} });
});
afterAll(() => sandbox?.close());

describe.each([
  ['payroll', payrollOperations as Record<string, readonly [string, ...unknown[]]>],
  ['journal', journalOperations as Record<string, readonly [string, ...unknown[]]>],
] as const)('every %s write against the sandbox', (api, table) => {
  const writes = [...operationsOf(bundle(api))].filter((o) => o.method !== 'get' && o.operation.operationId).map((o) => o.operation.operationId as string);
  let runs: Map<string, WriteRun>;
  beforeAll(async () => {
    runs = new Map((await runWrites(sandbox, api)).map((run) => [run.activity, run]));
  }, 120_000);

  it.each(writes)('%s invalidates every query whose answer it changed', (activity) => {
    const run = runs.get(activity)!;
    expect(run.status, `${activity} succeeded in the sandbox: ${JSON.stringify(run.data)}`).toBeLessThan(300);
    const { predicate } = invalidationOf(api, activity, run.params, run.data);
    const missed = run.changed.filter(({ activity: read, ids }) => !predicate!({ queryKey: [api, table[read]![0], ids, read, {}, null] } as never));
    expect(missed).toEqual([]);
  });
});
