// Against the real sandbox, through each transport (HTTP, and in process under MSW): TanStack
// Query's QueryClient drives the options of this package.
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createJournalClient, createPayrollClient, unwrap } from '@payroll-api/client';
import { toBody } from '@payroll-api/client/body';
import { about, journalQueries, payrollQueries } from '../src/index.js';
import { transports, type Transport } from './transport.js';

const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
const PROFILE = '294af36b-2828-41e3-9ca6-a823da96a226';

for (const [name, start] of Object.entries(transports)) {
  describe(`against the sandbox (${name})`, () => {
    let transport: Transport;
    beforeAll(async () => {
      transport = await start();
    });
    afterAll(() => transport?.close());

    // Each test has its own token, so its own sandbox starting from the seed.
    const setup = (token: string) => {
      const payroll = createPayrollClient({ baseUrl: transport.baseUrl, auth: token, fetch: transport.fetch, retry: false });
      const journal = createJournalClient({ baseUrl: transport.journalBaseUrl, auth: token, fetch: transport.fetch, retry: false });
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
      return { payroll, journal, queryClient, api: payrollQueries(payroll), journalApi: journalQueries(journal) };
    };

    it('a list query answers the envelope under a hierarchical key', async () => {
      const { api, queryClient } = setup('query-list');
      const options = api.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 5 });
      expect(options.queryKey).toEqual(['payroll', 'employee', { employerId: EMPLOYER }, 'GetEmployeesByEmployerId', { pageSize: 5 }, null]);
      const data = await queryClient.fetchQuery(options);
      expect(data._embedded.length).toBeGreaterThan(0);
      expect(data._embedded.length).toBeLessThanOrEqual(5);
      expect(queryClient.getQueryData(options.queryKey)).toBe(data);
      expect(queryClient.getQueryCache().findAll(about('payroll', { employerId: EMPLOYER }))).toHaveLength(1);
    });

    it('a create makes the list refetch and contain the new entity', async () => {
      const { journalApi, queryClient } = setup('query-create');
      const list = new QueryObserver(queryClient, journalApi.GetCostCentersAtWageModelLevelByJournalProfileId({ journalProfileId: PROFILE }));
      const unsubscribe = list.subscribe(() => {});
      const before = (await list.refetch()).data!;
      const code = `Q${Date.now() % 100000}`;
      const create = new MutationObserver(queryClient, journalApi.mutation.PostCostCenterAtWageModelLevelByJournalProfileId());
      await create.mutate({ params: { journalProfileId: PROFILE }, body: { code } });
      const after = list.getCurrentResult().data!;
      unsubscribe();
      expect(after).not.toBe(before);
      expect(after._embedded?.map((c) => c.code)).toContain(code);
      expect(before._embedded?.map((c) => c.code)).not.toContain(code);
    });

    it('a termination updates the employment detail and the employment lists', async () => {
      const { api, payroll, queryClient } = setup('query-terminate');
      const employments = unwrap(await payroll.GetEmploymentsByEmployerId({ employerId: EMPLOYER }))._embedded;
      const open = employments.find((e) => !e.endDate)!;
      expect(open).toBeDefined();
      const detail = api.GetEmploymentByEmploymentId({ employmentId: open.id! });
      const byEmployer = api.GetEmploymentsByEmployerId({ employerId: EMPLOYER });
      const observers = [new QueryObserver(queryClient, detail), new QueryObserver(queryClient, byEmployer)];
      const stops = observers.map((o) => o.subscribe(() => {}));
      await Promise.all(observers.map((o) => o.refetch()));
      expect(queryClient.getQueryData(detail.queryKey)!.content?.endDate).toBeFalsy();
      const terminate = new MutationObserver(queryClient, api.mutation.PatchTerminateByEmploymentId());
      await terminate.mutate({
        params: { employmentId: open.id! },
        body: { endDate: '2026-12-31', endOfEmploymentDueToIllness: false, endOfEmploymentReason: { key: 8 } },
      });
      stops.forEach((stop) => stop());
      expect(queryClient.getQueryData(detail.queryKey)!.content?.endDate).toBe('2026-12-31');
      const listed = queryClient.getQueryData(byEmployer.queryKey)!._embedded.find((e) => e.id === open.id);
      expect(listed?.endDate).toBe('2026-12-31');
    });

    // The everyday pattern: the package's options spread, with the app's own onSuccess, on a
    // plain QueryClient. The rename shows in the employments that embed the employee's summary,
    // which names it lastName: the name the employee has at 2021-03-29, the version written here.
    it.each([
      ['spread with its own onSuccess', true],
      ['as given', false],
    ])('an employee’s rename reaches the employer’s employment list and the employment (%s)', async (_name, ownOnSuccess) => {
      const payroll = createPayrollClient({ baseUrl: transport.baseUrl, auth: `query-rename-${ownOnSuccess}`, fetch: transport.fetch, retry: false, resourceVersionDate: '2021-03-29' });
      const api = payrollQueries(payroll);
      const queryClient = new QueryClient();
      const employment = unwrap(await payroll.GetEmploymentsByEmployerId({ employerId: EMPLOYER }))._embedded[0]!;
      const employeeId = employment.employee!.id!;
      const byEmployer = api.GetEmploymentsByEmployerId({ employerId: EMPLOYER });
      const detail = api.GetEmploymentByEmploymentId({ employmentId: employment.id! });
      const observers = [new QueryObserver(queryClient, byEmployer), new QueryObserver(queryClient, detail)];
      const stops = observers.map((o) => o.subscribe(() => {}));
      await Promise.all(observers.map((o) => o.refetch()));
      const employee = unwrap(await payroll.GetEmployeeByEmployeeId({ employeeId })).content!;
      const toasts: unknown[] = [];
      const options = api.mutation.PutEmployeeByEmployeeId();
      const edit = new MutationObserver(queryClient, ownOnSuccess ? { ...options, onSuccess: (data) => void toasts.push(data) } : options);
      await edit.mutate({ params: { employeeId }, body: toBody('PutEmployeeByEmployeeId', { ...employee, personalDetails: { ...employee.personalDetails!, lastName: 'Hernoemd' } }, '2021-03-29') });
      stops.forEach((stop) => stop());
      expect(toasts).toHaveLength(ownOnSuccess ? 1 : 0);
      const listed = queryClient.getQueryData(byEmployer.queryKey)!._embedded.find((e) => e.id === employment.id);
      expect(listed?.employee?.lastName).toBe('Hernoemd');
      expect(queryClient.getQueryData(detail.queryKey)!.content?.employee?.lastName).toBe('Hernoemd');
    });

    it('infinite pages follow totalPages to the last page', async () => {
      const { api, queryClient } = setup('query-pages');
      const observer = new InfiniteQueryObserver(queryClient, api.infinite.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 2 }));
      const stop = observer.subscribe(() => {});
      await observer.refetch();
      let result = observer.getCurrentResult();
      const totalPages = result.data!.pages[0]!.totalPages!;
      expect(totalPages).toBeGreaterThan(1);
      while (result.hasNextPage) result = await observer.fetchNextPage();
      stop();
      expect(result.data!.pages).toHaveLength(totalPages);
      expect(result.data!.pageParams).toEqual(Array.from({ length: totalPages }, (_, i) => i + 1));
      const ids = result.data!.pages.flatMap((p) => p._embedded.map((e) => e.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(result.data!.pages[0]!.totalSize);
    });

    it('a refused request surfaces as a typed ApiError', async () => {
      const { api, queryClient } = setup('query-error');
      const options = api.GetEmployeesByEmployerId({ employerId: EMPLOYER, filter: "shoeSize eq '42'" });
      const error = await queryClient.fetchQuery(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).operation).toBe('GetEmployeesByEmployerId');
      expect(queryClient.getQueryState(options.queryKey)?.error?.byType.BrokenBusinessRule.length).toBeGreaterThan(0);
    });

    it('an injected fault surfaces as a typed ApiError, and the query recovers on refetch', async () => {
      const { api, queryClient } = setup('query-fault');
      await transport.fault('query-fault', [{ operations: ['GetEmployeesByEmployerId'], status: 503, times: 1 }]);
      const options = api.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 2 });
      const error = await queryClient.fetchQuery(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(503);
      expect((error as ApiError).operation).toBe('GetEmployeesByEmployerId');
      const data = await queryClient.fetchQuery({ ...options, staleTime: 0 });
      expect(data._embedded).toHaveLength(2);
    });
  });
}
