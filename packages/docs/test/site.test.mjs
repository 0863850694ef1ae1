// The built site in real headless Chromium, served by the site's own server: every page
// renders (screenshots in artifacts/), logs no error and breaks no Content-Security-Policy,
// requests nothing outside the server, lists every operation of both descriptions, and the
// pages link to each other. The calendar feed is fetched and parsed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../src/build.mjs';
import { NAV } from '../src/layout.mjs';
import { startServer } from '../src/server.mjs';
import { imageStats, launchBrowser } from './browser.mjs';
import { parseIcs, property } from './ics.mjs';

const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));
const READY_TIMEOUT = 45_000;

const PAGES = [
  { name: 'index.html', heading: 'Payroll and HR API documentation', minText: 3000 },
  { name: 'payroll.html', reference: 'payroll', minText: 20_000 },
  { name: 'journal.html', reference: 'journal', minText: 10_000 },
  { name: 'changelog.html', heading: 'Changelog', minText: 80 },
  { name: 'deprecations.html', heading: 'Deprecation calendar', minText: 400 },
  { name: 'missing/page.html', heading: 'Page not found', minText: 40, status: 404 },
];

function operationIds(doc) {
  const ids = [];
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) if (operation && typeof operation === 'object' && operation.operationId) ids.push(operation.operationId);
  }
  return ids;
}

let site;
let server;
let browser;
let context;
let blank;
const requests = [];
const weights = {};

beforeAll(async () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'payroll-docs-'));
  site = buildSite({ outDir });
  server = await startServer({ root: outDir, port: 0 });
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Every request is recorded; one for another origin is also refused, so a failing test
  // cannot reach the network either.
  const origin = new URL(server.url).origin;
  context.on('request', (request) => requests.push(request.url()));
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );
  // Policy violations are collected in the page as well as seen on the console.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  blank = await context.newPage();
}, 60_000);

afterAll(async () => {
  writeFileSync(path.join(ARTIFACTS, 'weights.json'), `${JSON.stringify({ build: site?.pages, loaded: weights }, null, 2)}\n`);
  await browser?.close();
  await server?.close();
  if (site) rmSync(site.outDir, { recursive: true, force: true });
});

/** Opens a page, waits until it has rendered, and returns it with its console errors. */
async function open(name, { expectedStatus = 200 } = {}) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  let bytes = 0;
  page.on('response', async (response) => {
    try {
      bytes += (await response.body()).length;
    } catch {
      // a response without a body (the worker's blob) counts nothing
    }
  });
  const response = await page.goto(new URL(name, server.url).href, { waitUntil: 'load', timeout: READY_TIMEOUT });
  expect(response.status()).toBe(expectedStatus);
  if (await page.locator('#redoc').count()) {
    await page.waitForFunction(() => document.documentElement.dataset.redoc !== 'loading' && document.documentElement.dataset.redoc, null, { timeout: READY_TIMEOUT });
    expect(await page.evaluate(() => document.documentElement.dataset.redoc)).toBe('ready');
  }
  await page.waitForLoadState('networkidle', { timeout: READY_TIMEOUT });
  return { page, errors, bytes: () => bytes };
}

describe('every page in Chromium', () => {
  for (const spec of PAGES) {
    it(`${spec.name} renders, without errors or outside requests`, async () => {
      const before = requests.length;
      const { page, errors, bytes } = await open(spec.name, { expectedStatus: spec.status ?? 200 });
      // Chromium reports the 404 status of the page itself on the console; nothing else may.
      const unexpected = errors.filter((text) => !(spec.status === 404 && /status of 404/.test(text)));
      expect(unexpected).toEqual([]);
      expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);

      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);

      if (spec.heading) await expect(page.locator('h1').first().textContent()).resolves.toContain(spec.heading);
      const text = await page.evaluate(() => document.body.innerText.length);
      expect(text).toBeGreaterThan(spec.minText);

      const file = path.join(ARTIFACTS, `${spec.name.replace(/[/.]/g, '_').replace(/_html$/, '')}.png`);
      const png = await page.screenshot({ path: file });
      const stats = await imageStats(blank, png);
      expect(stats.width).toBe(1280);
      // A blank (or single-colour) render fails: real pages mix text, header and panels.
      expect(stats.dominantShare).toBeLessThan(0.95);
      expect(stats.colours).toBeGreaterThan(8);

      const own = new URL(server.url).origin;
      const mine = requests.slice(before);
      expect(mine.length).toBeGreaterThan(0);
      for (const url of mine) {
        const effective = url.startsWith('blob:') ? url.slice(5) : url;
        expect(new URL(effective).origin, url).toBe(own);
      }
      weights[spec.name] = { bytesLoaded: bytes(), requests: mine.length };
      await page.close();
    });
  }
});

