// Renders a check result as markdown (a changelog entry or a review comment) or JSON.
import { newVersionHint, scopeText } from './policy.mjs';

function cell(text) {
  return String(text ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function operationCell(f) {
  if (!f.operationId) return f.location ?? '';
  return `\`${f.operationId}\` ${f.method} ${f.path}`;
}

function whereCell(f) {
  if (!f.operationId) return f.version ? `version ${f.version}` : '';
  return [f.location, f.mediaType ? `\`${f.mediaType}\`` : null].filter(Boolean).join(' ');
}

/** Rows that differ only in operation or media type are folded into one row. */
function groupRows(findings) {
  const groups = new Map();
  for (const f of findings) {
    const key = JSON.stringify([f.pointer, f.element, f.message, f.ruleId, f.permitted ?? null]);
    if (!groups.has(key)) groups.set(key, { first: f, places: [] });
    groups.get(key).places.push(`${operationCell(f)}${whereCell(f) ? ` — ${whereCell(f)}` : ''}`);
  }
  return [...groups.values()];
}

function table(findings, { withStatus = false } = {}) {
  const head = withStatus
    ? '| where | path | element | change | rule | status |\n|---|---|---|---|---|---|'
    : '| where | path | element | change | rule |\n|---|---|---|---|---|';
  const rows = groupRows(findings).map(({ first: f, places }) => {
    const cells = [places.map(cell).join('<br>'), `\`${cell(f.pointer)}\``, `\`${cell(f.element)}\``, cell(f.message), cell(f.rule)];
    if (withStatus) cells.push(f.permitted ? 'permitted (obsoleteDate passed)' : 'refused');
    return `| ${cells.join(' | ')} |`;
  });
  return [head, ...rows].join('\n');
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Violations about the same element of the same version are folded into one line that lists
 * every operation affected; violations without a finding are listed as they are.
 */
function violationLines(violations) {
  const groups = new Map();
  for (const v of violations) {
    const f = v.finding;
    const key = f && v.policyRule === 'P-IN-VERSION' ? JSON.stringify([f.resource, f.version, f.pointer, f.message]) : `#${groups.size}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(v);
  }
  return [...groups.values()].map((list) => {
    const [v] = list;
    const f = v.finding;
    if (list.length === 1 || !f) return `- **${v.policyRule}** ${v.message}`;
    const places = list.map(({ finding: g }) => `\`${g.operationId}\` ${g.location}${g.mediaType ? ` \`${g.mediaType}\`` : ''}`).join('; ');
    return (
      `- **${v.policyRule}** Breaking change inside ${scopeText(f)} at \`${f.pointer}\`: ${f.message} (${f.rule}). ` +
      `Affects ${places}. A resource version never changes incompatibly: ${newVersionHint(f)}.`
    );
  });
}

/** Markdown report of a check result (see check.mjs for its shape). */
export function renderMarkdown(result) {
  const out = [];
  out.push('# API policy report', '');
  out.push(
    `Today: ${result.today}. Result: ${result.ok ? '**passes**' : `**refused** (${count(result.violations.length, 'violation')})`}.` +
      ` Rules: the change table of the contract, section 9 (Versioning).`,
    '',
  );
  for (const api of result.apis) {
    const breaking = api.findings.filter((f) => f.severity === 'breaking');
    const additions = api.findings.filter((f) => f.severity !== 'breaking');
    out.push(`## ${api.api}`, '');
    out.push(
      `Base \`${api.base}\`${api.baseMissing ? ' (no baseline yet: compared with an empty description)' : ''}, head \`${api.head}\`: ` +
        `${count(breaking.length, 'breaking change')}, ${count(additions.length, 'non-breaking change')}; required release: **${api.requiredBump}**.`,
      '',
    );
    if (api.violations.length > 0) {
      out.push('### Violations', '');
      out.push(...violationLines(api.violations), '');
    }
    if (breaking.length > 0) out.push('### Breaking changes', '', table(breaking, { withStatus: true }), '');
    if (additions.length > 0) out.push('### Non-breaking changes', '', table(additions), '');
    if (api.deltas.length > 0) {
      out.push('### New resource versions', '');
      const byVersion = new Map();
      for (const d of api.deltas) {
        const key = `${d.resource ?? d.operationId} ${d.version}`;
        if (!byVersion.has(key)) byVersion.set(key, { resource: d.resource, version: d.version, previous: d.previousVersion, changes: [] });
        for (const c of d.changes) byVersion.get(key).changes.push({ ...c, operationId: d.operationId, method: d.method, path: d.path, location: d.location, mediaType: d.mediaType });
      }
      for (const v of byVersion.values()) {
        out.push(`#### \`${v.resource ?? 'operation'}\` ${v.version} (previous version ${v.previous})`, '');
        if (v.changes.length === 0) out.push(`The content is the same as in ${v.previous}.`, '');
        else out.push(`Differences from ${v.previous} (allowed in a new version; the rule says what they would be inside one):`, '', table(v.changes), '');
      }
    }
    if (api.findings.length === 0 && api.violations.length === 0) out.push(api.identical ? 'No differences.' : 'No contract-relevant differences (wording only).', '');
  }
  if (result.changesets) {
    const cs = result.changesets;
    out.push('## Release', '');
    out.push(`Required bump: **${cs.required}** for ${Object.keys(cs.releases).map((n) => `\`${n}\``).join(', ')}.`);
    out.push(`Release plan: ${Object.entries(cs.releases).map(([n, t]) => `${n} ${t}`).join(', ')}.`);
    out.push(`Changesets: ${cs.changesets.length === 0 ? 'none' : cs.changesets.map((c) => `\`${c.id}\` (${c.summary})`).join(', ')}.`, '');
    for (const v of cs.violations) out.push(`- **${v.policyRule}** ${v.message}`);
    if (cs.violations.length > 0) out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** JSON report: the full result, stable keys. */
export function renderJson(result) {
  return `${JSON.stringify(result, null, 2)}\n`;
}
