// Builds the static site into dist/ from the bundled descriptions, the changesets and the
// resource version registry. Everything a page needs is written beside it: no page refers
// to another site.
//
// Nothing depends on the day of the build, so turbo caches it. Every asset gets a content
// hash in its name (served with long-lived caching); text files get precompressed .br and
// .gz copies beside them, which the site's server and static hosts send as they are.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { apiChangelog } from '@payroll-api/api-policy';
import { errorCodesPage, pageSections, searchIndex } from './catalogue.mjs';
import { changelogPage } from './changelog.mjs';
import { conformancePage, conformanceReports } from './conformance.mjs';
import { deprecationFiles, registryStamp } from './deprecations.mjs';
import { authorizationPage, readAuthorizationModel, sandboxPage } from './guides.mjs';
import { renderPage } from './layout.mjs';
import { notFoundPage } from './not-found.mjs';
import { POSTMAN_COLLECTIONS, postmanCollection, postmanEnvironments } from './postman.mjs';
import { APIS, consoleData, readingCopy, referencePage } from './reference.mjs';
import { RULE_APIS, readRules, rulesPage } from './rules.mjs';
import { operationSamples, readSeed } from './samples.mjs';
import { startPage } from './start.mjs';

const require = createRequire(import.meta.url);
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_ROOT = path.resolve(PACKAGE_DIR, '../..');

// Redoc's sidebar footer shows a logo image loaded from Redocly's CDN. The site makes no
// outside request, so the image is taken out (the "API docs by Redocly" link stays). The
// build fails if Redoc changes and the snippet is no longer found.
const REDOC_CDN_LOGO =
  'e?n.createElement("img",{alt:"redocly logo",onError:()=>t(!1),src:"https://cdn.redoc.ly/redoc/logo-mini.svg"}):null';

// Redoc's styles also inline an icon (the section link) as a data: URI. It is written out as
// a file of the site instead, so that img-src can stay 'self' without data:.
const DATA_IMAGE = /data:image\/(svg\+xml|png);base64,([A-Za-z0-9+/=]+)/g;

/**
 * Redoc's standalone script with no outside request and no data: image: returns the script
 * and the image files to write beside it (`assets/<name>`).
 */
export function patchRedoc(source) {
  const count = source.split(REDOC_CDN_LOGO).length - 1;
  if (count !== 1) {
    throw new Error(`redoc.standalone.js: expected the CDN logo snippet once, found it ${count} times; check the Redoc version`);
  }
  const images = [];
  const patched = source.replace(REDOC_CDN_LOGO, 'null').replace(DATA_IMAGE, (match, type, base64) => {
    const name = `redoc-icon-${images.length + 1}.${type === 'png' ? 'png' : 'svg'}`;
    images.push({ name, bytes: Buffer.from(base64, 'base64') });
    return `assets/${name}`;
  });
  const outside = patched.match(/https?:\/\/[^"'`\s)]*\.(?:svg|png|jpe?g|gif|webp|woff2?|ttf|otf|css)\b/g);
  if (outside) throw new Error(`redoc.standalone.js still refers to outside assets: ${[...new Set(outside)].join(', ')}`);
  return { script: patched, images };
}

function readBundle(file) {
  let resolved;
  try {
    resolved = require.resolve(`@payroll-api/spec/${file}`);
  } catch {
    resolved = path.join(REPO_ROOT, 'spec/dist', file);
  }
  if (!existsSync(resolved)) {
    throw new Error(`${file} is missing: build the descriptions first (pnpm --filter @payroll-api/spec build)`);
  }
  const text = readFileSync(resolved, 'utf8');
  try {
    return { text, doc: JSON.parse(text) };
  } catch (error) {
    throw new Error(`${resolved} is not valid JSON: ${error.message}`);
  }
}

// Files the browser may keep for a year: their names change with their content.
export const HASHED_NAME = /\.[0-9a-f]{10}\.[a-z0-9]+$/;
const COMPRESSIBLE = /\.(?:html|css|js|json|svg|ics|md|txt)$/;

function contentHash(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 10);
}

/** `assets/name.ext` → `assets/name.<hash>.ext`. */
function hashedName(name, bytes) {
  const ext = path.extname(name);
  return `${name.slice(0, -ext.length)}.${contentHash(bytes)}${ext}`;
}

/** The guide's examples address the seed: `{{seed.<name>}}` is the seed's well-known id. */
export function withSeedIds(html, seed) {
  return html.replace(/\{\{seed\.(\w+)\}\}/g, (placeholder, name) => {
    if (!seed.ids[name]) throw new Error(`src/guide.html: ${placeholder} is not a well-known id of the sandbox's seed (${Object.keys(seed.ids).join(', ') || 'none found'})`);
    return seed.ids[name];
  });
}

/** Writes .br and .gz beside every text file of `dir` that they make smaller. */
export function precompress(dir) {
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    const bytes = readFileSync(file);
    if (bytes.length < 1024) continue;
    // Quality 9: within 10 % of the smallest output at a twentieth of the time (Redoc: 0.1 s, not 2 s).
    const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = zlib.gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
    files += 1;
  }
  return files;
}

