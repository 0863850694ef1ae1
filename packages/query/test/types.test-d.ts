import { QueryClient, QueryObserver } from '@tanstack/query-core';
import { describe, expectTypeOf, it } from 'vitest';
import type { ApiError, JournalMessage, Message } from '@payroll-api/client';
import { createJournalClient, createPayrollClient } from '@payroll-api/client';
import type { ResponseBody } from '@payroll-api/types/payroll';
import { journalQueries, payrollQueries } from '../src/index.js';

const payroll = payrollQueries(createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2' }));
const journal = journalQueries(createJournalClient({ baseUrl: 'https://payroll.example.nl' }));
const queryClient = new QueryClient();

describe('query types', () => {
  it('types a payroll query: params, data and ApiError<Message>', async () => {
    const options = payroll.GetEmployeesByEmployerId({ employerId: 'x', pageSize: 5 });
    expectTypeOf(await queryClient.fetchQuery(options)).toEqualTypeOf<ResponseBody<'GetEmployeesByEmployerId'>>();
    expectTypeOf(queryClient.getQueryState(options.queryKey)!.error).toEqualTypeOf<ApiError<Message> | null>();
    expectTypeOf(new QueryObserver(queryClient, options).getCurrentResult().error).toEqualTypeOf<ApiError<Message> | null>();
    // @ts-expect-error employerId is required
    payroll.GetEmployeesByEmployerId({ pageSize: 5 });
    // @ts-expect-error pageSize is a number
    payroll.GetEmployeesByEmployerId({ employerId: 'x', pageSize: 'five' });
  });

  it('types a journal query and mutation with the journal codes', () => {
    const options = journal.GetCostCentersAtWageModelLevelByJournalProfileId({ journalProfileId: 'p' });
    expectTypeOf(queryClient.getQueryState(options.queryKey)!.error).toEqualTypeOf<ApiError<JournalMessage> | null>();
    const mutation = journal.mutation.DeleteCostCenterAtWageModelLevelByCostCenterId();
    expectTypeOf(mutation.onError).parameter(0).toEqualTypeOf<ApiError<JournalMessage>>();
    expectTypeOf(mutation.mutationFn).parameter(0).toEqualTypeOf<{ params: { costCenterId: string } }>();
  });

  it('types a payroll mutation with params and body, and only writes as mutations', () => {
    const terminate = payroll.mutation.PatchTerminateByEmploymentId();
    expectTypeOf(terminate.mutationFn).parameter(0).toHaveProperty('body');
    expectTypeOf(terminate.mutationFn).parameter(0).toHaveProperty('params').toEqualTypeOf<{ employmentId: string }>();
    // @ts-expect-error a GET is not a mutation
    void payroll.mutation.GetEmployeesByEmployerId;
    // @ts-expect-error a detail is no infinite list
    void payroll.infinite.GetEmploymentByEmploymentId;
  });
});
