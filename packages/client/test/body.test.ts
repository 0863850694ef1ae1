// Read, edit, write back: toBody() against the real mock for employer, employee and employment,
// and its projection rules on a hand-made read shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient, unwrap } from '../src/index.js';
import { toBody } from '../src/body.js';
import { startMock, type RunningMock } from './mock-server.js';


describe('toBody', () => {
  it('keeps the writable fields at every depth: metadata objects become {key}, read-only and unknown fields go', () => {
    const read = {
      id: 'read-only',
      employerNumber: 12,
      companyName: 'Bakkerij De Vries B.V.',
      sbi: { key: 1071, value: 'Brood', sbiCode: '1071' },
      legalForm: null,
      address: { street: 'Dorpsstraat', houseNumber: 1, country: { key: 530, value: 'Nederland', isoCode: 'NL' }, notInTheBody: true },
      undocumented: 'x',
    };
    expect(toBody('PutEmployerByEmployerId', read as never)).toEqual({
      companyName: 'Bakkerij De Vries B.V.',
      sbi: { key: 1071 },
      legalForm: null,
      address: { street: 'Dorpsstraat', houseNumber: 1, country: { key: 530 } },
    });
    expect(toBody('PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId', [{ costCenterId: 'a', costUnitId: 'b', isLinked: true, isLocked: false } as never])).toEqual([
      { costCenterId: 'a', costUnitId: 'b', isLinked: true },
    ]);
    expect(() => toBody('GetProvidersByUser' as never, {} as never)).toThrow('toBody: GetProvidersByUser takes no JSON body');
  });
});

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

describe('GET, change a field, PUT it back (against the mock)', () => {
  // The ids are found through the lists, so the test follows the mock's seed.
  it('employer, employee and employment', async () => {
    const client = createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: 'body-token' });
    const employerId = unwrap(await client.GetEmployersByUserId())._embedded[0]!.id!;
    const employer = unwrap(await client.GetEmployerByEmployerId({ employerId })).content!;
    const employerBody = toBody('PutEmployerByEmployerId', { ...employer, companyName: `${employer.companyName ?? ''} B.V.` });
    expect(employerBody).not.toHaveProperty('id');
    expect(unwrap(await client.PutEmployerByEmployerId({ employerId }, employerBody)).content?.companyName).toBe(employerBody.companyName);

    const employeeId = unwrap(await client.GetEmployeesByEmployerId({ employerId, pageSize: 1 }))._embedded[0]!.id!;
    const employee = unwrap(await client.GetEmployeeByEmployeeId({ employeeId })).content!;
    const employeeBody = toBody('PutEmployeeByEmployeeId', { ...employee, exclusionFromAbsenceStatus: true });
    expect((await client.PutEmployeeByEmployeeId({ employeeId }, employeeBody)).response.status).toBe(200);

    const employmentId = unwrap(await client.GetEmploymentsByEmployeeId({ employeeId }))._embedded[0]!.id!;
    const employment = unwrap(await client.GetEmploymentByEmploymentId({ employmentId })).content!;
    const employmentBody = toBody('PutEmploymentByEmploymentId', { ...employment, namePayslip: 'S.M. de Vries' });
    expect(employmentBody).not.toHaveProperty('startDate');
    expect((await client.PutEmploymentByEmploymentId({ employmentId }, employmentBody)).response.status).toBe(200);
  });
});
