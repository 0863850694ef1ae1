// The generated invalidation table against the description: every write has an entry, names a
// path parameter of its own path (or none, for a write on a collection), and only lists.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { journalOperations, payrollOperations } from '../src/generated/operations.js';
import { invalidationOf } from '../src/index.js';

const bundle = (api: string) => JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../../spec/dist/${api}.json`, import.meta.url)), 'utf8'));
type Entry = readonly [string, string, number, string?, (readonly string[])?];

describe.each([
  ['payroll', payrollOperations as unknown as Record<string, Entry>],
  ['journal', journalOperations as unknown as Record<string, Entry>],
] as const)('the %s table', (api, table) => {
  const ops = [...operationsOf(bundle(api))].filter((o) => o.operation.operationId);
  const writes = ops.filter((o) => o.method !== 'get');

  it('has every operation of the description, and nothing else', () => {
    expect(Object.keys(table).sort()).toEqual(ops.map((o) => o.operation.operationId).sort());
  });

  it.each(writes.map((o) => [o.operation.operationId as string, o.path] as const))('%s invalidates its entity and lists of its kind', (id, path) => {
    const [, ids, kind, entity, lists] = table[id]!;
    expect(kind).toBe(2);
    expect(ids.split(' ').filter(Boolean)).toEqual(path.match(/[^{}]+(?=})/g) ?? []);
    if (entity) expect(path).toContain(`{${entity}}`);
    expect(entity || lists!.length).toBeTruthy();
    for (const list of lists!) expect(table[list]?.[2], `${list} is a list`).toBe(1);
  });
});

describe('invalidation of a termination', () => {
  it('reaches the employment, the employee’s employments and the employer’s employment lists', () => {
    const [, , , entity, lists] = payrollOperations.PatchTerminateByEmploymentId;
    expect(entity).toBe('employmentId');
    expect(lists).toEqual(expect.arrayContaining(['GetEmploymentsByEmployerId', 'GetEmploymentsByEmployeeId', 'GetEmploymentsMinimizedByEmployerId']));
    const { predicate } = invalidationOf('payroll', 'PatchTerminateByEmploymentId', { employmentId: 'e-1' });
    const hit = (queryKey: unknown[]) => predicate!({ queryKey } as never);
    expect(hit(['payroll', 'employment', { employmentId: 'e-1' }, 'GetEmploymentByEmploymentId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employmentMetadata', { employmentId: 'e-1' }, 'GetEmploymentMetadataByEmploymentId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employeeId: 'p-1' }, 'GetEmploymentsByEmployeeId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employerId: 'x' }, 'GetEmploymentsByEmployerId', { pageSize: 5 }, null, 'pages'])).toBe(true);
    expect(hit(['payroll', 'employment', { employmentId: 'e-2' }, 'GetEmploymentByEmploymentId', {}, null])).toBe(false);
    expect(hit(['payroll', 'employee', { employerId: 'x' }, 'GetEmployeesByEmployerId', {}, null])).toBe(false);
  });

  it('narrows a create to the lists of its own parent', () => {
    const { predicate } = invalidationOf('payroll', 'PostEmployeeByEmployerId', { employerId: 'x' });
    const hit = (queryKey: unknown[]) => predicate!({ queryKey } as never);
    expect(hit(['payroll', 'employee', { employerId: 'x' }, 'GetEmployeesByEmployerId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employee', { employerId: 'y' }, 'GetEmployeesByEmployerId', {}, null])).toBe(false);
  });
});
