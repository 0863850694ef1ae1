// Renders a check result as markdown (a changelog entry or a review comment) or JSON.
import { groupFindings } from './groups.mjs';

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

const PLACES_LISTED = 6;

/** The places of one change: each, or (many places) the operations they are in. */
function placesCell(findings) {
  const places = [...new Set(findings.map((f) => `${operationCell(f)}${whereCell(f) ? ` — ${whereCell(f)}` : ''}`))];
  if (places.length <= PLACES_LISTED) return places.map(cell).join('<br>');
  const operations = [...new Set(findings.map((f) => f.operationId ?? f.location))];
  return cell(`${places.length} places in ${operations.length} operations: ${operations.map((o) => `\`${o}\``).join(', ')}`);
}

function table(findings, { withStatus = false } = {}) {
  const head = withStatus
    ? '| where | path | element | change | rule | status |\n|---|---|---|---|---|---|'
    : '| where | path | element | change | rule |\n|---|---|---|---|---|';
  const rows = groupFindings(findings).map(({ first: f, findings: all }) => {
    const at = f.schema ? `\`${cell(f.schema)}\` \`${cell(f.schemaPointer)}\`` : `\`${cell(f.pointer)}\``;
    const cells = [placesCell(all), at, `\`${cell(f.element)}\``, cell(f.message), cell(f.rule)];
    if (withStatus) cells.push(f.permitted ? 'permitted (obsoleteDate passed)' : 'refused');
    return `| ${cells.join(' | ')} |`;
  });
  return [head, ...rows].join('\n');
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
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
  if (result.baseline?.length > 0) out.push('## Baseline', '', ...result.baseline.map((v) => `- **${v.policyRule}** ${v.message}`), '');
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
      out.push(...api.violations.map((v) => `- **${v.policyRule}** ${v.message}`), '');
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

/** A violation with the places of its change (the findings themselves are listed under the API). */
function compactViolation({ findings, ...violation }) {
  if (!findings) return violation;
  return { ...violation, places: findings.map((f) => ({ operationId: f.operationId, location: f.location, mediaType: f.mediaType, pointer: f.pointer })) };
}

/** JSON report: the full result, stable keys; each violation lists the places of its change. */
export function renderJson(result) {
  const compact = {
    ...result,
    violations: result.violations.map(compactViolation),
    apis: result.apis.map((api) => ({ ...api, violations: api.violations.map(compactViolation) })),
    ...(result.changesets ? { changesets: { ...result.changesets, violations: result.changesets.violations.map(compactViolation) } } : {}),
  };
  return `${JSON.stringify(compact, null, 2)}\n`;
}
