// The journal description against the contract's own lists: every activity of section 4 is an
// operation at its exact path with the activity's verb, the statuses and media types are those
// the contract states, and every validation code of section 7 is a machine-matchable enum value
// of the right operation's 400 response, spelled exactly.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf, type OpenApiDocument } from './support/bundles.js';
import contract from './fixtures/journal-activities.json' with { type: 'json' };

const doc = loadBundle('journal');
const operations = operationsOf(doc);
const byId = new Map(operations.map((o) => [o.operation.operationId, o]));
const activities = contract.activities;
const codesByOperation = new Map<string, string[]>();
for (const group of contract.codeGroups) {
  for (const op of group.operations) codesByOperation.set(op, [...(codesByOperation.get(op) ?? []), ...group.codes]);
}
const allCodes = contract.codeGroups.flatMap((g) => g.codes);

/** Every validation code (an `API_` enum value) reachable from a schema, following local references. */
function enumValues(document: OpenApiDocument, schema: unknown, seen = new Set<unknown>()): string[] {
  const node = deref(document, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return [];
  seen.add(node);
  const own = Array.isArray((node as any).enum) ? ((node as any).enum as unknown[]).map(String).filter((v) => v.startsWith('API_')) : [];
  const nested = Object.values(node as object).flatMap((child) => enumValues(document, child, seen));
  return [...own, ...nested];
}

/** Validates a value against the schema at a JSON pointer of the bundle. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc as object, 'journal.json');
function isValid(pointer: string, value: unknown): boolean {
  return ajv.compile({ $ref: `journal.json${pointer}` })(value) as boolean;
}

/** A JSON pointer segment, percent-encoded for use in a URI fragment (paths hold braces). */
function escapePointer(segment: string) {
  return encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));
}

function badRequestPointer(op: { path: string; method: string; operation: any }) {
  const response = op.operation.responses['400'];
  const base = response.$ref ?? `#/paths/${escapePointer(op.path)}/${op.method}/responses/400`;
  return `${base}/content/application~1json/schema`;
}

function successPointer(op: { path: string; method: string; operation: any }, status: string) {
  return `#/paths/${escapePointer(op.path)}/${op.method}/responses/${status}/content/application~1json/schema`;
}

