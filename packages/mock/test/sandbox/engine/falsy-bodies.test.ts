// A JSON null, false or 0 is a body: every operation whose request body schema accepts one
// (found by walking both bundles) takes it over HTTP, also with whitespace around it, and stores
// it. A new such operation fails here until it has a scenario saying where the value reads back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { bundles, operationsTakingFalsyBodies, type ApiName } from '../../support/bundle-schemas.js';

interface Scenario {
  params: Record<string, string>;
  /** The GET that shows the stored value, and where in its content. */
  readBack: { operationId: string; pick: (content: any) => unknown };
}

const SCENARIOS: Record<string, Scenario> = {
  PutCitizenServiceNumberByEmployeeId: {
    params: { employeeId: PEOPLE_IDS.employee },
    readBack: { operationId: 'GetCitizenServiceNumberByEmployeeId', pick: (content) => content.citizenServiceNumber },
  },
};

const found = operationsTakingFalsyBodies();
const API_PREFIX: Record<ApiName, string> = { payroll: '/v2', journal: '' };

function pathOf(api: ApiName, operationId: string, params: Record<string, string>): string {
  for (const [template, item] of Object.entries(bundles[api].paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(item)) {
      if (op?.operationId === operationId) return `${API_PREFIX[api]}${template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!)}`;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

let running: RunningMock;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
});
afterAll(async () => {
  await running?.close();
});

async function send(method: string, path: string, text?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: { Authorization: 'Bearer falsy-bodies_1', Accept: 'application/json', ...(text !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: text,
  });
  const raw = await response.text();
  return { status: response.status, body: raw ? JSON.parse(raw) : undefined };
}

describe('falsy JSON bodies', () => {
  it('the walk finds the operations (and each has a scenario)', () => {
    expect(found.map((op) => op.operationId)).toContain('PutCitizenServiceNumberByEmployeeId');
    expect(found.map((op) => op.operationId).sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  for (const op of found) {
    for (const value of op.values) {
      for (const text of [JSON.stringify(value), ` \n${JSON.stringify(value)}\t `]) {
        it(`${op.operationId} takes ${JSON.stringify(text)} and stores ${JSON.stringify(value)}`, async () => {
          const scenario = SCENARIOS[op.operationId]!;
          await send('POST', '/__sandbox/reset');
          const answer = await send(op.method.toUpperCase(), pathOf(op.api, op.operationId, scenario.params), text);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(answer.body.content).toBe(value);
          const read = await send('GET', pathOf(op.api, scenario.readBack.operationId, scenario.params));
          expect(read.status).toBe(200);
          expect(scenario.readBack.pick(read.body.content)).toBe(value);
        });
      }
    }
  }

  it('an empty body is still "no body" where one is required', async () => {
    const path = pathOf('payroll', 'PutCitizenServiceNumberByEmployeeId', SCENARIOS.PutCitizenServiceNumberByEmployeeId!.params);
    const answer = await send('PUT', path, '');
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toMatch(/required/);
  });
});
