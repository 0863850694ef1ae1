import { describe, expect, it } from 'vitest';
import {
  CONVERSIONS,
  VersionChangeError,
  chainOf,
  changeFields,
  changeProblems,
  describeChange,
  entitiesOf,
  fieldSegments,
  recordFromRegistry,
  recordProblems,
  schemaHasField,
  versionChanges,
} from '../index.mjs';

// employee: 2020-01-01 → 2021-01-01 (rename, remove, add) → 2022-01-01 (retype in an array of objects)
const registry = {
  resources: {
    employee: {
      versions: [
        { version: '2022-01-01', changes: [{ retype: 'children.age', type: 'string', conversion: 'integer-to-string' }] },
        {
          version: '2021-01-01',
          changes: [
            { rename: 'personalDetails.placeOfBirth', to: 'birthPlace' },
            { remove: 'nickname', default: null },
            { add: 'personalDetails.nationality', type: 'string', default: 'NL' },
            { revalue: 'gender', values: { M: 'male', F: 'female' } },
          ],
        },
        { version: '2020-01-01' },
      ],
    },
    employer: { versions: [{ version: '2018-01-01' }] },
  },
};
const record = recordFromRegistry(registry);
const chain = versionChanges({ openapi: '3.1.0', 'x-version-changes': record });

const oldBody = {
  nickname: 'Jo',
  gender: 'F',
  personalDetails: { firstName: 'Johanna', placeOfBirth: 'Utrecht' },
  children: [{ name: 'A', age: 3 }, { name: 'B', age: 7 }],
};

describe('the record', () => {
  it('is derived from the registry, newest first, with a step for every version that has a predecessor', () => {
    expect(record.employee.map((s) => [s.previous, s.version, s.changes.length])).toEqual([
      ['2021-01-01', '2022-01-01', 1],
      ['2020-01-01', '2021-01-01', 4],
    ]);
    expect(record.employer).toBeUndefined();
    expect(recordProblems(record)).toEqual([]);
  });

  it('refuses malformed changes with a sentence naming the field', () => {
    expect(changeProblems({ rename: 'a.b' })[0]).toMatch(/rename a\.b: "to"/);
    expect(changeProblems({ rename: 'a', remove: 'b' })[0]).toMatch(/exactly one of/);
    expect(changeProblems({ add: 'a..b', type: 'string' })[0]).toMatch(/not a dotted field path/);
    expect(changeProblems({ add: 'a', type: 'date' })[0]).toMatch(/"type" is one of/);
    expect(changeProblems({ retype: 'a', type: 'string', conversion: 'to-text' })[0]).toMatch(/"conversion" is one of number-to-string/);
    expect(changeProblems({ retype: 'a', type: 'boolean', conversion: 'number-to-string' })[0]).toMatch(/gives a string, not a boolean/);
    expect(changeProblems({ revalue: 'a', values: { x: 'y', z: 'y' } })[0]).toMatch(/cannot be undone/);
    expect(changeProblems({ note: 'a' })[0]).toMatch(/"description"/);
    expect(changeProblems('rename a')[0]).toMatch(/is an object/);
  });

  it('refuses steps that do not join', () => {
    const broken = { employee: [{ version: '2022-01-01', previous: '2021-01-01', changes: [] }, { version: '2020-06-01', previous: '2020-01-01', changes: [] }] };
    expect(recordProblems(broken)).toEqual([expect.stringMatching(/do not join/)]);
    expect(recordProblems({ employee: [{ version: '2020-01-01', previous: '2021-01-01', changes: [] }] })[0]).toMatch(/not earlier/);
    expect(() => versionChanges({ 'x-version-changes': broken })).toThrow(VersionChangeError);
  });

  it('reads an empty record from a bundle without one', () => {
    const none = versionChanges({ openapi: '3.1.0' });
    expect(none.record).toEqual({});
    expect(none.upgrade('employee', '2020-01-01', '2020-01-01', { a: 1 })).toEqual({ a: 1 });
    expect(() => none.upgrade('employee', '2020-01-01', '2021-01-01', {})).toThrow(/no chain of version changes leads from employee 2020-01-01 to 2021-01-01/);
  });

  it('gives a bundle’s chain once per bundle, null when it records no change', () => {
    expect(chainOf({ openapi: '3.1.0' })).toBeNull();
    expect(chainOf({ openapi: '3.1.0', 'x-version-changes': {} })).toBeNull();
    const bundle = { openapi: '3.1.0', 'x-version-changes': record };
    const first = chainOf(bundle);
    expect(first?.steps('employee')).toHaveLength(2);
    expect(chainOf(bundle)).toBe(first);
    expect(() => chainOf({ 'x-version-changes': { employee: 'not steps' } })).toThrow(VersionChangeError);
  });
});