describe('journal description against the contract', () => {
  it('lists 16 activities and 35 validation codes in the fixture', () => {
    expect(activities).toHaveLength(16);
    expect(allCodes).toHaveLength(35);
    expect(new Set(allCodes).size).toBe(35);
  });

  it('has exactly the 16 operations, with unique operationIds', () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(activities.map((a) => a.name).sort());
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s is at its exact path with its verb and tag', (name, a) => {
    const op = byId.get(name);
    expect(op, `${name} is missing`).toBeDefined();
    expect(op!.path).toBe(a.path);
    expect(op!.method).toBe(a.method.toLowerCase());
    expect(op!.method).toBe(/^[A-Z][a-z]+/.exec(name)![0].toLowerCase());
    expect(op!.operation.tags).toEqual([a.tag]);
  });

  it('has only the given paths, each under /journal/providers and marked as from the contract', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(activities.map((a) => a.path))].sort());
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(p).toMatch(/^\/journal\/providers\//);
      expect(item['x-path-source'], p).toBe('contract');
    }
  });

  it('declares the four tags and no others', () => {
    expect(doc.tags.map((t: any) => t.name).sort()).toEqual(
      ['Cost center cost unit matrix', 'Cost centers', 'Cost units', 'Journal profiles'].sort(),
    );
  });

  it('has acceptance and production servers without a version segment, and global OAuth2', () => {
    expect(doc.servers.map((s: any) => s['x-environment'])).toEqual(['acceptance', 'production']);
    for (const server of doc.servers) {
      expect(server.url).not.toMatch(/\/v\d/);
      expect(server['x-contract-gap']).toBeTruthy();
    }
    expect(doc.security).toEqual([{ OAuth2: [] }]);
    expect(doc.components?.securitySchemes?.OAuth2?.type).toBe('oauth2');
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s answers exactly the statuses of section 4', (name, a) => {
    const { operation } = byId.get(name)!;
    expect(Object.keys(operation.responses).sort()).toEqual([...a.statuses].sort());
    for (const status of ['404', '500']) {
      if (!operation.responses[status]) continue;
      expect(deref(doc, operation.responses[status]).content, `${name} ${status} has a body`).toBeUndefined();
    }
    for (const status of ['400', '401', '403']) {
      if (!operation.responses[status]) continue;
      expect(Object.keys(deref(doc, operation.responses[status]).content ?? {}), `${name} ${status}`).toEqual(['application/json']);
    }
  });

  it('marks the unshown responses of the wage model journal profile create on the operation', () => {
    expect(byId.get('PostJournalProfileByWageModelId')!.operation['x-contract-gap']).toMatch(/201/);
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s offers exactly the media types of its result', (name, a) => {
    const { operation } = byId.get(name)!;
    const success = deref(doc, operation.responses[a.statuses[0]!]);
    const expected = a.result === 'list' ? contract.mediaTypes.list : contract.mediaTypes.detail;
    expect(Object.keys(success.content).sort()).toEqual([...expected].sort());
    expect(Object.keys(success.headers ?? {})).toEqual(['Expires']);
    for (const file of ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']) {
      if (!success.content[file]) continue;
      // The contract shows no columns: no schema is invented, the gap is said instead.
      expect(success.content[file].schema, file).toBeUndefined();
      expect(success.content[file]['x-contract-gap'], file).toBeTruthy();
    }
    if (a.requestBody) {
      const body = deref(doc, operation.requestBody);
      expect(body.required).toBe(true);
      expect(Object.keys(body.content).sort()).toEqual([...contract.mediaTypes.requestBody].sort());
    } else {
      expect(operation.requestBody).toBeUndefined();
    }
  });

  it('uses no versioned media type and no Accept parameter anywhere', () => {
    const text = JSON.stringify(doc.paths);
    expect(text).not.toMatch(/version=/);
    for (const { path: p, operation, pathItem } of operations) {
      const params = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((x: any) => deref(doc, x));
      expect(params.filter((x: any) => x.in === 'header').map((x: any) => x.name), p).toEqual([]);
    }
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s has every path parameter as a required uuid', (name, a) => {
    const { operation, pathItem } = byId.get(name)!;
    const params = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((x: any) => deref(doc, x));
    const inPath = params.filter((x: any) => x.in === 'path');
    const template = [...a.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(inPath.map((x: any) => x.name).sort()).toEqual(template.sort());
    for (const param of inPath) {
      expect(param.required, param.name).toBe(true);
      expect(param.schema, param.name).toEqual({ type: 'string', format: 'uuid' });
      expect(param.description, param.name).toBeTruthy();
    }
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s has exactly its validation codes in its 400', (name) => {
    const op = byId.get(name)!;
    const expected = codesByOperation.get(name) ?? [];
    const response = deref(doc, op.operation.responses['400']);
    const schema = response.content['application/json'].schema;
    expect([...new Set(enumValues(doc, schema))].sort()).toEqual([...expected].sort());
    // Every code is listed in the response description and carried by an example.
    const exampleCodes = Object.values<any>(response.content['application/json'].examples ?? {}).flatMap((e) =>
      deref(doc, e).value.messages.map((m: any) => m.code),
    );
    for (const code of expected) {
      expect(response.description, code).toContain(`\`${code}\``);
      expect(exampleCodes, code).toContain(code);
    }
  });

  it('keeps a 400 code open: the known codes are listed, any other code of another bad request is accepted', () => {
    const op = byId.get('DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId')!;
    const pointer = badRequestPointer(op);
    const body = (code: string) => ({
      messages: [{ type: 'BrokenBusinessRule', description: 'In use.', code, id: null, properties: [] }],
    });
    expect(isValid(pointer, body('API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_PayrollPeriodData'))).toBe(true);
    // The contract: 400 "for the validation errors above or other bad requests".
    expect(isValid(pointer, body('API_Journal_SomeOtherBadRequest'))).toBe(true);
  });

  it('requires none of the envelope fields it borrows from the Payroll and HR API', () => {
    for (const a of activities) {
      const op = byId.get(a.name)!;
      const status = Object.keys(op.operation.responses).find((s) => s.startsWith('2'))!;
      expect(isValid(successPointer(op, status), {}), `${a.name} ${status}`).toBe(true);
      expect(isValid(badRequestPointer(op), {}), `${a.name} 400`).toBe(true);
    }
  });

  it('marks the Expires header and the OAuth2 scheme it borrows as contract gaps', () => {
    for (const a of activities) {
      for (const [status, response] of Object.entries<any>(byId.get(a.name)!.operation.responses)) {
        const expires = deref(doc, deref(doc, response).headers?.Expires);
        expect(expires?.['x-contract-gap'], `${a.name} ${status}`).toMatch(/Expires/);
      }
    }
    expect(doc.info['x-contract-gap']).toMatch(/authentication/);
    expect(doc.info.description).toMatch(/## Authentication/);
  });

  it('shows no payroll resource version in its examples', () => {
    expect(JSON.stringify(doc.components?.examples ?? {})).not.toMatch(/resourceVersion/);
  });

  it('gives every validation code a meaning, in enum order', () => {
    const enums = Object.values<any>(doc.components?.schemas ?? {}).filter((s) => Array.isArray(s.enum) && s.enum.some((v: unknown) => String(v).startsWith('API_Journa')));
    expect(enums.flatMap((s) => s.enum).sort()).toEqual([...allCodes].sort());
    for (const schema of enums) {
      expect(schema['x-enum-descriptions']).toHaveLength(schema.enum.length);
      for (const meaning of schema['x-enum-descriptions']) expect(meaning).toMatch(/\w{3,}/);
    }
  });

  it('explains uniqueness across levels once and refers to it from every create and edit', () => {
    const root: string = doc.info.description;
    expect(root.match(/^## Uniqueness across levels$/gm)).toHaveLength(1);
    const uniquenessOperations = contract.codeGroups.filter((g) => g.codes.some((c) => /_NotUnique_\w+Level$/.test(c))).flatMap((g) => g.operations);
    expect(uniquenessOperations).toHaveLength(7);
    for (const name of uniquenessOperations) {
      expect(byId.get(name)!.operation.description, name).toContain('*Uniqueness across levels*');
    }
  });

  it('documents both delete semantics of a payroll administration journal profile', () => {
    const text: string = byId.get('DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId')!.operation.description;
    expect(text).toMatch(/deviation/i);
    expect(text).toMatch(/only the\s+description deviation is removed/);
    expect(text).toMatch(/child entities/);
  });

  it('answers a delete with a detail result without entity content', () => {
    for (const a of activities.filter((x) => x.result === 'empty')) {
      const op = byId.get(a.name)!;
      const pointer = successPointer(op, '200');
      expect(isValid(pointer, { messages: [], content: {} }), a.name).toBe(true);
      expect(isValid(pointer, { messages: [], content: { id: '0b7e5f2a-6d41-4c8e-9a13-f25e8c4d7b60' } }), a.name).toBe(false);
    }
  });

  it('takes the matrix edit as an array of at least one item', () => {
    const op = byId.get('PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId')!;
    const schema = deref(doc, deref(doc, op.operation.requestBody).content['application/json'].schema);
    expect(schema.type).toBe('array');
    expect(schema.minItems).toBe(1);
  });

  it('keeps open models marked as contract gaps', () => {
    for (const [name, schema] of Object.entries<any>(doc.components?.schemas ?? {})) {
      if (schema.additionalProperties === true) expect(schema['x-contract-gap'], name).toBeTruthy();
    }
  });


});
