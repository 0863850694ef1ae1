// The employee rules (contract §2.7, §4.3 Employee, §8), each by its own scenario through HTTP
// against the running sandbox; each ends by showing that a refused request changed nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { api, BASE, expectRefused, newEmployee, pathOf, type Api } from './harness.js';

let running: RunningMock;
let client: Api;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  client = api({ url: running.url, token: 'people-employees' });
});
afterAll(async () => {
  await running?.close();
});
beforeEach(async () => {
  await client.reset();
});

const employee = (id: string = PEOPLE_IDS.employee) => `${BASE}/employees/${id}`;

describe('PostEmployeeByEmployerId', () => {
  it('creates the employee, the employment and its records in one go; all appear in their lists', async () => {
    const created = await client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee());
    expect(created.status).toBe(201);
    const { employeeId, employmentId } = created.body.content;
    const person = await client.get(employee(employeeId));
    expect(person.body.content.personalDetails.formattedName).toBe('T. de Jong');
    expect(person.body.content.personalDetails.gender).toEqual({ key: 1, value: 'Man' });
    expect((await client.get(`${BASE}/employees/${employeeId}/citizenservicenumber`)).body.content.citizenServiceNumber).toBe('111222333');
    const byEmployee = await client.get(`${BASE}/employees/${employeeId}/employments`);
    expect(byEmployee.body._embedded.map((e: any) => e.id)).toEqual([employmentId]);
    expect(byEmployee.body._embedded[0].startDate).toBe('2026-02-01');
    const listed = await client.get(`${BASE}/${SEED_IDS.employer}/employees?filter=${encodeURIComponent(`id eq '${employeeId}'`)}`);
    expect(listed.body.totalSize).toBe(1);
    const comprehensive = await client.get(`${BASE}/${SEED_IDS.employer}/employees/employments/comprehensive?referenceDate=2026-03-01&filter=${encodeURIComponent(`employment.id eq '${employmentId}'`)}`);
    const line = comprehensive.body._embedded[0];
    expect(line.wage.grossWage).toBe(3150);
    expect(line.wage.payrollPeriodType).toEqual({ key: 1, value: 'Maand' });
    expect(line.workinghours.deviatingHoursPerWeek).toBe(32);
    expect(line.socialSecurityConfiguration.isInsuredForSicknessBenefitsAct).toBe(true);
  });

  it('gives the next free employee number when none is sent', async () => {
    const created = await client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee());
    const numbers = (await client.get(`${BASE}/${SEED_IDS.employer}/employees?orderBy=-employeeNumber&pageSize=2`)).body._embedded.map((e: any) => e.employeeNumber);
    expect((await client.get(employee(created.body.content.employeeId))).body.content.employeeNumber).toBe(numbers[0]);
    expect(numbers[0]).toBe(numbers[1] + 1);
  });

  it('refuses an employee number already used within the employer (employee-number-unique), creating nothing', async () => {
    const taken = (await client.get(employee())).body.content.employeeNumber;
    await expectRefused(client, () => client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ employeeNumber: taken })), 'employeeData.employeeNumber');
  });

  it('gives exactly one 201 to 32 concurrent creates with the same employee number; the others a 400 naming it', async () => {
    const answers = await Promise.all(Array.from({ length: 32 }, () => client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ employeeNumber: 4242 }))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(31);
    for (const a of refused) expect(a.body.messages[0].properties).toEqual(['employeeData.employeeNumber']);
    const listed = await client.get(`${BASE}/${SEED_IDS.employer}/employees?filter=${encodeURIComponent('employeeNumber eq 4242')}`);
    expect(listed.body.totalSize).toBe(1);
    const employments = (await client.state()).employments!.filter((e) => e.employeeId === listed.body._embedded[0].id);
    expect(employments).toHaveLength(1);
  });

  it('refuses an employee number below 1', async () => {
    await expectRefused(client, () => client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ employeeNumber: 0 })));
  });

  it('refuses a citizen service number failing the 11-test, creating nothing', async () => {
    await expectRefused(client, () => client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ bsn: '123456789' })), 'citizenServiceNumber.citizenServiceNumber');
  });

  it('refuses a metadata key the context does not offer, naming the field', async () => {
    await expectRefused(client, () => client.post(`${BASE}/${SEED_IDS.employer}/employees`, newEmployee({ gender: 99 })), 'employeeData.personalDetails.gender');
  });
});