/** The files a page loads: stylesheet, icon, scripts, and the data its scripts fetch. */
export function pageAssets(html) {
  const assets = new Set();
  for (const match of html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="([^"#?]+)"/g)) assets.add(match[1]);
  for (const match of html.matchAll(/\bdata-(?:spec|console)="([^"]+)"/g)) assets.add(match[1]);
  return [...assets];
}

/** The sandbox engine for the console's "in this browser" target, as one worker script (src/in-browser-sandbox.mjs). */
export function bundleInBrowserSandbox() {
  const result = require('esbuild').buildSync({
    entryPoints: [path.join(PACKAGE_DIR, 'src/in-browser-sandbox.mjs')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

const OWN_ASSETS = ['site.css', 'favicon.svg', 'reference.js', 'try-it.js', 'sandbox-policy.js', 'sandbox-settings.js', 'search.js', 'deprecations.js'];

/**
 * Builds the site. Returns the pages with their weights (bytes of the HTML and of the files
 * it loads, as built and as brotli sends them) and the build time. Asynchronous because the
 * conformance page's reports come from real runs of the checker against a sandbox.
 */
export async function buildSite({ outDir = path.join(PACKAGE_DIR, 'dist'), root = REPO_ROOT, seed = readSeed() } = {}) {
  const started = performance.now();
  const conformance = await conformanceReports(seed);
  const payroll = readBundle('payroll.json');
  const journal = readBundle('journal.json');
  const bundles = { payroll, journal };

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  const write = (name, content) => writeFileSync(path.join(outDir, name), content);

  // Assets under hashed names; `renamed` maps each logical name to its file.
  const renamed = new Map();
  const writeAsset = (name, bytes) => {
    const file = hashedName(name, Buffer.from(bytes));
    write(file, bytes);
    renamed.set(name, file);
  };
  const redoc = patchRedoc(readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8'));
  for (const image of redoc.images) writeAsset(`assets/${image.name}`, image.bytes);
  writeAsset('assets/redoc.standalone.js', redoc.images.reduce((script, image) => script.replaceAll(`assets/${image.name}`, renamed.get(`assets/${image.name}`)), redoc.script));
  for (const asset of OWN_ASSETS) writeAsset(`assets/${asset}`, readFileSync(path.join(PACKAGE_DIR, 'assets', asset)));
  // Loaded by the console on its first Try "in this browser" only, so no page's weight includes it.
  writeAsset('assets/sandbox-worker.js', bundleInBrowserSandbox());

  const stamp = registryStamp(payroll.doc['x-resource-versions'] ?? {});
  const rules = Object.fromEntries(RULE_APIS.map((page) => [page.api, readRules(page.api)]));
  const allRules = Object.values(rules).flat();
  const pages = {};
  pages['index.html'] = renderPage({
    id: 'guide',
    title: 'Guide',
    body: withSeedIds(readFileSync(path.join(PACKAGE_DIR, 'src/guide.html'), 'utf8'), seed),
  });
  pages['start.html'] = startPage(seed, readAuthorizationModel());
  const samples = {};
  for (const api of APIS) {
    samples[api.id] = operationSamples(api.id, bundles[api.id].doc, seed);
    write(api.file, bundles[api.id].text);
    write(api.readingCopy, JSON.stringify(readingCopy(bundles[api.id].doc, samples[api.id])));
    write(api.console, JSON.stringify(consoleData(api, samples[api.id], { worker: renamed.get('assets/sandbox-worker.js') })));
    pages[`${api.id}.html`] = referencePage(api, bundles[api.id].doc);
  }
  // The Postman collections and environments, offered beside the descriptions.
  const postmanVariables = new Map();
  for (const api of APIS) {
    const { collection, variables } = await postmanCollection(api.id, bundles[api.id].doc, samples[api.id]);
    for (const [name, value] of variables) postmanVariables.set(name, value);
    write(POSTMAN_COLLECTIONS[api.id], JSON.stringify(collection, null, 2));
  }
  const environments = postmanEnvironments({ payroll: payroll.doc, journal: journal.doc }, postmanVariables);
  for (const { file, environment } of environments) write(file, JSON.stringify(environment, null, 2));
  const errors = errorCodesPage(journal.doc, new Map(rules.journal.map((rule) => [rule.id, rule])));
  pages['errors.html'] = errors.html;
  for (const page of RULE_APIS) pages[page.file] = rulesPage(page, rules[page.api]);
  pages['authorization.html'] = authorizationPage(allRules);
  // The control description beside the page that renders it, for download as it is.
  const control = readBundle('sandbox-control.json');
  write('sandbox-control.json', control.text);
  pages['sandbox.html'] = sandboxPage(undefined, undefined, control.doc);
  pages['conformance.html'] = conformancePage(conformance);
  const changelog = changelogPage(root, apiChangelog({ root, today: stamp }));
  pages['changelog.html'] = changelog.html;
  const calendar = deprecationFiles(payroll.doc);
  pages['deprecations.html'] = calendar.html;
  write('deprecations.ics', calendar.ics);
  write('deprecations.md', calendar.markdown);
  pages['404.html'] = notFoundPage();
  write(
    'search-index.json',
    JSON.stringify(
      searchIndex({
        apis: APIS.map((api) => ({ api, doc: bundles[api.id].doc })),
        codes: errors.codes,
        rules: allRules,
        pages: [
          { title: 'Start here', href: 'start.html', text: 'hosted sandbox address token client credentials client id secret username limits postman newman' },
          ...pageSections(pages['start.html'], 'start.html', 'Start here'),
          { title: 'Journal error codes', href: 'errors.html', text: 'error codes 400 validation messages' },
          { title: 'Journal rules', href: 'journal-rules.html', text: 'rules sandbox' },
          { title: 'Payroll rules', href: 'payroll-rules.html', text: 'rules sandbox' },
          { title: 'Authorization', href: 'authorization.html', text: '403 rights roles modules activities' },
          { title: 'Sandbox', href: 'sandbox.html', text: 'reset snapshot clock token isolation' },
          { title: 'Conformance', href: 'conformance.html', text: 'payroll-conformance checker report proxy CI acceptance' },
          { title: 'Deprecation calendar', href: 'deprecations.html', text: 'obsoleteDate resource versions' },
          { title: 'Changelog', href: 'changelog.html', text: 'releases api changes' },
        ],
      }),
    ),
  );
  for (const [name, html] of Object.entries(pages)) {
    // Logical asset names become the hashed ones (in src/href attributes only).
    pages[name] = html.replace(/\b(src|href)="(assets\/[^"]+)"/g, (match, attribute, asset) => (renamed.has(asset) ? `${attribute}="${renamed.get(asset)}"` : match));
    write(name, pages[name]);
  }
  precompress(outDir);

  const sizeOf = (file) => statSync(path.join(outDir, file)).size;
  const brotliOf = (file) => (existsSync(path.join(outDir, `${file}.br`)) ? sizeOf(`${file}.br`) : sizeOf(file));
  const weights = Object.keys(pages).map((name) => {
    const assets = pageAssets(pages[name]);
    if (assets.some((asset) => asset === renamed.get('assets/redoc.standalone.js'))) for (const image of redoc.images) assets.push(renamed.get(`assets/${image.name}`));
    const htmlBytes = sizeOf(name);
    const assetBytes = assets.reduce((sum, asset) => sum + sizeOf(asset), 0);
    const brotliBytes = [name, ...assets].reduce((sum, file) => sum + brotliOf(file), 0);
    return { page: name, htmlBytes, assetBytes, totalBytes: htmlBytes + assetBytes, brotliBytes, assets };
  });
  return {
    outDir,
    stamp,
    assets: Object.fromEntries(renamed),
    samples,
    rules,
    milliseconds: Math.round(performance.now() - started),
    pages: weights,
    pendingChangesets: changelog.pending,
    releasedPackages: changelog.released,
    calendarEntries: calendar.entries.length,
    conformance,
  };
}
