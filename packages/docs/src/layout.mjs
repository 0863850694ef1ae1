// The shell every page shares: the Content-Security-Policy, the stylesheet and the site
// navigation. Pages live side by side at the site root, so every link is relative and the
// site works from any base path (a file server, a sub-folder, or `pnpm start`).
import { RULES_TOKEN, SAMPLE_TOKEN, SANDBOX_ORIGIN } from './samples.mjs';

/**
 * Escapes text for HTML element content and for attribute values, which this site always
 * writes in double quotes (so a single quote, as in 'self', stays as it is).
 */
export function escapeHtml(value) {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// The strict policy of the plain pages: only this site's own files, no inline script or
// style, no plugins, no framing of other sites, no form posts, no <base> rewriting.
const STRICT = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'none'"],
  'frame-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

// The reference pages run Redoc, which needs two relaxations, both same-origin, and the
// "Try it" console, which needs one more:
// - style-src 'unsafe-inline': Redoc styles itself with styled-components, which writes
//   generated <style> elements at run time; a static site cannot hand out per-request nonces.
//   Scripts stay 'self' only, so no injected markup can run code.
// - worker-src blob: 'self': Redoc's search index runs in a Web Worker that it creates from a
//   Blob URL built in the page (not fetched from anywhere); the console's sandbox "in this
//   browser" runs in a worker loaded from the site (assets/sandbox-worker.<hash>.js). That
//   worker gets the policy of its own response, not the page's: its validator (ajv) compiles
//   schemas with new Function there, while the page keeps script-src 'self' without eval.
// - connect-src http: https:: the console calls the sandbox the reader chose, which no static
//   policy can name. assets/sandbox-policy.js, the first script of the page, adds a second
//   policy, connect-src 'self' <that origin>; a page obeys both, so connections go to the
//   site and that one origin only. Choosing another sandbox reloads the page.
const REFERENCE = {
  ...STRICT,
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'", 'http:', 'https:'],
  'worker-src': ['blob:', "'self'"],
};

export const POLICIES = { strict: STRICT, reference: REFERENCE };

// The reasons, repeated in the page itself next to its policy.
const POLICY_NOTES = {
  strict: 'Content-Security-Policy: this site\'s own files only; no inline script or style.',
  reference:
    "Content-Security-Policy: this site's own files only, with two relaxations for Redoc and one for the console. " +
    "style-src 'unsafe-inline': Redoc (styled-components) writes its generated styles into <style> elements at run time. " +
    "worker-src blob: 'self': Redoc runs its search index in a Web Worker created from a Blob URL in the page; the console's in-browser sandbox runs in a worker from this site. " +
    "connect-src http: https: is narrowed at once by assets/sandbox-policy.js to 'self' and the one sandbox origin the reader chose. " +
    "Scripts remain 'self' only.",
};

/** The policy as the text of a Content-Security-Policy header or meta element. */
export function policyText(policy) {
  return Object.entries(policy)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');
}

export const NAV = [
  { href: 'start.html', label: 'Start here', id: 'start' },
  { href: 'index.html', label: 'Guide', id: 'guide' },
  { href: 'payroll.html', label: 'Payroll API', id: 'payroll' },
  { href: 'journal.html', label: 'Journal API', id: 'journal' },
  { href: 'sandbox.html', label: 'Sandbox', id: 'sandbox' },
  { href: 'conformance.html', label: 'Conformance', id: 'conformance' },
  { href: 'changelog.html', label: 'Changelog', id: 'changelog' },
  { href: 'deprecations.html', label: 'Deprecations', id: 'deprecations' },
];

/**
 * A complete HTML page.
 * @param {{id: string, title: string, body: string, policy?: 'strict'|'reference',
 *   head?: string, bodyAttributes?: string, main?: boolean, scripts?: string[]}} page
 * Every link is relative to the site root; the server rewrites them for the 404 page, which
 * it answers at any depth.
 */
export function renderPage({ id, title, body, policy = 'strict', head = '', bodyAttributes = '', main = true, scripts = [] }) {
  const nav = NAV.map(
    (item) =>
      `<a href="${item.href}"${item.id === id ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a>`,
  ).join('\n        ');
  const content = main ? `<main class="page" id="content">\n${body}\n    </main>` : body;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <!-- ${POLICY_NOTES[policy].replace(/--/g, '- -').replace(/[<>]/g, '')} -->
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(policyText(POLICIES[policy]))}">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${escapeHtml(title)} · Payroll API documentation</title>
    <link rel="icon" href="assets/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="assets/site.css">
${head}    <script src="assets/sandbox-settings.js" defer></script>
  </head>
  <body data-page="${escapeHtml(id)}" data-sample-origin="${escapeHtml(SANDBOX_ORIGIN)}" data-sample-token="${escapeHtml(SAMPLE_TOKEN)}" data-sample-tokens="${escapeHtml([SAMPLE_TOKEN, RULES_TOKEN].join(' '))}"${bodyAttributes ? ` ${bodyAttributes}` : ''}>
    <header class="site-header">
      <a class="brand" href="index.html">Payroll API</a>
      <nav aria-label="Site">
        ${nav}
      </nav>
      <form class="site-search" role="search" data-index="search-index.json">
        <input type="search" id="site-search" name="q" placeholder="Search activities, error codes, fields" aria-label="Search the documentation" autocomplete="off" spellcheck="false">
        <ol class="search-results" id="search-results" hidden></ol>
      </form>
    </header>
    ${content}
${[...scripts, 'assets/search.js'].map((src) => `    <script src="${src}" defer></script>`).join('\n')}
  </body>
</html>
`;
}
