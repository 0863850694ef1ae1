// The built site in real headless Chromium, served by the site's own server: every page
// renders (screenshots in artifacts/), logs no error and breaks no Content-Security-Policy,
// requests nothing outside the server (and the sandbox the console calls), lists every
// operation of both descriptions, and the pages link to each other. The calendar feed is
// fetched and parsed. Also: the "Try it" console against the real sandbox, search, phones,
// a sub-path, and the reference's transfer, repeat visit and first operation on screen
// (artifacts/weights.json).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { NAV } from '../src/layout.mjs';
import { startServer, staticHandler } from '../src/server.mjs';
import { imageStats, launchBrowser } from './browser.mjs';
import { builtSite } from './built-site.mjs';
import { parseIcs, property } from './ics.mjs';
import { createHostedClient, hostedToken, startHostedMock, startMock } from './mock.mjs';

/** The dotted name `field`, named at version `from`, has at the newest: each rename the description records since applied, oldest first. */
function newestName(doc, resource, from, field) {
  let name = field;
  for (const step of [...(doc['x-version-changes']?.[resource] ?? [])].reverse()) {
    if (step.version <= from) continue;
    for (const change of step.changes) if (change.rename === name) name = [...name.split('.').slice(0, -1), change.to].join('.');
  }
  return name;
}
const valueAt = (entity, field) => field.split('.').reduce((at, key) => at?.[key], entity);

const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));
const READY_TIMEOUT = 45_000;

