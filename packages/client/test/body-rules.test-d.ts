// Each conditional requirement the contract states for a body ("mandatory when", "no fields")
// is a type error when broken: by activity name, by path, and through toBody alike. The
// client README's table "Rules the body types follow" lists them.
import { describe, expectTypeOf, it } from 'vitest';
import { createPayrollClient } from '../src/index.js';
import { toBody, type BodyOf } from '../src/body.js';

const payroll = createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2' });
const employmentId = '2d4b6f8a-1c3e-4a5b-9d7f-6e8a0b2c4d6e';
const terminatePath = '/v2/providers/employers/employees/employments/{employmentId}/terminate';
const reinstatePath = '/v2/providers/employers/employees/employments/{employmentId}/reinstate';

describe('PatchTerminateByEmploymentId: endOfEmploymentDueToIllness is mandatory when endDate is filled', () => {
  it('by activity name', () => {
    void payroll.PatchTerminateByEmploymentId({ employmentId }, { endDate: '2026-01-31', endOfEmploymentDueToIllness: false });
    // @ts-expect-error endDate without endOfEmploymentDueToIllness
    void payroll.PatchTerminateByEmploymentId({ employmentId }, { endDate: '2026-01-31' });
    // @ts-expect-error endOfEmploymentDueToIllness must be a boolean when endDate is filled
    void payroll.PatchTerminateByEmploymentId({ employmentId }, { endDate: '2026-01-31', endOfEmploymentDueToIllness: null });
    // @ts-expect-error a call without endDate is refused (reinstate reverses a termination)
    void payroll.PatchTerminateByEmploymentId({ employmentId }, { endOfEmploymentDueToIllness: null });
  });

  it('by path', () => {
    void payroll.PATCH(terminatePath, { params: { path: { employmentId } }, body: { endDate: '2026-01-31', endOfEmploymentDueToIllness: true } });
    // @ts-expect-error endDate without endOfEmploymentDueToIllness
    void payroll.PATCH(terminatePath, { params: { path: { employmentId } }, body: { endDate: '2026-01-31' } });
  });

  it('through toBody', () => {
    expectTypeOf<BodyOf<'PatchTerminateByEmploymentId'>['endOfEmploymentDueToIllness']>().toEqualTypeOf<boolean>();
    const body = toBody('PatchTerminateByEmploymentId', { endDate: '2026-01-31', endOfEmploymentDueToIllness: false });
    void payroll.PatchTerminateByEmploymentId({ employmentId }, body);
    // @ts-expect-error the result of toBody keeps the rule: the field cannot be dropped
    const withoutIllness: BodyOf<'PatchTerminateByEmploymentId'> = { endDate: '2026-01-31' };
    void withoutIllness;
  });
});

describe('PatchReinstateByEmploymentId takes no fields', () => {
  it('by activity name', () => {
    void payroll.PatchReinstateByEmploymentId({ employmentId }, {});
    // @ts-expect-error the operation takes no fields
    void payroll.PatchReinstateByEmploymentId({ employmentId }, { endDate: '2026-01-31' });
  });

  it('by path', () => {
    void payroll.PATCH(reinstatePath, { params: { path: { employmentId } }, body: {} });
    // @ts-expect-error the operation takes no fields
    void payroll.PATCH(reinstatePath, { params: { path: { employmentId } }, body: { endDate: '2026-01-31' } });
  });

  it('through toBody', () => {
    expectTypeOf<BodyOf<'PatchReinstateByEmploymentId'>>().toEqualTypeOf<Record<string, never>>();
    void payroll.PatchReinstateByEmploymentId({ employmentId }, toBody('PatchReinstateByEmploymentId', {}));
  });
});
