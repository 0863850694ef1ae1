// createSandbox's control methods catch mistakes in their types: fault rules name activities, a
// scenario's result names its refs and lists, a snapshot's collections have their stored shapes.
import { describe, expectTypeOf, it } from 'vitest';
import type { FaultRule, Sandbox, Snapshot } from '../src/index.js';

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
});
