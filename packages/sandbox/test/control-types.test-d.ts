// createSandbox's control methods catch mistakes in their types: fault rules name activities, a
// scenario's result names its refs and lists, a snapshot's collections have their stored shapes.
import { describe, expectTypeOf, it } from 'vitest';
import type { EntityOf, FaultRule, OneOffAnswer, Sandbox, Snapshot } from '../src/index.js';

declare const sandbox: Sandbox;

describe('createSandbox control types', () => {
  it('types fault rules by activity name, with * for every operation', async () => {
    void sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], status: 503, times: 1 }]);
    void sandbox.faults.add([{ operations: ['*'], delayMs: 800 }], { token: 't' });
    // @ts-expect-error a misspelt activity
    void sandbox.faults.add([{ operations: ['GetEmployeeByEmployerId'], status: 503 }]);
    expectTypeOf(await sandbox.faults.list()).toEqualTypeOf<FaultRule[]>();
  });

  it('names the refs and lists of the scenario given', async () => {
    const result = await sandbox.scenario({ start: 'empty', entities: { employers: [{ ref: 'bakery', companyName: 'Bakkerij' }], employees: [{ employerRef: 'bakery' }] } });
    expectTypeOf(result.refs).toEqualTypeOf<{ bakery: string }>();
    expectTypeOf(result.added).toEqualTypeOf<{ employers: string[]; employees: string[] }>();
    expectTypeOf(result.sandbox).toEqualTypeOf<string>();
    // @ts-expect-error no entity has this ref
    void result.refs.bakkery;
    // @ts-expect-error a photo is its employee's
    void sandbox.scenario({ entities: { employeePhotos: [{ employerRef: 'bakery' }] } });
  });

  it('types a snapshot’s collections by their stored shapes', async () => {
    const snapshot = await sandbox.snapshot();
    expectTypeOf(snapshot).toEqualTypeOf<Snapshot>();
    expectTypeOf(snapshot.collections.journalCostCenters![0]!.journalProfileId).toEqualTypeOf<string>();
    // @ts-expect-error no such collection
    void snapshot.collections.costCenters;
    // @ts-expect-error a stored employment names its employee and employer
    void sandbox.restore({ format: 'payroll-sandbox/1', collections: { employments: [{ id: 'x' }] } }, { mode: 'merge' });
  });

  it('types a one-off answer by activity and status, and the entity read by list', async () => {
    const version = { resourceVersion: '2021-03-29', obsoleteDate: null };
    expectTypeOf(await sandbox.answers.next('PutEmployeeByEmployeeId', { status: 400, body: { version, messages: [{ type: 'BrokenBusinessRule', description: 'Locked.' }] } }, { times: 2, token: 't' })).toEqualTypeOf<OneOffAnswer>();
    void sandbox.answers.next('GetEmployeesByEmployerId', { status: 200, headers: { Warning: '199 - "Deprecated"' } });
    // @ts-expect-error the activity answers no 418
    void sandbox.answers.next('PutEmployeeByEmployeeId', { status: 418 });
    // @ts-expect-error a 400 carries the error envelope, not an employee
    void sandbox.answers.next('PutEmployeeByEmployeeId', { status: 400, body: { content: { id: 'x' } } });
    // @ts-expect-error a misspelt activity
    void sandbox.answers.next('PutEmployeeByEmployeId', { status: 400 });
    const found = await sandbox.entities.employees.findMany({ where: { personalDetails: { lastName: 'Visser' } }, orderBy: 'dateOfBirth', take: 5 });
    expectTypeOf(found).toEqualTypeOf<Array<EntityOf<'employees'>>>();
    expectTypeOf(await sandbox.entities.employers.findFirst()).toEqualTypeOf<EntityOf<'employers'> | undefined>();
    // @ts-expect-error an employee has no companyName
    void sandbox.entities.employees.findMany({ where: { companyName: 'Bakkerij' } });
    // @ts-expect-error a stored collection the read does not offer
    void sandbox.entities.employmentNotifications;
  });
});
