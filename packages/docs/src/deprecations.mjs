// The deprecation calendar: every resource version of the Payroll API from the registry in
// the bundle (x-resource-versions), as a page, an iCalendar feed and a markdown table. The
// calendar itself is computed by the release policy tool, so the docs, the CLI and the
// policy check agree on every date. Nothing here depends on the day of the build: the page
// counts the days left and puts upcoming dates first in the reader's browser
// (assets/deprecations.js), so the build can be cached.
import { calendarIcs, calendarMarkdown, deprecationCalendar, migrationMarkdown, migrationNotes } from '@payroll-api/api-policy';
import { escapeHtml, renderPage } from './layout.mjs';
import { renderInline } from './markdown.mjs';

const REGISTRY = 'x-resource-versions';

/**
 * The day the registry last changed: its newest introduction date. The feed's DTSTAMP, so
 * that the same registry always gives the same file.
 */
export function registryStamp(registry) {
  const dates = Object.values(registry.resources ?? {}).flatMap((resource) => (resource?.versions ?? []).map((entry) => entry.version));
  if (dates.length === 0) throw new Error(`the payroll bundle's ${REGISTRY} lists no resource versions`);
  return dates.sort().at(-1);
}

/** Each resource with its versions, oldest first: [{ resource, operations, versions: [entry] }], by resource name. */
export function resourceHistories(entries) {
  const byResource = new Map();
  for (const entry of entries) {
    if (!byResource.has(entry.resource)) byResource.set(entry.resource, []);
    byResource.get(entry.resource).push(entry);
  }
  return [...byResource]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([resource, versions]) => ({ resource, operations: versions[0].operations ?? [], versions: [...versions].sort((a, b) => (a.version < b.version ? -1 : 1)) }));
}

/** What a version changed from the one before it (x-version-changes), or that it is the resource's first. */
function changesHtml(entry, previous) {
  if (!previous) return `First version of <code>${escapeHtml(entry.resource)}</code>: nothing earlier to compare with.`;
  if (entry.changes.length === 0) return `No field changes from ${escapeHtml(previous.version)}.`;
  return `<ul>${entry.changes.map((change) => `<li>${renderInline(change)}</li>`).join('')}</ul>`;
}

/** One resource's changelog: every version with what it changed, and which dates a request may name. */
function resourceHistoryHtml({ resource, operations, versions }) {
  const [oldest] = versions;
  const newest = versions.at(-1);
  const served = `A request without a date gets ${escapeHtml(newest.version)}; one dated ${escapeHtml(oldest.version)} or later gets the newest version on or before its date; one dated before ${escapeHtml(oldest.version)}, the oldest version, gets <code>400</code> naming <code>Accept</code>${oldest.obsoleteDate ? ` (from ${escapeHtml(oldest.obsoleteDate)} on, when ${escapeHtml(oldest.version)} is no longer served, a date that selects it does too)` : ''}.`;
  const history =
    versions.length === 1
      ? `<p>Only one version exists: <code>${escapeHtml(oldest.version)}</code>${oldest.basis === 'baseline' ? ' (the baseline: the contract names no version for this resource)' : ' (named by the contract)'}; nothing has changed since.</p>`
      : `<ol class="resource-versions">${versions
          .map((entry, index) => `<li><code>${escapeHtml(entry.version)}</code>${entry.obsoleteDate ? ` <span class="muted">obsolete from ${escapeHtml(entry.obsoleteDate)}</span>` : ''}: ${changesHtml(entry, versions[index - 1])}</li>`)
          .join('')}</ol>`;
  return `<section class="resource-history" id="resource-${escapeHtml(resource)}">
        <h3><code>${escapeHtml(resource)}</code></h3>
        ${history}
        <p>${served}</p>
        ${operations.length ? `<p class="muted">Operations: ${operations.map((id) => `<a href="payroll.html#operation/${escapeHtml(id)}">${escapeHtml(id)}</a>`).join(', ')}.</p>` : ''}
      </section>`;
}