describe('fields and sentences', () => {
  it('names the field on each side of a change', () => {
    expect(changeFields({ rename: 'a.b', to: 'c' })).toEqual({ kind: 'rename', before: 'a.b', after: 'a.c' });
    expect(changeFields({ remove: 'a' })).toEqual({ kind: 'remove', before: 'a', after: null });
    expect(changeFields({ add: 'x.y', type: 'string' })).toEqual({ kind: 'add', before: null, after: 'x.y' });
    expect(fieldSegments('children[].age')).toEqual(['children', 'age']);
  });

  it('renders one migration sentence per change', () => {
    expect(describeChange({ rename: 'placeOfBirth', to: 'birthPlace' })).toBe('`placeOfBirth` is now `birthPlace`.');
    expect(describeChange({ remove: 'nickname' })).toBe('`nickname` is removed.');
    expect(describeChange({ add: 'nationality', type: 'string', default: 'NL' })).toBe('`nationality` is new and required (a string); a write at an older version gets `"NL"`.');
    expect(describeChange({ retype: 'age', type: 'string', conversion: 'integer-to-string' })).toBe('`age` is now a string (was an integer): older versions are converted with `integer-to-string`.');
    expect(describeChange({ note: 'name', description: 'is at most 40 characters long.' })).toBe('`name`: is at most 40 characters long.');
  });
});

