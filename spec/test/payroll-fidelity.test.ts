// Facts of the Payroll and HR API contract that the description once stated otherwise: each
// test names the contract's words it holds the description to.
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf } from './support/bundles.js';

const doc = loadBundle('payroll');
const schemas = doc.components!.schemas!;
const operations = operationsOf(doc);
const byId = new Map(operations.map((o) => [o.operation.operationId, o]));

/** The schema at a dotted property path below a component, through $ref, allOf and the nullable oneOf. */
function propertyAt(component: string, dotted: string): any {
  let node: any = schemas[component];
  for (const name of dotted.split('.')) node = findProperty(node, name);
  return node;
}

function findProperty(schema: any, name: string, seen = new Set<any>()): any {
  const node = deref(doc, schema);
  if (!node || seen.has(node)) return undefined;
  seen.add(node);
  if (node.properties?.[name]) return node.properties[name];
  for (const part of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) {
    const found = findProperty(part, name, seen);
    if (found) return found;
  }
  return undefined;
}

/** The type of a metadata field's key (through the nullable oneOf and allOf narrowing). */
function keyOf(field: any): { type: unknown; format: unknown } {
  const key = findProperty(field, 'key');
  const resolved = deref(doc, key);
  return { type: resolved.type, format: resolved.format };
}