/** The calendar of a bundled description: { entries, html, ics, markdown }. */
export function deprecationFiles(doc) {
  const registry = doc?.[REGISTRY];
  if (!registry) throw new Error(`the payroll bundle has no ${REGISTRY}: rebuild it with \`pnpm --filter @payroll-api/spec build\``);
  const stamp = registryStamp(registry);
  // Sorted by obsoleteDate, versions without one last; the page script reorders by today.
  const entries = deprecationCalendar(registry, { today: stamp, changes: doc['x-version-changes'] });
  const scheduled = entries.filter((entry) => entry.obsoleteDate);
  const migrations = migrationNotes(doc);
  const histories = resourceHistories(entries);
  const previousOf = (entry) => {
    const versions = histories.find((history) => history.resource === entry.resource).versions;
    return versions[versions.indexOf(entry) - 1];
  };
  const rows = entries
    .map(
      (entry) => `<tr data-obsolete="${escapeHtml(entry.obsoleteDate ?? '')}">
          <td><code>${escapeHtml(entry.resource)}</code></td>
          <td><code>${escapeHtml(entry.version)}</code></td>
          <td>${escapeHtml(entry.introduced)}</td>
          <td>${escapeHtml(entry.obsoleteDate ?? '—')}</td>
          <td class="number" data-days-left>—</td>
          <td>${escapeHtml(entry.successor ?? '—')}</td>
          <td data-status>${entry.obsoleteDate ? 'scheduled' : 'current'}</td>
          <td>${escapeHtml(entry.basis ?? '')}</td>
          <td class="changes">${changesHtml(entry, previousOf(entry))}</td>
        </tr>`,
    )
    .join('\n        ');
  const summary = scheduled.length
    ? `${scheduled.length} resource version${scheduled.length === 1 ? ' has' : 's have'} a date from which ${scheduled.length === 1 ? 'it is' : 'they are'} no longer served.`
    : 'No resource version is scheduled to stop being served: every version below is served until further notice.';
  const body = `<h1>Deprecation calendar</h1>
      <p class="lead">Every resource version of the Payroll and HR API, when it was introduced, and the date from which it is no longer served (its <code>obsoleteDate</code>). Upcoming dates come first; days left are counted from today.</p>
      <p id="calendar-summary">${summary}</p>
      <p class="subscribe">Subscribe in your calendar app: <a href="deprecations.ics" id="ics-link" type="text/calendar">deprecations.ics</a> (one all-day event when a version is introduced and one on its obsolete date). Also as <a href="deprecations.md">markdown</a>.</p>
      <p>When a new resource version is introduced, the version before it gets an <code>obsoleteDate</code> at least six months later; see <a href="index.html#versioning">resource versioning</a>. The Journal configuration API has no resource versions.</p>
      <div class="table-scroll">
      <table id="calendar">
        <thead><tr><th>Resource</th><th>Version</th><th>Introduced</th><th>Obsolete from</th><th>Days left</th><th>Successor</th><th>Status</th><th>Basis</th><th>Changes from the version before</th></tr></thead>
        <tbody>
        ${rows}
        </tbody>
      </table>
      </div>
      <p class="muted">Basis <em>contract</em>: the contract names this version. Basis <em>baseline</em>: the contract names no version for the resource, so it is described at the baseline ${escapeHtml(registry.baseline ?? '')}.</p>
      <h2 id="resources">Changes per resource</h2>
      <p>Each resource's versions, oldest first, with what each changed from the one before, and the dates a request may name in <code>Accept</code> (<code>application/json;version=yyyy-MM-dd</code>). ${histories.every((history) => history.versions.length === 1) ? 'Every resource has one version today: no resource has changed yet.' : `${histories.filter((history) => history.versions.length > 1).length} of ${histories.length} resources have more than one version.`}</p>
      ${histories.map(resourceHistoryHtml).join('\n      ')}`;
  return {
    entries,
    html: renderPage({ id: 'deprecations', title: 'Deprecation calendar', body, scripts: ['assets/deprecations.js'] }),
    ics: calendarIcs(entries, { today: stamp }),
    markdown: `# Deprecation calendar\n\nThe registry as of ${stamp}.\n\n${calendarMarkdown(entries, { dated: false })}${migrations.length ? `\n## Migration notes\n\n${migrationMarkdown(migrations)}` : ''}`,
  };
}
