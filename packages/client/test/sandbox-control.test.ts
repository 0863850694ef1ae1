// The typed control client against the running sandbox: reset, snapshots, the clock, the
// authorization model, and a restricted user made and used in one call each.
import { describe, expect, it } from 'vitest';
import type { ApiError, Message } from '../src/index.js';
import { isApiError } from '../src/forms.js';
import { createSandboxControl } from '../src/sandbox.js';
import { EMPLOYER, useSandboxSession } from './sandbox-session.js';

const EMPLOYMENT = '520dbfbe-cca4-5b8e-b67b-1fdfecca8a34';

const sandbox = useSandboxSession('kit-control');
const { token: TOKEN, payrollAs } = sandbox;

const refusalOf = (response: Response) => response.headers.get('X-Sandbox-Authorization');

describe('state and clock', () => {
  it('lists the seeded ids to start from, the wage models the API lists nowhere among them', async () => {
    const entities = await sandbox.control.seededIds();
    expect(entities.filter((entity) => entity.kind === 'wageModel').map((entity) => entity.sampleName)).toContain('wageModel');
    expect(entities.find((entity) => entity.kind === 'employer' && entity.sampleName === 'employer')?.id).toBe(EMPLOYER);
  });

  it('exports a snapshot, imports it back after a change, and resets to the seed', async () => {
    const snapshot = await sandbox.control.exportSnapshot();
    expect(snapshot.format).toBe('payroll-sandbox/1');
    const employees = 'employees';
    expect(Object.keys(snapshot.collections)).toContain(employees);
    const count = snapshot.collections[employees]!.length;
    const imported = await sandbox.control.importSnapshot({ ...snapshot, collections: { ...snapshot.collections, [employees]: snapshot.collections[employees]!.slice(1) } });
    expect(imported.imported[employees]).toBe(count - 1);
    expect((await sandbox.control.exportSnapshot()).collections[employees]).toHaveLength(count - 1);
    expect((await sandbox.control.sandboxes()).some((sandbox) => sandbox.materialized)).toBe(true);
    expect((await sandbox.control.reset()).reset).toBe(true);
    expect((await sandbox.control.exportSnapshot()).collections[employees]).toHaveLength(count);
  });

  it('refuses a bad snapshot with an ApiError naming the problem, changing nothing', async () => {
    // A collection the types do not know, as an untyped caller may send it.
    const error = await sandbox.control.importSnapshot({ format: 'payroll-sandbox/1', collections: { noSuchCollection: [{ id: 'x' }] } as never }).catch((e: unknown) => e);
    expect(isApiError(error, 400)).toBe(true);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).messages[0]?.description).toMatch(/noSuchCollection/);
  });

  it('imports a partial snapshot: merge merges its docs by id and keeps the rest, replace (the default) empties what it leaves out', async () => {
    const snapshot = await sandbox.control.exportSnapshot();
    const employees = snapshot.collections.employees!;
    const renamed = { ...employees[0]!, emailAddress: 'merged@example.nl' };
    const merged = await sandbox.control.importSnapshot({ format: 'payroll-sandbox/1', collections: { employees: [renamed] } }, { mode: 'merge' });
    expect(merged).toMatchObject({ mode: 'merge', imported: { employees: 1 } });
    const after = await sandbox.control.exportSnapshot();
    expect(after.collections.employees).toEqual([renamed, ...employees.slice(1)]);
    expect(after.collections.employers).toEqual(snapshot.collections.employers);
    await sandbox.control.importSnapshot({ format: 'payroll-sandbox/1', collections: { employees: employees.slice(0, 2) } });
    expect((await sandbox.control.exportSnapshot()).collections.employers ?? []).toEqual([]);
    await expect(sandbox.control.importSnapshot(snapshot, { mode: 'sideways' as never })).rejects.toMatchObject({ status: 400, messages: [expect.objectContaining({ properties: ['mode'] })] });
    await sandbox.control.reset();
  });

  it('loads a scenario in one call, and the API answers its entities; a bad one names every problem and changes nothing', async () => {
    const loaded = await sandbox.control.scenario({
      start: 'empty',
      entities: {
        employers: [{ ref: 'bakery', companyName: 'Bakkerij Het Anker B.V.' }],
        employees: [{ ref: 'anna', employerRef: 'bakery', personalDetails: { lastName: 'Visser' } }, { ref: 'cor', employerRef: 'bakery' }],
        employments: [{ employeeRef: 'anna' }, { employeeRef: 'cor', startDate: '2019-05-01', endDate: '2026-06-30' }],
      },
    });
    expect(loaded.added.employees).toEqual([loaded.refs.anna, loaded.refs.cor]);
    const payroll = payrollAs(TOKEN);
    const listed = await payroll.GetEmployeesByEmployerId({ employerId: loaded.refs.bakery! });
    expect(listed.data!._embedded!.map((e) => e.personalDetails?.lastName)).toContain('Visser');
    const ended = await payroll.GetEmploymentsByEmployeeId({ employeeId: loaded.refs.cor! });
    expect(ended.data!._embedded![0]).toMatchObject({ endDate: '2026-06-30', endOfEmploymentDueToIllness: false });
    const before = await sandbox.control.exportSnapshot();
    const refused = await sandbox.control.scenario({ start: 'seed', entities: { employees: [{ employerRef: 'nobody' }, { employerId: EMPLOYER, employeeNumber: 1001 }] } }).catch((e: unknown) => e);
    expect(isApiError(refused, 400)).toBe(true);
    expect((refused as ApiError).messages.map((m) => m.properties?.[0])).toEqual(['entities.employees[0].employerRef', 'entities.employees[1].employeeNumber']);
    expect(await sandbox.control.exportSnapshot()).toEqual(before);
    // Merged into the state built so far: one more employee, the others kept.
    const more = await sandbox.control.scenario({ entities: { employees: [{ ref: 'dirk', employerId: loaded.refs.bakery, personalDetails: { lastName: 'Dekker' } }] } }, { mode: 'merge' });
    const all = await payroll.GetEmployeesByEmployerId({ employerId: loaded.refs.bakery! });
    expect(all.data!._embedded!.map((e) => e.id).sort()).toEqual([loaded.refs.anna, loaded.refs.cor, more.refs.dirk].sort());
    await sandbox.control.reset();
  });

  it('sets, advances and resets the clock', async () => {
    expect((await sandbox.control.clock.set('2030-01-31')).today).toBe('2030-01-31');
    expect((await sandbox.control.clock.advance({ days: 1, hours: 2 })).now).toMatch(/^2030-02-01T02:00:/);
    expect((await sandbox.control.clock.get()).today).toBe('2030-02-01');
    expect((await sandbox.control.clock.set(null)).offsetMs).toBe(0);
    await expect(sandbox.control.clock.advance({ weeks: 1 } as never)).rejects.toMatchObject({ status: 400 });
  });
});

