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

  void byId;
});
