import { describe, expectTypeOf, it } from 'vitest';
import type {
  ListItem,
  Message,
  OperationId,
  PathParams,
  Query,
  RequestBody,
  ResponseBody,
  Schema,
  WriteSchema,
  components,
  NewestVersion,
  paths,
  RequestBodyOf,
  ResourceVersions,
  ResponseBodyOf,
  servedVersions,
} from '../src/payroll.js';

describe('payroll types', () => {
  it('types the employment PUT body and rejects a wrongly typed field', () => {
    type Body = RequestBody<'PutEmploymentByEmploymentId'>;
    expectTypeOf<Body>().toHaveProperty('incomeRelationshipNumber');
    expectTypeOf<NonNullable<Body['incomeRelationshipNumber']>>().toEqualTypeOf<number>();
    const ok: Body = { incomeRelationshipNumber: 2, namePayslip: 'J. de Vries', historicalStartDate: '2019-04-01' };
    // @ts-expect-error incomeRelationshipNumber is an integer, not a string
    const wrong: Body = { incomeRelationshipNumber: '2' };
    // @ts-expect-error isOnCallEmployment is a boolean
    const wrongFlag: Body = { isOnCallEmployment: 'yes' };
    expectTypeOf(ok).not.toBeAny();
    void wrong;
    void wrongFlag;
  });

  it('gives the item type of a list envelope _embedded', () => {
    // Pinned: the employee's newest version may name another schema once it gets a new version.
    expectTypeOf<ListItem<'GetEmployeesByEmployerId', '2021-03-29'>>().toEqualTypeOf<Schema<'Employee'>>();
    expectTypeOf<ListItem<'GetProvidersByUser'>>().toEqualTypeOf<Schema<'Provider'>>();
    expectTypeOf<ListItem<'GetEmploymentsByEmployerId'>>().toHaveProperty('startDate');
    type Envelope = ResponseBody<'GetEmployeesByEmployerId'>;
    expectTypeOf<Envelope['totalPages']>().toEqualTypeOf<number>();
    expectTypeOf<Envelope['messages']>().toEqualTypeOf<Message[]>();
  });

  it('drops readOnly id from write bodies and keeps it in read shapes', () => {
    expectTypeOf<Schema<'Employee'>>().toHaveProperty('id');
    expectTypeOf<NonNullable<Schema<'Employee'>['id']>>().toEqualTypeOf<string>();
    type EmployeeWrite = RequestBody<'PutEmployeeByEmployeeId'>;
    expectTypeOf<EmployeeWrite>().toHaveProperty('employeeNumber');
    // @ts-expect-error id is readOnly: absent from the request body
    const withId: EmployeeWrite = { id: '0b6f1c1e-3b7a-4a1c-9c55-8d5a2f0e6b21' };
    void withId;
    // @ts-expect-error id is readOnly on the employer as well
    const employer: WriteSchema<'Employer'> = { id: '0b6f1c1e-3b7a-4a1c-9c55-8d5a2f0e6b21', companyName: 'Bakkerij Jansen B.V.' };
    void employer;
    const employerOk: RequestBody<'PutEmployerByEmployerId'> = { companyName: 'Bakkerij Jansen B.V.' };
    void employerOk;
  });

  it('names parameters and keeps the versioned media type keys of the bundle', () => {
    expectTypeOf<PathParams<'GetEmploymentByEmploymentId'>>().toEqualTypeOf<{ employmentId: string }>();
    expectTypeOf<Query<'GetEmployeesByEmployerId'>>().toHaveProperty('filter');
    type Content = paths['/v2/providers/employers/employees/employments/{employmentId}']['put']['requestBody']['content'];
    expectTypeOf<keyof Content>().toEqualTypeOf<'application/json;version=2019-12-16'>();
    expectTypeOf<'GetProvidersByUser'>().toExtend<OperationId>();
  });

  it('keys context-specific metadata by a uuid and generic metadata by an integer', () => {
    type Update = WriteSchema<'EmploymentUpdate'>;
    expectTypeOf<NonNullable<Update['employeeProfileId']>['key']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Update['typeOfEmployee']>['key']>().toEqualTypeOf<number>();
    type Wage = Schema<'Wage'>;
    expectTypeOf<NonNullable<Wage['payScale']>['key']>().toEqualTypeOf<string>();
  });

  it('answers the minimized concept employee PUT with the full concept employee', () => {
    expectTypeOf<ResponseBody<'PutConceptEmployeeMinimizedByConceptEmployeeId'>>().toEqualTypeOf<ResponseBody<'PostConceptEmployeeByEmployerId'>>();
    expectTypeOf<NonNullable<ResponseBody<'PutConceptEmployeeMinimizedByConceptEmployeeId'>['content']>>().toHaveProperty('uniqueName');
  });

  it('types the termination reasons and the category type as metadata, never null', () => {
    type Metadata = components['schemas']['Metadata'];
    type Termination = Extract<components['schemas']['EmploymentTermination'], { createMdvEntry?: boolean }>;
    expectTypeOf<Termination['endOfEmploymentReason']>().toEqualTypeOf<Metadata | undefined>();
    expectTypeOf<Termination['endOfEmploymentReasonTaxAuthorities']>().toEqualTypeOf<Metadata | undefined>();
    expectTypeOf<components['schemas']['EmploymentCategoryTypeUpdate']['employmentCategoryType']>().toEqualTypeOf<Metadata | undefined>();
  });

  it('places the activities on the paths the production service publishes', () => {
    expectTypeOf<'/v2/providers/employers/conceptemployees/minimized/{conceptEmployeeId}'>().toExtend<keyof paths>();
    expectTypeOf<'/v2/providers/employers/employees/{employeeId}/revokeEmployeeSelfServiceAccess'>().toExtend<keyof paths>();
    expectTypeOf<paths['/v2/providers/employers/employees/employments/{employmentId}']['patch']>().not.toBeNever();
  });
});

