// The "Sandbox" and "Authorization" pages. The sandbox's behaviour is documented once, in the
// mock's README (isolation per token, reset and snapshots, the clock, OAuth, filters,
// PostgreSQL); this page renders those sections from there, and the control endpoints from
// their OpenAPI description (spec/sandbox-control). Authorization renders the
// sandbox's authorization model (its data file beside the rule catalogues) and the rule
// catalogue's authorization entries.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import YAML from 'yaml';
import { escapeHtml, renderPage } from './layout.mjs';
import { renderMarkdown } from './markdown.mjs';
import { rulesFile, stepCurl } from './rules.mjs';
import { SAMPLE_TOKEN, SANDBOX_ORIGIN } from './samples.mjs';

const require = createRequire(import.meta.url);

// The mock README's sections that describe the sandbox (by their level-2 headings).
const SANDBOX_SECTIONS = /sandbox|isolation|token|reset|snapshot|clock|oauth|filter|postgres/i;
// Sections (at any level) for whoever runs a sandbox, not for whoever calls it: they stay in
// the README, off the site.
const OPERATOR_SECTIONS = /hosting|storage|docker|scale on paper/i;

/** A README section without its subsections for operators (each with its deeper subsections). */
function withoutOperatorParts(section) {
  return section
    .split(/^(?=###? )/m)
    .filter((part) => !/^###? /.test(part) || !OPERATOR_SECTIONS.test(part.split('\n', 1)[0]))
    .join('');
}

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

/** The engine's sections the Sandbox page shows: running it in process and under MSW, faults, fixtures and scenarios. */
const ENGINE_SECTIONS = /in process|under msw|faults|fixtures|scenario/i;

/** The control description bundled by the spec package, or null before it is built. */
export function controlDescription() {
  try {
    return JSON.parse(readFileSync(require.resolve('@payroll-api/spec/sandbox-control.json'), 'utf8'));
  } catch {
    return null;
  }
}

const resolveRef = (doc, value) => (value?.$ref?.startsWith('#/') ? value.$ref.slice(2).split('/').reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) : value);
const schemaName = (value) => value?.$ref?.split('/').pop() ?? null;

/**
 * The control description as a section of the Sandbox page: its introduction, then every
 * operation by tag with its method and path, summary, description, parameters, request body
 * and answers. Static HTML: the page stays light, with no Redoc.
 */
export function controlApiSection(doc) {
  if (!doc?.paths) return '<p class="empty">The control description is not built yet.</p>';
  const operations = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
      const operation = item[method];
      if (operation) operations.push({ template, method, operation, item });
    }
  }
  const byTag = (doc.tags ?? []).map((tag) => ({ tag, list: operations.filter((o) => (o.operation.tags ?? [])[0] === tag.name) }));
  const parameters = (o) => [...(o.item.parameters ?? []), ...(o.operation.parameters ?? [])].map((p) => resolveRef(doc, p));
  const renderOperation = (o) => {
    const { operationId, summary, description } = o.operation;
    const params = parameters(o);
    const body = o.operation.requestBody ? resolveRef(doc, o.operation.requestBody) : null;
    const bodySchema = body ? schemaName(Object.values(body.content ?? {})[0]?.schema) : null;
    const answers = Object.entries(o.operation.responses ?? {}).map(([status, response]) => `<code>${escapeHtml(status)}</code> ${escapeHtml(resolveRef(doc, response)?.description ?? '')}`);
    return `<section class="control-operation" id="control-${escapeHtml(operationId)}">
        <h4><code>${o.method.toUpperCase()} ${escapeHtml(o.template)}</code> ${escapeHtml(summary ?? '')} <small>${escapeHtml(operationId)}</small></h4>
        ${o.item['x-sandbox-status'] === 'planned' ? '<p class="empty">Planned: the sandbox does not serve it yet (404).</p>' : ''}
        ${description ? renderMarkdown(description) : ''}
        ${params.length ? `<p>Parameters: ${params.map((p) => `<code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})${p.description ? ` ${escapeHtml(p.description)}` : ''}`).join('; ')}</p>` : ''}
        ${bodySchema ? `<p>Body: <code>${escapeHtml(bodySchema)}</code></p>${renderMarkdown(doc.components?.schemas?.[bodySchema]?.description ?? '')}` : ''}
        <p>Answers:</p><ul>${answers.map((answer) => `<li>${answer}</li>`).join('')}</ul>
      </section>`;
  };
  return `<h2 id="control-api">Control API</h2>
      <p>The control endpoints as <a href="sandbox-control.json">their OpenAPI description</a> gives them (typed in <code>@payroll-api/types/sandbox-control</code>, called by <code>@payroll-api/client/sandbox</code>). The sandbox checks every control request against it, as it checks API requests against theirs.</p>
      <div class="from-readme">${renderMarkdown(doc.info?.description ?? '', { shift: 1 })}</div>
      ${byTag
        .filter(({ list }) => list.length > 0)
        .map(({ tag, list }) => `<h3 id="control-${escapeHtml(tag.name.toLowerCase().replace(/\W+/g, '-'))}">${escapeHtml(tag.name)}</h3>
      <p>${escapeHtml(tag.description ?? '')}</p>
      ${list.map(renderOperation).join('\n')}`)
        .join('\n')}`;
}

