// The reference pages: Redoc renders each bundled description in the browser from the copy
// of the bundle served beside the page.
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { escapeHtml, renderPage } from './layout.mjs';

export const APIS = [
  { id: 'payroll', file: 'payroll.json', title: 'Payroll and HR API v2 reference' },
  { id: 'journal', file: 'journal.json', title: 'Journal configuration API reference' },
];

// The site's own typefaces are the reader's system fonts, so Redoc is told to use the same
// stacks: no web font is needed, and Redoc itself loads none.
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace';

/** Redoc options of a reference page. */
export function redocOptions(api) {
  return {
    // The fixed site header stays above Redoc's sticky sidebar and scroll targets.
    scrollYOffset: '.site-header',
    expandResponses: '200,201',
    requiredPropsFirst: true,
    pathInMiddlePanel: true,
    jsonSampleExpandLevel: 3,
    nativeScrollbars: true,
    showExtensions: ['x-contract-gap', 'x-activity', 'x-path-source'],
    downloadFileName: api.file,
    theme: {
      colors: { primary: { main: '#1f4e79' } },
      typography: {
        fontFamily: SANS,
        fontSize: '15px',
        headings: { fontFamily: SANS, fontWeight: '600' },
        code: { fontFamily: MONO },
      },
      sidebar: { width: '280px' },
    },
  };
}

/** The HTML of a reference page. */
export function referencePage(api, doc) {
  const versioned = new Set();
  for (const { operation } of operationsOf(doc)) {
    for (const node of [operation.requestBody, ...Object.values(operation.responses ?? {})]) {
      for (const media of Object.keys(deref(doc, node)?.content ?? {})) if (/;\s*version=/.test(media)) versioned.add(media);
    }
  }
  const note = versioned.size
    ? `Every JSON request and response body has a versioned media type such as <code>${escapeHtml([...versioned].sort()[0])}</code>. Each operation shows it beside <em>Request Body schema</em> and <em>Response Schema</em>, and in the content type of its samples; send it in <code>Accept</code> (and <code>Content-Type</code> for a body). See <a href="index.html#versioning">resource versioning</a> and the <a href="deprecations.html">deprecation calendar</a>.`
    : `Each operation lists its media types beside <em>Request Body schema</em> and <em>Response Schema</em> and in the content type of its samples; list operations also offer csv and xlsx exports. See <a href="index.html#errors">errors and messages</a>.`;
  const body = `    <p class="reference-note" id="media-type-note">${note}</p>
    <p class="reference-status" id="redoc-status" role="alert" hidden></p>
    <noscript><p class="reference-status">The reference viewer needs JavaScript. The description itself is <a href="${escapeHtml(api.file)}">${escapeHtml(api.file)}</a>.</p></noscript>
    <div id="redoc" data-spec="${escapeHtml(api.file)}"></div>
    <script type="application/json" id="redoc-options">${JSON.stringify(redocOptions(api)).replace(/</g, '\\u003c')}</script>
    <script src="assets/redoc.standalone.js"></script>
    <script src="assets/reference.js"></script>`;
  return renderPage({ id: api.id, title: api.title, body, policy: 'reference', main: false, bodyAttributes: 'class="reference"' });
}
