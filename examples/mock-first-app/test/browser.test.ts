// @vitest-environment node
// The built app in real Chromium (Debian's, through playwright-core), served by `vite preview`
// on loopback: no sandbox process anywhere; the engine runs in the page and MSW's service
// worker hands it the API calls. One walk through: list, filter, add, edit, terminate; and
// the same start under `vite` (what `pnpm dev` runs), where MSW's worker script comes from
// the dev server. The walk also runs under a Content-Security-Policy without 'unsafe-eval', as
// many apps serve one: the sandbox must not need to compile code from strings.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createServer, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** What a strict app serves: scripts from its own origin only, never evaluated from strings. */
const STRICT_CSP = "default-src 'self'; script-src 'self'; worker-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

let server: PreviewServer;
let strictServer: PreviewServer;
let browser: Browser;
let origin: string;
let strictOrigin: string;

beforeAll(async () => {
  if (!existsSync(`${ROOT}/dist/index.html`)) throw new Error('dist/ is missing: run `pnpm build` in examples/mock-first-app first (turbo runs it before the tests).');
  server = await preview({ root: ROOT, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
  strictServer = await preview({ root: ROOT, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false, headers: { 'Content-Security-Policy': STRICT_CSP } } });
  strictOrigin = strictServer.resolvedUrls!.local[0]!.replace(/\/$/, '');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await strictServer?.close();
});

/** A page that records API answers and their source, page errors, and requests to any other origin (refused). */
async function openApp(at: string) {
  const context = await browser.newContext();
  const outside: string[] = [];
  await context.route((url) => url.origin !== new URL(at).origin, (route) => (outside.push(route.request().url()), route.abort('blockedbyclient')));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A policy's refusal is reported on the console, not thrown to the page.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  const apiAnswers: Array<{ url: string; fromWorker: boolean }> = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/v2/')) apiAnswers.push({ url: response.url(), fromWorker: response.fromServiceWorker() });
  });
  await page.goto(`${at}/`);
  await page.getByRole('table').waitFor({ timeout: 30_000 });
  return { context, page, outside, errors, apiAnswers };
}

it.each([
  ['as served by default', () => origin],
  ["under a Content-Security-Policy without 'unsafe-eval'", () => strictOrigin],
])('runs against the sandbox in the browser, %s: list, filter, add, edit, terminate', async (_served, at) => {
  const { context, page, outside, errors, apiAnswers } = await openApp(at());
  const table = page.getByRole('table');
  expect(await page.getByText(/^Page 1 of \d+ \(\d+ employees\)$/).count()).toBe(1);

  await page.getByLabel('First name').first().fill('Fenna');
  await page.getByRole('form', { name: 'New employee' }).getByLabel('Last name').fill('Wubbolts');
  await page.getByLabel('Date of birth').fill('1992-03-04');
  await page.getByLabel('Start date').fill('2026-02-01');
  await page.getByRole('button', { name: 'Add employee' }).click();
  await page.getByRole('heading', { level: 2, name: 'F. Wubbolts' }).waitFor();

  await page.getByLabel('Last name contains').fill('Wubbolts');
  await expect.poll(() => table.getByRole('button').allTextContents()).toEqual(['F. Wubbolts']);

  const edit = page.getByRole('form', { name: 'Edit employee' });
  await edit.getByLabel('Last name').fill('Wubbolts-Dijk');
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 2, name: 'F. Wubbolts-Dijk' }).waitFor();

  const employment = page.getByRole('form', { name: 'Employment 1' });
  await employment.getByLabel('End date').fill('2026-05-31');
  await employment.getByRole('button', { name: 'Terminate' }).click();
  await page.getByText(/until 2026-05-31/).waitFor();

  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
  expect(apiAnswers.length).toBeGreaterThan(5);
  expect(apiAnswers.filter((answer) => !answer.fromWorker)).toEqual([]);
  await context.close();
});

it('starts the same way under the dev server (`pnpm dev`)', async () => {
  const dev = await createServer({ root: ROOT, logLevel: 'warn', server: { host: '127.0.0.1', port: 0, strictPort: false } });
  await dev.listen();
  try {
    const { context, page, outside, errors, apiAnswers } = await openApp(dev.resolvedUrls!.local[0]!.replace(/\/$/, ''));
    expect(await page.getByText(/^Page 1 of \d+ \(\d+ employees\)$/).count()).toBe(1);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(apiAnswers.length).toBeGreaterThan(0);
    expect(apiAnswers.filter((answer) => !answer.fromWorker)).toEqual([]);
    await context.close();
  } finally {
    await dev.close();
  }
});
