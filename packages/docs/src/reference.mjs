// The reference pages: Redoc renders each description in the browser from a reading copy of
// the bundle (`<api>.reference.json`: the bundle plus generated code samples, path-source
// badges and an Authentication section); the bundle itself is offered for download as it is.
// The page carries a static list of the operations, shown at once while Redoc loads (Redoc
// renders into a collapsed container meanwhile, then takes the list's place), and a
// "Try it" console (assets/try-it.js) that calls the sandbox the reader chose.
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { escapeHtml, renderPage } from './layout.mjs';
import { POSTMAN_COLLECTIONS, POSTMAN_ENVIRONMENTS, postmanEnvironmentFile } from './postman.mjs';
import { SANDBOX_ORIGIN, SAMPLE_TOKEN, API_BASES } from './samples.mjs';

export const APIS = [
  { id: 'payroll', file: 'payroll.json', readingCopy: 'payroll.reference.json', console: 'payroll.console.json', title: 'Payroll and HR API v2 reference' },
  { id: 'journal', file: 'journal.json', readingCopy: 'journal.reference.json', console: 'journal.console.json', title: 'Journal configuration API reference' },
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
    // The reading copy places Authentication itself (readingCopy), once.
    noAutoAuth: true,
    showExtensions: ['x-contract-gap', 'x-activity', 'x-path-source'],
    downloadFileName: api.file,
    downloadDefinitionUrl: api.file,
    theme: {
      colors: { primary: { main: '#1f4e79' } },
      typography: {
        fontFamily: SANS,
        fontSize: '15px',
        headings: { fontFamily: SANS, fontWeight: '600' },
        code: { fontFamily: MONO },
      },
      sidebar: { width: '260px' },
      rightPanel: { width: '40%' },
    },
  };
}

/** Where a path comes from: x-path-source on the operation, else on its path item. */
export function pathSource(pathItem, operation) {
  return operation['x-path-source'] ?? pathItem['x-path-source'] ?? null;
}

// Paths the contract does not give are inferred, or taken from the production service's
// published description; the guide explains both (index.html#path-sources).
export const PATH_BADGES = {
  inferred: { name: 'Path inferred', color: '#9a5b00', sentence: 'The contract does not give this path; it is inferred.' },
  published: { name: 'Path from the published service', color: '#5b4a9a', sentence: "The contract does not give this path; it is the production service's published path." },
};

const AUTHENTICATION_TEXT = `Every call carries a bearer token: \`Authorization: Bearer <ACCESS_TOKEN>\`, obtained with OAuth 2.0 from the environment's token endpoint \`{auth_url}/token\` (see the [guide](index.html#authentication) and [authorization](authorization.html)). A hosted sandbox takes only tokens from its own \`/auth/token\`, asked with your client id and secret ([start here](start.html#token)); a local sandbox takes any token, each with its own data. The samples and the console use the token in the sandbox bar.

<SecurityDefinitions />
`;

/**
 * The description with one Authentication section, its own entry in Redoc's navigation: the
 * description's own section gets the security schemes, or a new one is added at the end.
 */
