// A consumer app of the packed client, compiled and run as ESM (esm.mts) and as CommonJS
// (cjs.cts): the test writes this one source as both. `mistakes` holds deliberate errors, each of
// which tsc must report (an unused expect-error directive fails the check); `main` runs against
// the mock, in the sandbox of CONSUMER_TOKEN.
import { ApiError, createJournalClient, createPayrollClient, paginate, unwrap, type KnownJournalCode } from '@payroll-api/client';
import { toBody } from '@payroll-api/client/body';

const origin = process.env.MOCK_ORIGIN ?? 'http://127.0.0.1:4010';
const token = process.env.CONSUMER_TOKEN ?? 'consumer';
const payroll = createPayrollClient({ baseUrl: `${origin}/v2`, auth: token });
const journal = createJournalClient({ baseUrl: origin, auth: token });
const ID = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';

export function mistakes() {
  // @ts-expect-error misspelt activity
  void payroll.GetEmployeesByEmployerID({ employerId: ID });
  // @ts-expect-error employerId is missing
  void payroll.GetEmployeesByEmployerId({ pageSize: 10 });
  // @ts-expect-error pageSiz is not a parameter
  void payroll.GetEmployeesByEmployerId({ employerId: ID, pageSiz: 10 });
  // @ts-expect-error pageSize is a number
  void payroll.GetEmployeesByEmployerId({ employerId: ID, pageSize: '10' });
  // @ts-expect-error the terminate body is missing
  void payroll.PatchTerminateByEmploymentId({ employmentId: ID });
  // @ts-expect-error endDate is a date string, not a Date
  void payroll.PatchTerminateByEmploymentId({ employmentId: ID }, { endDate: new Date(), endOfEmploymentDueToIllness: false });
  // @ts-expect-error id is read-only (one of the three that slipped through: a read-only field in a body)
  void payroll.PutEmployeeByEmployeeId({ employeeId: ID }, { id: ID });
  // @ts-expect-error a field the employment body does not have (slipped through: unknown body fields)
  void payroll.PutEmploymentByEmploymentId({ employmentId: ID }, { incomeRelationshipNumber: 1, namePaySlip: 'x' });
  // @ts-expect-error costCentreId in a matrix patch (slipped through: open journal bodies)
  void journal.PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId({ journalProfileId: ID }, [{ costCentreId: ID, costUnitId: ID, isLinked: true }]);
  // @ts-expect-error a journal activity on the payroll client
  void payroll.GetCostCentersAtWageModelLevelByJournalProfileId({ journalProfileId: ID });
  // @ts-expect-error a detail operation is not a list
  void paginate(payroll, 'GetEmployeeByEmployeeId', { employeeId: ID });
  // @ts-expect-error not a path of the Payroll API
  void payroll.GET('/v2/employers');
  // @ts-expect-error the path parameter is required
  void payroll.GET('/v2/providers/employers/{employerId}');
  // @ts-expect-error toBody of an activity without a body
  void toBody('GetProvidersByUser', {});
  // @ts-expect-error payroll message codes are numbers
  void (async () => ApiError.from(await payroll.GetProvidersByUser())?.messages[0]?.code === 'API_Journal_WageModelCostCenter_InUse_JournalAllocation')();
  // @ts-expect-error not a known journal code
  const code: KnownJournalCode = 'API_Journal_Nope';
  void code;
}

export async function main() {
  const employers = unwrap(await payroll.GetEmployersByUserId());
  const employerId = employers._embedded[0]!.id!;
  let employees = 0;
  for await (const employee of paginate(payroll, 'GetEmployeesByEmployerId', { employerId, pageSize: 2 }, { maxPages: 2 })) employees += employee.id ? 1 : 0;
  const employer = unwrap(await payroll.GetEmployerByEmployerId({ employerId })).content!;
  const put = await payroll.PutEmployerByEmployerId({ employerId }, toBody('PutEmployerByEmployerId', employer));
  const journalError = ApiError.from(await journal.DeleteCostCenterAtWageModelLevelByCostCenterId({ costCenterId: '00000000-0000-4000-8000-000000000000' }));
  // The journal's codes type-check against its known codes (a payroll client's would not).
  const inUse = journalError?.messages.some((m) => m.code === 'API_Journal_WageModelCostCenter_InUse_JournalAllocation') ?? false;
  return { employees, put: put.response.status, journalStatus: journalError?.status, inUse };
}

main().then((result) => console.log(JSON.stringify(result)), (error) => {
  console.error(error);
  process.exit(1);
});
