// One-off answers (a status, body and headers for the next calls of an activity, after
// authorization, changing nothing) and the entity read (a sandbox's entities in their read
// shape, found by where/filter/orderBy without the API's paths), in process.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, SandboxControlError, type Sandbox } from '../src/index.js';
import { MemoryStore } from '../src/store/memory.js';
import type { Store } from '../src/store/types.js';
import { call, EMPLOYEES, ORIGIN, PAYROLL_ACCEPT } from './support.js';

const EMPLOYEE = (id: string) => `${ORIGIN}/v2/v2/providers/employers/employees/${id}`;
const refusal = { version: { resourceVersion: '2021-03-29', obsoleteDate: null }, messages: [{ type: 'BrokenBusinessRule' as const, description: 'The employee is locked by the payroll run.', code: 400, properties: ['personalDetails'] }] };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

async function someEmployee(token: string): Promise<{ id: string; personalDetails: { lastName: string } }> {
  const list = await (await call(sandbox, token, `${EMPLOYEES}?pageSize=1&orderBy=employeeNumber`)).json();
  return list._embedded[0];
}
const put = (token: string, id: string, body: unknown = {}) => call(sandbox, token, EMPLOYEE(id), { method: 'PUT', body: JSON.stringify(body) });

describe('one-off answers', () => {
  it('answers the next call of the activity with the status, body and headers given, and changes nothing', async () => {
    const employee = await someEmployee('ans');
    const before = await (await call(sandbox, 'ans', EMPLOYEE(employee.id))).json();
    const kept = await sandbox.answers.next('PutEmployeeByEmployeeId', { status: 400, body: refusal, headers: { 'X-Reason': 'locked' } }, { token: 'ans' });
    expect(kept).toMatchObject({ id: expect.stringMatching(/^answer-/), operation: 'PutEmployeeByEmployeeId', status: 400 });
    // The body sent does not matter: the answer replaces validation and the handler.
    const answered = await put('ans', employee.id, { personalDetails: { lastName: 'Changed' } });
    expect(answered.status).toBe(400);
    expect(answered.headers.get('x-reason')).toBe('locked');
    expect(answered.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answered.headers.get('x-request-id')).toBeTruthy();
    expect(await answered.json()).toEqual(refusal);
    expect(await (await call(sandbox, 'ans', EMPLOYEE(employee.id))).json()).toEqual(before);
    expect(await sandbox.answers.list({ token: 'ans' })).toEqual([]);
    // Given once: the next call is handled as without the answer (the employee as read, written back).
    const handled = await put('ans', employee.id, before.content);
    expect(handled.status).toBe(200);
    expect((await handled.json()).content.id).toBe(employee.id);
  });

  it('answers the next N calls of a read, with a Warning, then the real answer', async () => {
    await sandbox.answers.next('GetEmployeesByEmployerId', { status: 200, headers: { Warning: '199 - "Deprecated field"' }, body: { version: { resourceVersion: '2021-03-29', obsoleteDate: null }, messages: [], _embedded: [], currentPage: 1, pageSize: 25, totalPages: 0, totalSize: 0, _links: {} } as never }, { token: 'warn', times: 2 });
    expect(await sandbox.answers.list({ token: 'warn' })).toEqual([expect.objectContaining({ times: 2 })]);
    for (let i = 0; i < 2; i++) {
      const res = await call(sandbox, 'warn', EMPLOYEES);
      expect(res.headers.get('warning')).toBe('199 - "Deprecated field"');
      expect((await res.json())._embedded).toEqual([]);
    }
    const real = await call(sandbox, 'warn', EMPLOYEES);
    expect(real.headers.get('warning')).toBeNull();
    expect((await real.json())._embedded.length).toBeGreaterThan(0);
  });

  it('keeps answers per sandbox: another token is answered normally, and a reset clears them', async () => {
    await sandbox.answers.next('GetEmployeesByEmployerId', { status: 503 }, { token: 'one' });
    expect((await call(sandbox, 'other', EMPLOYEES)).status).toBe(200);
    await sandbox.reset({ token: 'one' });
    expect(await sandbox.answers.list({ token: 'one' })).toEqual([]);
    expect((await call(sandbox, 'one', EMPLOYEES)).status).toBe(200);
  });

  it('is carried by a snapshot', async () => {
    await sandbox.answers.next('GetEmployeesByEmployerId', { status: 404 }, { token: 'snap' });
    await sandbox.restore(await sandbox.snapshot({ token: 'snap' }), { token: 'copy' });
    expect((await call(sandbox, 'copy', EMPLOYEES)).status).toBe(404);
  });

  it('is not given to a call that authentication refuses', async () => {
    await sandbox.answers.next('GetEmployeesByEmployerId', { status: 200 }, { token: 'auth' });
    expect((await sandbox.fetch(EMPLOYEES, { headers: { accept: PAYROLL_ACCEPT } })).status).toBe(401);
    expect(await sandbox.answers.list({ token: 'auth' })).toHaveLength(1);
  });

  it('is counted across instances on one store', async () => {
    let shared: Store | undefined;
    const options = { store: async (o: ConstructorParameters<typeof MemoryStore>[0]) => (shared ??= new MemoryStore(o)) };
    const [a, b] = [await createSandbox(options), await createSandbox(options)];
    await a.answers.next('GetEmployeesByEmployerId', { status: 503 }, { token: 'many', times: 1 });
    expect(await b.answers.list({ token: 'many' })).toHaveLength(1);
    expect((await call(b, 'many', EMPLOYEES)).status).toBe(503);
    expect((await call(a, 'many', EMPLOYEES)).status).toBe(200);
  });

  it('refuses a bad answer with a 400 naming its field, and keeps nothing', async () => {
    const refused = async (answer: object) => {
      const error = await sandbox.answers.next('GetEmployeesByEmployerId', answer as never, { token: 'bad' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxControlError);
      return ((error as SandboxControlError).body as { messages: Array<{ description: string; properties: string[] }> }).messages[0]!;
    };
    expect((await refused({ status: 200, headers: { 'Content-Length': '3' } })).properties).toEqual(['answers[0].headers.Content-Length']);
    expect((await refused({ status: 200, headers: { 'X-Request-Id': 'mine' } })).description).toMatch(/set by the sandbox/);
    expect((await refused({ status: 200, headers: { Warning: 'a\r\nSet-Cookie: x' } })).description).toMatch(/one line/);
    expect((await refused({ status: 700 })).properties[0]).toMatch(/status/);
    expect((await refused({ status: 204, body: {} })).description).toMatch(/no body/);
    expect((await refused({ status: 200, body: 'x'.repeat(70_000) })).description).toMatch(/at most/);
    const unknown = await sandbox.answers.next('NoSuchActivity' as 'GetEmployeesByEmployerId', { status: 200 }, { token: 'bad' }).catch((e: unknown) => e);
    expect((unknown as SandboxControlError).status).toBe(400);
    expect(await sandbox.answers.list({ token: 'bad' })).toEqual([]);
  });
});

describe('entity read', () => {
  it('finds employees in the read shape the API serves, by where', async () => {
    const employee = await someEmployee('ent');
    const served = (await (await call(sandbox, 'ent', EMPLOYEE(employee.id))).json()).content;
    const found = await sandbox.entities.employees.findMany({ where: { personalDetails: { lastName: employee.personalDetails.lastName } } }, { token: 'ent' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.find((e) => e.id === employee.id)).toEqual(served);
    expect(found.every((e) => e.personalDetails.lastName === employee.personalDetails.lastName)).toBe(true);
    expect(found[0]).not.toHaveProperty('employerId');
  });

  it('filters and orders in the API syntax, pages with take and skip, and counts every match', async () => {
    const all = await sandbox.entities.employees.find({ orderBy: '-employeeNumber', take: 1000 });
    const numbers = all.entities.map((e) => e.employeeNumber!);
    expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
    const page = await sandbox.entities.employees.find({ filter: `employeeNumber ge ${numbers[4]}`, orderBy: 'employeeNumber', take: 2, skip: 1 });
    expect(page.total).toBe(5);
    expect(page.entities.map((e) => e.employeeNumber)).toEqual([numbers[3], numbers[2]]);
    expect(await sandbox.entities.employees.findFirst({ where: { personalDetails: { lastName: 'No-such-name' } } })).toBeUndefined();
  });

  it('reads each kind of a shared collection apart, and changes with the state', async () => {
    const levels = await Promise.all([sandbox.entities.providerJournalProfiles.find(), sandbox.entities.journalProfiles.find(), sandbox.entities.administrationJournalProfiles.find()]);
    const ids = levels.flatMap((l) => l.entities.map((p) => p.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(levels.every((l) => l.total > 0)).toBe(true);
    const before = (await sandbox.entities.employers.find({}, { token: 'grow' })).total;
    await sandbox.scenario({ entities: { employers: [{ companyName: 'Bakkerij Zon' }] } }, { token: 'grow', mode: 'merge' });
    expect((await sandbox.entities.employers.findFirst({ where: { companyName: 'bakkerij zon' } }, { token: 'grow' }))?.companyName).toBe('Bakkerij Zon');
    expect((await sandbox.entities.employers.find({}, { token: 'grow' })).total).toBe(before + 1);
  });

  it('refuses an unknown field, an array, a bad filter and a take out of bounds with a 400 naming it', async () => {
    const property = async (query: object) => {
      const error = await sandbox.entities.employees.find(query as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxControlError);
      expect((error as SandboxControlError).status).toBe(400);
      return ((error as SandboxControlError).body as { messages: Array<{ properties: string[] }> }).messages[0]!.properties[0];
    };
    expect(await property({ where: { companyName: 'x' } })).toBe('where');
    expect(await property({ where: { personalDetails: [1] } })).toBe('where');
    expect(await property({ filter: 'employeeNumber eq' })).toBe('filter');
    expect(await property({ orderBy: 'nope' })).toBe('orderBy');
    expect(await property({ take: 5000 })).toBe('take');
  });
});
