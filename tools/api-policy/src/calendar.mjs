// The deprecation calendar: every resource version with the date it was introduced and the
// date it stops being served, generated from the registry (x-resource-versions or
// spec/<api>/resource-versions.yaml). The docs import these functions; the CLI prints them.
import { describeChange } from '@payroll-api/version-changes';
import { assertDate, addDays, daysBetween, todayUtc } from './dates.mjs';

/**
 * Entries of the calendar, one per resource version, sorted by obsoleteDate (versions without
 * one last), then resource and version:
 * {resource, version, introduced, obsoleteDate, daysLeft, basis, status, successor, note, changes}
 * - daysLeft: days from `today` to obsoleteDate (negative once passed), null without one;
 * - status: 'current' (no obsoleteDate), 'deprecated' (obsoleteDate ahead), 'obsolete' (passed);
 * - successor: the next newer version of the resource, or null;
 * - changes: the migration sentences from the version before, from `changes` (x-version-changes).
 */
export function deprecationCalendar(registry, { today = todayUtc(), changes = {} } = {}) {
  assertDate(today, 'today');
  if (!registry || typeof registry !== 'object' || !registry.resources || typeof registry.resources !== 'object') {
    throw new Error('deprecationCalendar: the registry must be an object with `resources` (x-resource-versions)');
  }
  const entries = [];
  for (const [resource, definition] of Object.entries(registry.resources)) {
    const versions = [...(definition?.versions ?? [])].sort((a, b) => (a.version < b.version ? -1 : 1));
    versions.forEach((entry, index) => {
      assertDate(entry.version, `${resource} version`);
      const obsoleteDate = entry.obsoleteDate ?? null;
      if (obsoleteDate !== null) assertDate(obsoleteDate, `${resource} ${entry.version} obsoleteDate`);
      const daysLeft = obsoleteDate === null ? null : daysBetween(today, obsoleteDate);
      entries.push({
        resource,
        version: entry.version,
        introduced: entry.version,
        obsoleteDate,
        daysLeft,
        basis: entry.basis ?? null,
        status: obsoleteDate === null ? 'current' : daysLeft > 0 ? 'deprecated' : 'obsolete',
        successor: versions[index + 1]?.version ?? null,
        operations: [...(definition?.operations ?? [])],
        note: entry.note ?? null,
        // The migration notes from the version before (x-version-changes), when recorded.
        changes: (changes?.[resource] ?? []).find((step) => step.version === entry.version)?.changes.map(describeChange) ?? [],
      });
    });
  }
  return entries.sort((a, b) => {
    if (a.obsoleteDate !== b.obsoleteDate) {
      if (a.obsoleteDate === null) return 1;
      if (b.obsoleteDate === null) return -1;
      return a.obsoleteDate < b.obsoleteDate ? -1 : 1;
    }
    return a.resource === b.resource ? (a.version < b.version ? 1 : -1) : a.resource < b.resource ? -1 : 1;
  });
}

function mdCell(text) {
  return String(text ?? '').replaceAll('|', '\\|');
}

/**
 * A markdown table of the calendar entries. `dated: false` leaves out the columns that depend
 * on the day it is read (days left, status), for a file published once and read for months.
 */
export function calendarMarkdown(entries, { dated = true } = {}) {
  const deprecated = entries.filter((e) => e.obsoleteDate !== null);
  const lines = [];
  lines.push(
    deprecated.length === 0
      ? 'No resource version has an obsoleteDate: every version is served until further notice.'
      : `${deprecated.length} resource version${deprecated.length === 1 ? ' has' : 's have'} an obsoleteDate. A version is served until the day before it; its successor is served from its own date.`,
    '',
  );
  const columns = ['resource', 'version', 'introduced', 'obsolete from', ...(dated ? ['days left'] : []), 'successor', ...(dated ? ['status'] : []), 'basis'];
  lines.push(`| ${columns.join(' | ')} |`);
  lines.push(`|${columns.map(() => '---').join('|')}|`);
  for (const e of entries) {
    const cells = [`\`${mdCell(e.resource)}\``, e.version, e.introduced, e.obsoleteDate ?? '—', ...(dated ? [e.daysLeft ?? '—'] : []), e.successor ?? '—', ...(dated ? [e.status] : []), mdCell(e.basis ?? '')];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

// RFC 5545: TEXT values escape backslash, semicolon, comma and newlines.
function icsText(text) {
  return String(text).replaceAll('\\', '\\\\').replaceAll(';', '\\;').replaceAll(',', '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 sequence. */
export function foldLine(line) {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Step back over continuation bytes (10xxxxxx) so a character is never split.
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end -= 1;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // continuation lines begin with one space
  }
  return parts.join('\r\n ');
}

function compact(date) {
  return date.replaceAll('-', '');
}

/**
 * An iCalendar (RFC 5545) file: one all-day event per version on its obsoleteDate ("no longer
 * served") and one on the date each version was introduced. DTSTAMP is `today` at 00:00 UTC so
 * that the output is reproducible.
 */
export function calendarIcs(entries, { today = todayUtc(), prodId = '-//payroll-api//API deprecation calendar//EN', domain = 'payroll-api.invalid' } = {}) {
  assertDate(today, 'today');
  if (!Array.isArray(entries) || entries.length === 0) throw new Error('calendarIcs: no calendar entries (the registry lists no versions)');
  const stamp = `${compact(today)}T000000Z`;
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${prodId}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'X-WR-CALNAME:API resource versions'];
  const event = (uid, date, summary, description) => {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${uid}@${domain}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${compact(date)}`,
      `DTEND;VALUE=DATE:${compact(addDays(date, 1))}`,
      `SUMMARY:${icsText(summary)}`,
      `DESCRIPTION:${icsText(description)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  };
  const ordered = [...entries].sort((a, b) => (a.resource === b.resource ? (a.version < b.version ? -1 : 1) : a.resource < b.resource ? -1 : 1));
  for (const e of ordered) {
    event(
      `${e.resource}-${e.version}-introduced`,
      e.introduced,
      `${e.resource} resource version ${e.version} introduced`,
      `Resource version ${e.version} of ${e.resource} is served from ${e.introduced} (Accept: application/json;version=${e.version}).` +
        (e.operations?.length ? ` Operations: ${e.operations.join(', ')}.` : ''),
    );
    if (e.obsoleteDate) {
      event(
        `${e.resource}-${e.version}-obsolete`,
        e.obsoleteDate,
        `${e.resource} resource version ${e.version} no longer served`,
        `From ${e.obsoleteDate} resource version ${e.version} of ${e.resource} is no longer served` +
          (e.successor ? `; move to version ${e.successor}.` : '.'),
      );
    }
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
