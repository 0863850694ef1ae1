import { describe, expectTypeOf, it } from 'vitest';
import type { ListItem, ResponseBody, Schema } from '@payroll-api/types/payroll';
import type { Schema as JournalSchema } from '@payroll-api/types/journal';
import {
  ApiError,
  createJournalClient,
  createPayrollClient,
  exportList,
  filterFor,
  paginate,
  type FieldPath,
  type JournalMessageCode,
  type KnownJournalCode,
  type ListItemAt,
  type OnOrBefore,
  type PayrollClientAnyVersion,
  type PayrollClientAt,
  type PayrollPathsAt,
  type PickVersion,
  type VersionedPaths,
} from '../src/index.js';
import { toBody } from '../src/body.js';
import { EMPLOYEE_FIXTURES } from './fixture-versions.js';

const payroll = createPayrollClient({ environment: 'production', host: 'payroll.example.nl' });
const journal = createJournalClient({ baseUrl: 'https://payroll.example.nl' });
const EMPLOYMENT = '2d4b6f8a-1c3e-4a5b-9d7f-6e8a0b2c4d6e';

describe('client types', () => {
  it('types data as the envelope of the versioned media type, without asking for Accept', async () => {
    const { data } = await payroll.GET('/v2/providers');
    expectTypeOf(data).toEqualTypeOf<ResponseBody<'GetProvidersByUser'> | undefined>();
    expectTypeOf(data!._embedded).toEqualTypeOf<ResponseBody<'GetProvidersByUser'>['_embedded']>();
    expectTypeOf(data!._embedded[0]!).toEqualTypeOf<Schema<'Provider'>>();
    const detail = await payroll.GET('/v2/providers/employers/employees/employments/{employmentId}', { params: { path: { employmentId: EMPLOYMENT } } });
    expectTypeOf(detail.data).toEqualTypeOf<ResponseBody<'GetEmploymentByEmploymentId'> | undefined>();
  });

  it('still requires path parameters, and rejects a wrong body', () => {
    // @ts-expect-error the path parameter employmentId is required
    void payroll.GET('/v2/providers/employers/employees/employments/{employmentId}');
    void payroll.PUT('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
      // @ts-expect-error incomeRelationshipNumber is an integer
      body: { incomeRelationshipNumber: 'twee' },
    });
    void payroll.PUT('/v2/providers/employers/employees/{employeeId}', {
      params: { path: { employeeId: EMPLOYMENT } },
      // @ts-expect-error id is readOnly, so not part of the body
      body: { id: EMPLOYMENT },
    });
    // @ts-expect-error not a path of the Payroll API
    void payroll.GET('/v2/unknown');
  });

  it('types paginate by the list item', () => {
    const employees = paginate(payroll, '/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: EMPLOYMENT } } });
    expectTypeOf(employees).toEqualTypeOf<AsyncGenerator<ListItem<'GetEmployeesByEmployerId'>, void, undefined>>();
    expectTypeOf(paginate(payroll, '/v2/providers')).toEqualTypeOf<AsyncGenerator<Schema<'Provider'>, void, undefined>>();
    expectTypeOf(paginate(journal, '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', { params: { path: { journalProfileId: EMPLOYMENT } } })).toEqualTypeOf<
      AsyncGenerator<JournalSchema<'CostCenter'>, void, undefined>
    >();
    // @ts-expect-error a detail operation is not a list
    void paginate(payroll, '/v2/providers/employers/employees/employments/{employmentId}', { params: { path: { employmentId: EMPLOYMENT } } });
    // @ts-expect-error path parameters are required
    void paginate(payroll, '/v2/providers/employers/{employerId}/employees');
  });

  it('types filter fields as dotted paths of the list item', () => {
    // The field names below are the employee's at EMPLOYEE_FIXTURES.
    type Employee = ListItemAt<PayrollPathsAt<typeof EMPLOYEE_FIXTURES>, '/v2/providers/employers/{employerId}/employees'>;
    expectTypeOf<'personalDetails.lastName'>().toExtend<FieldPath<Employee>>();
    expectTypeOf<'address.country.isoCode'>().toExtend<FieldPath<Employee>>();
    expectTypeOf<'personalDetails.nope'>().not.toExtend<FieldPath<Employee>>();
    const f = filterFor<Employee>();
    f.where('employeeNumber', 'ge', 10);
    // @ts-expect-error employeeNumber is a number
    f.where('employeeNumber', 'eq', 'tien');
    // @ts-expect-error unknown field
    f.where('salary', 'eq', 1);
    f.orderBy('-employeeNumber', 'id', 'personalDetails.lastName', '-address.houseNumber');
    // @ts-expect-error unknown nested field
    f.orderBy('personalDetails.nope');
    // @ts-expect-error the minus comes before the path
    f.orderBy('personalDetails.-lastName');
  });

  it('types the export report fields and restricts export to exporting lists', () => {
    void exportList(payroll, '/v2/providers/employers/{employerId}/employees', {
      format: 'csv',
      report: { fields: [{ fieldName: 'personalDetails.dateOfBirth', format: 'dd-MM-yyyy' }] },
      params: { path: { employerId: EMPLOYMENT } },
    });
    void exportList(payroll, '/v2/providers/employers/{employerId}/employees', {
      format: 'csv',
      // @ts-expect-error not a field of the employee
      report: { fields: [{ fieldName: 'personalDetails.shoeSize' }] },
      params: { path: { employerId: EMPLOYMENT } },
    });
    // @ts-expect-error GetProvidersByUser offers no export
    void exportList(payroll, '/v2/providers', { format: 'csv', report: { fields: [{ fieldName: 'id' }] } });
  });

  it('types journal bodies: the matrix patch is an array', () => {
    void journal.PATCH('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcentercostunitmatrix', {
      params: { path: { journalProfileId: EMPLOYMENT } },
      body: [{ costCenterId: EMPLOYMENT, costUnitId: EMPLOYMENT, isLinked: true }],
    });
    void journal.PATCH('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcentercostunitmatrix', {
      params: { path: { journalProfileId: EMPLOYMENT } },
      // @ts-expect-error an array is required
      body: { costCenterId: EMPLOYMENT },
    });
  });

  it('types the client at every served version when a resourceVersionDate is given', async () => {
    const dated = createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', resourceVersionDate: '2020-01-01' });
    const { data } = await dated.GET('/v2/providers');
    expectTypeOf(data).toEqualTypeOf<ResponseBody<'GetProvidersByUser'> | undefined>();
  });
});