describe('PutEmployeeByEmployeeId', () => {
  it('replaces the editable fields and computes formattedName and aowDate', async () => {
    const current = (await client.get(employee())).body.content;
    const sent = {
      ...current,
      personalDetails: { ...current.personalDetails, lastNamePartner: 'Visser', prefixPartner: '', howToFormatLastName: { key: 4 }, dateOfBirth: '1961-06-15', formattedName: 'ignored', aowDate: '2000-01-01' },
    };
    const answer = await client.put(employee(), sent);
    expect(answer.status).toBe(200);
    expect(answer.body.content.personalDetails.formattedName).toBe('A.M. Bakker-Visser');
    expect(answer.body.content.personalDetails.aowDate).toBe('2028-09-15');
    expect((await client.get(employee())).body.content.personalDetails.formattedName).toBe('A.M. Bakker-Visser');
    const employments = await client.get(`${BASE}/employees/${PEOPLE_IDS.employee}/employments`);
    expect(employments.body._embedded[0].employee.formattedName).toBe('A.M. Bakker-Visser');
  });

  it('refuses another employee number of the same employer (employee-number-unique)', async () => {
    const current = (await client.get(employee())).body.content;
    const other = (await client.get(employee(PEOPLE_IDS.newHireEmployee))).body.content.employeeNumber;
    await expectRefused(client, () => client.put(employee(), { ...current, employeeNumber: other }), 'employeeNumber');
  });

  it('refuses a metadata key that is not an option (metadata-key-not-an-option)', async () => {
    const current = (await client.get(employee())).body.content;
    await expectRefused(client, () => client.put(employee(), { ...current, personalDetails: { ...current.personalDetails, civilStatus: { key: 42 } } }), 'personalDetails.civilStatus');
  });
});

describe('citizen service number', () => {
  it('stores a valid number and refuses one failing the 11-test or of the wrong length (bsn-11-test)', async () => {
    const put = await client.put(`${employee()}/citizenservicenumber`, '999999990');
    expect(put.status).toBe(200);
    expect(put.body.content).toBe('999999990');
    expect((await client.get(`${employee()}/citizenservicenumber`)).body.content).toEqual({ citizenServiceNumber: '999999990' });
    await expectRefused(client, () => client.put(`${employee()}/citizenservicenumber`, '999999991'), 'citizenServiceNumber');
    await expectRefused(client, () => client.put(`${employee()}/citizenservicenumber`, '12345678'));
  });
});

describe('PatchEmailByEmployeeId', () => {
  const email = async () => (await client.state()).employees!.find((e) => e.id === PEOPLE_IDS.employee)!.emailAddress;

  it('sets an address, null clears it, and one off the pattern is refused (email-pattern)', async () => {
    expect((await client.patch(`${employee()}/email`, { emailAddress: 'anouk.bakker@example.nl' }, { version: '2018-12-31' })).status).toBe(200);
    expect(await email()).toBe('anouk.bakker@example.nl');
    expect((await client.patch(`${employee()}/email`, { emailAddress: null }, { version: '2018-12-31' })).status).toBe(200);
    expect(await email()).toBeNull();
    await expectRefused(client, () => client.patch(`${employee()}/email`, { emailAddress: 'anouk at example' }, { version: '2018-12-31' }), 'emailAddress');
  });
});

