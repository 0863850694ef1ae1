// The five-step authorization decision (contract §5.7) through HTTP against a running sandbox,
// one scenario per step and per seeded user, each refusal followed by a check that the
// sandbox is unchanged; the department manager's data scope on lists, totalSize and exports.
// Every scenario runs with the memory store and with PostgreSQL (the data scope is a filter
// each store evaluates).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { departmentMembers } from '#sandbox/authorization/decision.js';
import { MANAGED_DEPARTMENT, SEED_USERS } from '#sandbox/seed/authorization.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import type { BoundFilter } from '#sandbox/filter/tree.js';
import type { Doc, Tx } from '#sandbox/store/types.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';
import { call, EMPLOYERS, expectRefused, expectUnchanged, firstEmployeeOf, PAYROLL, reset, tokenOf } from './harness.js';

let running: RunningMock;
let url: string;

describe('with the memory store', () => {
  beforeAll(async () => {
    running = await startMock({ port: 0, mode: 'sandbox' });
    url = running.url;
  });
  afterAll(async () => {
    await running?.close();
  });
  scenarios();
});

describe('with the PostgreSQL store', () => {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
    running = await startMock({ port: 0, mode: 'sandbox', databaseUrl: await postgres.database('authorization_decision') });
    url = running.url;
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    postgres?.stop();
  });
  scenarios();
});

const EMAIL = { emailAddress: 'nieuw.adres@example.nl' };
const employeePath = (id: string) => `${PAYROLL}/employers/employees/${id}`;
const today = new Date().toISOString().slice(0, 10);

/** The seeded department's members, computed from the seed without the sandbox (a second opinion). */
async function seededMembers(): Promise<{ employments: Set<string>; employees: Set<string> }> {
  const collections = seedSnapshot().collections;
  const matches = (where: BoundFilter, doc: Doc): boolean =>
    where.kind === 'and' ? matches(where.left, doc) && matches(where.right, doc) : where.kind === 'in' && where.values.includes(where.field.path.reduce<any>((v, k) => v?.[k], doc));
  const tx = {
    get: async (c: string, id: string) => collections[c]?.find((d) => d.id === id),
    find: async (c: string, q: { where?: BoundFilter }) => {
      const rows = (collections[c] ?? []).filter((d) => !q.where || matches(q.where, d));
      return { rows, total: rows.length };
    },
  } as unknown as Tx;
  return departmentMembers(tx, MANAGED_DEPARTMENT, today);
}

