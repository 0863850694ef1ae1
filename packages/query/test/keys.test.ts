// Keys: the client's resourceVersionDate is part of them; ids and query parameters are split.
import { describe, expect, it } from 'vitest';
import { createPayrollClient } from '@payroll-api/client';
import { payrollQueries } from '../src/index.js';

const baseUrl = 'https://payroll.example.nl/v2';

describe('keys', () => {
  it('carry the resourceVersionDate the client sends, null without one', () => {
    const pinned = payrollQueries(createPayrollClient({ baseUrl, resourceVersionDate: '2024-01-01' }));
    const current = payrollQueries(createPayrollClient({ baseUrl }));
    const params = { employmentId: 'e-1' };
    expect(pinned.GetEmploymentByEmploymentId(params).queryKey).toEqual(['payroll', 'employment', params, 'GetEmploymentByEmploymentId', {}, '2024-01-01']);
    expect(current.GetEmploymentByEmploymentId(params).queryKey.at(-1)).toBeNull();
    expect(pinned.infinite.GetEmploymentsByEmployerId({ employerId: 'x' }).queryKey).toEqual(['payroll', 'employment', { employerId: 'x' }, 'GetEmploymentsByEmployerId', {}, '2024-01-01', 'pages']);
  });

  it('offers no options for an activity of another kind', () => {
    const api = payrollQueries(createPayrollClient({ baseUrl })) as unknown as Record<string, unknown> & { mutation: Record<string, unknown> };
    expect(api.PatchTerminateByEmploymentId).toBeUndefined();
    expect(api.mutation.GetEmployeesByEmployerId).toBeUndefined();
    expect(api.NoSuchActivity).toBeUndefined();
  });
});
