// The changelog page: the API changes per release (the classified findings of api:check
// between each release and the one before it, unreleased ones as "Upcoming"), beside the
// released versions of every workspace package (their changesets CHANGELOG.md files) with
// the pending changesets in .changeset/ as "Unreleased".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CHANGELOG_GROUPS } from '@payroll-api/api-policy';
import YAML from 'yaml';
import { escapeHtml, renderPage } from './layout.mjs';
import { renderInline, renderMarkdown } from './markdown.mjs';

/** The workspace packages (name, directory) from pnpm-workspace.yaml, sorted by name. */
export function workspacePackages(root) {
  const workspace = YAML.parse(readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8'));
  const dirs = [];
  for (const pattern of workspace?.packages ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = path.join(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(path.join(parent, entry.name));
      }
    } else if (!pattern.includes('*')) {
      dirs.push(path.join(root, pattern));
    } else {
      throw new Error(`pnpm-workspace.yaml: unsupported package pattern ${JSON.stringify(pattern)}`);
    }
  }
  return dirs
    .filter((dir) => existsSync(path.join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      return { name: manifest.name, version: manifest.version, private: Boolean(manifest.private), dir };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A changeset file: YAML front matter mapping package names to bump types, then the summary.
 * Throws a clear error naming the file when it is malformed.
 */
export function parseChangeset(file, text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file}: a changeset starts with front matter between --- lines`);
  let releases;
  try {
    releases = YAML.parse(match[1]) ?? {};
  } catch (error) {
    throw new Error(`${file}: the front matter is not valid YAML (${error.message})`);
  }
  if (typeof releases !== 'object' || Array.isArray(releases)) {
    throw new Error(`${file}: the front matter maps package names to major, minor or patch`);
  }
  for (const [name, bump] of Object.entries(releases)) {
    if (!['major', 'minor', 'patch', 'none'].includes(bump)) {
      throw new Error(`${file}: ${name} has bump ${JSON.stringify(bump)}; expected major, minor, patch or none`);
    }
  }
  return { id: path.basename(file, '.md'), releases, summary: match[2].trim() };
}

/** The pending changesets of the repository, sorted by file name. */
export function pendingChangesets(root) {
  const dir = path.join(root, '.changeset');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name.toLowerCase() !== 'readme.md')
    .sort()
    .map((name) => parseChangeset(path.join('.changeset', name), readFileSync(path.join(dir, name), 'utf8')));
}

/** The released history of every package that has a CHANGELOG.md. */
export function releasedChangelogs(root) {
  return workspacePackages(root)
    .filter((pkg) => existsSync(path.join(pkg.dir, 'CHANGELOG.md')))
    .map((pkg) => ({
      ...pkg,
      // The file's own "# <package name>" title is replaced by the page's heading.
      markdown: readFileSync(path.join(pkg.dir, 'CHANGELOG.md'), 'utf8').replace(/^# .*\r?\n/, ''),
    }));
}

const anchor = (name) => name.replace(/^@/, '').replace(/[^A-Za-z0-9]+/g, '-');

/** One finding as a line: where, then what. Findings that differ only in place are folded. */
function findingItems(findings) {
  const folded = new Map();
  for (const f of findings) {
    const key = `${f.message}\u0000${f.pointer ?? ''}`;
    if (!folded.has(key)) folded.set(key, { finding: f, places: [] });
    const place = f.operationId ? `<a href="${f.api ?? ''}"><code>${escapeHtml(f.operationId)}</code></a> ${escapeHtml(f.method ?? '')} <code>${escapeHtml(f.path ?? '')}</code>` : escapeHtml(f.location ?? '');
    if (place && !folded.get(key).places.includes(place)) folded.get(key).places.push(place);
  }
  return [...folded.values()]
    .map(({ finding, places }) => `<li><span class="change">${renderInline(finding.message)}</span>${finding.pointer && finding.pointer !== '/' ? ` at <code>${escapeHtml(finding.pointer)}</code>` : ''}${places.length ? ` <span class="muted">— ${places.join('; ')}</span>` : ''} <span class="rule-id">${escapeHtml(finding.ruleId)}</span></li>`)
    .join('\n');
}

/** The migration notes of the resource versions an entry introduces, rendered from their version change records. */
export function migrationHtml(migrations) {
  const items = migrations.map((m) => {
    const notes = m.notes.length ? m.notes.map((note) => `<li>${renderInline(note)}</li>`).join('') : '<li>No field changes.</li>';
    const served = m.previousObsoleteDate ? ` <span class="muted">${escapeHtml(m.previous)} is served until ${escapeHtml(m.previousObsoleteDate)}.</span>` : '';
    return `<li class="migration" id="migration-${escapeHtml(m.resource)}-${escapeHtml(m.version)}"><code>${escapeHtml(m.resource)}</code> ${escapeHtml(m.previous)} → ${escapeHtml(m.version)}${served}<ul>${notes}</ul></li>`;
  });
  return `<div class="change-group change-migration"><h5>Migration notes</h5><ul>${items.join('\n')}</ul></div>`;
}

/** The API changes of one changelog entry (a release or the upcoming changes). */
function apiEntryHtml(entry) {
  const heading = entry.upcoming ? 'Upcoming' : `${escapeHtml(entry.version)}${entry.date ? ` <span class="muted">${escapeHtml(entry.date)}</span>` : ''}`;
  const parts = [`<section class="api-release" id="${entry.upcoming ? 'api-upcoming' : `api-${escapeHtml(entry.version)}`}">`, `<h3>${heading}</h3>`];
  for (const api of entry.apis) {
    const title = api.api === 'payroll' ? 'Payroll and HR API' : 'Journal configuration API';
    if (api.first) {
      parts.push(`<p><strong>${title}</strong>: first release of the description (${api.count} element${api.count === 1 ? '' : 's'} described; nothing to compare with).</p>`);
      continue;
    }
    if (api.count === 0) {
      parts.push(`<p><strong>${title}</strong>: ${entry.upcoming ? 'no changes since the last release.' : 'no contract-relevant changes.'}</p>`);
      continue;
    }
    parts.push(`<h4>${title}</h4>`);
    if (api.migrations?.length) parts.push(migrationHtml(api.migrations));
    for (const group of CHANGELOG_GROUPS) {
      const findings = api.groups[group.id].map((f) => ({ ...f, api: f.operationId ? `${api.api}.html#operation/${f.operationId}` : '' }));
      if (findings.length === 0) continue;
      parts.push(`<div class="change-group change-${group.id}"><h5>${group.title}</h5><ul>${findingItems(findings)}</ul></div>`);
    }
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The HTML of the changelog page. `apiEntries` come from apiChangelog of @payroll-api/api-policy. */
export function changelogPage(root, apiEntries = []) {
  const pending = pendingChangesets(root);
  const released = releasedChangelogs(root);
  const parts = ['<h1>Changelog</h1>', '<p class="lead">What changed in the APIs, release by release, and in the published packages, newest first. Changes not yet released are listed as <em>Upcoming</em> and <em>Unreleased</em>.</p>'];
  parts.push('<div class="changelog-columns">', '<section id="api-changes">', '<h2>API changes</h2>');
  parts.push(
    '<p class="muted">Each release is compared with the one before it under the versioning policy (<code>pnpm api:check</code>): new resource versions, deprecations and removals, and the other non-breaking changes. The code after each change is its row of the contract\'s change table.</p>',
  );
  if (apiEntries.length === 0) parts.push('<p class="empty">The descriptions are not built, and no release has been made yet.</p>');
  for (const entry of apiEntries) parts.push(apiEntryHtml(entry));
  parts.push('</section>', '<section id="package-changes">', '<h2>Package versions</h2>');

  parts.push('<section id="unreleased">', '<h3>Unreleased</h3>');
  if (pending.length === 0) {
    parts.push('<p class="empty">No pending changes.</p>');
  } else {
    parts.push('<ul class="changesets">');
    for (const changeset of pending) {
      const bumps = Object.entries(changeset.releases)
        .map(([name, bump]) => `<span class="bump bump-${escapeHtml(bump)}"><code>${escapeHtml(name)}</code> ${escapeHtml(bump)}</span>`)
        .join(' ');
      parts.push(`<li class="changeset" id="changeset-${escapeHtml(changeset.id)}"><div class="bumps">${bumps}</div>${renderMarkdown(changeset.summary, { shift: 4 })}</li>`);
    }
    parts.push('</ul>');
  }
  parts.push('</section>');

  parts.push('<section id="released">', '<h3>Released</h3>');
  if (released.length === 0) {
    parts.push('<p class="empty">No releases yet: no package has published a version.</p>');
  } else {
    for (const pkg of released) {
      parts.push(
        `<section class="package-changelog" id="${escapeHtml(anchor(pkg.name))}">`,
        `<h4><code>${escapeHtml(pkg.name)}</code> <span class="muted">${escapeHtml(pkg.version ?? '')}</span></h4>`,
        // A changesets changelog uses "## <version>" and "### Major Changes": shift by two levels.
        renderMarkdown(pkg.markdown, { shift: 2 }),
        '</section>',
      );
    }
  }
  parts.push('</section>', '</section>', '</div>');
  return {
    html: renderPage({ id: 'changelog', title: 'Changelog', body: parts.join('\n') }),
    pending: pending.length,
    released: released.map((pkg) => pkg.name),
  };
}
