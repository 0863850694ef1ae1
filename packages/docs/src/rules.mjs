// The "Journal rules" and "Payroll rules" pages, rendered from the sandbox's rule catalogues
// (packages/mock/rules/<api>.yaml; the format is described in that folder). Each entry is one
// searchable section with the contract's words and a curl per step; the docs tests run the
// same steps against a freshly reset sandbox.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import YAML from 'yaml';
import { escapeHtml, renderPage } from './layout.mjs';
import { RULES_TOKEN, SANDBOX_ORIGIN } from './samples.mjs';

const require = createRequire(import.meta.url);
export const RULE_APIS = [
  { api: 'journal', title: 'Journal rules', file: 'journal-rules.html' },
  { api: 'payroll', title: 'Payroll rules', file: 'payroll-rules.html' },
];
/** The token rule steps run with unless an entry names its own. */
export { RULES_TOKEN };

/** packages/mock/rules/<api>.yaml, or null when the mock has none yet. */
export function rulesFile(api) {
  try {
    const file = path.join(path.dirname(require.resolve('@payroll-api/mock/package.json')), 'rules', `${api}.yaml`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** The entries of one catalogue, checked enough to render and run: [{id, title, …, steps}]. */
export function readRules(api, file = rulesFile(api)) {
  if (!file) return [];
  let entries;
  try {
    entries = YAML.parse(readFileSync(file, 'utf8')) ?? [];
  } catch (error) {
    throw new Error(`${file}: not valid YAML (${error.message})`);
  }
  if (!Array.isArray(entries)) throw new Error(`${file}: a rule catalogue is a YAML list of entries`);
  const seen = new Set();
  return entries.map((entry, index) => {
    const where = `${file}: entry ${index + 1}${entry?.id ? ` (${entry.id})` : ''}`;
    if (!entry || typeof entry.id !== 'string' || !entry.id) throw new Error(`${where}: needs an id`);
    if (seen.has(entry.id)) throw new Error(`${where}: the id is used twice`);
    seen.add(entry.id);
    if (!Array.isArray(entry.steps) || entry.steps.length === 0) throw new Error(`${where}: needs at least one step`);
    for (const step of entry.steps) {
      if (!step?.method || !step?.path || !step?.expect?.status) throw new Error(`${where}: every step has a method, a path and expect.status`);
    }
    return { ...entry, api };
  });
}

const shellQuote = (text) => `'${String(text).replaceAll("'", "'\\''")}'`;

/** A step as curl, against the sandbox of `pnpm start`. */
export function stepCurl(step, token = RULES_TOKEN, origin = SANDBOX_ORIGIN) {
  const parts = [`curl -X ${String(step.method).toUpperCase()} ${shellQuote(`${origin}${step.path}`)}`, `-H ${shellQuote(`Authorization: Bearer ${token}`)}`];
  if (step.accept) parts.push(`-H ${shellQuote(`Accept: ${step.accept}`)}`);
  if (step.contentType) parts.push(`-H ${shellQuote(`Content-Type: ${step.contentType}`)}`);
  if (step.body !== undefined) parts.push(`--data ${shellQuote(JSON.stringify(step.body))}`);
  return parts.join(' \\\n  ');
}

function expectation(expect) {
  const parts = [`status ${expect.status}`];
  if (expect.code) parts.push(`code <code>${escapeHtml(expect.code)}</code>`);
  if (expect.messageProperty) parts.push(`property <code>${escapeHtml(expect.messageProperty)}</code>`);
  if (expect.header) parts.push(`header <code>${escapeHtml(typeof expect.header === 'string' ? expect.header : JSON.stringify(expect.header))}</code>`);
  return parts.join(', ');
}

/** The HTML of one rules page. */
export function rulesPage({ api, title }, entries) {
  const reference = `${api}.html`;
  const sections = entries.map((entry) => {
    const token = entry.token ?? RULES_TOKEN;
    const quote = entry.contract?.quote
      ? `<blockquote class="contract-quote">${escapeHtml(entry.contract.quote)}<footer>Contract: ${escapeHtml(entry.contract.document ?? api)}${entry.contract.section ? `, section ${escapeHtml(entry.contract.section)}` : ''}</footer></blockquote>`
      : '';
    const steps = entry.steps
      .map((step, index) => `<li><p>${index === entry.steps.length - 1 ? 'The rule' : 'First'}: expect ${expectation(step.expect)}.</p><pre><code>${escapeHtml(stepCurl(step, token))}</code></pre></li>`)
      .join('');
    return `<section class="rule" id="${escapeHtml(entry.id)}">
        <h2><code>${escapeHtml(entry.id)}</code></h2>
        <p><strong>${escapeHtml(entry.title ?? '')}</strong>${entry.status ? ` · answered with <code>${escapeHtml(entry.status)}</code>` : ''}${entry.messageType ? ` (<code>${escapeHtml(entry.messageType)}</code>)` : ''}</p>
        <p>${escapeHtml(entry.meaning ?? '')}</p>
        ${quote}
        <p>Operations: ${(entry.operations ?? []).map((id) => `<a href="${reference}#operation/${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a>`).join(', ') || '—'}</p>
        <p>Reproduce it against a freshly reset sandbox (<code>curl -X POST ${SANDBOX_ORIGIN}/__sandbox/reset -H 'Authorization: Bearer ${escapeHtml(token)}'</code>), token <code>${escapeHtml(token)}</code>:</p>
        <ol class="rule-steps">${steps}</ol>
      </section>`;
  });
  const toc = entries.map((entry) => `<li><a href="#${escapeHtml(entry.id)}"><code>${escapeHtml(entry.id)}</code></a> ${escapeHtml(entry.title ?? '')}</li>`).join('\n        ');
  const body = `<h1>${escapeHtml(title)}</h1>
      <p class="lead">The rules the sandbox applies to the ${api === 'journal' ? 'Journal configuration' : 'Payroll and HR'} API, each with the contract's words, the operations it concerns and requests that show it. Every example on this page is run against a freshly reset sandbox by the documentation's tests.</p>
      ${entries.length ? `<ol class="rule-index">\n        ${toc}\n      </ol>\n      ${sections.join('\n      ')}` : '<p class="empty">The sandbox\'s rule catalogue lists no rules for this API yet.</p>'}`;
  return renderPage({ id: `${api}-rules`, title, body });
}