describe('the references', () => {
  for (const api of ['payroll', 'journal']) {
    it(`${api}.html renders every operation of ${api}.json with its media types`, async () => {
      const doc = JSON.parse(readFileSync(path.join(site.outDir, `${api}.json`), 'utf8'));
      const expected = operationIds(doc);
      expect(expected.length).toBeGreaterThan(10);
      const { page } = await open(`${api}.html`);
      // Redoc gives every operation a section anchored at operation/<operationId>.
      const rendered = await page.evaluate(() =>
        [...document.querySelectorAll('[id^="operation/"]')].map((element) => element.id.slice('operation/'.length)),
      );
      expect([...new Set(rendered)].sort()).toEqual([...new Set(expected)].sort());

      // The media types of the request body and the success response (versioned for the
      // payroll API) are on screen in each operation's section.
      const missing = [];
      for (const item of Object.values(doc.paths)) {
        for (const operation of Object.values(item)) {
          if (!operation?.operationId) continue;
          const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2/.test(status))?.[1];
          const media = [...Object.keys(success?.content ?? {}), ...Object.keys(operation.requestBody?.content ?? {})];
          if (media.length === 0) continue;
          const sectionText = await page.locator(`[id="operation/${operation.operationId}"]`).first().innerText();
          for (const type of media) if (!sectionText.includes(type)) missing.push(`${operation.operationId}: ${type}`);
        }
      }
      expect(missing).toEqual([]);
      if (api === 'payroll') await expect(page.locator('#media-type-note').innerText()).resolves.toMatch(/application\/json;version=\d{4}-\d{2}-\d{2}/);

      // The sidebar opens a tag and scrolls to one of its operations.
      const target = Object.values(doc.paths).flatMap((item) => Object.values(item)).filter((op) => op?.operationId).at(-1);
      const tag = page.locator(`li[data-item-id^="tag/"][aria-label="${target.tags[0]}"]`);
      if ((await tag.getAttribute('aria-expanded')) !== 'true') await tag.locator('> label').click({ timeout: 10_000 });
      await page.locator(`li[data-item-id$="/operation/${target.operationId}"] > label`).click({ timeout: 10_000 });
      await page.waitForFunction((id) => window.location.hash.endsWith(`/operation/${id}`), target.operationId, { timeout: 10_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, `${api}_operation.png`) });
      await page.close();
    });
  }
});

describe('navigation', () => {
  it('the header links every page, and clicking them reaches each one', async () => {
    const { page, errors } = await open('index.html');
    for (const item of [...NAV.slice(1), NAV[0]]) {
      await page.locator('.site-header nav a', { hasText: new RegExp(`^${item.label}$`) }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/${item.href}`), { timeout: 15_000 });
      await expect(page.locator('body').getAttribute('data-page')).resolves.toBe(item.id);
      await expect(page.locator('.site-header nav a[aria-current="page"]').textContent()).resolves.toBe(item.label);
    }
    // Links in the content work too: the guide's cards and the 404 page's way back.
    await page.locator('.card', { hasText: 'Journal configuration API' }).click();
    await page.waitForURL(/\/journal\.html$/, { timeout: 15_000 });
    await page.goto(new URL('no/such/page', server.url).href);
    await page.locator('main a', { hasText: 'guide' }).click();
    await page.waitForURL(/\/index\.html$/, { timeout: 15_000 });
    await page.locator('.toc a', { hasText: 'Resource versioning' }).click();
    await page.waitForURL(/#versioning$/);
    await page.locator('#versioning a', { hasText: 'deprecation calendar' }).first().click();
    await page.waitForURL(/\/deprecations\.html$/, { timeout: 15_000 });
    expect(errors.filter((text) => !/status of 404/.test(text))).toEqual([]);
    await page.close();
  });
});

describe('the deprecation calendar feed', () => {
  it('is linked from its page and is a valid VCALENDAR matching the table', async () => {
    const { page } = await open('deprecations.html');
    const href = await page.locator('#ics-link').getAttribute('href');
    const rows = await page.locator('#calendar tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())),
    );
    await page.close();
    expect(rows.length).toBe(site.calendarEntries);

    const response = await fetch(new URL(href, new URL('deprecations.html', server.url)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/calendar\b/);
    const calendars = parseIcs(await response.text());
    expect(calendars.map((c) => c.name)).toEqual(['VCALENDAR']);
    const [calendar] = calendars;
    expect(property(calendar, 'VERSION')?.value).toBe('2.0');
    expect(property(calendar, 'PRODID')?.value).toBeTruthy();
    const events = calendar.children.filter((c) => c.name === 'VEVENT');
    const withObsoleteDate = rows.filter((cells) => /^\d{4}-\d{2}-\d{2}$/.test(cells[3])).length;
    expect(events.length).toBe(rows.length + withObsoleteDate);
    const uids = new Set();
    for (const event of events) {
      for (const name of ['UID', 'DTSTAMP', 'DTSTART', 'SUMMARY']) expect(property(event, name), name).toBeTruthy();
      expect(property(event, 'DTSTART').value).toMatch(/^\d{8}$/);
      uids.add(property(event, 'UID').value);
    }
    expect(uids.size).toBe(events.length);
    // Every version in the table has its "introduced" event on its date.
    for (const [resource, version] of rows) {
      const day = version.replaceAll('-', '');
      expect(events.some((e) => property(e, 'DTSTART').value === day && property(e, 'SUMMARY').value.startsWith(`${resource} `))).toBe(true);
    }
  });
});
