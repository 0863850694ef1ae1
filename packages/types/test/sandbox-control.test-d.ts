import { describe, expectTypeOf, it } from 'vitest';
import type { AnswerStatus, ClockState, EntityPage, EntityQuery, EntityShapes, OneOffAnswerOf, RequestBody, ResponseBody, UserEntry, paths } from '../src/sandbox-control.js';

describe('sandbox control types', () => {
  it('types the control paths and their bodies', () => {
    expectTypeOf<keyof paths>().toExtend<`/__sandbox/${string}` | '/auth/token'>();
    expectTypeOf<ResponseBody<'GetSandboxClock'>>().toEqualTypeOf<ClockState>();
    expectTypeOf<RequestBody<'PutAuthorizationUserById'>['employers']>().toEqualTypeOf<'all' | string[]>();
    const user: UserEntry = { name: 'Clerk', password: 'x', client: 'c', role: 'r', rights: [], employers: 'all', department: null };
    void user;
    // @ts-expect-error a data scope is all or department
    const role: RequestBody<'PutAuthorizationRoleById'> = { name: 'Clerk', rights: [], dataScope: 'team' };
    void role;
  });
});

describe('one-off answers and the entity read', () => {
  it('types an answer by the activity, its status and that status body', () => {
    expectTypeOf<AnswerStatus<'PutEmployeeByEmployeeId'>>().toEqualTypeOf<200 | 400 | 401 | 403 | 404 | 500 | 501 | 502 | 503 | 504>();
    const refused: OneOffAnswerOf<'PutEmployeeByEmployeeId'> = {
      status: 400,
      body: { version: { resourceVersion: '2021-03-29', obsoleteDate: null }, messages: [{ type: 'BrokenBusinessRule', description: 'Not now.', code: 400, properties: ['personalDetails'] }] },
    };
    const warned: OneOffAnswerOf<'GetEmployeesByEmployerId'> = { status: 200, headers: { Warning: '199 - "Deprecated"' } };
    void [refused, warned];
    // @ts-expect-error the activity answers no 418
    const teapot: OneOffAnswerOf<'PutEmployeeByEmployeeId'> = { status: 418 };
    // @ts-expect-error a 400 carries the error envelope, not an employee
    const wrongBody: OneOffAnswerOf<'PutEmployeeByEmployeeId'> = { status: 400, body: { content: { id: 'x' } } };
    // @ts-expect-error no such activity
    type Misspelt = OneOffAnswerOf<'PutEmployeeByEmployeId'>;
    void [teapot, wrongBody];
  });

  it('types the entity read by list, in the read shape', () => {
    expectTypeOf<EntityPage<'employees'>['entities'][number]>().toEqualTypeOf<EntityShapes['employee']>();
    const query: EntityQuery<'employees'> = { where: { personalDetails: { lastName: 'Visser' } }, orderBy: 'dateOfBirth', take: 10 };
    // @ts-expect-error an employee has no companyName
    const unknownField: EntityQuery<'employees'> = { where: { companyName: 'Bakker' } };
    // @ts-expect-error a last name is text
    const wrongType: EntityQuery<'employees'> = { where: { personalDetails: { lastName: 3 } } };
    void [query, unknownField, wrongType];
  });
});