const PAGES = [
  { name: 'start.html', heading: 'Start here', minText: 3000 },
  { name: 'index.html', heading: 'Payroll and HR API documentation', minText: 3000 },
  { name: 'payroll.html', reference: 'payroll', minText: 20_000 },
  { name: 'journal.html', reference: 'journal', minText: 10_000 },
  { name: 'changelog.html', heading: 'Changelog', minText: 80 },
  { name: 'deprecations.html', heading: 'Deprecation calendar', minText: 400 },
  { name: 'errors.html', heading: 'Journal error codes', minText: 2000 },
  { name: 'journal-rules.html', heading: 'Journal rules', minText: 400 },
  { name: 'payroll-rules.html', heading: 'Payroll rules', minText: 200 },
  { name: 'authorization.html', heading: 'Authorization', minText: 400 },
  { name: 'sandbox.html', heading: 'Sandbox', minText: 300 },
  { name: 'conformance.html', heading: 'Conformance', minText: 2000 },
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
let mock;
let browser;
let context;
let blank;
const requests = [];
const weights = {};
const measures = {};

beforeAll(async () => {
  site = builtSite();
  server = await startServer({ root: site.outDir, port: 0 });
  mock = await startMock();
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Every request is recorded; one for another origin is also refused, so a failing test
  // cannot reach the network either.
  const origin = new URL(server.url).origin;
  context.on('request', (request) => requests.push(request.url()));
  await context.route(
    (url) => url.origin !== origin && url.origin !== mock.origin,
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
  writeFileSync(path.join(ARTIFACTS, 'weights.json'), `${JSON.stringify({ build: site?.pages, loaded: weights, measured: measures }, null, 2)}\n`);
  await browser?.close();
  await server?.close();
  await mock?.stop();
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

describe('the Sandbox page in Chromium', () => {
  it('renders the control description: every operation of sandbox-control.json, and the scenario with its body', async () => {
    const control = JSON.parse(readFileSync(path.join(site.outDir, 'sandbox-control.json'), 'utf8'));
    const { page } = await open('sandbox.html');
    const shown = await page.locator('section.control-operation').evaluateAll((sections) => sections.map((s) => s.id.replace(/^control-/, '')));
    expect(shown.sort()).toEqual(operationIds(control).sort());
    const scenario = page.locator('#control-PostSandboxScenario');
    await expect(scenario.locator('h4').innerText()).resolves.toMatch(/POST \/__sandbox\/scenario/);
    await expect(scenario.isVisible()).resolves.toBe(true);
    await expect(scenario.innerText()).resolves.toMatch(/Body: Scenario/);
    await page.close();
  });
});

describe('every page in Chromium', () => {
  for (const spec of PAGES) {
    it(`${spec.name} renders, without errors or outside requests`, async () => {
      const before = requests.length;
      const { page, errors, bytes } = await open(spec.name, { expectedStatus: spec.status ?? 200 });
      // Chromium reports the 404 status of the page itself on the console; nothing else may.
      const unexpected = errors.filter((text) => !(spec.status === 404 && /status of 404/.test(text)));
      expect(unexpected).toEqual([]);
      expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);

      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').first().getAttribute('content');
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

      // Every operation has its console, its curl and TypeScript samples, and a badge where the
      // contract does not give its path.
      await page.waitForFunction(() => document.documentElement.dataset.tryIt === 'ready', null, { timeout: 10_000 });
      const consoles = await page.locator('[data-try]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-try')));
      expect(consoles.sort()).toEqual([...new Set(expected)].sort());
      const samples = await page.evaluate(() => document.body.innerText.match(/curl -X (GET|POST|PUT|PATCH|DELETE) /g)?.length ?? 0);
      expect(samples).toBeGreaterThan(0);
      const inferred = Object.values(doc.paths).flatMap((item) =>
        Object.values(item).filter((op) => op?.operationId && ['inferred', 'published'].includes(op['x-path-source'] ?? item['x-path-source'])).map((op) => op.operationId),
      );
      for (const id of inferred) {
        const badge = page.locator(`[id="operation/${id}"] .path-source a[href="index.html#path-sources"]`);
        expect(await badge.count(), id).toBeGreaterThan(0);
      }
      // Authentication is an entry of the reference's navigation.
      await expect(page.locator('li[data-item-id="section/Authentication"]').count()).resolves.toBe(1);
      await page.close();
    });
  }
});

describe('downloads', () => {
  it('each reference offers its description, its Postman collection and the environments, and each is served', async () => {
    for (const api of ['payroll', 'journal']) {
      const html = await (await fetch(new URL(`${api}.html`, server.url))).text();
      const downloads = /<p[^>]*id="downloads"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
      const hrefs = [...downloads.matchAll(/href="([^"]+)" download/g)].map((match) => match[1]);
      expect(hrefs).toEqual([`${api}.json`, `${api}.postman_collection.json`, 'hosted.postman_environment.json', 'sandbox.postman_environment.json', 'acceptance.postman_environment.json', 'production.postman_environment.json']);
      for (const href of hrefs) {
        const response = await fetch(new URL(href, server.url));
        expect(response.status, href).toBe(200);
        const body = await response.json();
        if (href.includes('postman_collection')) expect(body.info.schema, href).toMatch(/collection\/v2\.1\.0/);
        if (href.includes('postman_environment')) expect(body._postman_variable_scope, href).toBe('environment');
      }
    }
  });
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
    await page.locator('.site-header nav a', { hasText: /^Guide$/ }).click();
    await page.waitForURL(/\/index\.html$/, { timeout: 15_000 });
    await page.locator('.card', { hasText: 'Journal configuration API' }).click();
    await page.waitForURL(/\/journal\.html$/, { timeout: 15_000 });
    await page.goto(new URL('no/such/page', server.url).href);
    await page.locator('main a', { hasText: 'guide' }).click();
    await page.waitForURL(/\/index\.html$/, { timeout: 15_000 });
    await page.locator('.toc a', { hasText: 'Resource versioning' }).click();
    await page.waitForURL(/#versioning$/);
    await page.locator('#versioning a', { hasText: 'deprecation calendar' }).first().click();
    await page.waitForURL(/\/deprecations\.html(#resources)?$/, { timeout: 15_000 });
    // The guide links the conformance page; its failing report links the operation it is about.
    await page.goto(new URL('index.html', server.url).href);
    await page.locator('#more a', { hasText: 'Conformance' }).click();
    await page.waitForURL(/\/conformance\.html$/, { timeout: 15_000 });
    await page.locator('#a-failure ~ p a', { hasText: 'GetEmployerByEmployerId' }).first().click();
    await page.waitForURL(/\/payroll\.html#operation\/GetEmployerByEmployerId$/, { timeout: 15_000 });
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

describe('Try it', () => {
  it('calls the sandbox the reader chose with the prefilled request and shows status, headers and body; nothing else is reachable', async () => {
    const page = await context.newPage();
    const violations = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
    });
    await page.goto(new URL('payroll.html', server.url).href);
    await page.waitForFunction(() => document.documentElement.dataset.redoc === 'ready', null, { timeout: READY_TIMEOUT });
    // Choose the test's sandbox: the page reloads with a policy naming it.
    await page.locator('#sandbox-bar input[name="origin"]').fill(mock.origin);
    await Promise.all([page.waitForEvent('load'), page.locator('#sandbox-bar button').click()]);
    await page.waitForFunction(() => document.documentElement.dataset.tryIt === 'ready', null, { timeout: READY_TIMEOUT });
    const policies = await page.locator('meta[http-equiv="Content-Security-Policy"]').evaluateAll((nodes) => nodes.map((node) => node.content));
    expect(policies.at(-1)).toBe(`connect-src 'self' ${mock.origin}`);

    const box = page.locator('[data-try="GetEmployeesByEmployerId"]');
    await box.locator('summary').click();
    const employerId = site.samples.payroll.find((s) => s.operationId === 'GetEmployeesByEmployerId').pathParams.employerId;
    await expect(box.locator('input[name="path.employerId"]').inputValue()).resolves.toBe(employerId);
    // Prefilled with the newest employee version the description serves.
    const newest = JSON.parse(readFileSync(path.join(site.outDir, 'payroll.json'), 'utf8'))['x-resource-versions'].resources.employee.versions[0].version;
    await expect(box.locator('input[name="accept"]').inputValue()).resolves.toBe(`application/json;version=${newest}`);
    await box.locator('button[type="submit"]').click();
    await box.locator('.try-output[data-state="done"]').waitFor({ timeout: 15_000 });
    await expect(box.locator('.try-output').getAttribute('data-status')).resolves.toBe('200');
    await expect(box.locator('.try-headers').innerText()).resolves.toMatch(new RegExp(`content-type: application/json;\\s*version=${newest}`, 'i'));
    const body = JSON.parse(await box.locator('.try-body').innerText());
    expect(body._embedded.length).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'payroll_try_it.png') });

    // A call anywhere else is refused by the page's policy.
    const elsewhere = await page.evaluate((url) => fetch(url).then(() => 'answered', (error) => `refused: ${error.message}`), server.url.replace(/:\d+\/$/, ':9/'));
    expect(elsewhere).toMatch(/^refused/);
    expect(violations.some((text) => /connect-src/.test(text))).toBe(true);
    await page.close();
  });
});

describe('a hosted sandbox, as an integrator uses it', () => {
  it('the bar on Start here makes every sample show the address and token; Try it calls the hosted sandbox; a wrong address gets a plain notice, a retry and a choice, never the browser quietly', async () => {
    const hosted = await startHostedMock();
    // A closed port: the address an integrator mistypes.
    const wrong = await new Promise((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(`http://127.0.0.1:${port}`));
      });
    });
    const own = new URL(server.url).origin;
    const outsider = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await outsider.route((url) => ![own, hosted.origin, wrong].includes(url.origin), (route) => route.abort('blockedbyclient'));
    const seen = [];
    outsider.on('request', (request) => seen.push(request.url()));
    try {
      const client = await createHostedClient(hosted.origin, 'Browser test integrator');
      const token = await hostedToken(hosted.origin, client, 'browser-integrator');
      const page = await outsider.newPage();
      const samplesOf = () => page.locator('pre code').evaluateAll((nodes) => nodes.map((node) => node.textContent));
      // A sample that still shows the site's address or sample tokens, or a bearer token other than
      // the reader's (a seeded user's token and the <ACCESS_TOKEN> placeholder stand for themselves).
      const notTheReaders = (texts) =>
        texts.filter((text) => /127\.0\.0\.1:4010|demo-token|rules-demo/.test(text) || (text.includes(hosted.origin) && /Bearer (?!<|sandbox-user-)/.test(text) && !text.includes(`Bearer ${token}`)));

      await page.goto(new URL('start.html', server.url).href);
      await expect(page.locator('#each-username-is-a-sandbox').innerText()).resolves.toMatch(/Each username is a sandbox of its own/);
      await page.locator('#sandbox-settings input[name="origin"]').fill(hosted.origin);
      await page.locator('#sandbox-settings input[name="token"]').fill(token);
      await page.locator('#sandbox-settings button').click();
      let samples = await samplesOf();
      expect(samples.filter((text) => text.includes(hosted.origin)).length).toBeGreaterThan(4);
      expect(notTheReaders(samples)).toEqual([]);
      // On every other page too: the guide, the rules, the sandbox page, and a reference's generated samples below.
      for (const name of ['index.html', 'journal-rules.html', 'payroll-rules.html', 'sandbox.html']) {
        await page.goto(new URL(name, server.url).href);
        samples = await samplesOf();
        expect(samples.some((text) => text.includes(`${hosted.origin}/`)), name).toBe(true);
        expect(notTheReaders(samples), name).toEqual([]);
      }
      await page.goto(new URL('payroll.html', server.url).href);
      await page.waitForFunction(() => document.documentElement.dataset.tryIt === 'ready', null, { timeout: READY_TIMEOUT });
      await expect(page.locator('#sandbox-bar input[name="origin"]').inputValue()).resolves.toBe(hosted.origin);
      const curls = await page.evaluate(() => [...document.querySelectorAll('#redoc pre')].map((node) => node.textContent).filter((text) => text.startsWith('curl ')));
      expect(curls.length).toBeGreaterThan(10);
      expect(curls.filter((text) => !text.includes(`'${hosted.origin}/v2/v2/`) || !text.includes(`Bearer ${token}`))).toEqual([]);

      // Try it against the hosted sandbox, with the integrator's token.
      const tryIt = async (operationId, state) => {
        const box = page.locator(`[data-try="${operationId}"]`);
        if (!(await box.getAttribute('open'))) await box.locator('summary').click();
        await box.locator('button[type="submit"]').click();
        await box.locator(`.try-output[data-state="${state}"]`).waitFor({ timeout: 30_000 });
        return box;
      };
      let box = await tryIt('GetEmployeesByEmployerId', 'done');
      await expect(box.locator('.try-output').getAttribute('data-status')).resolves.toBe('200');
      await expect(box.locator('.try-output').getAttribute('data-target')).resolves.toBe('server');

      // A mistyped address: a plain notice, nothing sent elsewhere, no switch to this browser.
      await page.locator('#sandbox-bar input[name="origin"]').fill(wrong);
      await Promise.all([page.waitForEvent('load'), page.locator('#sandbox-bar button').click()]);
      await page.waitForFunction(() => document.documentElement.dataset.tryIt === 'ready', null, { timeout: READY_TIMEOUT });
      box = await tryIt('GetEmployeesByEmployerId', 'unreachable');
      const notice = box.locator('.try-notice');
      await expect(notice.innerText()).resolves.toContain(`No sandbox answered at ${wrong}`);
      await expect(page.locator('#sandbox-target').innerText()).resolves.not.toMatch(/in this browser/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'payroll_try_it_unreachable.png') });
      const worker = site.assets['assets/sandbox-worker.js'];
      expect(seen.some((url) => url.endsWith(worker))).toBe(false);
      // Retry asks the same address again, and says so again.
      const before = seen.filter((url) => url.startsWith(wrong)).length;
      await notice.locator('button[data-action="retry"]').click();
      await box.locator('.try-output[data-state="unreachable"] .try-notice').waitFor({ timeout: 30_000 });
      await expect.poll(() => seen.filter((url) => url.startsWith(wrong)).length, { timeout: 10_000 }).toBeGreaterThan(before);
      // Choosing this browser is the reader's decision, and it answers there.
      await box.locator('button[data-action="in-browser"]').click();
      await box.locator('.try-output[data-state="done"]').waitFor({ timeout: 60_000 });
      await expect(box.locator('.try-output').getAttribute('data-target')).resolves.toBe('browser');
      await page.close();
    } finally {
      await outsider.close();
      await hosted.stop();
    }
  }, 180_000);
});

