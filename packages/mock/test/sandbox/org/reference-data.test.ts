// The reference data against the description: every metadata field of the request bodies the
// forms stand for is in its form (so the metadata endpoints list it and the key check covers
// it), with options whose keys have the type the schema gives the field's key; the seed's
// organisation entities validate against their schemas; the rules the seed's numbers follow.
import { deref } from '@payroll-api/openapi-bundle';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '#sandbox/domain/context.js';
import { currentOrLastKnown, expandedShape, payrollPeriodOn } from '#sandbox/resources/metadata.js';
import { ORG_IDS, organisationSeed, rsin } from '#sandbox/seed/organisation.js';
import { checkMetadataKeys, FORMS, LISTED_BY, optionsOf, seedUuid, type MetadataForm, type MetadataScope } from '#sandbox/domain/reference-data.js';
import { componentValidator } from '../../support/bundle-schemas.js';
import { bundle } from './harness.js';

type Json = Record<string, any>;

const resolve = (schema: Json): Json => deref(bundle, schema);

/** The key type of a metadata schema ('uuid' or 'integer'), or null when the schema is no metadata object. */
function metadataKey(schema: Json): 'uuid' | 'integer' | null {
  const s = resolve(schema);
  const props = s.properties as Json | undefined;
  if (props?.key && props.value && resolve(props.value).readOnly) return resolve(props.key).format === 'uuid' ? 'uuid' : 'integer';
  for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
    const key = resolve(part).type === 'null' ? null : metadataKey(part);
    if (key) return key;
  }
  return null;
}

/** Every writable metadata field of a schema, by dotted path, with its key type. */
function metadataFieldsOf(schema: Json, path: string[] = [], out = new Map<string, string>(), depth = 0): Map<string, string> {
  if (depth > 10) return out;
  const key = metadataKey(schema);
  if (key) return out.set(path.join('.'), key);
  const s = resolve(schema);
  for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) metadataFieldsOf(part, path, out, depth + 1);
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Json)) {
    if (resolve(prop).readOnly || prop.readOnly) continue;
    metadataFieldsOf(prop, [...path, name], out, depth + 1);
  }
  return out;
}

const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Which schema each form stands for. */
const FORM_SCHEMAS: Record<string, Json[]> = {
  employer: [component('Employer')],
  employee: [component('Employee')],
  employment: [component('EmploymentUpdate'), component('EmploymentTermination'), component('EmploymentCategoryTypeUpdate')],
  wage: [component('Wage')],
  newEmployee: [component('NewEmployee')],
  conceptEmployee: [component('ConceptEmployee')],
  conceptEmployeeMinimized: [component('ConceptEmployeeMinimized')],
};

const scopeOf = (employerId: string, administrationId: string): MetadataScope => {
  const seed = organisationSeed();
  const employer = seed.employers!.find((e) => e.id === employerId)!;
  const administrations = seed.administrations!.filter((a) => a.employerId === employerId);
  return { employer, administration: administrations.find((a) => a.id === administrationId) ?? null, administrations };
};

describe('reference data', () => {
  it.each(Object.entries(FORM_SCHEMAS))('form %s holds every metadata field of its schema, with keys of the schema type', (name, schemas) => {
    const fields = new Map<string, string>();
    for (const schema of schemas) for (const [path, key] of metadataFieldsOf(schema)) fields.set(path, key);
    const form = FORMS[name as keyof typeof FORMS] as MetadataForm;
    expect(Object.keys(form).sort()).toEqual([...fields.keys()].sort());
    const scope = scopeOf(ORG_IDS.employers.bakkerijDeKorenschoof, ORG_IDS.payrollAdministrations.bakkerijFourWeekly);
    for (const [path, key] of fields) {
      const options = optionsOf(form[path]!, scope);
      expect(options.length, `${name}: ${path} has options`).toBeGreaterThan(0);
      for (const option of options) expect(typeof option.key, `${name}: ${path} keys`).toBe(key === 'uuid' ? 'string' : 'number');
    }
  });

  it('checks keys and completes metadata objects with the option read shape', () => {
    const scope = scopeOf(ORG_IDS.employers.bakkerijDeKorenschoof, ORG_IDS.payrollAdministrations.bakkerijFourWeekly);
    const body = { employeeData: { address: { country: { key: 2 } } }, organizationalEntityData: null };
    expect(checkMetadataKeys(FORMS.conceptEmployee, scope, body, LISTED_BY.conceptEmployee)).toEqual({ employeeData: { address: { country: { key: 2, value: 'België', isoCode: 'BE' } } }, organizationalEntityData: null });
    expect(body.employeeData.address.country).toEqual({ key: 2 });
    try {
      checkMetadataKeys(FORMS.conceptEmployee, scope, { employeeData: { address: { country: { key: 0 } } }, wageData: { payScale: { key: seedUuid('nope') } } }, LISTED_BY.conceptEmployee, 'x');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).messages.map((m) => m.properties)).toEqual([['x.employeeData.address.country'], ['x.wageData.payScale']]);
      // Each refusal names where the keys it may have are listed.
      for (const m of (error as SandboxError).messages) expect(m.description).toContain(LISTED_BY.conceptEmployee!);
    }
  });

  it('gives each employer its own department keys', () => {
    const bakery = optionsOf('department', scopeOf(ORG_IDS.employers.bakkerijDeKorenschoof, ''));
    const care = optionsOf('department', scopeOf(ORG_IDS.employers.zorgcentrumDeLinde, ''));
    expect(bakery.some((o) => care.some((c) => c.key === o.key))).toBe(false);
  });
});

