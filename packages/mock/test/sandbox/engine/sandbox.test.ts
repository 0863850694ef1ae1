// The sandbox as a client sees it, through the real process on the real descriptions: lists
// (paging arithmetic, filter and orderBy errors, exports holding the page's rows), isolation
// per token, reset and snapshots (a bad snapshot changes nothing), the clock and Expires,
// the operator's list of sandboxes and the health endpoint.
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { freshToken, request, sandboxMock } from '../../helpers.js';

const mock = sandboxMock();
const auth = (token: string, accept = 'application/json') => ({ Authorization: `Bearer ${token}`, Accept: accept });
const employees = () => `${mock().url}/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
const providers = () => `${mock().url}/v2/v2/providers`;
const control = (path: string) => `${mock().url}/__sandbox${path}`;

async function snapshot(token: string) {
  const res = await request(control('/snapshot'), { headers: auth(token) });
  expect(res.status).toBe(200);
  return res.json();
}

async function putSnapshot(token: string, body: unknown) {
  return request(control('/snapshot'), { method: 'PUT', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

describe('lists', () => {
  it('pages with totalSize, pageSize, totalPages and currentPage that agree, 250 by default', async () => {
    const token = freshToken('paging');
    const all = (await request(employees(), { headers: auth(token) })).json();
    expect(all.pageSize).toBe(250);
    expect(all.currentPage).toBe(1);
    expect(all.totalSize).toBe(all._embedded.length);
    expect(all.totalPages).toBe(1);
    const seen: string[] = [];
    const pages = Math.ceil(all.totalSize / 7);
    for (let page = 1; page <= pages; page++) {
      const res = (await request(`${employees()}?pageSize=7&pageNumber=${page}`, { headers: auth(token) })).json();
      expect(res).toMatchObject({ totalSize: all.totalSize, pageSize: 7, totalPages: pages, currentPage: page });
      expect(res._embedded.length).toBe(page < pages ? 7 : all.totalSize - 7 * (pages - 1));
      seen.push(...res._embedded.map((e: { id: string }) => e.id));
    }
    expect(new Set(seen).size).toBe(all.totalSize);
    const past = (await request(`${employees()}?pageSize=7&pageNumber=${pages + 1}`, { headers: auth(token) })).json();
    expect(past).toMatchObject({ totalSize: all.totalSize, totalPages: pages, currentPage: pages + 1, _embedded: [] });
  });

  it('refuses a pageNumber or pageSize below 1, a malformed filter or orderBy and unknown fields with a 400 naming the parameter', async () => {
    const token = freshToken('bad-query');
    for (const [query, parameter] of [
      ['pageSize=0', 'pageSize'],
      ['pageNumber=0', 'pageNumber'],
      ['pageNumber=-3', 'pageNumber'],
      ["filter=employeeNumber eq", 'filter'],
      ["filter=(employeeNumber eq 1", 'filter'],
      ["filter=noSuchField eq 'x'", 'filter'],
      ['orderBy=noSuchField', 'orderBy'],
      ['orderBy=employeeNumber,,x', 'orderBy'],
    ]) {
      const res = await request(`${employees()}?${query!.replace(/ /g, '%20')}`, { headers: auth(token) });
      expect(res.status, query).toBe(400);
      const body = res.json();
      expect(body.version, query).toEqual({ resourceVersion: expect.any(String), obsoleteDate: null });
      expect(body.messages.map((m: { properties: string[] }) => m.properties).flat(), query).toContain(parameter);
    }
  });

  it('filters and orders the stored data', async () => {
    const token = freshToken('filter');
    const res = (await request(`${employees()}?filter=${encodeURIComponent('employeeNumber ge 1010 and employeeNumber le 1020')}&orderBy=-employeeNumber`, { headers: auth(token) })).json();
    const numbers = res._embedded.map((e: { employeeNumber: number }) => e.employeeNumber);
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every((n: number) => n >= 1010 && n <= 1020)).toBe(true);
    expect(numbers).toEqual([...numbers].sort((a: number, b: number) => b - a));
    expect(res.totalSize).toBe(numbers.length);
  });

  it('exports exactly the rows of the JSON page the same query answers', async () => {
    const token = freshToken('export');
    const query = `?orderBy=-employeeNumber&pageSize=5&pageNumber=2`;
    const page = (await request(`${employees()}${query}`, { headers: auth(token) })).json();
    const report = JSON.stringify({ fields: [{ fieldName: 'id' }, { fieldName: 'personalDetails.lastName', reportColumnName: 'Achternaam' }] });
    const csv = await request(`${employees()}${query}`, { headers: { ...auth(token, 'text/csv'), 'X-ReportInput': report } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv;version=\d{4}-\d{2}-\d{2};charset=utf-8$/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,Achternaam');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(page._embedded.map((e: { id: string }) => e.id));
    const xlsx = await request(`${employees()}${query}`, { headers: auth(token, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') });
    expect(xlsx.status).toBe(200);
    expect(xlsx.body.subarray(0, 2).toString()).toBe('PK');
  });

  it('does not send Content-Disposition on a list that is not a download', async () => {
    const res = await request(employees(), { headers: auth(freshToken('cd')) });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});

describe('isolation, reset and snapshots', () => {
  it('keeps each token in a sandbox of its own and resets one to the seed', async () => {
    const [a, b] = [freshToken('a'), freshToken('b')];
    const state = await snapshot(a);
    const provider = state.collections.providers.find((p: { id: string }) => p.id === SEED_IDS.provider);
    provider.name = 'Alleen in sandbox A B.V.';
    expect((await putSnapshot(a, state)).status).toBe(200);
    const nameIn = async (token: string) => (await request(providers(), { headers: auth(token) })).json()._embedded[0].name;
    expect(await nameIn(a)).toBe('Alleen in sandbox A B.V.');
    expect(await nameIn(b)).not.toBe('Alleen in sandbox A B.V.');
    const reset = await request(control('/reset'), { method: 'POST', headers: auth(a) });
    expect(reset.status).toBe(200);
    expect(await nameIn(a)).toBe(await nameIn(b));
  });

  it('refuses a bad snapshot with a 400 that says why, and changes nothing', async () => {
    const token = freshToken('bad-snapshot');
    const state = await snapshot(token);
    state.collections.providers[0].name = 'Zou niet mogen blijven';
    const before = (await request(providers(), { headers: auth(token) })).json()._embedded[0].name;
    for (const bad of [
      { ...state, format: 'something-else' },
      { ...state, collections: { ...state.collections, noSuchCollection: [{ id: 'x' }] } },
      { ...state, collections: { ...state.collections, providers: [...state.collections.providers, { name: 'no id' }] } },
      { ...state, collections: { ...state.collections, providers: [state.collections.providers[0], state.collections.providers[0]] } },
      // A doc its collection's schema refuses.
      { ...state, collections: { ...state.collections, providers: [{ ...state.collections.providers[0], name: 42 }] } },
      [],
    ]) {
      const res = await putSnapshot(token, bad);
      expect(res.status).toBe(400);
      expect(res.json().messages[0]).toMatchObject({ type: 'BrokenBusinessRule', description: expect.any(String) });
    }
    const broken = await request(control('/snapshot'), { method: 'PUT', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: '{"format":' });
    expect(broken.status).toBe(400);
    expect((await request(providers(), { headers: auth(token) })).json()._embedded[0].name).toBe(before);
  });

  it('lists the sandboxes that have written, without revealing tokens, to a caller with a token only', async () => {
    const token = freshToken('listed');
    await request(control('/clock/advance'), { method: 'POST', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: '{"days":1}' });
    expect((await request(control('/sandboxes'))).status).toBe(401);
    const res = await request(control('/sandboxes'), { headers: auth(token) });
    expect(res.status).toBe(200);
    const ids = res.json().sandboxes.map((s: { id: string }) => s.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.some((id: string) => id.includes(token))).toBe(false);
    expect(ids.some((id: string) => id.startsWith('__'))).toBe(false);
  });

  it('requires a bearer token to reach a sandbox through the control endpoints', async () => {
    expect((await request(control('/reset'), { method: 'POST' })).status).toBe(401);
    expect((await request(control('/reset'), { headers: auth('x') })).status).toBe(405);
    expect((await request(control('/nothing'), { headers: auth('x') })).status).toBe(404);
  });
});

describe('clock', () => {
  it('starts at real time, is set and advanced per sandbox, and drives Expires', async () => {
    const [token, other] = [freshToken('clock'), freshToken('clock-other')];
    const start = (await request(control('/clock'), { headers: auth(token) })).json();
    expect(Math.abs(Date.parse(start.now) - Date.now())).toBeLessThan(60_000);
    const set = await request(control('/clock'), { method: 'PUT', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify({ now: '2031-05-01T08:00:00Z' }) });
    expect(set.json().today).toBe('2031-05-01');
    const advanced = await request(control('/clock/advance'), { method: 'POST', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify({ days: 30, hours: 2 }) });
    expect(advanced.json().today).toBe('2031-05-31');
    const res = await request(employees(), { headers: auth(token) });
    expect(new Date(res.headers.expires as string).toISOString().slice(0, 10)).toBe('2031-05-31');
    const elsewhere = await request(employees(), { headers: auth(other) });
    expect(Math.abs(Date.parse(elsewhere.headers.expires as string) - Date.now())).toBeLessThan(60_000);
    const bad = await request(control('/clock'), { method: 'PUT', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify({ now: 'tomorrow' }) });
    expect(bad.status).toBe(400);
    const back = await request(control('/clock'), { method: 'PUT', headers: { ...auth(token), 'Content-Type': 'application/json' }, body: JSON.stringify({ now: null }) });
    expect(Math.abs(Date.parse(back.json().now) - Date.now())).toBeLessThan(60_000);
  });
});

it('answers /__health', async () => {
  const res = await request(`${mock().url}/__health`);
  expect(res.status).toBe(200);
  expect(res.json()).toMatchObject({ status: 'ok', mode: 'sandbox' });
});