/** The scenarios, run against the store of the enclosing describe. */
function scenarios(): void {
  describe('step 1: the client is linked to the activity', () => {
    const token = tokenOf(SEED_USERS.reporting);
    it('the reporting user (every right) reads through the reporting dashboard, but may not write through it', async () => {
      await reset(url, token);
      expect((await call(url, token, 'GET', employeePath(PEOPLE_IDS.employee))).status).toBe(200);
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'PATCH', `${employeePath(PEOPLE_IDS.employee)}/email`, EMAIL), 1, 'client-not-linked');
      });
    });
  });

  describe('step 2: the user has a right granting the activity', () => {
    const token = tokenOf(SEED_USERS.readOnly);
    it('the read-only user reads employees and employers, and every write is refused', async () => {
      await reset(url, token);
      expect((await call(url, token, 'GET', employeePath(PEOPLE_IDS.employee))).status).toBe(200);
      expect((await call(url, token, 'GET', `${PAYROLL}/employers/${EMPLOYERS.vanDerMeerBouwgroep}`)).status).toBe(200);
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'PUT', `${employeePath(PEOPLE_IDS.employee)}/citizenservicenumber`, { citizenServiceNumber: '111222333' }), 2, 'no-right');
        expectRefused(await call(url, token, 'PATCH', `${employeePath(PEOPLE_IDS.employee)}/email`, EMAIL), 2, 'no-right');
        expectRefused(await call(url, token, 'POST', `${PAYROLL}/employers/${EMPLOYERS.vanDerMeerBouwgroep}/conceptemployees`, { uniqueName: 'Kandidaat' }), 2, 'no-right');
      });
    });
  });

  describe('step 3: the role allows the activity, and narrows the data scope', () => {
    const token = tokenOf(SEED_USERS.departmentManager);
    const employer = EMPLOYERS.vanDerMeerBouwgroep;

    it('refuses an activity the user holds a right for but the department-manager role does not allow', async () => {
      await reset(url, token);
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'PUT', `${PAYROLL}/employers/${employer}`, { companyName: 'Andere naam B.V.' }), 3, 'role-not-allowed');
      });
    });

    it('reads and edits an employee of the department, and refuses one outside it (detail, edit)', async () => {
      const members = await seededMembers();
      expect(members.employees.has(PEOPLE_IDS.employee)).toBe(true);
      expect(members.employees.has(PEOPLE_IDS.newHireEmployee)).toBe(false);
      await reset(url, token);
      expect((await call(url, token, 'GET', employeePath(PEOPLE_IDS.employee))).status).toBe(200);
      expect((await call(url, token, 'GET', `${PAYROLL}/employers/employees/employments/${PEOPLE_IDS.employment}`)).status).toBe(200);
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'GET', employeePath(PEOPLE_IDS.newHireEmployee)), 3, 'outside-data-scope');
        expectRefused(await call(url, token, 'GET', `${PAYROLL}/employers/employees/employments/${PEOPLE_IDS.newHireEmployment}`), 3, 'outside-data-scope');
        expectRefused(await call(url, token, 'PATCH', `${employeePath(PEOPLE_IDS.newHireEmployee)}/email`, EMAIL), 3, 'outside-data-scope');
      });
      const edited = await call(url, token, 'PATCH', `${employeePath(PEOPLE_IDS.employee)}/email`, EMAIL);
      expect(edited.status, edited.text).toBe(200);
    });

    it('lists, counts and exports only the department: totalSize and csv rows alike', async () => {
      const members = await seededMembers();
      await reset(url, token);
      const all = (await call(url, 'authorization-everything', 'GET', `${PAYROLL}/employers/${employer}/employees?pageSize=250`)).json();
      const scoped = (await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees?pageSize=250`)).json();
      expect(scoped.totalSize).toBe(members.employees.size);
      expect(scoped.totalSize).toBeLessThan(all.totalSize);
      expect(new Set(scoped._embedded.map((e: { id: string }) => e.id))).toEqual(members.employees);
      const paged = (await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees?pageSize=3&pageNumber=2`)).json();
      expect(paged.totalSize).toBe(members.employees.size);
      expect(paged.totalPages).toBe(Math.ceil(members.employees.size / 3));

      const employments = (await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees/employments?pageSize=250`)).json();
      expect(employments.totalSize).toBe(members.employments.size);
      const comprehensive = (await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees/employments/comprehensive?pageSize=250`)).json();
      expect(comprehensive.totalSize).toBe(members.employments.size);

      const report = { Accept: 'text/csv', 'X-ReportInput': JSON.stringify({ fileNameWithoutExtension: 'afdeling', fields: [{ fieldName: 'employeeNumber', reportColumnName: 'Nummer' }] }) };
      const csv = await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees?pageSize=250&orderBy=employeeNumber`, undefined, report);
      expect(csv.status, csv.text).toBe(200);
      const rows = csv.text.trim().split(/\r?\n/).slice(1).map(Number);
      const expected = scoped._embedded.map((e: { employeeNumber: number }) => e.employeeNumber).sort((a: number, b: number) => a - b);
      expect(rows).toEqual(expected);
      const everyone = await call(url, 'authorization-everything', 'GET', `${PAYROLL}/employers/${employer}/employees?pageSize=250`, undefined, report);
      expect(everyone.text.trim().split(/\r?\n/).length - 1).toBe(all.totalSize);
    });

    it('narrows the employments of one employee too, and the client filter still applies within the scope', async () => {
      await reset(url, token);
      const mine = (await call(url, token, 'GET', `${employeePath(PEOPLE_IDS.employee)}/employments`)).json();
      expect(mine.totalSize).toBeGreaterThan(0);
      const filtered = (await call(url, token, 'GET', `${PAYROLL}/employers/${employer}/employees?filter=${encodeURIComponent(`id eq '${PEOPLE_IDS.newHireEmployee}'`)}`)).json();
      expect(filtered.totalSize).toBe(0);
    });
  });

  describe('step 4: the provider or employer has the module enabled for the activity', () => {
    const token = tokenOf(SEED_USERS.admin);
    it('the administrator may not create a journal profile for Zorgcentrum De Linde, which has no journal module', async () => {
      await reset(url, token);
      const body = { description: 'Journaalprofiel zorg' };
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'POST', `/journal/providers/payrolladministrations/${ORG_IDS.payrollAdministrations.deLindeMonthly}/journalProfiles`, body), 4, 'module-disabled');
      });
      const created = await call(url, token, 'POST', `/journal/providers/payrolladministrations/${ORG_IDS.payrollAdministrations.bouwgroepMonthly}/journalProfiles`, body);
      expect(created.status, created.text).toBe(201);
    });

    it('revoking self-service access needs the employee-self-service module: refused at Vastgoed until the module is enabled', async () => {
      await reset(url, token);
      const vastgoedEmployee = firstEmployeeOf(EMPLOYERS.vanDerMeerVastgoed);
      const revoke = () => call(url, token, 'PATCH', `${employeePath(vastgoedEmployee)}/revokeEmployeeSelfServiceAccess`, { revokeEmployeeSelfServiceAccessOn: '2027-03-01' });
      await expectUnchanged(url, token, async () => expectRefused(await revoke(), 4, 'module-disabled'));
      const enable = await fetch(`${url}/__sandbox/authorization/employers/${EMPLOYERS.vanDerMeerVastgoed}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ modules: ['payroll', 'hr', 'employee-self-service'] }),
      });
      expect(enable.status).toBe(200);
      expect((await revoke()).headers.get('x-sandbox-authorization')).toBeNull();
    });
  });

  describe('step 5: the user has access to the entity', () => {
    const token = tokenOf(SEED_USERS.withoutBakery);
    const bakery = EMPLOYERS.bakkerijDeKorenschoof;
    it('refuses the employer the user is not linked to, and entities of it found through the store', async () => {
      await reset(url, token);
      expect((await call(url, token, 'GET', `${PAYROLL}/employers/${EMPLOYERS.zorgcentrumDeLinde}`)).status).toBe(200);
      await expectUnchanged(url, token, async () => {
        expectRefused(await call(url, token, 'GET', `${PAYROLL}/employers/${bakery}`), 5, 'no-entity-access');
        expectRefused(await call(url, token, 'GET', employeePath(firstEmployeeOf(bakery))), 5, 'no-entity-access');
        expectRefused(await call(url, token, 'POST', `${PAYROLL}/employers/${bakery}/conceptemployees`, { uniqueName: 'Nieuwe bakker' }), 5, 'no-entity-access');
        expectRefused(await call(url, token, 'GET', `/journal/providers/payrolladministrations/journalprofiles/2de15a61-a4d8-4827-b54c-90bcc852aef6`), 5, 'no-entity-access');
      });
    });

    it('lists across employers show only the employers the user is linked to', async () => {
      const mine = (await call(url, token, 'GET', `${PAYROLL}/employers`)).json();
      const ids = mine._embedded.map((e: { id: string }) => e.id);
      expect(ids).not.toContain(bakery);
      expect(mine.totalSize).toBe(Object.keys(EMPLOYERS).length - 1);
      const administrations = (await call(url, token, 'GET', `${PAYROLL}/employers/administrations`)).json();
      expect(administrations._embedded.every((a: { id: string }) => a.id !== ORG_IDS.payrollAdministrations.bakkerijFourWeekly)).toBe(true);
      const admin = (await call(url, tokenOf(SEED_USERS.admin), 'GET', `${PAYROLL}/employers`)).json();
      expect(admin.totalSize).toBe(Object.keys(EMPLOYERS).length);
    });

    it('an id the sandbox does not know is left to the handler (404, not 403)', async () => {
      const unknown = await call(url, token, 'GET', `${PAYROLL}/employers/00000000-0000-4000-8000-000000000000`);
      expect(unknown.status).toBe(404);
    });
  });

  describe('a caller outside the model', () => {
    it('an arbitrary bearer token is a user with every right: no step applies', async () => {
      const token = 'authorization-quick-start';
      await reset(url, token);
      const created = await call(url, token, 'POST', `/journal/providers/payrolladministrations/${ORG_IDS.payrollAdministrations.deLindeMonthly}/journalProfiles`, { description: 'Zorg' });
      expect(created.status, created.text).toBe(201);
      expect((await call(url, token, 'GET', `${PAYROLL}/employers/${EMPLOYERS.bakkerijDeKorenschoof}`)).status).toBe(200);
      expect((await call(url, token, 'PATCH', `${employeePath(PEOPLE_IDS.newHireEmployee)}/email`, EMAIL)).status).toBe(200);
    });

    it('a fixed sandbox token naming no user of the model is not a valid token (401)', async () => {
      const answer = await call(url, tokenOf('nobody'), 'GET', `${PAYROLL}/employers`);
      expect(answer.status).toBe(401);
    });
  });
}