/** The Sandbox page. */
export function sandboxPage(readme = packageReadme('@payroll-api/mock'), engineReadme = packageReadme('@payroll-api/sandbox'), control = controlDescription()) {
  const sections = sectionsOf(readme, SANDBOX_SECTIONS)
    .filter((section) => !OPERATOR_SECTIONS.test(section.split('\n', 1)[0]))
    .map(withoutOperatorParts);
  const engine = sectionsOf(engineReadme, ENGINE_SECTIONS);
  const body = `<h1>Sandbox</h1>
      <p class="lead">The sandbox is the mock of <code>@payroll-api/mock</code> in its default mode: both APIs answered from stored data, per bearer token, with the contract's rules. <code>npx payroll-mock</code> runs one on your machine, on <code>${SANDBOX_ORIGIN}</code>; a hosted sandbox has its own address and takes only tokens it issued (<a href="start.html">start here</a>).</p>
      <p>The reference's <em>Try it</em> console and every code sample use the address and token of the sandbox bar (<code>${SANDBOX_ORIGIN}</code> and <code>${SAMPLE_TOKEN}</code> until you set yours) and ids from the seed, so they work as shown against a fresh sandbox. The page connects to that address only.</p>
      <pre><code>curl -X POST ${SANDBOX_ORIGIN}/__sandbox/reset -H 'Authorization: Bearer ${SAMPLE_TOKEN}'   # back to the seed, for this token</code></pre>
      <p>The <a href="journal-rules.html">journal rules</a> and <a href="payroll-rules.html">payroll rules</a> show each rule with requests that reproduce it.</p>
      ${sections.length ? `<div class="from-readme">${renderMarkdown(sections.join('\n'), { shift: 0 })}</div>` : '<p class="empty">The mock\'s README does not describe the sandbox\'s behaviour yet.</p>'}
      ${engine.length ? `<h2 id="without-a-server">Without a server: in tests and in the browser</h2>
      <p>The same engine, <code>@payroll-api/sandbox</code>, answers in process and under MSW (in a browser tab, Storybook, Playwright, or vitest with jsdom), with no server process.</p>
      <div class="from-readme">${renderMarkdown(engine.join('\n'), { shift: 1 })}</div>` : ''}
      ${controlApiSection(control)}`;
  return renderPage({ id: 'sandbox', title: 'Sandbox', body });
}

/**
 * The sandbox's authorization model as data (packages/mock/rules/authorization.yaml): the
 * contract's five steps with what the sandbox checks for each, the refusal, the seeded users
 * (each with an example refused at the step it shows), the clients and how to get a token.
 * Each user's example becomes a rule step, so that it renders and runs like the catalogue's.
 */