describe('settings', () => {
  it('sets unknownFields: warn gives a Warning on the success answer, reject a 400 naming the field', async () => {
    expect(await sandbox.control.settings.get()).toEqual({ unknownFields: 'ignore' });
    const payroll = payrollAs(TOKEN);
    const employeeId = (await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 1 })).data!._embedded![0]!.id!;
    const send = () => payroll.PatchEmailByEmployeeId({ employeeId }, { emailAddress: 'kit@example.nl', ...({ nickname: 'Kit' } as object) });
    expect((await sandbox.control.settings.set({ unknownFields: 'warn' })).unknownFields).toBe('warn');
    const warned = await send();
    expect(warned.response.status).toBe(200);
    expect(warned.data!.messages).toEqual([expect.objectContaining({ type: 'Warning', properties: ['nickname'] })]);
    await sandbox.control.settings.set({ unknownFields: 'reject' });
    const refused = await send();
    expect(refused.response.status).toBe(400);
    expect((refused.error as { messages: Message[] }).messages[0]!.properties).toEqual(['nickname']);
    await expect(sandbox.control.settings.set({ unknownFields: 'loud' as never })).rejects.toMatchObject({ status: 400 });
    await sandbox.control.reset();
    expect((await sandbox.control.settings.get()).unknownFields).toBe('ignore');
  });
});

describe('faults', () => {
  it('adds, lists, removes and clears fault rules; a faulted call fails as asked and a bad rule is refused by name', async () => {
    const payroll = payrollAs(TOKEN);
    const added = await sandbox.control.faults.add([{ operations: ['GetEmployeesByEmployerId'], status: 503, retryAfterSeconds: 2, times: 1 }, { operations: ['*'], delayMs: 1 }]);
    expect(added.map((rule) => rule.operations)).toEqual([['GetEmployeesByEmployerId'], ['*']]);
    const failed = await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 1 });
    expect(failed.response.status).toBe(503);
    expect(failed.response.headers.get('Retry-After')).toBe('2');
    expect((await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 1 })).response.status).toBe(200);
    const left = await sandbox.control.faults.list();
    expect(left).toHaveLength(1);
    expect(await sandbox.control.faults.remove(left[0]!.id!)).toEqual([]);
    await sandbox.control.faults.replace([{ operations: ['GetEmployeesByEmployerId'], status: 500 }]);
    expect(await sandbox.control.faults.clear()).toEqual([]);
    // An activity the types do not know, as an untyped caller may send it.
    const refused = sandbox.control.faults.add([{ operations: ['NoSuchActivity' as never], status: 503 }]);
    await expect(refused).rejects.toMatchObject({ status: 400 });
    expect(await sandbox.control.faults.list()).toEqual([]);
  });
});