describe('upgrade (a write at an older version)', () => {
  it('runs every step, through arrays of objects, without changing its argument', () => {
    const before = structuredClone(oldBody);
    const newest = chain.upgrade('employee', '2020-01-01', '2022-01-01', oldBody);
    expect(oldBody).toEqual(before);
    expect(newest).toEqual({
      gender: 'female',
      personalDetails: { firstName: 'Johanna', birthPlace: 'Utrecht', nationality: 'NL' },
      children: [{ name: 'A', age: '3' }, { name: 'B', age: '7' }],
    });
    expect(Object.keys(newest.personalDetails)).toEqual(['firstName', 'birthPlace', 'nationality']);
  });

  it('stops at the version asked for', () => {
    expect(chain.upgrade('employee', '2020-01-01', '2021-01-01', oldBody).children[0].age).toBe(3);
    expect(chain.upgrade('employee', '2021-01-01', '2022-01-01', { children: [{ age: 1 }] })).toEqual({ children: [{ age: '1' }] });
  });

  it('keeps a value the writer sent for a field with a default, and leaves absent parents absent', () => {
    const body = { personalDetails: { nationality: 'BE' } };
    expect(chain.upgrade('employee', '2020-01-01', '2021-01-01', body).personalDetails.nationality).toBe('BE');
    expect(chain.upgrade('employee', '2020-01-01', '2021-01-01', { gender: 'X' })).toEqual({ gender: 'X' });
  });

  it('refuses a value the conversion cannot take, naming the field', () => {
    let error;
    try {
      chain.upgrade('employee', '2021-01-01', '2022-01-01', { children: [{ age: 2.5 }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VersionChangeError);
    expect(error.field).toBe('children.age');
    expect(error.message).toMatch(/children\.age: 2\.5 cannot be converted \(integer-to-string\) for employee version 2022-01-01/);
  });

  it('refuses a direction or a pair of versions the chain does not join', () => {
    expect(() => chain.upgrade('employee', '2022-01-01', '2020-01-01', {})).toThrow(/later than/);
    expect(() => chain.upgrade('employee', '2020-06-01', '2022-01-01', {})).toThrow(/no chain/);
  });
});

describe('downgrade (an answer at an older version)', () => {
  const stored = chain.upgrade('employee', '2020-01-01', '2022-01-01', oldBody);

  it('takes a detail envelope back to the version asked for', () => {
    const answer = { content: stored, version: { resourceVersion: '2022-01-01', obsoleteDate: null } };
    const old = chain.downgrade('employee', '2022-01-01', '2020-01-01', answer);
    expect(old.content).toEqual({ ...oldBody, nickname: null });
    expect(old.version).toEqual(answer.version);
    expect(answer.content).toEqual(stored);
  });

  it('takes every item of a list envelope', () => {
    const list = { _embedded: [stored, { ...stored, gender: 'female', children: [] }], totalSize: 2, currentPage: 1 };
    const old = chain.downgrade('employee', '2022-01-01', '2021-01-01', list);
    expect(old._embedded.map((e) => e.children.map((c) => c.age))).toEqual([[3, 7], []]);
    expect(old.totalSize).toBe(2);
  });

  it('round-trips: downgrade after upgrade gives back what was written (with the removed field at its default)', () => {
    const back = chain.downgrade('employee', '2022-01-01', '2020-01-01', stored);
    expect(back).toEqual({ ...oldBody, nickname: null });
  });

  it('leaves an envelope without content, and messages, alone', () => {
    const errorAnswer = { content: null, messages: [{ type: 'BrokenBusinessRule' }] };
    expect(chain.downgrade('employee', '2022-01-01', '2020-01-01', errorAnswer)).toEqual(errorAnswer);
    expect(entitiesOf(errorAnswer)).toEqual([]);
  });
});

describe('conversions', () => {
  it('each has an inverse that undoes it', () => {
    const samples = {
      number: 2.5,
      integer: 7,
      string: { 'string-to-number': '2.5', 'string-to-integer': '7', 'string-to-boolean': 'true' },
      boolean: true,
      value: 'x',
      array: ['x'],
    };
    for (const [name, conversion] of Object.entries(CONVERSIONS)) {
      const input = name === 'number-to-integer' ? 4 : conversion.from === 'string' ? samples.string[name] : samples[conversion.from];
      const there = conversion.convert(input);
      expect(there, name).not.toBeUndefined();
      expect(CONVERSIONS[conversion.inverse].convert(there), name).toEqual(input);
    }
  });

  it('refuse what they cannot convert', () => {
    expect(CONVERSIONS['string-to-number'].convert('12a')).toBeUndefined();
    expect(CONVERSIONS['string-to-number'].convert('')).toBeUndefined();
    expect(CONVERSIONS['string-to-boolean'].convert('yes')).toBeUndefined();
    expect(CONVERSIONS['array-to-value'].convert([1, 2])).toBeUndefined();
    expect(CONVERSIONS['number-to-integer'].convert(1.5)).toBeUndefined();
  });
});

describe('schemaHasField', () => {
  const employee = {
    type: 'object',
    properties: {
      personalDetails: { allOf: [{ type: 'object', properties: { placeOfBirth: { type: 'string' } } }] },
      children: { type: 'array', items: { oneOf: [{ type: 'object', properties: { age: { type: 'integer' } } }, { type: 'null' }] } },
    },
  };
  const detail = { allOf: [{ type: 'object', properties: { version: { type: 'object' } } }, { type: 'object', properties: { content: employee } }] };
  const list = { type: 'object', properties: { _embedded: { type: 'array', items: employee } } };

  it('finds a field in a body, a detail envelope and a list envelope, through compositions and arrays', () => {
    for (const schema of [employee, detail, list]) {
      expect(schemaHasField(schema, 'personalDetails.placeOfBirth')).toBe(true);
      expect(schemaHasField(schema, 'children.age')).toBe(true);
      expect(schemaHasField(schema, 'children[].age')).toBe(true);
    }
  });

  it('does not find what is not there, nor an envelope field as an entity field', () => {
    expect(schemaHasField(employee, 'personalDetails.birthPlace')).toBe(false);
    expect(schemaHasField(detail, 'version')).toBe(false);
    expect(schemaHasField(employee, 'a..b')).toBe(false);
  });
});
