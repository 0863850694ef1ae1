// One-off answers and the entity read through the typed control client, against the running
// sandbox over HTTP: an answer given once after authorization, never to a call the caller may
// not make; entities found in the read shape the API serves.
import { describe, expect, it } from 'vitest';
import { EMPLOYER, useSandboxSession } from './sandbox-session.js';

const version = { resourceVersion: '2021-03-29', obsoleteDate: null };
const locked = { version, messages: [{ type: 'BrokenBusinessRule' as const, description: 'The employee is locked by the payroll run.', properties: ['personalDetails'] }] };

const sandbox = useSandboxSession('kit-answers');
const { token: TOKEN, payrollAs } = sandbox;

describe('one-off answers', () => {
  it('answers the next call with the status, body and headers given, changes nothing, and is refused when bad', async () => {
    const payroll = payrollAs(TOKEN);
    const [employee] = await sandbox.control.entities.employees.findMany({ orderBy: 'employeeNumber', take: 1 });
    const kept = await sandbox.control.answers.next('PutEmployeeByEmployeeId', { status: 400, body: locked, headers: { 'X-Reason': 'locked' } });
    expect(await sandbox.control.answers.list()).toEqual([kept]);
    const refused = await fetch(`${sandbox.origin}/v2/v2/providers/employers/employees/${employee!.id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json;version=2021-03-29', 'Content-Type': 'application/json;version=2021-03-29' },
      body: JSON.stringify({ personalDetails: { lastName: 'Changed' } }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('X-Reason')).toBe('locked');
    expect(await refused.json()).toEqual(locked);
    expect(await sandbox.control.answers.list()).toEqual([]);
    expect(await sandbox.control.entities.employees.findFirst({ where: { id: employee!.id } })).toEqual(employee);
    await sandbox.control.answers.next('GetEmployeesByEmployerId', { status: 200, headers: { Warning: '199 - "Deprecated"' } }, { times: 2 });
    expect((await sandbox.control.answers.list())[0]!.times).toBe(2);
    expect((await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER })).response.headers.get('Warning')).toBe('199 - "Deprecated"');
    expect((await sandbox.control.answers.clear())).toEqual([]);
    expect((await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER })).response.headers.get('Warning')).toBeNull();
    await expect(sandbox.control.answers.next('GetEmployeesByEmployerId', { status: 200, headers: { 'Content-Length': '1' } })).rejects.toMatchObject({ status: 400 });
    expect(await sandbox.control.answers.list()).toEqual([]);
    const reset = await sandbox.control.answers.next('GetEmployeesByEmployerId', { status: 503 });
    await sandbox.control.reset();
    expect(await sandbox.control.answers.list()).not.toContainEqual(reset);
  });

  it('keeps the refusal of a call the caller may not make, and does not use the answer up', async () => {
    const user = await sandbox.control.restrictedUser({ username: 'kit-answers-no-list', withoutActivities: ['GetEmployeesByEmployerId'] });
    await user.control.answers.next('GetEmployeesByEmployerId', { status: 200, headers: { Warning: '199 - "canned"' } });
    const forbidden = await payrollAs(user.token).GetEmployeesByEmployerId({ employerId: EMPLOYER });
    expect(forbidden.response.status).toBe(403);
    expect(await user.control.answers.list()).toHaveLength(1);
  });
});

describe('entity read', () => {
  it('finds entities in the read shape the API serves, by where, filter and orderBy, paged', async () => {
    const payroll = payrollAs(TOKEN);
    const page = await sandbox.control.entities.employees.find({ orderBy: '-employeeNumber', take: 3, skip: 1 });
    expect(page.entities).toHaveLength(3);
    expect(page.total).toBeGreaterThan(3);
    const first = page.entities[0]!;
    const served = await payroll.GetEmployeeByEmployeeId({ employeeId: first.id! });
    expect(first).toEqual(served.data?.content);
    const byName = await sandbox.control.entities.employees.findMany({ where: { personalDetails: { lastName: first.personalDetails!.lastName } }, filter: `employeeNumber eq ${first.employeeNumber}` });
    expect(byName).toEqual([first]);
    await expect(sandbox.control.entities.employees.find({ where: { companyName: 'x' } as never })).rejects.toMatchObject({ status: 400 });
  });
});