export function withAuthentication(description) {
  const heading = /^(#{1,2}) Authentication[ \t]*$/m.exec(description);
  if (!heading) return `${description}\n\n# Authentication\n\n${AUTHENTICATION_TEXT}`;
  const next = description.slice(heading.index + heading[0].length).search(new RegExp(`^#{1,${heading[1].length}} `, 'm'));
  const end = next < 0 ? description.length : heading.index + heading[0].length + next;
  return `${description.slice(0, end).trimEnd()}\n\n${AUTHENTICATION_TEXT}\n${description.slice(end)}`;
}

/**
 * The reading copy of a bundle: code samples per operation (x-codeSamples, rendered by Redoc
 * beside the request), a badge and a linked sentence on every operation whose path is not
 * the contract's, and Authentication as its own section of the navigation.
 */
export function readingCopy(doc, samples) {
  const copy = structuredClone(doc);
  const byId = new Map(samples.map((sample) => [sample.operationId, sample]));
  for (const { pathItem, operation } of operationsOf(copy)) {
    const sample = byId.get(operation.operationId);
    if (sample) {
      operation['x-codeSamples'] = [
        { lang: 'Shell', label: 'curl', source: sample.curl },
        { lang: 'TypeScript', label: 'TypeScript', source: sample.typescript },
      ];
    }
    const badge = PATH_BADGES[pathSource(pathItem, operation)];
    if (badge) {
      operation['x-badges'] = [{ name: badge.name, color: badge.color }];
      operation.description = `<p class="path-source"><span class="badge">${escapeHtml(badge.name)}</span> ${escapeHtml(badge.sentence)} <a href="index.html#path-sources">Why and how</a>.</p>\n\n${operation.description ?? ''}`;
    }
  }
  copy.info = { ...copy.info, description: withAuthentication(copy.info?.description ?? '') };
  return copy;
}

/** What the console needs per operation: its request as the samples make it. */
export function consoleData(api, samples, { worker }) {
  return {
    base: API_BASES[api.id],
    // The script of the in-browser sandbox (relative to the page), started on the first Try that goes there.
    worker,
    defaultOrigin: SANDBOX_ORIGIN,
    token: SAMPLE_TOKEN,
    operations: Object.fromEntries(
      samples.map((s) => [s.operationId, { method: s.method, path: s.path, pathParams: s.pathParams, accept: s.accept, contentType: s.contentType, body: s.body ?? null }]),
    ),
  };
}

/** The static list of operations by tag, shown while Redoc loads (and without JavaScript). */
function operationList(doc) {
  const groups = new Map((doc.tags ?? []).map((tag) => [tag.name, []]));
  for (const { path, method, pathItem, operation } of operationsOf(doc)) {
    const tag = operation.tags?.[0] ?? 'Other';
    if (!groups.has(tag)) groups.set(tag, []);
    const badge = PATH_BADGES[pathSource(pathItem, operation)];
    groups.get(tag).push(
      `<li data-operation="${escapeHtml(operation.operationId)}"><a href="#operation/${escapeHtml(operation.operationId)}"><span class="method method-${method}">${method.toUpperCase()}</span> <span class="summary">${escapeHtml(operation.summary ?? operation.operationId)}</span></a> <code class="path">${escapeHtml(path)}</code> <code class="activity">${escapeHtml(operation.operationId)}</code>${badge ? ` <span class="badge">${escapeHtml(badge.name)}</span>` : ''}</li>`,
    );
  }
  return [...groups]
    .filter(([, items]) => items.length)
    .map(([tag, items]) => `<section><h2>${escapeHtml(tag)}</h2><ul>${items.join('')}</ul></section>`)
    .join('\n');
}

/** The media type sentence above the reference. */
function mediaTypeNote(doc) {
  const versioned = new Set();
  for (const { operation } of operationsOf(doc)) {
    for (const node of [operation.requestBody, ...Object.values(operation.responses ?? {})]) {
      for (const media of Object.keys(deref(doc, node)?.content ?? {})) if (/;\s*version=/.test(media)) versioned.add(media);
    }
  }
  return versioned.size
    ? `Every JSON request and response body has a versioned media type such as <code>${escapeHtml([...versioned].sort()[0])}</code>. Each operation shows it beside <em>Request Body schema</em> and <em>Response Schema</em>, and in the content type of its samples; send it in <code>Accept</code> (and <code>Content-Type</code> for a body). See <a href="index.html#versioning">resource versioning</a> and the <a href="deprecations.html">deprecation calendar</a>.`
    : `Each operation lists its media types beside <em>Request Body schema</em> and <em>Response Schema</em> and in the content type of its samples; list operations also offer csv and xlsx exports. See <a href="index.html#errors">errors and messages</a>.`;
}

/** The HTML of a reference page. */
export function referencePage(api, doc) {
  const body = `    <div class="reference-bar">
      <p class="reference-note" id="media-type-note">${mediaTypeNote(doc)}</p>
      <p class="reference-note reference-downloads" id="downloads">Download: <a href="${escapeHtml(api.file)}" download>OpenAPI description</a> · <a href="${escapeHtml(POSTMAN_COLLECTIONS[api.id])}" download>Postman collection</a> with the environments ${POSTMAN_ENVIRONMENTS.map((id) => `<a href="${escapeHtml(postmanEnvironmentFile(id))}" download>${id}</a>`).join(', ')}</p>
      <form class="sandbox-bar" id="sandbox-bar" aria-label="Sandbox">
        <label>Try it in <select name="target">
          <option value="auto">the sandbox server, else this browser</option>
          <option value="server">the sandbox server</option>
          <option value="browser">this browser</option>
        </select></label>
        <label>Sandbox <input name="origin" type="url" required pattern="https?://.+" value="${SANDBOX_ORIGIN}" size="24" spellcheck="false"></label>
        <label>Token <input name="token" type="text" required value="${SAMPLE_TOKEN}" size="12" spellcheck="false" autocomplete="off"></label>
        <button type="submit">Use</button>
        <span class="sandbox-help">"Try it" calls only this address, and the samples show it and the token (a hosted sandbox: <a href="start.html">start here</a>). With the default address and no sandbox there, the same sandbox runs in this browser and keeps your data here; an address you entered that does not answer is reported, never replaced.</span>
        <output class="sandbox-target" id="sandbox-target" aria-live="polite"></output>
      </form>
    </div>
    <p class="reference-status" id="redoc-status" role="alert" hidden></p>
    <noscript><p class="reference-status">The reference viewer needs JavaScript. The description itself is <a href="${escapeHtml(api.file)}">${escapeHtml(api.file)}</a>.</p></noscript>
    <div class="reference-skeleton" id="operation-list" aria-busy="true">
      <p class="muted">Loading the full reference… The operations:</p>
${operationList(doc)}
    </div>
    <div id="redoc" class="redoc-loading" data-spec="${escapeHtml(api.readingCopy)}" data-console="${escapeHtml(api.console)}"></div>
    <script type="application/json" id="redoc-options">${JSON.stringify(redocOptions(api)).replace(/</g, '\\u003c')}</script>
    <script src="assets/redoc.standalone.js" defer></script>
    <script src="assets/reference.js" defer></script>
    <script src="assets/try-it.js" defer></script>`;
  return renderPage({
    id: api.id,
    title: api.title,
    body,
    policy: 'reference',
    main: false,
    bodyAttributes: 'class="reference"',
    head: `    <meta name="sandbox-origin" content="${SANDBOX_ORIGIN}">\n    <script src="assets/sandbox-policy.js"></script>\n`,
  });
}
