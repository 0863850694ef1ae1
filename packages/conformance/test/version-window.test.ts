import { versionChanges } from '@payroll-api/version-changes';
import { describe, expect, it } from 'vitest';
import { crossVersionMismatches, valuesAt } from '../src/version-window.js';

const chain = versionChanges({
  'x-version-changes': {
    employee: [
      {
        version: '2026-12-07',
        previous: '2021-03-29',
        changes: [
          { rename: 'personalDetails.placeOfBirth', to: 'birthPlace' },
          { remove: 'exclusionFromAbsenceStatus' },
          { add: 'workingCountry', type: 'string', default: 'NL' },
          { retype: 'children.age', type: 'string', conversion: 'integer-to-string' },
        ],
      },
    ],
  },
});

const old = { personalDetails: { lastName: 'Jansen', placeOfBirth: 'Utrecht' }, exclusionFromAbsenceStatus: false, children: [{ age: 3 }, { age: 7 }] };
const newest = { personalDetails: { lastName: 'Jansen', birthPlace: 'Utrecht' }, workingCountry: 'NL', children: [{ age: '3' }, { age: '7' }] };

describe('valuesAt', () => {
  it('reads a dotted path through arrays of objects', () => {
    expect(valuesAt(old, 'personalDetails.placeOfBirth')).toEqual(['Utrecht']);
    expect(valuesAt(old, 'children.age')).toEqual([3, 7]);
    expect(valuesAt(old, 'personalDetails.birthPlace')).toEqual([]);
  });
});

describe('crossVersionMismatches', () => {
  it('finds none when the server serves both versions from one state as the record says', () => {
    expect(crossVersionMismatches(chain, 'employee', '2021-03-29', '2026-12-07', old, newest)).toEqual([]);
    expect(crossVersionMismatches(chain, 'employee', '2026-12-07', '2021-03-29', newest, old)).toEqual([]);
  });

  it('names each field a server that ignores the chain gets wrong, written at the older version', () => {
    // A server storing the old body as it is: the new version has no birthPlace, no default, no conversion.
    const mismatches = crossVersionMismatches(chain, 'employee', '2021-03-29', '2026-12-07', old, old);
    expect(mismatches.map((m) => m.field)).toEqual(['personalDetails.birthPlace', 'workingCountry', 'children.age']);
    expect(mismatches[0]!.message).toBe('written at 2021-03-29, read at 2026-12-07: `personalDetails.birthPlace` is missing, the version change record gives "Utrecht"');
  });

  it('names each field wrong the other way, written at the newer version', () => {
    const wrongAge = { ...old, children: [{ age: '3' }, { age: '7' }] };
    const mismatches = crossVersionMismatches(chain, 'employee', '2026-12-07', '2021-03-29', newest, wrongAge);
    expect(mismatches.map((m) => m.field)).toEqual(['children.age']);
    expect(mismatches[0]!.message).toContain('`children.age` is ["3","7"], the version change record gives [3,7]');
  });

  it('has nothing to compare at one version', () => {
    expect(crossVersionMismatches(chain, 'employee', '2026-12-07', '2026-12-07', newest, old)).toEqual([]);
  });
});