describe('calls by activity name', () => {
  it('types params, body and data from the operation', async () => {
    const { data } = await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYMENT, filter: 'endDate eq null', pageSize: 10 });
    expectTypeOf(data).toEqualTypeOf<ResponseBody<'GetEmployeesByEmployerId'> | undefined>();
    void payroll.PatchTerminateByEmploymentId({ employmentId: EMPLOYMENT }, { endDate: '2025-12-31', endOfEmploymentDueToIllness: false });
    // @ts-expect-error employerId is required
    void payroll.GetEmployeesByEmployerId({ pageSize: 10 });
    // @ts-expect-error pageSiz is not a parameter (did you mean pageSize?)
    void payroll.GetEmployeesByEmployerId({ employerId: EMPLOYMENT, pageSiz: 10 });
    // @ts-expect-error the body is required
    void payroll.PatchTerminateByEmploymentId({ employmentId: EMPLOYMENT });
    // @ts-expect-error a field the body does not have
    void payroll.PutEmploymentByEmploymentId({ employmentId: EMPLOYMENT }, { incomeRelationshipNumber: 1, bogus: true });
    // @ts-expect-error not an activity of the journal API
    void journal.GetProvidersByUser();
  });

  it('names a read-only field in the error', () => {
    expectTypeOf<Parameters<typeof payroll.PutEmployeeByEmployeeId>[1]['id']>().toEqualTypeOf<
      'id is read-only: leave it out of the body (toBody() does)' | undefined
    >();
    // @ts-expect-error id is read-only
    void payroll.PutEmployeeByEmployeeId({ employeeId: EMPLOYMENT }, { id: EMPLOYMENT });
  });

  it('paginate and exportList take list activities', () => {
    expectTypeOf(paginate(payroll, 'GetEmployeesByEmployerId', { employerId: EMPLOYMENT })).toEqualTypeOf<
      AsyncGenerator<ListItem<'GetEmployeesByEmployerId'>, void, undefined>
    >();
    // @ts-expect-error a detail operation is not a list
    void paginate(payroll, 'GetEmployeeByEmployeeId', { employeeId: EMPLOYMENT });
    void exportList(payroll, 'GetEmployeesByEmployerId', { format: 'xlsx', report: { fields: [{ fieldName: 'employeeNumber' }] }, params: { employerId: EMPLOYMENT } });
    // @ts-expect-error GetProvidersByUser offers no export
    void exportList(payroll, 'GetProvidersByUser', { format: 'csv', report: { fields: [{ fieldName: 'id' }] } });
  });
});

