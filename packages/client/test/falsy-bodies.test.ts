// The client sends a JSON null, false or 0 body instead of dropping it: every activity whose
// body schema (in the built bundles) takes one is called with it against the mock, and the
// value reads back. A new such activity fails here until it has a scenario.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient, unwrap } from '../src/index.js';
import { startMock, type RunningMock } from './mock-server.js';

const EMPLOYEE = '71ba6533-75c2-527d-8fb9-1e07cb1788ab';
const FALSY = [null, false, 0] as const;
type Falsy = (typeof FALSY)[number];
type Json = Record<string, any>;

/** Whether a schema (through $refs, oneOf and anyOf) takes the falsy value; enum and const are honoured. */
function takes(doc: Json, node: unknown, value: Falsy): boolean {
  const schema = deref<Json>(doc, node);
  if (!schema || typeof schema !== 'object') return false;
  if ('const' in schema) return schema.const === value;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  for (const key of ['oneOf', 'anyOf'] as const) if (Array.isArray(schema[key]) && schema[key].some((s: unknown) => takes(doc, s, value))) return true;
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return schema.allOf.every((s: unknown) => takes(doc, s, value));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const kind = value === null ? ['null'] : value === false ? ['boolean'] : ['integer', 'number'];
  return types.some((t) => kind.includes(t)) || (schema.nullable === true && value === null);
}

function falsyBodyActivities(): Array<{ operationId: string; value: Falsy }> {
  const found: Array<{ operationId: string; value: Falsy }> = [];
  for (const api of ['payroll', 'journal']) {
    const doc = JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../../spec/dist/${api}.json`, import.meta.url)), 'utf8')) as Json;
    for (const { operation } of operationsOf(doc)) {
      const body = deref<Json | undefined>(doc, operation.requestBody);
      for (const value of FALSY) {
        const accepted = Object.entries<Json>(body?.content ?? {}).some(([media, content]) => media.includes('json') && takes(doc, content.schema, value));
        if (accepted) found.push({ operationId: operation.operationId as string, value });
      }
    }
  }
  return found;
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

const payroll = () => createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: 'falsy-bodies' });

/** Per activity: the call with the falsy body and the read that shows it stored. */
const SCENARIOS: Record<string, { send: (value: Falsy) => Promise<unknown>; read: () => Promise<unknown> }> = {
  PutCitizenServiceNumberByEmployeeId: {
    send: async (value) => unwrap(await payroll().PutCitizenServiceNumberByEmployeeId({ employeeId: EMPLOYEE }, value as null)).content,
    read: async () => unwrap(await payroll().GetCitizenServiceNumberByEmployeeId({ employeeId: EMPLOYEE })).content?.citizenServiceNumber,
  },
};

describe('falsy JSON bodies through the client', () => {
  const found = falsyBodyActivities();
  it('the walk finds the activities (and each has a scenario)', () => {
    expect(found.map((f) => f.operationId)).toContain('PutCitizenServiceNumberByEmployeeId');
    expect([...new Set(found.map((f) => f.operationId))].sort()).toEqual(Object.keys(SCENARIOS).sort());
  });
  for (const { operationId, value } of found) {
    it(`${operationId} sends ${JSON.stringify(value)} and it is stored`, async () => {
      const scenario = SCENARIOS[operationId]!;
      expect(await scenario.send(value)).toBe(value);
      expect(await scenario.read()).toBe(value);
    });
  }
});
