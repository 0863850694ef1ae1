// The journal's error-code catalogue and the site's search index, both read from the
// descriptions (and the rule catalogues), so that they list exactly what the reference does.
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { escapeHtml, renderPage } from './layout.mjs';

/** The known values of a code schema: its enum, or the consts of an open anyOf/oneOf. */
function knownCodes(schema) {
  if (Array.isArray(schema.enum)) {
    const meanings = schema['x-enum-descriptions'] ?? [];
    return schema.enum.filter((code) => typeof code === 'string').map((code, index) => ({ code, meaning: meanings[index] ?? null }));
  }
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  const codes = [];
  for (const variant of variants) {
    if (typeof variant.const === 'string') codes.push({ code: variant.const, meaning: variant.description ?? variant.title ?? null });
    if (Array.isArray(variant.enum)) codes.push(...knownCodes(variant));
  }
  return codes;
}

/** The journal's validation codes: [{code, meaning, schema, operations: [operationId]}], by code. */
export function errorCodes(doc) {
  const schemas = Object.entries(doc.components?.schemas ?? {}).filter(([name]) => /ErrorCode$/.test(name));
  const byCode = new Map();
  for (const [name, schema] of schemas) {
    for (const { code, meaning } of knownCodes(schema)) {
      if (!byCode.has(code)) byCode.set(code, { code, meaning, schema: name, operations: [] });
    }
  }
  // An operation uses a code when one of its error responses refers to the code's schema.
  for (const { operation } of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!/^4/.test(status)) continue;
      const text = JSON.stringify(deref(doc, response));
      for (const entry of byCode.values()) {
        if (text.includes(`"#/components/schemas/${entry.schema}"`) && !entry.operations.includes(operation.operationId)) entry.operations.push(operation.operationId);
      }
    }
  }
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : 1));
}

/** The journal error-code page. `rules` are the journal rule entries, keyed by code. */
export function errorCodesPage(doc, rulesById = new Map()) {
  const codes = errorCodes(doc);
  const rows = codes
    .map((entry) => {
      const rule = rulesById.get(entry.code);
      return `<tr id="${escapeHtml(entry.code)}">
          <td><code class="code-name">${escapeHtml(entry.code)}</code></td>
          <td>${escapeHtml(rule?.meaning ?? entry.meaning ?? '')}</td>
          <td>${entry.operations.map((id) => `<a href="journal.html#operation/${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a>`).join('<br>')}</td>
          <td>${rule ? `<a href="journal-rules.html#${escapeHtml(rule.id)}">reproduce</a>` : '—'}</td>
        </tr>`;
    })
    .join('\n        ');
  const body = `<h1>Journal error codes</h1>
      <p class="lead">Every validation code the Journal configuration API answers with, in a <code>400</code> body's <code>messages[].code</code>: what it means, the operations that can answer it and, where the <a href="journal-rules.html">journal rules</a> list it, the requests that reproduce it against the sandbox.</p>
      <p>The contract says a <code>400</code> is returned "for the validation errors above or other bad requests": match the codes you handle and treat any other code as a bad request.</p>
      <h2 id="payroll-codes">Payroll and HR API message codes</h2>
      <p>The contract does not show the catalogue of message codes of the Payroll and HR API (<code>messages[].code</code>, an integer), and says the codes may change. The reference sandbox's codes are its own: it sends the HTTP status (<code>400</code>, <code>404</code>, <code>500</code>) as the code, which production does not promise. Match payroll messages by their <code>type</code> and <code>properties</code>, never by <code>code</code>.</p>
      <div class="table-scroll">
      <table id="error-codes">
        <thead><tr><th>Code</th><th>Meaning</th><th>Operations</th><th>Reproduction</th></tr></thead>
        <tbody>
        ${rows}
        </tbody>
      </table>
      </div>`;
  return { codes, html: renderPage({ id: 'errors', title: 'Journal error codes', body }) };
}

/** Every property name of a schema, following $ref, allOf/anyOf/oneOf, items. */
function collectFields(doc, schema, names, seen = new Set()) {
  const node = deref(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  for (const name of Object.keys(node.properties ?? {})) {
    names.add(name);
    collectFields(doc, node.properties[name], names, seen);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const part of node[key] ?? []) collectFields(doc, part, names, seen);
  if (node.items) collectFields(doc, node.items, names, seen);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') collectFields(doc, node.additionalProperties, names, seen);
}

/**
 * The search index: operations (activity name, summary, path), error codes, rules, the
 * site's pages, and field names (each leads to the first operation that has the field).
 */
export function searchIndex({ apis, codes, rules, pages }) {
  const entries = [];
  const fields = new Map();
  for (const { api, doc } of apis) {
    for (const { path, method, operation } of operationsOf(doc)) {
      entries.push({
        kind: 'operation',
        name: operation.operationId,
        text: `${operation.summary ?? ''} ${method.toUpperCase()} ${path}`,
        where: `${api.id} · ${method.toUpperCase()} ${path}`,
        href: `${api.id}.html#operation/${operation.operationId}`,
      });
      const names = new Set();
      const schemas = [deref(doc, operation.requestBody), ...Object.values(operation.responses ?? {}).map((r) => deref(doc, r))]
        .flatMap((node) => Object.values(node?.content ?? {}).map((media) => media.schema));
      for (const schema of schemas) collectFields(doc, schema, names);
      for (const name of names) {
        if (!fields.has(name)) fields.set(name, { operations: [], api: api.id });
        fields.get(name).operations.push(operation.operationId);
      }
    }
  }
  for (const code of codes) entries.push({ kind: 'error code', name: code.code, text: code.meaning ?? '', where: 'journal', href: `errors.html#${code.code}` });
  for (const rule of rules) entries.push({ kind: 'rule', name: rule.id, text: rule.title ?? '', where: `${rule.api} rules`, href: `${rule.api}-rules.html#${rule.id}` });
  for (const page of pages) entries.push({ kind: 'page', name: page.title, text: page.text ?? '', href: page.href });
  for (const [name, { operations, api }] of fields) {
    entries.push({ kind: 'field', name, text: operations.join(' '), where: `${operations.length} operation${operations.length === 1 ? '' : 's'}, e.g. ${operations[0]}`, href: `${api}.html#operation/${operations[0]}` });
  }
  return { entries };
}

/**
 * The sections of a page as search entries: each `<h2 id>` or `<h3 id>` with the text up to
 * the next such heading, so that a word anywhere on the page finds the section it is in.
 */
export function pageSections(html, file, pageTitle) {
  const text = (markup) => markup.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  const headings = [...html.matchAll(/<h([23]) id="([^"]+)">([\s\S]*?)<\/h\1>/g)];
  return headings.map((heading, index) => {
    const end = headings[index + 1]?.index ?? html.length;
    return { title: `${pageTitle}: ${text(heading[3])}`, href: `${file}#${heading[2]}`, text: text(html.slice(heading.index + heading[0].length, end)) };
  });
}
