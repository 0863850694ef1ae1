import { describe, expectTypeOf, it } from 'vitest';
import type { ClockState, RequestBody, ResponseBody, UserEntry, paths } from '../src/sandbox-control.js';

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