describe('payroll description against the contract\'s facts', () => {
  describe('metadata keys: "an integer or a uuid depending on the field"', () => {
    // Context-specific metadata (2.1): options that are resources within a context.
    const contextSpecific: [string, string][] = [
      ['EmploymentUpdate', 'employeeProfileId'], // "payroll administration context"
      ['EmploymentUpdate', 'essMutationSet'], // "provider/employer context"
      ['Wage', 'payScale'], // addressed as {payScaleKey} (uuid) by the pay grade metadata paths
      ['Wage', 'payGrade'], // addressed as {payGradeKey} (uuid)
      ['JournalAllocation', 'journalProfileConfiguration.journalProfile'], // a journal profile (uuid resource)
      ['OtherPayrollVariables', 'pensionProperties.leaveFundA.leaveType'], // leaveType, the contract's example
      ['OrganizationalEntity', 'function'],
      ['OrganizationalEntity', 'department'],
    ];
    it.each(contextSpecific)('%s.%s is keyed by a uuid', (component, field) => {
      expect(keyOf(propertyAt(component, field))).toEqual({ type: 'string', format: 'uuid' });
    });

    // Generic metadata (2.1): the same options for everybody.
    const generic: [string, string][] = [
      ['PersonalDetails', 'gender'],
      ['PersonalDetails', 'nationality'],
      ['Address', 'country'],
    ];
    it.each(generic)('%s.%s is keyed by an integer', (component, field) => {
      expect(keyOf(propertyAt(component, field)).type).toBe('integer');
    });

    it('marks that the contract does not settle the key kind per field', () => {
      expect(schemas.Metadata['x-contract-gap']).toMatch(/integer or a uuid/);
    });

    it('addresses pay scales and pay grades by the same key kind in paths and bodies', () => {
      const params = operations.flatMap((o) => [...(o.pathItem.parameters ?? []), ...(o.operation.parameters ?? [])].map((p: any) => deref(doc, p)));
      for (const name of ['payScaleKey', 'payGradeKey']) {
        const param = params.find((p: any) => p.name === name);
        expect(param.schema, name).toEqual({ type: 'string', format: 'uuid' });
      }
      expect(keyOf(propertyAt('Wage', 'payScale'))).toEqual({ type: 'string', format: 'uuid' });
    });
  });

  it('declares the contract\'s "50x: unforeseen error" as 5XX without a body on every operation', () => {
    for (const { operation } of operations) {
      const response = deref(doc, operation.responses['5XX']);
      expect(response, operation.operationId).toBeDefined();
      expect(response.content, operation.operationId).toBeUndefined();
      expect(operation.responses['500'], operation.operationId).toBeUndefined();
    }
  });

  it('declares Expires on every response, errors included (4.1: "an Expires header is returned on every response")', () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        expect(Object.keys(deref(doc, response).headers ?? {}), `${operation.operationId} ${status}`).toContain('Expires');
      }
    }
  });

  it('answers PutConceptEmployeeMinimizedByConceptEmployeeId with the full concept employee, as the POST ("detail with concept employee")', () => {
    const schemaOf = (id: string, status: string) => Object.values<any>(deref(doc, byId.get(id)!.operation.responses[status]).content)[0].schema;
    expect(schemaOf('PutConceptEmployeeMinimizedByConceptEmployeeId', '200')).toEqual(schemaOf('PostConceptEmployeeByEmployerId', '201'));
  });

  describe('nullability only where the contract gives it', () => {
    const acceptsNull = (schema: any): boolean => {
      const node = deref(doc, schema);
      const types = Array.isArray(node.type) ? node.type : [node.type];
      return types.includes('null') || [...(node.oneOf ?? []), ...(node.anyOf ?? [])].some(acceptsNull);
    };
    // "endOfEmploymentReason metadata", "endOfEmploymentReasonTaxAuthorities metadata",
    // "{employmentCategoryType metadata, ...}", read shape "employmentCategoryType {key, value}".
    it.each([
      ['EmploymentTermination', 'endOfEmploymentReason'],
      ['EmploymentTermination', 'endOfEmploymentReasonTaxAuthorities'],
      ['EmploymentCategoryTypeUpdate', 'employmentCategoryType'],
      ['Employment', 'employmentCategoryType'],
    ])('%s.%s is metadata, not metadata or null', (component, field) => {
      expect(acceptsNull(propertyAt(component, field))).toBe(false);
    });
  });

  describe('info.description says what section 9 says, no more', () => {
    const text: string = doc.info.description;
    it('states the change policy as the contract does', () => {
      expect(text).toContain('Changes may occur without notice. The provider tries to announce breaking changes in\nadvance and to avoid them.');
      expect(text).toContain('| non breaking | 2 weeks | no new version |');
      expect(text).toContain('| breaking | 2 weeks | 6 months |');
      expect(text).toContain('| critical | may deviate | depends on severity |');
      expect(text).not.toMatch(/come with two weeks' notice|come as\s+a new resource version/);
    });
  });

  it('marks the employment operations for which the contract does not name 2019-12-16 as inferred', () => {
    const employment = doc['x-resource-versions'].resources.employment;
    const [current] = employment.versions;
    const named = ['GetEmploymentsByEmployerId', 'PutEmploymentByEmploymentId'];
    expect([...current.inferredFor].sort()).toEqual(employment.operations.filter((id: string) => !named.includes(id)).sort());
    for (const id of employment.operations) {
      const content = Object.values<any>(byId.get(id)!.operation.responses['200'].content);
      expect(content[0]['x-version-basis'], id).toBe(named.includes(id) ? 'contract' : 'inferred');
    }
  });

  it('marks every baseline media type as a baseline, with a contract gap', () => {
    const registry = doc['x-resource-versions'];
    let seen = 0;
    for (const { operation } of operations) {
      const [, resource] = Object.entries<any>(registry.resources).find(([, r]) => r.operations.includes(operation.operationId))!;
      const owners = [operation.requestBody, ...Object.values<any>(operation.responses)].map((o) => deref(doc, o)).filter((o) => o?.content);
      for (const owner of owners) {
        for (const [mediaType, media] of Object.entries<any>(owner.content)) {
          const entry = resource.versions.find((v: any) => mediaType.includes(`version=${v.version}`));
          if (entry?.basis !== 'baseline') continue;
          seen += 1;
          expect(media['x-version-basis'], `${operation.operationId} ${mediaType}`).toBe('baseline');
          expect(media['x-contract-gap'], `${operation.operationId} ${mediaType}`).toMatch(/baseline/);
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
  });

  describe('what the description adds is marked x-contract-gap', () => {
    const parameters = doc.components!.parameters!;
    it.each([
      ['the sections of the new-employee and concept-employee bodies', () => schemas.NewEmploymentSections],
      ['required/readOnly of WorkingHoursShift', () => schemas.WorkingHoursShift],
      ['required/readOnly of ProviderLogo', () => schemas.ProviderLogo],
      ['required of EmploymentTermination', () => schemas.EmploymentTermination],
      ['required/readOnly of Provider', () => schemas.Provider],
      ['maxLength and semantics of filter', () => parameters.Filter],
      ['maxLength and semantics of orderBy', () => parameters.OrderBy],
      ['minimum on the paging envelope', () => schemas.ListEnvelope.allOf[1]],
      ['format: date of resourceVersion', () => schemas.Version.properties.resourceVersion],
      ['the decimalSepartor spelling', () => schemas.ReportInput.properties.decimalSepartor],
      ['the shape of the pay grade values', () => deref(doc, byId.get('GetConceptEmployeePayGradeValuesByPayGradeKey')!.operation.responses['200'])],
      ['the scope parameters of the defaults endpoints', () => byId.get('GetPayrollPeriodDataDefaultsByEmploymentId')!.operation],
    ])('%s', (_what, get) => {
      expect(get()['x-contract-gap']).toMatch(/\w+ \w+ \w+/);
    });

    it('maxLength on filter and orderBy and minimum on the paging envelope are named in their gaps', () => {
      expect(parameters.Filter['x-contract-gap']).toMatch(/maximum length/);
      expect(parameters.OrderBy['x-contract-gap']).toMatch(/maximum length/);
      expect(schemas.ListEnvelope.allOf[1]['x-contract-gap']).toMatch(/minimums/);
      expect(schemas.ReportInput.properties.decimalSepartor.description).not.toMatch(/understood/);
    });
  });

  describe('the contract facts the description states', () => {
    const text: string = doc.info.description;
    it('the date chain rules (2.1)', () => {
      expect(text).toMatch(/broken chain\*\*\s+gaps are allowed/);
      expect(text).toMatch(/`startDate` minus one day/);
      expect(text).toMatch(/one per `payrollComponent`/);
    });
    it('metadata and defaults (4.1, 4.2)', () => {
      expect(text).toMatch(/metadata endpoints of a\s+POST and of a PUT of the same resource can differ/);
      expect(text).toMatch(/union/);
      expect(text).toMatch(/Non-payroll administrations have the same metadata endpoints[^.]*but no specific defaults endpoint/);
      expect(text).toMatch(/A scope, such as a date, may be given as extra\s+parameters/);
      for (const id of ['GetPayrollPeriodDataDefaultsByEmploymentId', 'GetConceptEmployeeDefaultsByPayrollAdministrationId']) {
        expect(byId.get(id)!.operation.description, id).toMatch(/scope, such\s+as a date/);
      }
    });
    it('the integration user requirements (5.7)', () => {
      expect(text).toMatch(/not a SOAP web-service\s+user/);
      expect(text).toMatch(/active \(not blocked\)/);
      expect(text).toMatch(/team\s+assignment/);
      expect(text).toMatch(/different rights per\s+employer/);
    });
  });

  it('describes the list filter and order once, referenced by every list', () => {
    for (const { operation } of operations) {
      for (const parameter of operation.parameters ?? []) {
        const resolved = deref(doc, parameter);
        if (resolved.in === 'query' && ['filter', 'orderBy'].includes(resolved.name)) {
          expect(parameter.$ref, operation.operationId).toBe(`#/components/parameters/${resolved.name === 'filter' ? 'Filter' : 'OrderBy'}`);
        }
      }
    }
    expect(doc.components!.parameters!.Filter.description).toMatch(/`and` binds tighter than `or`/);
    expect(doc.components!.parameters!.OrderBy.description).toMatch(/ties are broken by `id`/);
  });
});
