import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHANGE_OPTIONS, changesFromOptions } from '../src/change-options.mjs';
import { fieldOfPointer } from '../src/explained.mjs';
import { migrationMarkdown, migrationNotes, newMigrationNotes } from '../src/migrations.mjs';

const parse = (...args) => changesFromOptions(parseArgs({ args, options: CHANGE_OPTIONS, allowPositionals: true, tokens: true }).tokens);

describe('the change options of api:version', () => {
  it('keeps the order given, with defaults read as YAML scalars and conversions paired with retypes', () => {
    expect(parse('employee', '2026-12-07', '--retype', 'a.n:string', '--rename', 'a.b=c', '--remove', 'x=0', '--add', 'y:boolean=true', '--add', 'z:string', '--retype', 'k:number', '--conversion', 'integer-to-string', '--conversion', 'string-to-number')).toEqual([
      { retype: 'a.n', type: 'string', conversion: 'integer-to-string' },
      { rename: 'a.b', to: 'c' },
      { remove: 'x', default: 0 },
      { add: 'y', type: 'boolean', default: true },
      { add: 'z', type: 'string' },
      { retype: 'k', type: 'number', conversion: 'string-to-number' },
    ]);
  });

  it('refuses an option without its separator and more conversions than retypes', () => {
    expect(() => parse('--rename', 'a.b')).toThrow('--rename a.b: expected <field>=…');
    expect(() => parse('--add', 'y')).toThrow('--add y: expected <field>:…');
    expect(() => parse('--retype', 'a:string', '--conversion', 'x', '--conversion', 'y')).toThrow('2 --conversion for 1 --retype');
  });
});

describe('the record in reports', () => {
  it('reads a finding pointer as the entity field', () => {
    expect(fieldOfPointer('/content/personalDetails/placeOfBirth')).toBe('personalDetails.placeOfBirth');
    expect(fieldOfPointer('/_embedded/[]/children/[]/age')).toBe('children.age');
    expect(fieldOfPointer('/name')).toBe('name');
    expect(fieldOfPointer('/')).toBe('');
  });

  it('renders migration notes, and only the steps a release adds', () => {
    const registry = { resources: { widget: { versions: [{ version: '2026-06-01', obsoleteDate: null }, { version: '2020-01-01', obsoleteDate: '2026-12-01' }] } } };
    const step = { version: '2026-06-01', previous: '2020-01-01', changes: [{ rename: 'name', to: 'title' }] };
    const head = { 'x-resource-versions': registry, 'x-version-changes': { widget: [step] } };
    const notes = migrationNotes(head);
    expect(notes).toEqual([{ resource: 'widget', version: '2026-06-01', previous: '2020-01-01', previousObsoleteDate: '2026-12-01', notes: ['`name` is now `title`.'] }]);
    expect(migrationMarkdown(notes)).toBe('### `widget` 2020-01-01 → 2026-06-01\n\n2020-01-01 is served until 2026-12-01.\n\n- `name` is now `title`.\n');
    expect(newMigrationNotes(head, head)).toEqual([]);
    expect(newMigrationNotes(null, head)).toEqual(notes);
  });
});
