// A checker that passes a broken server is worse than none: a server that injects one fault
// per operation must fail the run, each fault with a clear finding on its operation.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { runConformance, type CheckName, type RunSummary } from '../src/index.js';
import { jsonOf, startExamples, startFaulty, withJson, WAGE_MODEL_ID, type Fault, type FaultyServer } from './support/servers.js';

interface Injected extends Fault {
  operationId: string;
  check: CheckName;
  /** Text the finding's message must contain. */
  says: RegExp;
}

const ok = (status: number) => status >= 200 && status < 300;

const FAULTS: Injected[] = [
  {
    name: 'a required field dropped',
    operationId: 'GetEmployerByEmployerId',
    check: 'schema',
    says: /missing required property 'messages'/,
    applies: (method, path, a) => method === 'GET' && /^\/v2\/v2\/providers\/employers\/[0-9a-f-]{36}$/.test(path) && ok(a.status),
    change: (a) => {
      const body = jsonOf(a);
      delete body.messages;
      return withJson(a, body);
    },
  },
  {
    name: 'the wrong version served',
    operationId: 'GetEmployeeByEmployeeId',
    check: 'content-type',
    says: /version 2018-01-01 was served, but 2021-03-29 was negotiated/,
    applies: (method, path, a) => method === 'GET' && /^\/v2\/v2\/providers\/employers\/employees\/[0-9a-f-]{36}$/.test(path) && ok(a.status),
    change: (a) => withJson(a, { ...jsonOf(a), version: { resourceVersion: '2018-01-01', obsoleteDate: null } }, { 'content-type': 'application/json;version=2018-01-01' }),
  },
  {
    name: '422 problem+json instead of the envelope',
    operationId: 'PutEmployerByEmployerId',
    check: 'status',
    says: /status 422 is not described/,
    applies: (method, path, a) => method === 'PUT' && /^\/v2\/v2\/providers\/employers\/[0-9a-f-]{36}$/.test(path) && a.status === 400,
    change: (a) => withJson({ ...a, status: 422 }, { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'invalid' }, { 'content-type': 'application/problem+json' }),
  },
  {
    name: '200 for an invalid body',
    operationId: 'PutProviderLogoByLogoId',
    check: 'status',
    says: /expected status 400, got 200/,
    applies: (method, path, a) => method === 'PUT' && /^\/v2\/v2\/providers\/logos\/[0-9a-f-]{36}$/.test(path) && a.status === 400,
    change: (a) => withJson({ ...a, status: 200 }, { version: { resourceVersion: '2018-01-01', obsoleteDate: null }, messages: [], content: {} }, { 'content-type': 'application/json;version=2018-01-01' }),
  },
  {
    name: 'a body on a 404',
    operationId: 'GetEmployeePhotoByEmployeeId',
    check: 'no-body',
    says: /a 404 must have no body/,
    applies: (method, path) => method === 'GET' && /^\/v2\/v2\/providers\/employers\/employees\/[0-9a-f-]{36}\/photo$/.test(path),
    change: (a) => withJson({ ...a, status: 404 }, { message: 'No photo.' }, { 'content-type': 'application/json' }),
  },
  {
    name: 'a wrong totalPages',
    operationId: 'GetEmployeesByEmployerId',
    check: 'envelope-paging',
    says: /totalPages is \d+, but ceil/,
    applies: (method, path, a) => method === 'GET' && /^\/v2\/v2\/providers\/employers\/[0-9a-f-]{36}\/employees$/.test(path) && a.status === 200 && (a.headers['content-type'] ?? '').startsWith('application/json'),
    change: (a) => {
      const body = jsonOf(a);
      return withJson(a, { ...body, totalPages: Number(body.totalPages) + 1 });
    },
  },
  {
    name: 'a missing Expires',
    operationId: 'GetAdministrationsByEmployerId',
    check: 'expires',
    says: /Expires header is missing/,
    applies: (method, path) => method === 'GET' && /^\/v2\/v2\/providers\/employers\/[0-9a-f-]{36}\/administrations$/.test(path),
    change: (a) => {
      const headers = { ...a.headers };
      delete headers.expires;
      return { ...a, headers };
    },
  },
];

let mock: RunningMock;
let faulty: FaultyServer;
let summary: RunSummary;

beforeAll(async () => {
  mock = await startExamples();
  faulty = await startFaulty(mock.url, FAULTS);
  summary = await runConformance({
    payrollUrl: `${faulty.url}/v2`,
    journalUrl: faulty.url,
    token: 'conformance-faults',
    allowWrites: true,
    stateful: false,
    params: { wageModelId: WAGE_MODEL_ID },
  });
});
afterAll(async () => {
  await faulty?.close();
  await mock?.close();
});

test('the run fails', () => {
  expect(summary.failures).toBeGreaterThan(0);
});

test.each(FAULTS.map((f) => [f.name, f] as const))('%s is caught with a clear finding', (_name, fault) => {
  const findings = summary.cases.filter((c) => c.operationId === fault.operationId).flatMap((c) => c.findings);
  const match = findings.find((f) => f.check === fault.check && fault.says.test(f.message));
  expect(match, `findings on ${fault.operationId}: ${findings.map((f) => `${f.check}: ${f.message}`).join(' | ') || 'none'}`).toBeDefined();
  expect(match?.curl).toMatch(/^curl -i /);
});

test('operations without a fault have no findings', () => {
  const faulted = new Set(FAULTS.map((f) => f.operationId));
  const others = summary.cases.filter((c) => !faulted.has(c.operationId) && c.findings.length > 0);
  expect(others.map((c) => `${c.operationId}: ${c.findings[0]?.message}`)).toEqual([]);
});
