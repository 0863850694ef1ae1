// The changelog page: the released versions of every workspace package (their changesets
// CHANGELOG.md files) and, above them, the pending changesets in .changeset/ as "Unreleased".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { escapeHtml, renderPage } from './layout.mjs';
import { renderMarkdown } from './markdown.mjs';

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

/** The HTML of the changelog page. */
export function changelogPage(root) {
  const pending = pendingChangesets(root);
  const released = releasedChangelogs(root);
  const parts = ['<h1>Changelog</h1>', '<p class="lead">What changed in the published packages, newest first. Pending changes are listed under <em>Unreleased</em> until the next release.</p>'];

  parts.push('<section id="unreleased">', '<h2>Unreleased</h2>');
  if (pending.length === 0) {
    parts.push('<p class="empty">No pending changes.</p>');
  } else {
    parts.push('<ul class="changesets">');
    for (const changeset of pending) {
      const bumps = Object.entries(changeset.releases)
        .map(([name, bump]) => `<span class="bump bump-${escapeHtml(bump)}"><code>${escapeHtml(name)}</code> ${escapeHtml(bump)}</span>`)
        .join(' ');
      parts.push(`<li class="changeset" id="changeset-${escapeHtml(changeset.id)}"><div class="bumps">${bumps}</div>${renderMarkdown(changeset.summary, { shift: 3 })}</li>`);
    }
    parts.push('</ul>');
  }
  parts.push('</section>');

  parts.push('<section id="released">', '<h2>Released</h2>');
  if (released.length === 0) {
    parts.push('<p class="empty">No releases yet: no package has published a version.</p>');
  } else {
    for (const pkg of released) {
      parts.push(
        `<section class="package-changelog" id="${escapeHtml(anchor(pkg.name))}">`,
        `<h3><code>${escapeHtml(pkg.name)}</code> <span class="muted">${escapeHtml(pkg.version ?? '')}</span></h3>`,
        // A changesets changelog uses "## <version>" and "### Major Changes": shift by one level.
        renderMarkdown(pkg.markdown, { shift: 1 }),
        '</section>',
      );
    }
  }
  parts.push('</section>');
  return {
    html: renderPage({ id: 'changelog', title: 'Changelog', body: parts.join('\n') }),
    pending: pending.length,
    released: released.map((pkg) => pkg.name),
  };
}