describe('Try it in this browser', () => {
  it('answers from the sandbox engine in the page when no sandbox server answers: create, then read, and a reload keeps the data', async () => {
    const origin = new URL(server.url).origin;
    // A static host and nothing else: no sandbox is reachable (every other origin is refused).
    const isolated = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const seen = [];
    const refused = [];
    isolated.on('request', (request) => seen.push(request.url()));
    await isolated.route((url) => url.origin !== origin, (route) => (refused.push(route.request().url()), route.abort('blockedbyclient')));
    const page = await isolated.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const ready = async () => {
      await page.waitForFunction(() => document.documentElement.dataset.tryIt === 'ready', null, { timeout: READY_TIMEOUT });
    };
    const tryIt = async (operationId, pathParams = {}) => {
      const box = page.locator(`[data-try="${operationId}"]`);
      await box.locator('summary').click();
      for (const [name, value] of Object.entries(pathParams)) await box.locator(`input[name="path.${name}"]`).fill(value);
      await box.locator('button[type="submit"]').click();
      const output = box.locator('.try-output[data-state="done"]');
      await output.waitFor({ timeout: 60_000 });
      const milliseconds = Number(/· (\d+) ms/.exec(await box.locator('.try-status').innerText())?.[1]);
      return { status: await output.getAttribute('data-status'), target: await output.getAttribute('data-target'), milliseconds, body: JSON.parse(await box.locator('.try-body').innerText()) };
    };
    const worker = site.assets['assets/sandbox-worker.js'];
    expect(worker).toMatch(/^assets\/sandbox-worker\.[0-9a-f]{10}\.js$/);

    await page.goto(new URL('payroll.html', server.url).href);
    await ready();
    // The engine is not part of the page until the first Try.
    expect(seen.some((url) => url.endsWith(worker))).toBe(false);

    const sample = site.samples.payroll.find((s) => s.operationId === 'PostEmployeeByEmployerId');
    const created = await tryIt('PostEmployeeByEmployerId');
    expect(created).toMatchObject({ status: '201', target: 'browser' });
    expect(seen.some((url) => url.endsWith(worker))).toBe(true);
    await expect(page.locator('#sandbox-target').innerText()).resolves.toMatch(/No sandbox answered at http:\/\/127\.0\.0\.1:4010: answering in this browser/);
    const { employeeId } = created.body.content;
    const lastName = sample.body.employeeData.personalDetails.lastName;
    // Read at the newest employee version: the new employee's names are the employee's at 2021-03-29, renamed since where recorded.
    const lastNameField = newestName(JSON.parse(readFileSync(path.join(site.outDir, 'payroll.json'), 'utf8')), 'employee', '2021-03-29', 'personalDetails.lastName');
    const read = await tryIt('GetEmployeeByEmployeeId', { employeeId });
    expect(read).toMatchObject({ status: '200', target: 'browser' });
    expect(valueAt(read.body.content, lastNameField)).toBe(lastName);
    await page.screenshot({ path: path.join(ARTIFACTS, 'payroll_try_it_in_browser.png') });

    // A reload starts a new engine, which restores the reader's sandbox from IndexedDB.
    await page.reload();
    await ready();
    const again = await tryIt('GetEmployeeByEmployeeId', { employeeId });
    expect(again).toMatchObject({ status: '200', target: 'browser' });
    expect(again.body.content.id).toBe(employeeId);
    expect(valueAt(again.body.content, lastNameField)).toBe(lastName);
    // Recorded, not asserted (a busy machine is noisy): the first Try includes loading and starting the engine, the one after a reload also restoring the reader's data.
    measures.inBrowserSandbox = { workerBytes: readFileSync(path.join(site.outDir, worker)).length, firstTryMs: created.milliseconds, nextTryMs: read.milliseconds, firstTryAfterReloadMs: again.milliseconds };

    // Only the automatic probe of the default sandbox server left the site, and it was refused.
    expect([...new Set(refused)]).toEqual(['http://127.0.0.1:4010/__health']);
    expect(problems.filter((text) => !/__health|ERR_BLOCKED_BY_CLIENT|Failed to load resource/.test(text))).toEqual([]);
    await isolated.close();
  }, 120_000);
});