export function readAuthorizationModel(file = rulesFile('authorization')) {
  if (!file) return null;
  let model;
  try {
    model = YAML.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not valid YAML (${error.message})`);
  }
  if (!Array.isArray(model?.steps) || !Array.isArray(model?.users) || !model.refusal?.header) throw new Error(`${file}: needs steps, users and refusal.header`);
  const users = model.users.map((user) => {
    if (!user?.username || !user.token || !user.example?.method || !user.example.path || !user.example.status) throw new Error(`${file}: user ${user?.username ?? '?'} needs a username, a token and an example (method, path, status)`);
    const { method, path: examplePath, body, status, header } = user.example;
    const step = { method, path: examplePath, accept: 'application/json', ...(body === undefined ? {} : { contentType: 'application/json', body }), expect: { status, ...(header ? { header: { [model.refusal.header]: header } } : {}) } };
    return { ...user, step };
  });
  return { ...model, users };
}

const STEP_REASONS = (step) => (step.reasons ?? []).map((reason) => `<code>${escapeHtml(reason)}</code>`).join(', ');

/**
 * The Authorization page: the five steps and the seeded users from the sandbox's
 * authorization model, and the authorization rules of the catalogue.
 */
export function authorizationPage(rules = [], model = readAuthorizationModel()) {
  const authorization = rules.filter((rule) => rule.status === 403 || rule.token);
  if (!model) throw new Error("authorization page: the sandbox's authorization model (packages/mock/rules/authorization.yaml) is missing");
  const { contract, refusal } = model;
  const steps = model.steps
    .map((step) => `<li id="authorization-step-${escapeHtml(step.step)}"><strong>${escapeHtml(step.question)}</strong><br>Refusal reasons: ${STEP_REASONS(step)}.<p>${escapeHtml(step.sandbox ?? '')}</p></li>`)
    .join('\n        ');
  const users = model.users
    .map(
      (user) => `<tr id="user-${escapeHtml(user.username)}"><td><code>${escapeHtml(user.username)}</code></td><td><code>${escapeHtml(user.token)}</code></td><td><code>${escapeHtml(user.client)}</code></td><td>${escapeHtml(user.role)}</td><td><a href="#authorization-step-${escapeHtml(user.demonstrates)}">${escapeHtml(user.demonstrates)}</a></td><td>${escapeHtml(user.description ?? '')}</td></tr>`,
    )
    .join('\n          ');
  const examples = model.users
    .map((user) => `<li><p><code>${escapeHtml(user.username)}</code>: expect <code>${escapeHtml(user.step.expect.status)}</code>${user.example.header ? ` with <code>${escapeHtml(refusal.header)}: ${escapeHtml(user.example.header)}</code>` : ''}.</p><pre><code>${escapeHtml(stepCurl(user.step, user.token))}</code></pre></li>`)
    .join('\n        ');
  const body = `<h1>Authorization</h1>
      <p class="lead">A valid token is not enough: the user must be a normal, active platform user with access to the employer and the rights for the activity. Each operation's <code>operationId</code> is its <em>activity</em>.</p>
      ${contract?.quote ? `<blockquote class="contract-quote">${escapeHtml(contract.quote)}<footer>Contract: ${escapeHtml(contract.document ?? 'payroll')}${contract.section ? `, section ${escapeHtml(contract.section)}` : ''}</footer></blockquote>` : ''}
      <p>A call is answered <code>${escapeHtml(refusal.status)}</code> unless all ${model.steps.length} of these hold, checked in this order (with what the sandbox checks for each):</p>
      <ol id="authorization-steps">
        ${steps}
      </ol>
      <p>The refusal: ${escapeHtml(refusal.body ?? '')}. In the sandbox it also carries the header <code>${escapeHtml(refusal.header)}: ${escapeHtml(refusal.headerFormat ?? '')}</code>. ${escapeHtml(refusal.headerNote ?? '')}</p>
      <h2 id="in-the-sandbox">In the sandbox</h2>
      <p>${escapeHtml(model.quickStart ?? '')}</p>
      <p>${escapeHtml(model.tokens ?? '')}</p>
      <div class="table-scroll"><table id="seeded-users">
        <thead><tr><th>username</th><th>sandbox token</th><th>client</th><th>role</th><th>shows step</th><th></th></tr></thead>
        <tbody>
          ${users}
        </tbody>
      </table></div>
      ${model.users[0]?.password ? `<p>Password of the seeded users (password grant): <code>${escapeHtml(model.users[0].password)}</code>.</p>` : ''}
      <p>Clients: ${(model.clients ?? []).map((client) => `<code>${escapeHtml(client.id)}</code> (${escapeHtml(client.description ?? '')})`).join('; ')}.</p>
      <p>Each user's example, refused at the step it shows against a freshly reset sandbox (the documentation's tests run them):</p>
      <ol class="rule-steps" id="user-examples">
        ${examples}
      </ol>
      ${
        authorization.length
          ? `<p>The catalogue's authorization rules, one per step:</p><ul>${authorization
              .map((rule) => `<li><a href="${rule.api}-rules.html#${escapeHtml(rule.id)}"><code>${escapeHtml(rule.id)}</code></a>: ${escapeHtml(rule.title ?? '')}${rule.token ? ` (token <code>${escapeHtml(rule.token)}</code>)` : ''}</li>`)
              .join('')}</ul>`
          : ''
      }
      <p>Authentication itself (OAuth 2.0 flows, tokens) is in the <a href="index.html#authentication">guide</a>.</p>`;
  return renderPage({ id: 'authorization', title: 'Authorization', body });
}
