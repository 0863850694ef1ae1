// The generators on their own: the changelog from changesets and changelogs, the deprecation
// calendar from a registry, the Redoc patch, and the built pages' policy.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchRedoc } from '../src/build.mjs';
import { builtSite } from './built-site.mjs';
import { changelogPage, parseChangeset } from '../src/changelog.mjs';
import { conformancePage, PROXY_ORIGIN, REPORT_OPERATIONS } from '../src/conformance.mjs';
import { deprecationFiles } from '../src/deprecations.mjs';
import { parseIcs, property } from './ics.mjs';

const temp = [];
function fixtureRepo(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'payroll-docs-repo-'));
  temp.push(root);
  for (const [file, content] of Object.entries({ 'pnpm-workspace.yaml': 'packages:\n  - spec\n  - packages/*\n', ...files })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('changelog', () => {
  it('says honestly that nothing is released or pending', () => {
    const root = fixtureRepo({ 'packages/a/package.json': '{"name":"@x/a","version":"0.1.0"}', '.changeset/README.md': '# Changesets' });
    const page = changelogPage(root);
    expect(page.pending).toBe(0);
    expect(page.released).toEqual([]);
    expect(page.html).toContain('No releases yet');
    expect(page.html).toContain('No pending changes.');
  });

  it('lists pending changesets as Unreleased and renders released changelogs safely', () => {
    const root = fixtureRepo({
      'packages/a/package.json': '{"name":"@x/a","version":"0.2.0"}',
      'packages/a/CHANGELOG.md':
        '# @x/a\n\n## 0.2.0\n\n### Minor Changes\n\n- 1a2b3c4: Add the `employee` <script>alert(1)</script> filter ![shot](https://example.com/shot.png)\n',
      'spec/package.json': '{"name":"@x/spec","version":"1.0.0"}',
      '.changeset/brave-cats.md': "---\n'@x/a': minor\n'@x/spec': patch\n---\n\nEmployments can be filtered by **endDate**.\n",
      '.changeset/config.json': '{}',
    });
    const page = changelogPage(root);
    expect(page.pending).toBe(1);
    expect(page.released).toEqual(['@x/a']);
    const unreleased = page.html.slice(page.html.indexOf('id="unreleased"'), page.html.indexOf('id="released"'));
    expect(unreleased).toContain('<strong>endDate</strong>');
    expect(unreleased).toMatch(/<code>@x\/a<\/code> minor/);
    expect(unreleased).toMatch(/<code>@x\/spec<\/code> patch/);
    const released = page.html.slice(page.html.indexOf('id="released"'));
    expect(released).toContain('<h4>0.2.0</h4>');
    expect(released).toContain('<h5>Minor Changes</h5>');
    // Markdown from the repository cannot add script or make the page load an image.
    expect(page.html).not.toContain('<script>alert');
    expect(page.html).toContain('&lt;script&gt;');
    expect(page.html).not.toMatch(/<img\b/);
    expect(page.html).toContain('<a href="https://example.com/shot.png">shot</a>');
  });

  it('names the file of a malformed changeset', () => {
    expect(() => parseChangeset('.changeset/x.md', 'no front matter')).toThrow(/\.changeset\/x\.md: a changeset starts with front matter/);
    expect(() => parseChangeset('.changeset/y.md', "---\n'@x/a': huge\n---\nText")).toThrow(/y\.md: @x\/a has bump "huge"/);
    const root = fixtureRepo({ '.changeset/bad.md': '---\n: [\n---\n' });
    expect(() => changelogPage(root)).toThrow(/bad\.md: the front matter is not valid YAML/);
  });
});

describe('deprecation calendar', () => {
  const doc = {
    'x-resource-versions': {
      baseline: '2018-01-01',
      resources: {
        employment: {
          operations: ['GetEmploymentByEmploymentId'],
          versions: [
            { version: '2026-09-01', obsoleteDate: null, basis: 'contract' },
            { version: '2019-12-16', obsoleteDate: '2027-03-01', basis: 'contract' },
          ],
        },
        provider: { operations: ['GetProvidersByUser'], versions: [{ version: '2018-01-01', obsoleteDate: null, basis: 'baseline' }] },
      },
    },
  };

  it('lists every version without depending on the day of the build, and the feed has an event per date', () => {
    const files = deprecationFiles(doc);
    expect(files.entries).toHaveLength(3);
    expect(files.html).toContain('1 resource version has a date from which it is no longer served.');
    // Days left and status are the reader's browser's to fill in (see site.test.mjs).
    expect(files.html).toMatch(/<tr data-obsolete="2027-03-01">[\s\S]*?<td>2027-03-01<\/td>\s*<td class="number" data-days-left>—<\/td>\s*<td>2026-09-01<\/td>/);
    expect(files.html).toContain('assets/deprecations.js');
    expect(files.markdown).toContain('The registry as of 2026-09-01.');
    expect(files.markdown).toContain('| `employment` | 2019-12-16 | 2019-12-16 | 2027-03-01 | 2026-09-01 | contract |');
    expect(files.markdown).not.toMatch(/days left/);
    const [calendar] = parseIcs(files.ics);
    const events = calendar.children.filter((c) => c.name === 'VEVENT');
    expect(events).toHaveLength(4);
    expect(events.every((e) => property(e, 'DTSTAMP').value === '20260901T000000Z')).toBe(true);
    expect(events.some((e) => property(e, 'DTSTART').value === '20270301' && /no longer served/.test(property(e, 'SUMMARY').value))).toBe(true);
  });

  it('shows each version change beside its version, as a migration note', () => {
    const withChanges = structuredClone(doc);
    withChanges['x-version-changes'] = {
      employment: [{ version: '2026-09-01', previous: '2019-12-16', changes: [{ add: 'workingCountry', type: 'string', default: 'NL' }] }],
    };
    const files = deprecationFiles(withChanges);
    expect(files.entries.find((e) => e.version === '2026-09-01').changes).toEqual(['`workingCountry` is new and required (a string); a write at an older version gets `"NL"`.']);
    expect(files.html).toMatch(/<td>2026-09-01<\/td>[\s\S]*?<td class="changes"><ul><li><code>workingCountry<\/code> is new and required/);
    expect(files.markdown).toContain('## Migration notes\n\n### `employment` 2019-12-16 → 2026-09-01\n\n2019-12-16 is served until 2027-03-01.\n\n- `workingCountry` is new and required');
    expect(deprecationFiles(doc).markdown).not.toContain('Migration notes');
  });

  it('says per resource what each version changed, that a resource with one version has not changed, and which dates a request may name', () => {
    const withChanges = structuredClone(doc);
    withChanges['x-version-changes'] = {
      employment: [{ version: '2026-09-01', previous: '2019-12-16', changes: [{ add: 'workingCountry', type: 'string', default: 'NL' }] }],
    };
    const { html } = deprecationFiles(withChanges);
    const section = (resource) => new RegExp(`<section class="resource-history" id="resource-${resource}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
    expect(html).toContain('1 of 2 resources have more than one version.');
    const employment = section('employment');
    expect(employment).toMatch(/<li><code>2019-12-16<\/code> <span class="muted">obsolete from 2027-03-01<\/span>: First version of <code>employment<\/code>/);
    expect(employment).toMatch(/<li><code>2026-09-01<\/code>: <ul><li><code>workingCountry<\/code> is new and required/);
    expect(employment).toContain('one dated before 2019-12-16, the oldest version, gets <code>400</code> naming <code>Accept</code>');
    const provider = section('provider');
    expect(provider).toContain('Only one version exists: <code>2018-01-01</code> (the baseline');
    expect(provider).toContain('A request without a date gets 2018-01-01');
    expect(provider).toContain('payroll.html#operation/GetProvidersByUser');
    // No empty "changes" cell: a first version says so.
    expect(html).not.toContain('<td class="changes"></td>');
    // A version without recorded changes says that, too.
    expect(deprecationFiles(doc).html).toContain('No field changes from 2019-12-16.');
    expect(deprecationFiles({ 'x-resource-versions': { resources: { provider: doc['x-resource-versions'].resources.provider } } }).html).toContain('Every resource has one version today: no resource has changed yet.');
  });

  it('builds the same files on any day', () => {
    expect(deprecationFiles(doc)).toEqual(deprecationFiles(structuredClone(doc)));
  });

  it('explains a bundle without the registry', () => {
    expect(() => deprecationFiles({})).toThrow(/no x-resource-versions: rebuild it/);
  });
});

describe('Redoc without outside requests', () => {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');

  it('drops the CDN logo and writes inline images out as files', () => {
    const { script, images } = patchRedoc(source);
    expect(script).not.toContain('cdn.redoc.ly');
    expect(script).not.toMatch(/data:image\//);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(script).toContain(`assets/${image.name}`);
      if (image.name.endsWith('.svg')) expect(image.bytes.toString('utf8')).toMatch(/^<svg\b/);
    }
  });

  it('fails loudly when Redoc changes', () => {
    expect(() => patchRedoc('console.log("another version")')).toThrow(/expected the CDN logo snippet once, found it 0 times/);
  });
});

describe('the built site', () => {
  let site;
  beforeAll(async () => {
    site = builtSite();
  });

  it('shows real conformance reports: a passing run against the sandbox, and the findings of one through a proxy that drops Expires', () => {
    const html = readFileSync(path.join(site.outDir, 'conformance.html'), 'utf8');
    const { passing, failing } = site.conformance;
    expect(passing.failures).toBe(0);
    expect(passing.markdown).toMatch(/\| result \| passed \|/);
    for (const operationId of REPORT_OPERATIONS) expect(passing.markdown).toContain(operationId);
    expect(passing.markdown).not.toContain('## Not covered');
    // Every finding of the failing run is the injected fault, each with its curl through the proxy.
    expect(failing.failures).toBeGreaterThan(0);
    expect(new Set(failing.findings.map((f) => f.check))).toEqual(new Set(['expires']));
    expect(failing.markdown).toContain(`curl -i '${PROXY_ORIGIN}/v2/v2/providers/employers/`);
    expect(html).toContain('the Expires header is missing');
    expect(html).toContain(`<td>${passing.requests}</td>`);
    // The commands of the three uses come from the checker's README.
    for (const heading of ['In CI, against the sandbox', 'Read-only, against the acceptance environment', 'The proxy, during development']) expect(html).toContain(heading);
    expect(html).toContain('payroll-conformance proxy --target');
    // The servers' random ports are not in the page: the build gives the same page every time.
    expect(html.match(/127\.0\.0\.1:(\d+)/g).every((origin) => /:(4010|4030)$/.test(origin))).toBe(true);
    // A run through a broken proxy that finds nothing is not shown as "what a failure looks like".
    expect(() => conformancePage({ passing, failing: { ...failing, failures: 0 } })).toThrow(/found nothing/);
  });

  it('sets a Content-Security-Policy on every page and loads nothing from elsewhere', () => {
    const pages = readdirSync(site.outDir).filter((name) => name.endsWith('.html'));
    expect(pages.sort()).toEqual([
      '404.html',
      'authorization.html',
      'changelog.html',
      'conformance.html',
      'deprecations.html',
      'errors.html',
      'index.html',
      'journal-rules.html',
      'journal.html',
      'payroll-rules.html',
      'payroll.html',
      'sandbox.html',
      'start.html',
    ]);
    for (const name of pages) {
      const html = readFileSync(path.join(site.outDir, name), 'utf8');
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
      expect(csp, name).toMatch(/^default-src 'self'; script-src 'self'; /);
      expect(csp, name).toContain("object-src 'none'");
      expect(csp, name).not.toMatch(/unsafe-eval|\*/);
      if (name === 'payroll.html' || name === 'journal.html') {
        expect(csp).toContain("style-src 'self' 'unsafe-inline'");
        expect(csp).toContain('worker-src blob:');
        // Narrowed to the chosen sandbox by the first script of the page, before any other runs.
        expect(csp).toContain("connect-src 'self' http: https:;");
        expect(csp.replace("connect-src 'self' http: https:;", '')).not.toMatch(/https?:/);
        const head = html.slice(0, html.indexOf('</head>'));
        // Then, deferred, the reader's sandbox for the samples (before the reference's own scripts).
        expect(head.match(/<script\b[^>]*>/g)).toEqual([`<script src="${site.assets['assets/sandbox-policy.js']}">`, `<script src="${site.assets['assets/sandbox-settings.js']}" defer>`]);
      } else {
        expect(csp, name).not.toMatch(/https?:/);
        expect(csp).toContain("style-src 'self';");
      }
      // Every script is a file of the site (the JSON options block is data, not script).
      for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/type="application\/json"/.test(match[1])) continue;
        expect(match[1], name).toMatch(/src="(?:assets\/)[\w.-]+"/);
        expect(match[2]).toBe('');
      }
      for (const match of html.matchAll(/<(?:link|script|img|iframe|source)\b[^>]*\b(?:src|href)="([^"]+)"/g)) {
        expect(match[1], name).not.toMatch(/^(?:https?:)?\/\//);
      }
    }
  });

  it('reports each page with its weight', () => {
    const payroll = site.pages.find((page) => page.page === 'payroll.html');
    expect(payroll.assets).toEqual(
      expect.arrayContaining(['redoc.standalone.js', 'reference.js', 'try-it.js', 'site.css'].map((name) => site.assets[`assets/${name}`]).concat(['payroll.reference.json', 'payroll.console.json'])),
    );
    for (const asset of Object.values(site.assets)) expect(asset).toMatch(/^assets\/[\w.-]+\.[0-9a-f]{10}\.\w+$/);
    expect(payroll.totalBytes).toBe(payroll.htmlBytes + payroll.assetBytes);
    expect(site.calendarEntries).toBeGreaterThan(0);
  });
});