describe('journal types', () => {
  it('types journal errors with the journal codes, open to other strings', async () => {
    const error = ApiError.from(await journal.DeleteCostCenterAtWageModelLevelByCostCenterId({ costCenterId: EMPLOYMENT }))!;
    expectTypeOf(error.messages[0]!.code).toEqualTypeOf<JournalMessageCode | undefined>();
    expectTypeOf<'API_Journal_WageModelCostCenter_InUse_JournalAllocation'>().toExtend<KnownJournalCode>();
    expectTypeOf<'API_Journal_WageModelCostCenter_Nope'>().not.toExtend<KnownJournalCode>();
    const payrollError = ApiError.from(await payroll.GetProvidersByUser())!;
    expectTypeOf(payrollError.messages[0]!.code).toEqualTypeOf<number | undefined>();
  });

  it('checks the known fields of an open body: a misspelt field is an error', () => {
    void journal.PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId({ journalProfileId: EMPLOYMENT }, [
      // @ts-expect-error costCentreId is not a field of the matrix patch model (costCenterId is)
      { costCentreId: EMPLOYMENT, costUnitId: EMPLOYMENT, isLinked: true },
    ]);
    const undocumented: Record<string, unknown> = { note: 'fields the description does not show' };
    void journal.PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId({ journalProfileId: EMPLOYMENT }, [
      { costCenterId: EMPLOYMENT, costUnitId: EMPLOYMENT, isLinked: false, ...undocumented },
    ]);
  });
});

describe('toBody types', () => {
  it('turns the read shapes of employer, employee and employment into their PUT bodies', async () => {
    const employer = (await payroll.GetEmployerByEmployerId({ employerId: EMPLOYMENT })).data!.content!;
    const employerBody = toBody('PutEmployerByEmployerId', { ...employer, companyName: 'Nieuw' });
    expectTypeOf(employerBody).toEqualTypeOf<Parameters<typeof payroll.PutEmployerByEmployerId>[1]>();
    void payroll.PutEmployerByEmployerId({ employerId: EMPLOYMENT }, employerBody);
    // @ts-expect-error without toBody the read shape carries read-only fields (id, sbi.value, …)
    void payroll.PutEmployerByEmployerId({ employerId: EMPLOYMENT }, employer);

    const employee = (await payroll.GetEmployeeByEmployeeId({ employeeId: EMPLOYMENT })).data!.content!;
    const employeeBody = toBody('PutEmployeeByEmployeeId', employee);
    expectTypeOf(employeeBody).toEqualTypeOf<Parameters<typeof payroll.PutEmployeeByEmployeeId>[1]>();
    // @ts-expect-error statusEmployeeSelfService is read-only beside its $ref: no part of the body
    void payroll.PutEmployeeByEmployeeId({ employeeId: EMPLOYMENT }, { ...employeeBody, statusEmployeeSelfService: { key: 1 } });

    const employment = (await payroll.GetEmploymentByEmploymentId({ employmentId: EMPLOYMENT })).data!.content!;
    const employmentBody = toBody('PutEmploymentByEmploymentId', employment);
    expectTypeOf(employmentBody).toEqualTypeOf<Parameters<typeof payroll.PutEmploymentByEmploymentId>[1]>();
    expectTypeOf(employmentBody.typeOfEmployee).toExtend<{ key: number } | undefined>();
    // @ts-expect-error GetProvidersByUser takes no body
    void toBody('GetProvidersByUser', {});
  });
});

