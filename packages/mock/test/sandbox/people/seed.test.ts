// The people seed: deterministic, realistic Dutch data that passes its checks and the schemas.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DocSchemas } from '#sandbox/domain/doc-schemas.js';
import { assertChain, chainKey } from '#sandbox/domain/employments/date-chain.js';
import { COLLECTIONS, employeeView, employmentView, SECTIONS, sectionView, type SectionRecord } from '#sandbox/domain/employments/model.js';
import { isValidCitizenServiceNumber, isValidIban } from '#sandbox/domain/employments/person.js';
import { PEOPLE_IDS, peopleSeed } from '#sandbox/seed/people.js';
import { organisationSeed } from '#sandbox/seed/organisation.js';
import { ORG_COLLECTIONS } from '#sandbox/domain/reference-data.js';

const require = createRequire(import.meta.url);
const bundle = JSON.parse(fs.readFileSync(require.resolve('@payroll-api/spec/payroll.json'), 'utf8')) as Record<string, unknown>;
const schemas = new DocSchemas({ payroll: bundle });
const seed = peopleSeed();
const employees = seed[COLLECTIONS.employees]!;
const employments = seed[COLLECTIONS.employments]!;
const records = seed[COLLECTIONS.employmentRecords]! as unknown as SectionRecord[];

/** The component schema each comprehensive section's records follow. */
const SECTION_SCHEMA: Record<string, string> = {
  workinghours: 'WorkingHours',
  wage: 'Wage',
  organizationalEntity: 'OrganizationalEntity',
  socialSecurityConfiguration: 'SocialSecurityConfiguration',
  fiscalProperties: 'FiscalProperties',
  paymentInformationSepa: 'PaymentInformationSepa',
};

describe('people seed', () => {
  it('is deterministic', () => {
    expect(JSON.stringify(peopleSeed())).toBe(JSON.stringify(seed));
  });

  it('has over 100 employees with employments across every employer, some ended, some people with several, photos for some', () => {
    expect(employees.length).toBeGreaterThan(100);
    const employers = organisationSeed()[ORG_COLLECTIONS.employers]!;
    for (const employer of employers) expect(employments.some((e) => e.employerId === employer.id)).toBe(true);
    expect(employments.some((e) => e.endDate !== null)).toBe(true);
    const perPerson = new Map<string, number>();
    for (const e of employments) perPerson.set(e.employeeId as string, (perPerson.get(e.employeeId as string) ?? 0) + 1);
    expect([...perPerson.values()].filter((n) => n > 1).length).toBeGreaterThan(5);
    expect(employments.some((e) => e.nonPayrollAdministration !== null)).toBe(true);
    expect(seed[COLLECTIONS.employeePhotos]!.length).toBeGreaterThan(5);
    expect(employees.every((p) => perPerson.has(p.id))).toBe(true);
  });

  it('passes the Dutch checks: 11-test, mod-97, postal codes, unique employee numbers per employer', () => {
    const bsns = employees.map((p) => p.citizenServiceNumber as string);
    expect(bsns.every(isValidCitizenServiceNumber)).toBe(true);
    expect(new Set(bsns).size).toBe(bsns.length);
    const ibans = records.filter((r) => r.section === 'paymentInformationSepa').map((r) => r.data.iban as string);
    expect(ibans.length).toBeGreaterThan(50);
    expect(ibans.every(isValidIban)).toBe(true);
    for (const p of employees) expect((p.address as { postalCode: string }).postalCode).toMatch(/^[1-9]\d{3} [A-Z]{2}$/);
    const numbers = employees.map((p) => `${p.employerId as string}/${p.employeeNumber as number}`);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('keeps every date chain free of overlaps, inside its employment', () => {
    const chains = new Map<string, SectionRecord[]>();
    for (const r of records) {
      if (SECTIONS[r.section]?.dated !== 'dates') continue;
      const key = `${r.employmentId}/${chainKey(r.section, r.subContext)}`;
      chains.set(key, [...(chains.get(key) ?? []), r]);
    }
    const byId = new Map(employments.map((e) => [e.id, e]));
    for (const chain of chains.values()) {
      expect(() => assertChain(chain)).not.toThrow();
      const employment = byId.get(chain[0]!.employmentId)!;
      for (const r of chain) {
        expect(r.startDate >= (employment.startDate as string)).toBe(true);
        if (employment.endDate) expect(r.endDate !== null && r.endDate <= (employment.endDate as string)).toBe(true);
      }
    }
  });

  it('holds processed payroll results for some employments and none for others', () => {
    expect(employments.some((e) => (e.processedPayrollResults as number) > 0)).toBe(true);
    expect(employments.find((e) => e.id === PEOPLE_IDS.newHireEmployment)?.processedPayrollResults).toBe(0);
    expect(employments.find((e) => e.id === PEOPLE_IDS.employment)?.processedPayrollResults).toBeGreaterThan(0);
  });

  it('validates against the schemas as the API shows it', () => {
    for (const p of employees) expect(schemas.check('payroll', 'Employee', employeeView(p, '2026-01-01')), p.id).toEqual([]);
    for (const e of employments) expect(schemas.check('payroll', 'Employment', employmentView(e)), e.id).toEqual([]);
    for (const r of records) {
      const component = SECTION_SCHEMA[r.section];
      if (component) expect(schemas.check('payroll', component, sectionView(r)), `${r.section} ${r.id}`).toEqual([]);
    }
    for (const e of employments.filter((x) => x.journalAllocation)) expect(schemas.check('payroll', 'JournalAllocation', e.journalAllocation)).toEqual([]);
  });
});