describe('search', () => {
  it('finds activity names (their operation first), full error codes and field names', async () => {
    const { page } = await open('index.html');
    const search = async (text) => {
      await page.locator('#site-search').fill(text);
      await page.locator('#search-results li').first().waitFor({ timeout: 10_000 });
      return page.locator('#search-results a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    };
    expect((await search('GetEmployeesByEmployerId'))[0]).toBe('payroll.html#operation/GetEmployeesByEmployerId');
    const code = 'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel';
    const hits = await search(code);
    expect(hits[0]).toBe(`errors.html#${code}`);
    expect(hits).toContain(`journal-rules.html#${code}`);
    expect((await search('companyName')).some((href) => /^payroll\.html#operation\//.test(href))).toBe(true);
    // Enter goes to the first hit: the operation itself, in the rendered reference.
    await page.locator('#site-search').fill('getemployeesbyemployerid');
    await page.locator('#search-results li').first().waitFor();
    await page.locator('#site-search').press('Enter');
    await page.waitForURL(/payroll\.html#operation\/GetEmployeesByEmployerId$/, { timeout: 15_000 });
    await page.close();
  });
});

describe('the deprecation calendar in the browser', () => {
  it('counts days from the reader\'s today and lists upcoming obsolete dates first', async () => {
    const scheduled = site.pages.length && JSON.parse(readFileSync(path.join(site.outDir, 'payroll.json'), 'utf8'))['x-resource-versions'];
    const dates = Object.values(scheduled.resources).flatMap((r) => r.versions.map((v) => v.obsoleteDate)).filter(Boolean).sort();
    const page = await context.newPage();
    // A day before the first obsolete date, so that every scheduled date is still ahead.
    if (dates.length) await page.clock.setFixedTime(new Date(`${dates[0]}T00:00:00Z`).getTime() - 86_400_000);
    await page.goto(new URL('deprecations.html', server.url).href);
    const rows = await page.locator('#calendar tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.obsolete, tr.querySelector('[data-days-left]').textContent, tr.querySelector('[data-status]').textContent]));
    expect(rows.length).toBe(site.calendarEntries);
    const upcoming = rows.filter(([date]) => date);
    expect(rows.slice(0, upcoming.length)).toEqual(upcoming);
    expect(upcoming.map(([date]) => date)).toEqual([...upcoming.map(([date]) => date)].sort());
    if (upcoming.length) {
      expect(upcoming[0][1]).toBe('1');
      expect(upcoming.every(([, , status]) => status === 'deprecated')).toBe(true);
      await expect(page.locator('#calendar-summary').innerText()).resolves.toContain(`The next date is ${dates[0]}, in 1 days.`);
    }
    await page.close();
  });
});

describe('phones', () => {
  it('no page scrolls sideways at 390 px, and the header navigation wraps', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await phone.route((url) => url.origin !== new URL(server.url).origin, (route) => route.abort('blockedbyclient'));
    const wide = [];
    for (const spec of PAGES) {
      const page = await phone.newPage();
      await page.goto(new URL(spec.name, server.url).href, { waitUntil: 'load' });
      if (spec.reference) await page.waitForFunction(() => document.documentElement.dataset.redoc === 'ready', null, { timeout: READY_TIMEOUT });
      const { scroll, client, navBottom, linksVisible } = await page.evaluate(() => {
        const nav = document.querySelector('.site-header nav');
        const links = [...nav.querySelectorAll('a')];
        return {
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
          navBottom: nav.getBoundingClientRect().bottom,
          linksVisible: links.every((a) => a.getBoundingClientRect().right <= window.innerWidth),
        };
      });
      if (scroll > client) wide.push(`${spec.name}: ${scroll} px wide`);
      expect(linksVisible, spec.name).toBe(true);
      expect(navBottom).toBeGreaterThan(0);
      if (spec.name === 'index.html' || spec.name === 'payroll.html') await page.screenshot({ path: path.join(ARTIFACTS, `phone_${spec.name.replace('.html', '')}.png`) });
      await page.close();
    }
    await phone.close();
    expect(wide).toEqual([]);
  });
});

describe('under a sub-path', () => {
  it('every link, asset and the 404 page work when the site is served below /docs/', async () => {
    const handler = staticHandler(site.outDir);
    const proxy = createServer((req, res) => {
      if (!req.url.startsWith('/docs/')) {
        res.writeHead(404).end();
        return;
      }
      req.url = req.url.slice('/docs'.length);
      handler(req, res);
    });
    await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${proxy.address().port}/docs/`;
    const isolated = await browser.newContext();
    await isolated.route((url) => url.origin !== new URL(base).origin, (route) => route.abort('blockedbyclient'));
    const failed = [];
    isolated.on('response', (response) => {
      if (response.status() >= 400 && !/missing/.test(response.url())) failed.push(`${response.status()} ${response.url()}`);
    });
    try {
      const page = await isolated.newPage();
      for (const item of NAV) {
        await page.goto(new URL(item.href, base).href, { waitUntil: 'load' });
        await page.waitForLoadState('networkidle', { timeout: READY_TIMEOUT });
      }
      const response = await page.goto(new URL('some/deep/missing.html', base).href);
      expect(response.status()).toBe(404);
      // Styled (its stylesheet loaded from two folders up) and its links lead back into the site.
      await expect(page.locator('.site-header').evaluate((node) => getComputedStyle(node).position)).resolves.toBe('fixed');
      await page.locator('main a', { hasText: 'guide' }).click();
      await page.waitForURL(`${base}index.html`, { timeout: 15_000 });
      expect(failed).toEqual([]);
    } finally {
      await isolated.close();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('the payroll reference: transfer, repeat visit, first operation on screen', () => {
  // Bytes are asserted (the goals: at most 40 % of the 1.6 MB the page used to transfer, a
  // repeat visit at most 5 % of a first). Times depend on the machine, so they are recorded in
  // artifacts/weights.json and only their order is asserted: an operation is on screen before
  // Redoc has finished.
  it('transfers at most 40 % of 1.6 MB, a repeat visit at most 5 % of a first, and shows an operation before Redoc is ready', async () => {
    // No request routing here: Playwright turns the HTTP cache off when it routes requests, and
    // the repeat visit is about that cache. The page requests nothing outside (tested above).
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // From the first frame on, note when an operation (the static list's, Redoc's section or
    // its navigation entry) is first painted inside the viewport, in the page's own clock.
    await fresh.addInitScript(() => {
      const look = () => {
        const nodes = document.querySelectorAll('[data-operation], [id^="operation/"], li[data-item-id*="/operation/"]');
        for (const node of nodes) {
          const box = node.getBoundingClientRect();
          if (box.height > 0 && box.top < window.innerHeight && box.bottom > 0) {
            window.__firstOperationMs = performance.now();
            return;
          }
        }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    const page = await fresh.newPage();
    const cdp = await fresh.newCDPSession(page);
    await cdp.send('Network.enable');
    let transferred = 0;
    cdp.on('Network.loadingFinished', (event) => {
      transferred += event.encodedDataLength;
    });
    const visit = async () => {
      transferred = 0;
      await page.goto(new URL('payroll.html', server.url).href, { waitUntil: 'load', timeout: READY_TIMEOUT });
      await page.waitForFunction(() => document.documentElement.dataset.redoc === 'ready', null, { timeout: READY_TIMEOUT });
      const redocReadyMs = await page.evaluate(() => performance.now());
      await page.waitForFunction(() => window.__firstOperationMs !== undefined, null, { timeout: READY_TIMEOUT });
      const firstOperationMs = await page.evaluate(() => window.__firstOperationMs);
      await page.waitForLoadState('networkidle', { timeout: READY_TIMEOUT });
      return { transferred, firstOperationMs: Math.round(firstOperationMs), redocReadyMs: Math.round(redocReadyMs) };
    };
    const first = await visit();
    const repeat = await visit();
    await fresh.close();
    measures.payrollReference = { first, repeat, goalBytes: 0.4 * 1.6e6, repeatShare: Number((repeat.transferred / first.transferred).toFixed(4)) };
    expect(first.transferred).toBeLessThanOrEqual(0.4 * 1.6e6);
    expect(repeat.transferred).toBeLessThanOrEqual(0.05 * first.transferred);
    expect(first.firstOperationMs).toBeLessThan(first.redocReadyMs);
  });
});
