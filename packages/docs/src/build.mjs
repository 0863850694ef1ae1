// Builds the static site into dist/ from the bundled descriptions, the changesets and the
// resource version registry. Everything a page needs is written beside it: no page refers
// to another site.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { todayUtc } from '@payroll-api/api-policy';
import { changelogPage } from './changelog.mjs';
import { deprecationFiles } from './deprecations.mjs';
import { renderPage } from './layout.mjs';
import { notFoundPage } from './not-found.mjs';
import { APIS, referencePage } from './reference.mjs';

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

/**
 * The files a page loads (stylesheet, icon, scripts, its description, and the images Redoc's
 * styles load when the page runs Redoc).
 */
export function pageAssets(html, redocImages = []) {
  const assets = new Set();
  for (const match of html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="([^"#?]+)"/g)) assets.add(match[1]);
  for (const match of html.matchAll(/\bdata-spec="([^"]+)"/g)) assets.add(match[1]);
  if (assets.has('assets/redoc.standalone.js')) for (const image of redocImages) assets.add(`assets/${image}`);
  return [...assets];
}

/**
 * Builds the site. Returns the pages with their weights (bytes of the HTML and of the files
 * it loads) and the build time.
 */
export function buildSite({ outDir = path.join(PACKAGE_DIR, 'dist'), root = REPO_ROOT, today = todayUtc() } = {}) {
  const started = performance.now();
  const payroll = readBundle('payroll.json');
  const journal = readBundle('journal.json');
  const bundles = { payroll, journal };

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  const write = (name, content) => writeFileSync(path.join(outDir, name), content);

  const redoc = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  const patched = patchRedoc(redoc);
  write('assets/redoc.standalone.js', patched.script);
  for (const image of patched.images) write(`assets/${image.name}`, image.bytes);
  for (const asset of ['site.css', 'reference.js', 'favicon.svg']) {
    copyFileSync(path.join(PACKAGE_DIR, 'assets', asset), path.join(outDir, 'assets', asset));
  }

  const pages = {};
  pages['index.html'] = renderPage({
    id: 'guide',
    title: 'Guide',
    body: readFileSync(path.join(PACKAGE_DIR, 'src/guide.html'), 'utf8'),
  });
  for (const api of APIS) {
    write(api.file, bundles[api.id].text);
    pages[`${api.id}.html`] = referencePage(api, bundles[api.id].doc);
  }
  const changelog = changelogPage(root);
  pages['changelog.html'] = changelog.html;
  const calendar = deprecationFiles(payroll.doc, { today });
  pages['deprecations.html'] = calendar.html;
  write('deprecations.ics', calendar.ics);
  write('deprecations.md', calendar.markdown);
  pages['404.html'] = notFoundPage();
  for (const [name, html] of Object.entries(pages)) write(name, html);

  const weights = Object.entries(pages).map(([name, html]) => {
    const assets = pageAssets(html, patched.images.map((image) => image.name)).map((asset) => asset.replace(/^\//, ''));
    const assetBytes = assets.reduce((sum, asset) => sum + statSync(path.join(outDir, asset)).size, 0);
    return { page: name, htmlBytes: Buffer.byteLength(html), assetBytes, totalBytes: Buffer.byteLength(html) + assetBytes, assets };
  });
  return {
    outDir,
    today,
    milliseconds: Math.round(performance.now() - started),
    pages: weights,
    pendingChangesets: changelog.pending,
    releasedPackages: changelog.released,
    calendarEntries: calendar.entries.length,
  };
}