describe('seed', () => {
  const seed = organisationSeed();

  it.each([
    ['employers', 'Employer'],
    ['administrations', 'Administration'],
    ['providerLogos', 'ProviderLogo'],
    ['employerLogos', 'EmployerLogo'],
    ['conceptEmployees', 'ConceptEmployee'],
    ['providers', 'ProviderContactInformation'],
  ])('%s validate against %s', (collection, schema) => {
    const validate = componentValidator('payroll', schema);
    for (const doc of seed[collection]!) {
      // A running administration is stored with endDate null and answered without it.
      const shown = collection === 'administrations' && doc.endDate === null ? { ...doc, endDate: undefined } : doc;
      expect(validate(JSON.parse(JSON.stringify(shown))) ? [] : validate.errors, `${collection} ${doc.id}`).toEqual([]);
    }
  });

  it('is deterministic', () => {
    expect(organisationSeed()).toEqual(seed);
  });

  it('uses Dutch numbers that pass their checks', () => {
    for (const admin of seed.administrations!) {
      const digits = String(admin.wageTaxNumber).slice(0, 9);
      const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (i === 8 ? -1 : 9 - i), 0);
      expect(sum % 11, String(admin.wageTaxNumber)).toBe(0);
      expect(admin.wageTaxNumber).toMatch(/^\d{9}L\d{2}$/);
    }
    for (const employer of seed.employers!) expect((employer.address as Json).postalCode).toMatch(/^\d{4} [A-Z]{2}$/);
    expect(rsin('81234567')).toHaveLength(9);
  });
});

describe('dated defaults and periods', () => {
  const records = [
    { startDate: '2024-01-01', endDate: '2024-12-31', v: 1 },
    { startDate: '2025-01-01', endDate: '2025-06-30', v: 2 },
  ];
  it('takes the record valid on the date, else the last known one, else none', () => {
    expect(currentOrLastKnown(records, '2024-05-01')?.v).toBe(1);
    expect(currentOrLastKnown(records, '2025-06-30')?.v).toBe(2);
    expect(currentOrLastKnown(records, '2027-01-01')?.v).toBe(2);
    expect(currentOrLastKnown(records, '2023-12-31')).toBeUndefined();
  });

  it('numbers payroll periods by month, four weeks (13th runs to 31 December) and week', () => {
    expect(payrollPeriodOn('2026-02-14', 1)).toEqual({ year: 2026, periodNumber: 2, periodStartDate: '2026-02-01', periodEndDate: '2026-02-28' });
    expect(payrollPeriodOn('2026-01-29', 2)).toEqual({ year: 2026, periodNumber: 2, periodStartDate: '2026-01-29', periodEndDate: '2026-02-25' });
    expect(payrollPeriodOn('2026-12-31', 2)).toEqual({ year: 2026, periodNumber: 13, periodStartDate: '2026-12-03', periodEndDate: '2026-12-31' });
    expect(payrollPeriodOn('2026-01-08', 3)).toMatchObject({ periodNumber: 2, periodStartDate: '2026-01-08', periodEndDate: '2026-01-14' });
    expect(payrollPeriodOn('2026-01-08', null)).toBeNull();
  });

  it('expands a shape with null, metadata objects null as a whole', () => {
    const shape = expandedShape(bundle, component('Employer')) as Json;
    expect(shape).toMatchObject({ id: null, companyName: null, sbi: null, address: { street: null, country: null, province: null }, deviatingPostalAddress: { poBox: null } });
  });
});
