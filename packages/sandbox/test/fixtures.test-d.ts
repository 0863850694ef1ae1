// The factories and the scenario input are typed by the APIs' read shapes.
import { describe, expectTypeOf, it } from 'vitest';
import type { Schema as JournalSchema } from '@payroll-api/types/journal';
import type { Schema as PayrollSchema } from '@payroll-api/types/payroll';
import { createFixtures, type FixtureOverride } from '../src/fixtures.js';
import type { Sandbox, Scenario, ScenarioResult } from '../src/index.js';

const make = createFixtures({ seed: 1 });

describe('factories', () => {
  it('return the read shape of their resource', () => {
    expectTypeOf(make.employer()).toEqualTypeOf<PayrollSchema<'Employer'>>();
    expectTypeOf(make.employee()).toEqualTypeOf<PayrollSchema<'Employee'>>();
    expectTypeOf(make.employment()).toEqualTypeOf<PayrollSchema<'Employment'>>();
    expectTypeOf(make.administration()).toEqualTypeOf<PayrollSchema<'Administration'>>();
    expectTypeOf(make.conceptEmployee()).toEqualTypeOf<PayrollSchema<'ConceptEmployee'>>();
    expectTypeOf(make.costCenter()).toEqualTypeOf<JournalSchema<'CostCenter'>>();
    expectTypeOf(make.costUnit()).toEqualTypeOf<JournalSchema<'CostUnit'>>();
    expectTypeOf(make.journalProfile()).toEqualTypeOf<JournalSchema<'WageModelJournalProfile'>>();
    expectTypeOf(make.matrixEntry()).toEqualTypeOf<JournalSchema<'CostCenterCostUnitMatrixEntry'>>();
  });

  it('take a deep-partial override of the read shape and the relations by id', () => {
    make.employee({ employerId: 'x', personalDetails: { lastName: 'Visser' } });
    make.employment({ employeeId: 'x', endDate: '2026-06-30', endOfEmploymentDueToIllness: false });
    expectTypeOf<FixtureOverride<'employee'>>().toHaveProperty('employerId');
    // @ts-expect-error a field of the wrong type
    make.employee({ personalDetails: { lastName: 42 } });
    // @ts-expect-error a field the read shape lacks
    make.employer({ companyNaam: 'Acme' });
    // @ts-expect-error an employment names its employee, not its employer
    make.employment({ employerId: 'x' });
  });
});

describe('scenarios', () => {
  it('type each list by its kind, with refs', () => {
    const scenario: Scenario = {
      start: 'empty',
      entities: { employers: [{ ref: 'a', companyName: 'A' }], employees: [{ employerRef: 'a', personalDetails: { firstName: 'Anna' } }], employments: [{ employeeRef: 'x', endDate: '2026-06-30' }] },
    };
    void scenario;
    // @ts-expect-error start is seed or empty
    const later: Scenario = { start: 'later', entities: {} };
    void later;
    // @ts-expect-error an employee has no employeeRef
    const wrongRef: Scenario = { start: 'seed', entities: { employees: [{ employeeRef: 'a' }] } };
    void wrongRef;
    // @ts-expect-error no such list
    const wrongList: Scenario = { start: 'seed', entities: { bosses: [] } };
    void wrongList;
    expectTypeOf<Sandbox['scenario']>().returns.resolves.toExtend<ScenarioResult & { sandbox: string }>();
    expectTypeOf<ScenarioResult['refs']>().toEqualTypeOf<Record<string, string>>();
  });
});
