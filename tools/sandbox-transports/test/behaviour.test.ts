// One behaviour suite, three transports: the same tests reach the sandbox through payroll-mock
// over HTTP, through MSW in Node (setupServer) and through MSW in a real Chromium page
// (setupWorker with the engine in the page).
import { SEED_IDS } from '@payroll-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransport, TRANSPORTS, type Transport } from '../src/transports.js';
import { json, text, type WireRequest, type WireResponse } from '../src/wire.js';

const PAYROLL = 'application/json;version=2021-03-29';
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
const PROFILES = `/journal/providers/wagemodels/${SEED_IDS.wageModel}/journalprofiles`;

function request(method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}): WireRequest {
  const accept = path.startsWith('/journal') || path.startsWith('/__sandbox') ? 'application/json' : PAYROLL;
  return {
    method,
    path,
    headers: { Accept: accept, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'Content-Type': accept } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function ok(response: WireResponse): Extract<WireResponse, { status: number }> {
  if (response.networkError) throw new Error('network error');
  return response;
}

describe.each(TRANSPORTS)('the sandbox over %s', (name) => {
  let transport: Transport;
  const send = async (...args: Parameters<typeof request>) => ok(await transport.send(request(...args)));
  let costCenters: string;

  beforeAll(async () => {
    transport = await startTransport(name);
    const profiles = json(await send('GET', PROFILES, 'setup'))._embedded as Array<{ id: string }>;
    costCenters = `/journal/providers/wagemodels/journalprofiles/${profiles[0]!.id}/costcenters`;
  });
  afterAll(async () => {
    await transport?.close();
  });

  it('lists with a filter, an order and a page', async () => {
    const res = await send('GET', `${EMPLOYEES}?pageSize=3&pageNumber=2&orderBy=-employeeNumber&filter=${encodeURIComponent("personalDetails.lastName lk 'e'")}`, 'reader');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(PAYROLL);
    const body = json(res);
    expect(body).toMatchObject({ pageSize: 3, currentPage: 2, version: { resourceVersion: '2021-03-29' } });
    expect(body._embedded).toHaveLength(3);
    const numbers = (body._embedded as Array<{ employeeNumber: number }>).map((e) => e.employeeNumber);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  });

  it('creates, reads back and keeps each token apart', async () => {
    const created = await send('POST', costCenters, 'writer', { code: 'T100', description: 'Transport' });
    expect(created.status).toBe(201);
    const id = json(created).content.id;
    const listed = (json(await send('GET', costCenters, 'writer'))._embedded as Array<{ id: string }>).map((c) => c.id);
    expect(listed).toContain(id);
    const elsewhere = (json(await send('GET', costCenters, 'someone-else'))._embedded as Array<{ id: string }>).map((c) => c.id);
    expect(elsewhere).not.toContain(id);
  });

  it('refuses in the contract envelopes and statuses', async () => {
    const unauthorized = await send('GET', EMPLOYEES, undefined);
    expect(unauthorized.status).toBe(401);
    expect(json(unauthorized)).toEqual({ message: 'Authorization has been denied for this request.' });
    const badFilter = await send('GET', `${EMPLOYEES}?filter=nope`, 'r');
    expect(badFilter.status).toBe(400);
    expect(json(badFilter).messages[0].properties).toEqual(['filter']);
    const badBody = await send('POST', costCenters, 'r', { code: 42 });
    expect(badBody.status).toBe(400);
    expect(json(badBody).messages[0].properties).toEqual(['code']);
    const missing = await send('GET', `/v2/v2/providers/employers/00000000-0000-4000-8000-000000000000`, 'r');
    expect(missing.status).toBe(404);
    expect(text(missing)).toBe('');
    const notAllowed = await send('DELETE', EMPLOYEES, 'r');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.allow).toContain('GET');
    const badVersion = await send('GET', EMPLOYEES, 'r', undefined, { Accept: 'application/json;version=2001-01-01' });
    expect(badVersion.status).toBe(400);
    expect(json(badVersion).messages[0].properties).toEqual(['Accept']);
  });

  it('issues OAuth tokens that reach their user’s sandbox', async () => {
    const form = 'grant_type=password&username=hanna%40example.nl&password=x&client_Id=app';
    const issued = await send('POST', '/auth/token', undefined, form, { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' });
    expect(issued.status).toBe(200);
    const { access_token: token } = json(issued);
    expect((await send('GET', EMPLOYEES, token)).status).toBe(200);
  });

  it('exports a list as CSV', async () => {
    const res = await send('GET', `${EMPLOYEES}?pageSize=2&orderBy=employeeNumber`, 'r', undefined, { Accept: 'text/csv;version=2021-03-29', 'X-ReportInput': JSON.stringify({ fields: [{ fieldName: 'employeeNumber', reportColumnName: 'Nummer' }] }) });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(text(res).split('\r\n')[0]).toBe('Nummer');
  });

  it('resets, and runs on the sandbox clock', async () => {
    await send('POST', costCenters, 'clocked', { code: 'T200' });
    expect((await send('POST', '/__sandbox/reset', 'clocked')).status).toBe(200);
    const codes = (json(await send('GET', costCenters, 'clocked'))._embedded as Array<{ code: string }>).map((c) => c.code);
    expect(codes).not.toContain('T200');
    // Ninety days on: less than the six months a served version keeps, so PAYROLL stays served.
    const day = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    const set = await send('PUT', '/__sandbox/clock', 'clocked', { now: `${day}T08:00:00Z` });
    expect(json(set).today).toBe(day);
    expect(new Date((await send('GET', EMPLOYEES, 'clocked')).headers.expires!).toISOString().slice(0, 10)).toBe(day);
  });

  it('fails, lags and drops calls on purpose, and a faulted write changes nothing', async () => {
    const rule = await send('POST', '/__sandbox/faults', 'faulty', { faults: [{ operations: ['PostCostCenterAtWageModelLevelByJournalProfileId'], status: 503, retryAfterSeconds: 3, times: 1 }] });
    expect(rule.status).toBe(201);
    const failed = await send('POST', costCenters, 'faulty', { code: 'T300' });
    expect(failed.status).toBe(503);
    expect(failed.headers['retry-after']).toBe('3');
    expect(text(failed)).toBe('');
    const after = (json(await send('GET', costCenters, 'faulty'))._embedded as Array<{ code: string }>).map((c) => c.code);
    expect(after).not.toContain('T300');
    expect((await send('POST', costCenters, 'faulty', { code: 'T300' })).status).toBe(201);

    const started = Date.now();
    expect((await send('GET', costCenters, 'faulty', undefined, { 'X-Sandbox-Fault': 'delay=300' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    const dropped = await transport.send(request('POST', costCenters, 'faulty', { code: 'T301' }, { 'X-Sandbox-Fault': 'network-error' }));
    expect(dropped.networkError).toBe(true);
    const codes = (json(await send('GET', costCenters, 'faulty'))._embedded as Array<{ code: string }>).map((c) => c.code);
    expect(codes).not.toContain('T301');
  });
});