describe('one type per served resource version', () => {
  // An operation at two versions, as openapi-typescript generates it once api:version made one.
  type Op = {
    requestBody: { content: { 'application/json;version=2026-12-07': { birthPlace?: string }; 'application/json;version=2021-03-29': { placeOfBirth?: string } } };
    responses: { 200: { content: { 'application/json;version=2026-12-07': { content?: { birthPlace?: string } }; 'application/json;version=2021-03-29': { content?: { placeOfBirth?: string } } } } };
  };

  it('names the body and the answer of one version, or of every version without one', () => {
    expectTypeOf<keyof RequestBodyOf<Op, '2021-03-29'>>().toEqualTypeOf<'placeOfBirth'>();
    expectTypeOf<keyof RequestBodyOf<Op, '2026-12-07'>>().toEqualTypeOf<'birthPlace'>();
    expectTypeOf<keyof NonNullable<ResponseBodyOf<Op, 200, '2021-03-29'>['content']>>().toEqualTypeOf<'placeOfBirth'>();
    const either: RequestBodyOf<Op> = { placeOfBirth: 'Utrecht' };
    // @ts-expect-error birthPlace is a string at 2026-12-07
    const wrong: RequestBodyOf<Op, '2026-12-07'> = { birthPlace: 3 };
    void either;
    void wrong;
  });

  it('defaults to the newest version the registry lists, and accepts only served versions', () => {
    expectTypeOf<NewestVersion<'GetEmployeeByEmployeeId'>>().toEqualTypeOf<servedVersions['GetEmployeeByEmployeeId'][0]>();
    expectTypeOf<ResponseBody<'GetEmployeeByEmployeeId'>>().toEqualTypeOf<ResponseBody<'GetEmployeeByEmployeeId', NewestVersion<'GetEmployeeByEmployeeId'>>>();
    expectTypeOf<ResourceVersions<'employee'>>().toEqualTypeOf<servedVersions['resource:employee']>();
    // @ts-expect-error 1999-01-01 is not a version the employee operations serve
    type Unserved = ResponseBody<'GetEmployeeByEmployeeId', '1999-01-01'>;
  });
});
