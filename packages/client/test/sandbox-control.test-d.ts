// The control client's types catch mistakes: fault rules name activities, a scenario's result
// names its own refs and lists, and a snapshot's collections have their stored shapes.
import { describe, expectTypeOf, it } from 'vitest';
import { createSandboxControl, type EntityOf, type FaultRule, type OneOffAnswer, type Snapshot } from '../src/sandbox.js';

const control = createSandboxControl({ baseUrl: 'http://127.0.0.1:4010', token: 'types' });

describe('the sandbox control client types', () => {
  it('types fault rules by activity name, with * for every operation', async () => {
    void control.faults.add([{ operations: ['GetEmployeesByEmployerId', 'DeleteCostCenterAtWageModelLevelByCostCenterId'], status: 503, times: 1 }]);
    void control.faults.add([{ operations: ['*'], delayMs: 800 }]);
    // @ts-expect-error a misspelt activity
    void control.faults.add([{ operations: ['GetEmployeesByEmployer'], status: 503 }]);
    // @ts-expect-error a misspelt activity in a replacement
    void control.faults.replace([{ operations: ['GetEmploymentByEmployment'], status: 500 }]);
    expectTypeOf(await control.faults.list()).toEqualTypeOf<FaultRule[]>();
    expectTypeOf((await control.faults.list())[0]!.id).toEqualTypeOf<string>();
  });

  it('names the refs and lists of the scenario given', async () => {
    const result = await control.scenario({
      entities: {
        employers: [{ ref: 'bakery', companyName: 'Bakkerij' }],
        employees: [{ employerRef: 'bakery', personalDetails: { lastName: 'Visser' } }, { ref: 'anna', employerRef: 'bakery' }],
      },
    });
    expectTypeOf(result.refs).toEqualTypeOf<{ bakery: string; anna: string }>();
    expectTypeOf(result.refs.bakery).toEqualTypeOf<string>();
    expectTypeOf(result.added.employees).toEqualTypeOf<string[]>();
    // @ts-expect-error no entity has this ref
    void result.refs.bakkery;
    // @ts-expect-error the scenario gave no administrations
    void result.added.administrations;
    // @ts-expect-error a misspelt field of an entity
    void control.scenario({ entities: { employees: [{ personalDetails: { lastNme: 'Visser' } }] } });
  });

  it('types a snapshot’s collections by their stored shapes', async () => {
    const snapshot = await control.exportSnapshot();
    expectTypeOf(snapshot).toEqualTypeOf<Snapshot>();
    const employee = snapshot.collections.employees![0]!;
    expectTypeOf(employee.employerId).toEqualTypeOf<string>();
    expectTypeOf(employee.personalDetails!.lastName).toEqualTypeOf<string | undefined>();
    expectTypeOf(snapshot.collections.employments![0]!.employeeId).toEqualTypeOf<string>();
    // @ts-expect-error no such collection
    void snapshot.collections.employes;
    // @ts-expect-error an employee number is a number
    void control.importSnapshot({ format: 'payroll-sandbox/1', collections: { employees: [{ ...employee, employeeNumber: '1001' }] } }, { mode: 'merge' });
    // @ts-expect-error a stored employee names its employer
    void control.importSnapshot({ format: 'payroll-sandbox/1', collections: { employees: [{ id: 'x', employeeNumber: 1 }] } });
  });

  it('types a one-off answer by activity and status, and the entity read by list', async () => {
    const version = { resourceVersion: '2021-03-29', obsoleteDate: null };
    expectTypeOf(await control.answers.next('PutEmployeeByEmployeeId', { status: 400, body: { version, messages: [{ type: 'BrokenBusinessRule', description: 'Locked.' }] } }, { times: 1 })).toEqualTypeOf<OneOffAnswer>();
    void control.answers.next('GetCostCentersAtWageModelLevelByJournalProfileId', { status: 200, headers: { Warning: '199 - "Deprecated"' } });
    // @ts-expect-error the activity answers no 418
    void control.answers.next('PutEmployeeByEmployeeId', { status: 418 });
    // @ts-expect-error a 400 carries the error envelope, not an employee
    void control.answers.next('PutEmployeeByEmployeeId', { status: 400, body: { content: { id: 'x' } } });
    // @ts-expect-error a misspelt activity
    void control.answers.next('PutEmployeeByEmployeId', { status: 400 });
    expectTypeOf(await control.entities.employees.findMany({ where: { personalDetails: { lastName: 'Visser' } } })).toEqualTypeOf<Array<EntityOf<'employees'>>>();
    // @ts-expect-error a last name is text
    void control.entities.employees.findMany({ where: { personalDetails: { lastName: 1 } } });
    // @ts-expect-error the entity read offers no such list
    void control.entities.employeePhotos;
  });
});