describe('photos', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

  const image = { headers: { Accept: 'image/png, image/jpeg' } };

  it('stores the bytes and serves them back; the version segment changes nothing; 404 when none', async () => {
    const id = PEOPLE_IDS.newHireEmployee;
    expect((await client.get(`${employee(id)}/photo`, image)).status).toBe(404);
    expect((await client.post(`${employee(id)}/photo`, { data: png, mimeType: 'image/png' })).status).toBe(201);
    const served = await client.get(`${employee(id)}/photo`, image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.raw.toString('base64')).toBe(png);
    const versioned = await client.get(`${employee(id)}/photo/0b9e3a5c-1111-4222-8333-944455556666`, image);
    expect(versioned.raw.equals(served.raw)).toBe(true);
    expect((await client.delete(`${employee(id)}/photo`)).status).toBe(200);
    expect((await client.get(`${employee(id)}/photo`, image)).status).toBe(404);
  });

  it('serves the seeded photos as png', async () => {
    const served = await client.get(`${employee(PEOPLE_IDS.employee)}/photo`, image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.raw.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('refuses data that is not base64 or not a jpeg or png, storing nothing', async () => {
    await expectRefused(client, () => client.post(`${employee(PEOPLE_IDS.newHireEmployee)}/photo`, { data: 'not base64!', mimeType: 'image/png' }), 'data');
    await expectRefused(client, () => client.post(`${employee(PEOPLE_IDS.newHireEmployee)}/photo`, { data: Buffer.from('<svg/>').toString('base64'), mimeType: 'image/svg+xml' }), 'mimeType');
  });
});

describe('PatchRevokeEmployeeSelfServiceAccessByEmployeeId', () => {
  const status = async () => (await client.get(employee(PEOPLE_IDS.selfServiceEmployee))).body.content.statusEmployeeSelfService.value;

  it('revokes access in the nightly task at its date by the sandbox clock, and clearing the date never unblocks (self-service-revocation)', async () => {
    await client.setClock('2027-01-20T12:00:00Z');
    expect(await status()).toBe('HasAccessToClient');
    await client.advanceClock(11);
    expect(await status()).toBe('Blocked');
    expect((await client.patch(pathOf('PatchRevokeEmployeeSelfServiceAccessByEmployeeId', { employeeId: PEOPLE_IDS.selfServiceEmployee }), { revokeEmployeeSelfServiceAccessOn: null })).status).toBe(200);
    const after = (await client.get(employee(PEOPLE_IDS.selfServiceEmployee))).body.content;
    expect(after.revokeEmployeeSelfServiceAccessOn).toBeNull();
    expect(after.statusEmployeeSelfService.value).toBe('Blocked');
  });

  it('sets and clears a date before it is reached, leaving access as it is; a malformed date changes nothing', async () => {
    await client.setClock('2026-12-01T08:00:00Z');
    const path = pathOf('PatchRevokeEmployeeSelfServiceAccessByEmployeeId', { employeeId: PEOPLE_IDS.selfServiceEmployee });
    expect((await client.patch(path, { revokeEmployeeSelfServiceAccessOn: '2027-06-30' })).status).toBe(200);
    expect((await client.get(employee(PEOPLE_IDS.selfServiceEmployee))).body.content.revokeEmployeeSelfServiceAccessOn).toBe('2027-06-30');
    expect((await client.patch(path, { revokeEmployeeSelfServiceAccessOn: null })).status).toBe(200);
    expect(await status()).toBe('HasAccessToClient');
    await expectRefused(client, () => client.patch(path, { revokeEmployeeSelfServiceAccessOn: '30-06-2027' }));
  });
});

describe('GetEmployeesByEmployerId', () => {
  it('lists the employer\'s employees with filter, order and paging, and exports the same rows', async () => {
    const page = await client.get(`${BASE}/${SEED_IDS.employer}/employees?orderBy=employeeNumber&pageSize=5&pageNumber=2`);
    expect(page.body._embedded).toHaveLength(5);
    const numbers = page.body._embedded.map((e: any) => e.employeeNumber);
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    const csv = await client.get(`${BASE}/${SEED_IDS.employer}/employees?orderBy=employeeNumber&pageSize=5&pageNumber=2`, {
      headers: { Accept: 'text/csv;version=2099-01-01', 'X-ReportInput': JSON.stringify({ fileNameWithoutExtension: 'medewerkers', fields: [{ fieldName: 'employeeNumber', reportColumnName: 'Nummer' }] }) },
    });
    expect(csv.status).toBe(200);
    expect(csv.body.trim().split(/\r?\n/).slice(1).map(Number)).toEqual(numbers);
  });

  it('answers 404 for an unknown employer and an unknown employee', async () => {
    expect((await client.get(`${BASE}/00000000-0000-4000-8000-000000000000/employees`)).status).toBe(404);
    expect((await client.get(employee('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });
});
