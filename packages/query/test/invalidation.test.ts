// The generated invalidation table against the description: every write has an entry, names
// entity ids that are path parameters of the description, and only GETs; embedded data and
// what a write creates reach the right queries, narrowed by the ids the write knows.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { journalOperations, payrollOperations } from '../src/generated/operations.js';
import { invalidationOf } from '../src/index.js';

const bundle = (api: string) => JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../../spec/dist/${api}.json`, import.meta.url)), 'utf8'));
type Entry = readonly [string, string, number, (readonly string[])?, (readonly string[])?, (ReadonlyArray<readonly [string, string]>)?];

describe.each([
  ['payroll', payrollOperations as unknown as Record<string, Entry>],
  ['journal', journalOperations as unknown as Record<string, Entry>],
] as const)('the %s table', (api, table) => {
  const ops = [...operationsOf(bundle(api))].filter((o) => o.operation.operationId);
  const writes = ops.filter((o) => o.method !== 'get');

  it('has every operation of the description, and nothing else', () => {
    expect(Object.keys(table).sort()).toEqual(ops.map((o) => o.operation.operationId).sort());
  });

  const parameters = new Set(ops.flatMap((o) => o.path.match(/[^{}]+(?=})/g) ?? []));
  it.each(writes.map((o) => [o.operation.operationId as string, o.path] as const))('%s invalidates entities of the description and GETs', (id, path) => {
    const [, ids, kind, entities, reads, answerIds] = table[id]!;
    expect(kind).toBe(2);
    expect(ids.split(' ').filter(Boolean)).toEqual(path.match(/[^{}]+(?=})/g) ?? []);
    for (const entity of entities!) expect(parameters, `${entity} is a path parameter`).toContain(entity);
    for (const [param] of answerIds!) expect(entities).toContain(param);
    expect(reads!.length).toBeGreaterThan(0);
    for (const read of reads!) expect(table[read]?.[2], `${read} is a GET`).toBeLessThan(2);
  });
});

describe('invalidation of a termination', () => {
  it('reaches the employment, the employee’s employments and the employer’s employment lists', () => {
    const [, , , entities, reads] = payrollOperations.PatchTerminateByEmploymentId;
    expect(entities).toEqual(['employmentId']);
    expect(reads).toEqual(expect.arrayContaining(['GetEmploymentsByEmployerId', 'GetEmploymentsByEmployeeId', 'GetEmploymentsMinimizedByEmployerId']));
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

  it('narrows a create’s detail queries to the ids its answer carries', () => {
    const data = { content: { employeeId: 'p-new', employmentId: 'e-new' } };
    const { predicate } = invalidationOf('payroll', 'PostEmployeeByEmployerId', { employerId: 'x' }, data);
    const hit = (queryKey: unknown[]) => predicate!({ queryKey } as never);
    expect(hit(['payroll', 'employee', { employeeId: 'p-new' }, 'GetEmployeeByEmployeeId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employee', { employeeId: 'p-old' }, 'GetEmployeeByEmployeeId', {}, null])).toBe(false);
    expect(hit(['payroll', 'employmentMetadata', { employmentId: 'e-new' }, 'GetEmploymentMetadataByEmploymentId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employmentMetadata', { employmentId: 'e-old' }, 'GetEmploymentMetadataByEmploymentId', {}, null])).toBe(false);
  });
});

describe('embedded data', () => {
  it('an employee’s edit reaches the employments that embed its summary, and no other employer’s employees', () => {
    const [, , , , reads] = payrollOperations.PutEmployeeByEmployeeId;
    expect(reads).toEqual(expect.arrayContaining(['GetEmploymentsByEmployerId', 'GetEmploymentByEmploymentId', 'GetEmploymentsMinimizedByEmployerId', 'GetEmploymentsByEmployeeId']));
    const { predicate } = invalidationOf('payroll', 'PutEmployeeByEmployeeId', { employeeId: 'p-1' });
    const hit = (queryKey: unknown[]) => predicate!({ queryKey } as never);
    expect(hit(['payroll', 'employment', { employerId: 'x' }, 'GetEmploymentsByEmployerId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employmentId: 'e-9' }, 'GetEmploymentByEmploymentId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employeeId: 'p-1' }, 'GetEmploymentsByEmployeeId', {}, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employeeId: 'p-2' }, 'GetEmploymentsByEmployeeId', {}, null])).toBe(false);
    expect(hit(['payroll', 'employmentMetadata', { employmentId: 'e-9' }, 'GetEmploymentMetadataByEmploymentId', {}, null])).toBe(false);
  });

  it('a new employee also makes an employment: the employer’s employment lists are invalidated', () => {
    expect(payrollOperations.PostEmployeeByEmployerId[3]).toEqual(['employeeId', 'employmentId']);
    const { predicate } = invalidationOf('payroll', 'PostEmployeeByEmployerId', { employerId: 'x' });
    const hit = (queryKey: unknown[]) => predicate!({ queryKey } as never);
    expect(hit(['payroll', 'employment', { employerId: 'x' }, 'GetEmploymentsByEmployerId', { pageSize: 5 }, null])).toBe(true);
    expect(hit(['payroll', 'employment', { employerId: 'y' }, 'GetEmploymentsByEmployerId', {}, null])).toBe(false);
  });
});
