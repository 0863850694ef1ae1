import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import fs from 'node:fs';
import { calendarIcs, calendarMarkdown, deprecationCalendar, foldLine } from '../src/index.mjs';
import { findRepoRoot } from '../src/repo.mjs';

const registry = {
  baseline: '2018-01-01',
  resources: {
    employee: {
      operations: ['GetEmployeeByEmployeeId', 'PutEmployeeByEmployeeId'],
      versions: [
        { version: '2026-06-01', obsoleteDate: null, basis: 'release' },
        { version: '2021-03-29', obsoleteDate: '2026-12-01', basis: 'contract', note: 'Has contactInformation.' },
      ],
    },
    employer: { operations: ['GetEmployerByEmployerId'], versions: [{ version: '2018-01-01', obsoleteDate: null, basis: 'baseline' }] },
    logo: { operations: ['GetLogo'], versions: [{ version: '2019-01-01', obsoleteDate: '2026-01-01', basis: 'baseline' }, { version: '2018-01-01', obsoleteDate: '2019-07-01', basis: 'baseline' }] },
  },
};

describe('deprecationCalendar', () => {
  const entries = deprecationCalendar(registry, { today: '2026-11-22' });

  it('lists every version, deprecated ones first by obsoleteDate, with the days left', () => {
    expect(entries.map((e) => `${e.resource} ${e.version}`)).toEqual([
      'logo 2018-01-01',
      'logo 2019-01-01',
      'employee 2021-03-29',
      'employee 2026-06-01',
      'employer 2018-01-01',
    ]);
    expect(entries[2]).toMatchObject({
      resource: 'employee',
      version: '2021-03-29',
      introduced: '2021-03-29',
      obsoleteDate: '2026-12-01',
      daysLeft: 9,
      basis: 'contract',
      status: 'deprecated',
      successor: '2026-06-01',
    });
    expect(entries[1]).toMatchObject({ status: 'obsolete', daysLeft: -325, successor: null });
    expect(entries[3]).toMatchObject({ status: 'current', daysLeft: null, obsoleteDate: null });
  });

  it('refuses a registry that is not one, and dates that are not dates', () => {
    expect(() => deprecationCalendar({}, { today: '2026-11-22' })).toThrow(/resources/);
    expect(() => deprecationCalendar(registry, { today: '22-11-2026' })).toThrow(/yyyy-MM-dd/);
    expect(() => deprecationCalendar({ resources: { x: { versions: [{ version: '2021-02-30' }] } } })).toThrow(/x version/);
  });

  it('renders a markdown table', () => {
    const md = calendarMarkdown(entries);
    expect(md).toContain('| resource | version | introduced | obsolete from | days left | successor | status | basis |');
    expect(md).toContain('| `employee` | 2021-03-29 | 2021-03-29 | 2026-12-01 | 9 | 2026-06-01 | deprecated | contract |');
    expect(md.split('\n').filter((l) => l.startsWith('| `')).length).toBe(5);
    expect(calendarMarkdown(deprecationCalendar({ resources: { a: { versions: [{ version: '2018-01-01', obsoleteDate: null }] } } }))).toContain('No resource version has an obsoleteDate');
  });
});

describe('calendarIcs (RFC 5545)', () => {
  const ics = calendarIcs(deprecationCalendar(registry, { today: '2026-11-22' }), { today: '2026-11-22' });
  const lines = ics.split('\r\n');

  it('is a VCALENDAR of VEVENTs with CRLF line endings', () => {
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines.some((l) => l.startsWith('PRODID:'))).toBe(true);
    expect(lines.at(-2)).toBe('END:VCALENDAR');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT').length).toBe(lines.filter((l) => l === 'END:VEVENT').length);
  });

  it('has one all-day event per obsoleteDate and one per introduction, each with UID, DTSTAMP, DTSTART;VALUE=DATE and SUMMARY', () => {
    const unfolded = ics.replaceAll('\r\n ', '').split('\r\n');
    const events = [];
    let current = null;
    for (const line of unfolded) {
      if (line === 'BEGIN:VEVENT') current = [];
      else if (line === 'END:VEVENT') {
        events.push(current);
        current = null;
      } else if (current) current.push(line);
    }
    expect(events.length).toBe(5 + 3);
    for (const event of events) {
      expect(event.filter((l) => l.startsWith('UID:')).length).toBe(1);
      expect(event).toContain('DTSTAMP:20261122T000000Z');
      expect(event.some((l) => /^DTSTART;VALUE=DATE:\d{8}$/.test(l))).toBe(true);
      expect(event.some((l) => l.startsWith('SUMMARY:'))).toBe(true);
    }
    const uids = events.map((e) => e.find((l) => l.startsWith('UID:')));
    expect(new Set(uids).size).toBe(uids.length);
    const obsolete = events.find((e) => e.includes('UID:employee-2021-03-29-obsolete@payroll-api.invalid'));
    expect(obsolete).toContain('DTSTART;VALUE=DATE:20261201');
    expect(obsolete).toContain('DTEND;VALUE=DATE:20261202');
    expect(obsolete).toContain('SUMMARY:employee resource version 2021-03-29 no longer served');
  });

  it('folds lines at 75 octets, never inside a character', () => {
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((l) => l.startsWith(' '))).toBe(true);
    const long = `SUMMARY:${'é'.repeat(60)}`;
    const folded = foldLine(long);
    for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replaceAll('\r\n ', '')).toBe(long);
    expect(folded).not.toContain('\uFFFD');
  });

  it('escapes TEXT values', () => {
    const ics2 = calendarIcs(deprecationCalendar({ resources: { 'a,b;c': { operations: ['X'], versions: [{ version: '2018-01-01' }] } } }, { today: '2026-11-22' }), { today: '2026-11-22' });
    expect(ics2).toContain('SUMMARY:a\\,b\\;c resource version 2018-01-01 introduced');
  });
});

describe('calendar CLI', () => {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'api-policy.mjs');
  const root = findRepoRoot();

  it('prints the calendar of the real registry as markdown and as ics', () => {
    const source = YAML.parse(fs.readFileSync(path.join(root, 'spec', 'payroll', 'resource-versions.yaml'), 'utf8'));
    const md = spawnSync(process.execPath, [bin, 'calendar', '--format', 'md', '--api', 'payroll', '--today', '2026-11-22'], { encoding: 'utf8' });
    expect(md.status).toBe(0);
    const rows = md.stdout.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.length).toBe(Object.values(source.resources).reduce((n, r) => n + r.versions.length, 0));
    expect(md.stdout).toContain('| `employee` | 2021-03-29 |');

    const ics = spawnSync(process.execPath, [bin, 'calendar', '--format', 'ics', '--api', 'payroll', '--today', '2026-11-22'], { encoding: 'utf8' });
    expect(ics.status).toBe(0);
    expect(ics.stdout.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);

    const bad = spawnSync(process.execPath, [bin, 'calendar', '--format', 'pdf', '--api', 'payroll'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--format must be md, ics or json');
  });
});
