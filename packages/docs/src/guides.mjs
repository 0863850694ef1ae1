// The "Sandbox" and "Authorization" pages. The sandbox's behaviour is documented once, in the
// mock's README (isolation per token, reset and snapshots, the clock, OAuth, filters,
// PostgreSQL); this page renders those sections from there. Authorization renders contract
// §5's five checks and the rule catalogue's authorization entries.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { escapeHtml, renderPage } from './layout.mjs';
import { renderMarkdown } from './markdown.mjs';
import { SAMPLE_TOKEN, SANDBOX_ORIGIN } from './samples.mjs';

const require = createRequire(import.meta.url);

// The mock README's sections that describe the sandbox (by their level-2 headings).
const SANDBOX_SECTIONS = /sandbox|isolation|token|reset|snapshot|clock|oauth|filter|postgres/i;

/** The level-2 sections of a markdown text whose headings match `pattern`. */
export function sectionsOf(markdown, pattern) {
  const parts = markdown.split(/^(?=## )/m).filter((part) => part.startsWith('## '));
  return parts.filter((part) => pattern.test(part.split('\n', 1)[0]));
}

/** The README of a workspace package (`@payroll-api/mock`), or '' when it has none. */
export function packageReadme(name) {
  try {
    const file = path.join(path.dirname(require.resolve(`${name}/package.json`)), 'README.md');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

/** The Sandbox page. */
export function sandboxPage(readme = packageReadme('@payroll-api/mock')) {
  const sections = sectionsOf(readme, SANDBOX_SECTIONS);
  const body = `<h1>Sandbox</h1>
      <p class="lead">The sandbox is the mock of <code>@payroll-api/mock</code> in its default mode: both APIs answered from stored data, per bearer token, with the contract's rules. <code>pnpm start</code> runs it on <code>${SANDBOX_ORIGIN}</code> beside this site.</p>
      <p>The reference's <em>Try it</em> console and code samples call it with the token <code>${SAMPLE_TOKEN}</code> and with ids from its seed, so they work as shown against a fresh sandbox. Enter another sandbox address in the bar above a reference to call that one instead; the page then connects to that address only.</p>
      <pre><code>curl -X POST ${SANDBOX_ORIGIN}/__sandbox/reset -H 'Authorization: Bearer ${SAMPLE_TOKEN}'   # back to the seed, for this token</code></pre>
      <p>The <a href="journal-rules.html">journal rules</a> and <a href="payroll-rules.html">payroll rules</a> show each rule with requests that reproduce it.</p>
      ${sections.length ? `<div class="from-readme">${renderMarkdown(sections.join('\n'), { shift: 0 })}</div>` : '<p class="empty">The mock\'s README does not describe the sandbox\'s behaviour yet.</p>'}`;
  return renderPage({ id: 'sandbox', title: 'Sandbox', body });
}

/** A `### <heading>` subsection of a markdown text (up to the next heading of level 2 or 3), or ''. */
export function subsectionOf(markdown, heading) {
  const start = markdown.search(new RegExp(`^### ${heading}[ \\t]*$`, 'm'));
  if (start < 0) return '';
  const rest = markdown.slice(start + 4);
  const end = rest.search(/^#{2,3} /m);
  return markdown.slice(start, end < 0 ? undefined : start + 4 + end);
}

/**
 * The Authorization page: §5's five checks, the sandbox's seeded users (the mock README's
 * "Authorization" subsection) and the authorization rules of the catalogue.
 */
export function authorizationPage(rules = [], readme = packageReadme('@payroll-api/mock')) {
  const seeded = subsectionOf(readme, 'Authorization');
  const authorization = rules.filter((rule) => rule.status === 403 || rule.token);
  const body = `<h1>Authorization</h1>
      <p class="lead">A valid token is not enough: the user must be a normal, active platform user with access to the employer and the rights for the activity. Each operation's <code>operationId</code> is its <em>activity</em>.</p>
      <p>A call is answered <code>403</code> unless all five of these hold, checked in this order:</p>
      <ol id="authorization-steps">
        <li>the client is linked to the activity;</li>
        <li>the user has a right granting the activity;</li>
        <li>the user's role has access through that right (a role may also narrow the data, e.g. to one department);</li>
        <li>the provider or employer has the module the activity needs;</li>
        <li>the user has access to the entity addressed.</li>
      </ol>
      <p>Because clients are linked to activities and users to rights, a client can be unable to do what the user's rights would allow. The plain <code>403</code> body is <code>{"message": "Authorization has been denied for this request."}</code>.</p>
      <h2 id="in-the-sandbox">In the sandbox</h2>
      ${seeded ? `<div class="from-readme">${renderMarkdown(seeded.replace(/^### Authorization[^\n]*\n/, ''), { shift: 1 })}</div>` : ''}
      ${
        authorization.length
          ? `<p>The sandbox's seeded users show each check; every example runs against a freshly reset sandbox:</p><ul>${authorization
              .map((rule) => `<li><a href="${rule.api}-rules.html#${escapeHtml(rule.id)}"><code>${escapeHtml(rule.id)}</code></a>: ${escapeHtml(rule.title ?? '')}${rule.token ? ` (token <code>${escapeHtml(rule.token)}</code>)` : ''}</li>`)
              .join('')}</ul>`
          : '<p class="empty">The sandbox does not list seeded users with restricted rights yet: every token it accepts may call every activity.</p>'
      }
      <p>Authentication itself (OAuth 2.0 flows, tokens) is in the <a href="index.html#authentication">guide</a>.</p>`;
  return renderPage({ id: 'authorization', title: 'Authorization', body });
}
