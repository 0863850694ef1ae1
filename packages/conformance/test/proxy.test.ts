// Proxy mode: an application's traffic reaches the server unchanged, and every exchange that
// breaks the description is reported at the version the server served.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { startProxy, type CaseResult, type RunningProxy } from '../src/index.js';
import { jsonOf, startExamples, startFaulty, withJson, type FaultyServer } from './support/servers.js';

const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
const headers = { Authorization: 'Bearer proxy-test', Accept: 'application/json;version=2021-03-29' };

let mock: RunningMock;
let faulty: FaultyServer;
let clean: RunningProxy;
let broken: RunningProxy;
const seen: CaseResult[] = [];

beforeAll(async () => {
  mock = await startExamples();
  // The faulty upstream serves employees at the wrong version.
  faulty = await startFaulty(mock.url, [
    {
      name: 'wrong version',
      applies: (method, path, a) => method === 'GET' && path.endsWith('/employees') && a.status === 200,
      change: (a) => withJson(a, { ...jsonOf(a), version: { resourceVersion: '2018-01-01', obsoleteDate: null } }, { 'content-type': 'application/json;version=2018-01-01' }),
    },
  ]);
  clean = await startProxy({ target: mock.url, onCase: (c) => seen.push(c) });
  broken = await startProxy({ target: faulty.url });
});
afterAll(async () => {
  await clean?.close();
  await broken?.close();
  await faulty?.close();
  await mock?.close();
});

test('traffic is forwarded unchanged', async () => {
  const url = `/v2/v2/providers/employers/${EMPLOYER}/employees`;
  const direct = await fetch(`${mock.url}${url}`, { headers });
  const proxied = await fetch(`${clean.url}${url}`, { headers });
  expect(proxied.status).toBe(direct.status);
  expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
  expect(await proxied.text()).toBe(await direct.text());
  const last = seen.at(-1);
  expect(last?.operationId).toBe('GetEmployeesByEmployerId');
  expect(last?.version).toBe('2021-03-29');
  expect(last?.findings).toEqual([]);
});

test('a conforming 400 and 401 pass, and so does a journal call', async () => {
  const before = seen.length;
  await fetch(`${clean.url}/v2/v2/providers/employers/not-a-uuid/employees`, { headers });
  await fetch(`${clean.url}/v2/v2/providers/employers/${EMPLOYER}/employees`, { headers: { Accept: headers.Accept } });
  await fetch(`${clean.url}/journal/providers/wagemodels/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f/journalprofiles`, { headers: { Authorization: headers.Authorization, Accept: 'application/json' } });
  const cases = seen.slice(before);
  expect(cases.map((c) => c.operationId)).toEqual(['GetEmployeesByEmployerId', 'GetEmployeesByEmployerId', 'GetJournalProfilesByWageModelId']);
  expect(cases.flatMap((c) => c.findings)).toEqual([]);
});

test('the wrong version served is reported against the version the client asked for', async () => {
  const response = await fetch(`${broken.url}/v2/v2/providers/employers/${EMPLOYER}/employees`, { headers });
  expect(response.status).toBe(200);
  const findings = broken.summary().cases.flatMap((c) => c.findings);
  expect(findings.some((f) => f.check === 'negotiation' && /2021-03-29/.test(f.message))).toBe(true);
  expect(broken.summary().failures).toBe(1);
});
