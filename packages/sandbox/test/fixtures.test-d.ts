// The factories and the scenario input are typed by the APIs' read shapes.
import { describe, expectTypeOf, it } from 'vitest';
import type { Schema as JournalSchema } from '@payroll-api/types/journal';
import type { Schema as PayrollSchema } from '@payroll-api/types/payroll';
import { createFixtures, type FixtureOverride } from '../src/fixtures.js';
import type { EmploymentRecordShapes, JournalPayrollAdministration, JournalRun, JournalWageModel, PayrollComponentLink, StoredShapes } from '@payroll-api/types/sandbox-control';
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
    expectTypeOf(make.provider()).toEqualTypeOf<PayrollSchema<'ProviderContactInformation'>>();
    expectTypeOf(make.providerLogo()).toEqualTypeOf<PayrollSchema<'ProviderLogo'>>();
    expectTypeOf(make.employerLogo()).toEqualTypeOf<PayrollSchema<'EmployerLogo'>>();
    expectTypeOf(make.employeePhoto()).toEqualTypeOf<PayrollSchema<'Base64FileUpload'>>();
    expectTypeOf(make.employmentRecord()).toEqualTypeOf<EmploymentRecordShapes[keyof EmploymentRecordShapes]>();
    expectTypeOf(make.employmentRecord()).toExtend<{ id?: string; startDate?: string }>();
    expectTypeOf(make.providerJournalProfile()).toEqualTypeOf<JournalSchema<'WageModelJournalProfile'>>();
    expectTypeOf(make.administrationJournalProfile()).toEqualTypeOf<JournalSchema<'PayrollAdministrationJournalProfile'>>();
    // The journal data the API answers no read shape of, typed as stored.
    expectTypeOf(make.journalWageModel()).toEqualTypeOf<JournalWageModel>();
    expectTypeOf(make.journalPayrollAdministration()).toEqualTypeOf<JournalPayrollAdministration>();
    expectTypeOf(make.payrollComponentLink()).toEqualTypeOf<PayrollComponentLink>();
    expectTypeOf(make.journal()).toEqualTypeOf<JournalRun>();
  });

  it('hide what the API never serves, which the stored factories give typed as stored', () => {
    // @ts-expect-error the employer is a stored relation, not a field the API serves
    void make.employee().employerId;
    // @ts-expect-error the reference profile is the sandbox's own
    void make.employer().referenceProfile;
    expectTypeOf(make.stored.employee()).toEqualTypeOf<StoredShapes['employees']>();
    expectTypeOf(make.stored.employee().employerId).toEqualTypeOf<string>();
    expectTypeOf(make.stored.employer().providerId).toEqualTypeOf<string>();
    expectTypeOf(make.stored.costCenter()).toEqualTypeOf<StoredShapes['journalCostCenters']>();
    expectTypeOf(make.stored.journalProfile()).toEqualTypeOf<StoredShapes['journalProfiles']>();
    expectTypeOf(make.collections().employees).toEqualTypeOf<Array<StoredShapes['employees']> | undefined>();
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
    make.employmentRecord({ employmentId: 'x', section: 'workinghours', deviatingHoursPerWeek: 32 });
    make.administrationJournalProfile({ payrollAdministrationId: 'x', deviatesFromJournalProfileId: 'y' });
    // @ts-expect-error a photo names its employee, not its employer
    make.employeePhoto({ employerId: 'x' });
    // @ts-expect-error a journal names its journal profile, not a wage model
    make.journal({ wageModelId: 'x' });
    // @ts-expect-error a provider logo names its provider, not an employer
    make.providerLogo({ employerId: 'x' });
    // @ts-expect-error a record's section is one of the dated sections
    make.employmentRecord({ section: 'employee' });
    // @ts-expect-error a journal's year is a number
    make.journal({ year: '2026' });
    make.costCenter({ journalProfileId: 'x', payrollAdministrationId: 'y', deviatesFromId: 'z' });
    make.matrixEntry({ journalProfileId: 'x', payrollAdministrationId: 'y' });
    // @ts-expect-error a deviation names the cost center it deviates from by its id
    make.costCenter({ deviatesFromId: 42 });
    // Of a provider level profile and of a payroll administration's own, by the profile's id.
    make.costCenter({ journalProfileId: make.providerJournalProfile().id! });
    make.costUnit({ journalProfileId: make.administrationJournalProfile().id!, payrollAdministrationId: 'y' });
    make.matrixEntry({ journalProfileId: make.administrationJournalProfile().id!, costCenterId: 'c', costUnitId: 'u' });
    // @ts-expect-error a cost center names its journal profile by id, not by the profile
    make.costCenter({ journalProfileId: make.providerJournalProfile() });
    // @ts-expect-error a matrix entry names its journal profile by its id
    make.matrixEntry({ journalProfileId: 42 });
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
    const everyKind: Scenario = {
      start: 'empty',
      entities: {
        providers: [{ ref: 'p', name: 'Kantoor' }],
        providerLogos: [{ providerRef: 'p', attribute: 'logo' }],
        employerLogos: [{ employerRef: 'e' }],
        employeePhotos: [{ employeeRef: 'a', mimeType: 'image/png' }],
        employmentRecords: [{ employmentRef: 'j', section: 'wage', startDate: '2026-01-01' }],
        journalWageModels: [{ ref: 'w', providerRef: 'p' }],
        journalPayrollAdministrations: [{ ref: 'pa', administrationRef: 'x', wageModelRef: 'w' }],
        providerJournalProfiles: [{ ref: 'top', providerRef: 'p' }],
        administrationJournalProfiles: [{ ref: 'own', payrollAdministrationRef: 'pa', deviatesFromRef: 'wm' }],
        payrollComponentLinks: [{ journalProfileRef: 'wm', costCenterRef: 'c', payrollComponent: { key: 1, value: 'Salaris' } }],
        journals: [{ journalProfileRef: 'own', periodNumber: 2 }],
        costCenters: [{ ref: 'c' }, { payrollAdministrationRef: 'pa', deviatesFromRef: 'c' }, { journalProfileRef: 'top' }],
        costUnits: [{ journalProfileRef: 'own', code: 'Z-02' }],
        matrixEntries: [{ journalProfileRef: 'own', costCenterRef: 'c', costUnitRef: 'u' }],
      },
    };
    void everyKind;
    // @ts-expect-error a journal names its profile, not a wage model
    const wrongJournal: Scenario = { start: 'seed', entities: { journals: [{ wageModelRef: 'w' }] } };
    void wrongJournal;
    // @ts-expect-error a ref is a local name
    const wrongMatrix: Scenario = { start: 'seed', entities: { costUnits: [{ journalProfileRef: 42 }] } };
    void wrongMatrix;
    // @ts-expect-error a photo is its employee's
    const wrongPhoto: Scenario = { start: 'seed', entities: { employeePhotos: [{ employerRef: 'e' }] } };
    void wrongPhoto;
    // Merged into the current state, a scenario has no start.
    const merged: Scenario = { entities: { employees: [{ employerId: 'x' }] } };
    void merged;
    expectTypeOf<{ mode: 'merge' }>().toExtend<NonNullable<Parameters<Sandbox['scenario']>[1]>>();
    expectTypeOf<{ mode: 'sideways' }>().not.toExtend<NonNullable<Parameters<Sandbox['scenario']>[1]>>();
    expectTypeOf<Awaited<ReturnType<Sandbox['scenario']>>>().toExtend<ScenarioResult & { sandbox: string }>();
    expectTypeOf<ScenarioResult['refs']>().toEqualTypeOf<Record<string, string>>();
  });
});