describe('the authorization model', () => {
  it('reads, edits one entry and resets the model', async () => {
    const model = await sandbox.control.authorization.get();
    expect(Object.keys(model.users)).toContain('read-only');
    const role = await sandbox.control.authorization.putEntry('roles', 'auditor', { name: 'Auditor', rights: ['employees-read'], dataScope: 'all' });
    expect(role.dataScope).toBe('all');
    expect((await sandbox.control.authorization.list('roles')).auditor?.name).toBe('Auditor');
    expect((await sandbox.control.authorization.entry('roles', 'auditor')).rights).toEqual(['employees-read']);
    expect((await sandbox.control.authorization.deleteEntry('roles', 'auditor')).deleted).toBe('auditor');
    await expect(sandbox.control.authorization.entry('roles', 'auditor')).rejects.toMatchObject({ status: 404 });
    await expect(sandbox.control.authorization.putEntry('users', 'nobody', { name: 'N', password: 'x', client: 'payroll-integration', role: 'no-such-role', rights: [], employers: 'all', department: null })).rejects.toMatchObject({
      status: 400,
      messages: [expect.objectContaining({ properties: ['users.nobody.role'] })],
    });
    expect(Object.keys((await sandbox.control.authorization.reset()).roles)).not.toContain('auditor');
  });
});

describe('restrictedUser: a restricted user and its token in one call', () => {
  it('a missing right: the activity is refused at step 2, the others are allowed', async () => {
    const user = await sandbox.control.restrictedUser({ username: 'kit-no-email', withoutActivities: ['PatchEmailByEmployeeId'] });
    expect(user.token).toBe('sandbox-user-kit-no-email');
    const payroll = payrollAs(user.token);
    const employees = await payroll.GetEmployeesByEmployerId({ employerId: EMPLOYER, pageSize: 1 });
    expect(employees.response.status).toBe(200);
    const employeeId = employees.data!._embedded![0]!.id!;
    const refused = await payroll.PatchEmailByEmployeeId({ employeeId }, { emailAddress: 'kit@example.nl' });
    expect(refused.response.status).toBe(403);
    expect(refusalOf(refused.response)).toBe('step=2; reason=no-right');
  });

  it('a role with a department data scope sees only that department', async () => {
    const everyone = (await payrollAs(`kit-all-${Date.now()}`).GetEmployeesByEmployerId({ employerId: EMPLOYER })).data!.totalSize!;
    const user = await sandbox.control.restrictedUser({ username: 'kit-department', department: { employerId: EMPLOYER, code: 20 } });
    const scoped = await payrollAs(user.token).GetEmployeesByEmployerId({ employerId: EMPLOYER });
    expect(scoped.response.status).toBe(200);
    expect(scoped.data!.totalSize).toBeGreaterThan(0);
    expect(scoped.data!.totalSize).toBeLessThan(everyone);
  });

  it('a missing module: its activities are refused at step 4', async () => {
    const user = await sandbox.control.restrictedUser({ username: 'kit-no-payroll', withoutModules: ['payroll'] });
    const refused = await payrollAs(user.token).GetPayrollPeriodDataDefaultsByEmploymentId({ employmentId: EMPLOYMENT });
    expect(refused.response.status).toBe(403);
    expect(refusalOf(refused.response)).toBe('step=4; reason=module-disabled');
    expect((await user.control.authorization.entry('users', 'kit-no-payroll')).role).toBe('kit-no-payroll-role');
  });

  it('copies the caller state into the user sandbox when asked', async () => {
    const own = createSandboxControl({ baseUrl: sandbox.origin, token: `kit-copy-${Date.now()}` });
    await own.clock.set('2031-05-01');
    const user = await own.restrictedUser({ username: 'kit-copy', copyState: true });
    expect((await user.control.clock.get()).today).toBe('2031-05-01');
  });

  it('refuses a bad username or an unknown activity before sending anything', async () => {
    await expect(sandbox.control.restrictedUser({ username: 'Not Valid' })).rejects.toThrow(/username must be/);
    await expect(sandbox.control.restrictedUser({ username: 'kit-x', withoutActivities: ['NoSuchActivity' as never] })).rejects.toThrow(/NoSuchActivity is not an activity/);
    expect(() => createSandboxControl({ baseUrl: 'localhost:4010', token: 't' })).toThrow(/absolute/);
    expect(() => createSandboxControl({ baseUrl: sandbox.origin, token: 'a.b.c' })).toThrow(/bearer token/);
  });
});

describe('the description says what the sandbox serves', () => {
  it('answers every served path and 404 on every path marked x-sandbox-status: planned', async () => {
    const { default: doc } = await import('@payroll-api/spec/sandbox-control.json', { with: { type: 'json' } });
    const ids: Record<string, string> = { users: 'read-only', clients: 'payroll-integration', rights: 'employees-read', roles: 'payroll-officer', modules: 'payroll', employers: EMPLOYER };
    const token = `kit-served-${Date.now()}`;
    for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const path = template.replace(/\/(\w+)\/\{id\}$/, (_m, part: string) => `/${part}/${ids[part] ?? '1b6f7c2a-3d4e-4f5a-8b9c-0d1e2f3a4b5c'}`).replace('{list}', 'employees');
      const method = ['get', 'post', 'put', 'delete'].find((m) => m in item)!;
      const response = await fetch(`${sandbox.origin}${path}`, { method: method === 'get' ? 'GET' : 'OPTIONS', headers: { Authorization: `Bearer ${token}` } });
      if (item['x-sandbox-status'] === 'planned') expect(response.status, `${template} is planned`).toBe(404);
      else expect(response.status, `${template} is served`).not.toBe(404);
    }
  });
});
