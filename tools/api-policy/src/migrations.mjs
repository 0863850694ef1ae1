// Migration notes: each version change a description records (x-version-changes), as the
// sentences a client reads to move from one resource version to the next ("`placeOfBirth` is
// now `birthPlace`."). The API changelog lists the steps a release adds; the deprecation
// calendar lists each version's own step beside its dates.
import { RECORD_KEY, describeChange } from '@payroll-api/version-changes';
import { REGISTRY_KEY } from './diff.mjs';

/** [{resource, version, previous, previousObsoleteDate, notes}] of a bundle, newest version first. */
export function migrationNotes(doc) {
  const registry = doc?.[REGISTRY_KEY]?.resources ?? {};
  const out = [];
  for (const [resource, steps] of Object.entries(doc?.[RECORD_KEY] ?? {})) {
    for (const step of steps) {
      const previousEntry = (registry[resource]?.versions ?? []).find((entry) => entry.version === step.previous);
      out.push({ resource, version: step.version, previous: step.previous, previousObsoleteDate: previousEntry?.obsoleteDate ?? null, notes: step.changes.map(describeChange) });
    }
  }
  return out.sort((a, b) => (a.version === b.version ? a.resource.localeCompare(b.resource) : a.version < b.version ? 1 : -1));
}

/** The steps `headDoc` records that `baseDoc` does not (a release's new migration notes). */
export function newMigrationNotes(baseDoc, headDoc) {
  const known = new Set(migrationNotes(baseDoc).map((m) => `${m.resource}@${m.version}`));
  return migrationNotes(headDoc).filter((m) => !known.has(`${m.resource}@${m.version}`));
}

/** Markdown: one section per step, its sentences as a list. */
export function migrationMarkdown(migrations) {
  return migrations
    .map((m) => `### \`${m.resource}\` ${m.previous} → ${m.version}\n\n${m.previousObsoleteDate ? `${m.previous} is served until ${m.previousObsoleteDate}.\n\n` : ''}${m.notes.length ? m.notes.map((n) => `- ${n}`).join('\n') : '- No field changes.'}\n`)
    .join('\n');
}
