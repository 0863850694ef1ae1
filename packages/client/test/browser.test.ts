// The built ESM entry in a real browser (Chromium) against the mock: no Node-only API on the
// browser path. The page loads dist/index.js and openapi-fetch through an import map.
import { createServer, type Server } from 'node:http';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './mock-server.js';

const require = createRequire(import.meta.url);
const files: Record<string, [string, string]> = {
  '/client.js': [fileURLToPath(new URL('../dist/index.js', import.meta.url)), 'text/javascript'],
  '/openapi-fetch.js': [require.resolve('openapi-fetch').replace(/index\.cjs$/, 'index.mjs'), 'text/javascript'],
};
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let mock: RunningMock;
let site: Server;
let siteOrigin: string;
let browser: Browser;

const page = (mockOrigin: string) => `<!doctype html>
<meta charset="utf-8">
<script type="importmap">{ "imports": { "openapi-fetch": "/openapi-fetch.js" } }</script>
<script type="module">
  import { createPayrollClient, createJournalClient, exportList, paginate, filterFor, ApiError, unwrap } from '/client.js';
  const run = async () => {
    const payroll = createPayrollClient({ baseUrl: '${mockOrigin}/v2', auth: 'browser-token' });
    const providers = unwrap(await payroll.GET('/v2/providers'));
    const f = filterFor();
    const employees = [];
    for await (const e of paginate(payroll, '/v2/providers/employers/{employerId}/employees', {
      params: { path: { employerId: '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c' }, query: { pageSize: 10, filter: String(f.where('employeeNumber', 'ge', 1)) } },
    })) employees.push(e.id);
    const csv = await exportList(payroll, '/v2/providers/employers/{employerId}/employees', {
      format: 'csv',
      report: { fields: [{ fieldName: 'employeeNumber', reportColumnName: 'Nummer' }] },
      params: { path: { employerId: '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c' } },
    });
    const anonymous = createPayrollClient({ baseUrl: '${mockOrigin}/v2' });
    const denied = ApiError.from(await anonymous.GET('/v2/providers'));
    const journal = createJournalClient({ baseUrl: '${mockOrigin}', auth: 'browser-token' });
    const costCenters = unwrap(await journal.GET('/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters', { params: { path: { journalProfileId: '294af36b-2828-41e3-9ca6-a823da96a226' } } }));
    return {
      resourceVersion: providers.version.resourceVersion,
      providers: providers._embedded.length,
      employees: employees.length,
      csvBytes: csv.bytes.length,
      csvFileName: csv.fileName,
      deniedStatus: denied && denied.status,
      deniedIsApiError: denied instanceof ApiError,
      costCenters: costCenters._embedded.length,
      hasProcess: typeof globalThis.process !== 'undefined',
    };
  };
  run().then((r) => { window.__result = r; }, (e) => { window.__result = { error: String(e && e.stack || e) }; });
</script>`;

beforeAll(async () => {
  if (!fs.existsSync(files['/client.js']![0])) throw new Error('dist/index.js is missing: build the package first');
  mock = await startMock();
  site = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file) {
      res.writeHead(200, { 'content-type': file[1] });
      res.end(fs.readFileSync(file[0]));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page(mock.origin));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], timeout: 30_000 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await mock?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('in a browser', () => {
  it('runs the built client: versions, auth, paging, filter, export, errors, journal', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.goto(siteOrigin);
    await tab.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 30_000 });
    const result = await tab.evaluate(() => (window as unknown as { __result: unknown }).__result);
    expect(errors).toEqual([]);
    expect(result).toMatchObject({
      resourceVersion: '2018-01-01',
      providers: 1,
      deniedStatus: 401,
      deniedIsApiError: true,
      hasProcess: false,
    });
    const r = result as { employees: number; csvBytes: number; csvFileName: string; costCenters: number };
    expect(r.employees).toBeGreaterThan(0);
    expect(r.csvBytes).toBeGreaterThan(0);
    expect(r.csvFileName).toMatch(/\.csv$/);
    expect(r.costCenters).toBeGreaterThan(0);
  }, 60_000);
});