describe('types that follow the resource version sent at run time', () => {
  // Two versions of one operation, as api:version makes them: 2026-12-07 renames placeOfBirth.
  type Versions = readonly ['2026-12-07', '2021-03-29'];
  type Table = { 'GET /v2/people/{id}': readonly ['GetPerson', 'person', 0, Versions]; 'PUT /v2/people/{id}': readonly ['PutPerson', 'person', 4, Versions] };
  type Person<Field extends string> = { content?: { [K in Field]?: string } };
  type Paths = {
    '/v2/people/{id}': {
      get: { parameters: { path: { id: string } }; responses: { 200: { content: { 'application/json;version=2026-12-07': Person<'birthPlace'>; 'application/json;version=2021-03-29': Person<'placeOfBirth'> } } } };
      put: {
        parameters: { path: { id: string } };
        requestBody: { content: { 'application/json;version=2026-12-07': { birthPlace?: string }; 'application/json;version=2021-03-29': { placeOfBirth?: string } } };
        responses: { 200: { content: { 'application/json;version=2026-12-07': Person<'birthPlace'> } } };
      };
    };
  };
  type Content<P, M extends 'get' | 'put'> = P extends { '/v2/people/{id}': { [K in M]: { responses: { 200: { content: infer C } } } } } ? C : never;
  type Body<P> = P extends { '/v2/people/{id}': { put: { requestBody: { content: infer C } } } } ? C[keyof C] : never;

  it('picks the newest version dated on or before the date, as pickVersion does', () => {
    expectTypeOf<OnOrBefore<'2021-03-29', '2021-03-29'>>().toEqualTypeOf<true>();
    expectTypeOf<OnOrBefore<'2021-03-30', '2021-03-29'>>().toEqualTypeOf<false>();
    expectTypeOf<OnOrBefore<'2020-12-31', '2021-01-01'>>().toEqualTypeOf<true>();
    expectTypeOf<PickVersion<Versions, '2026-12-07'>>().toEqualTypeOf<'2026-12-07'>();
    expectTypeOf<PickVersion<Versions, '2026-12-06'>>().toEqualTypeOf<'2021-03-29'>();
    expectTypeOf<PickVersion<Versions, '2030-01-01'>>().toEqualTypeOf<'2026-12-07'>();
    expectTypeOf<PickVersion<Versions, '2020-01-01'>>().toEqualTypeOf<never>();
  });

  it('types answers and bodies at the version a literal date picks, at the newest without one, and at every version for a date known only at run time', () => {
    expectTypeOf<keyof Content<VersionedPaths<Paths, false, Table>, 'get'>>().toEqualTypeOf<'application/json;version=2026-12-07'>();
    expectTypeOf<keyof Content<VersionedPaths<Paths, '2026-06-01', Table>, 'get'>>().toEqualTypeOf<'application/json;version=2021-03-29'>();
    expectTypeOf<keyof Content<VersionedPaths<Paths, string, Table>, 'get'>>().toEqualTypeOf<'application/json;version=2026-12-07' | 'application/json;version=2021-03-29'>();
    expectTypeOf<keyof Body<VersionedPaths<Paths, '2026-06-01', Table>>>().toEqualTypeOf<'placeOfBirth'>();
    expectTypeOf<keyof Body<VersionedPaths<Paths, '2027-01-01', Table>>>().toEqualTypeOf<'birthPlace'>();
  });

  it('types a client given a literal resourceVersionDate by that date, and one given a run-time string at every version', () => {
    const literal = createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', resourceVersionDate: '2024-01-01' });
    expectTypeOf(literal).toEqualTypeOf<PayrollClientAt<'2024-01-01'>>();
    const runtime: string = new Date().toISOString().slice(0, 10);
    expectTypeOf(createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', resourceVersionDate: runtime })).toEqualTypeOf<PayrollClientAnyVersion>();
  });
});
