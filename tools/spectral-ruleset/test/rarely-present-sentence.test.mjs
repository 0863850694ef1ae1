import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'rarely-present-sentence';
const PATH = ['components', 'schemas', 'Employee', 'properties', 'dateOfDeath', 'x-rarely-present'];

describe(RULE, () => {
  it('passes on the base document (a reason on a property)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires on a flag instead of a reason', async () => {
    const doc = fixture();
    doc.components.schemas.Employee.properties.dateOfDeath['x-rarely-present'] = true;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ code: RULE, severity: 0, message: 'x-rarely-present must be a sentence saying why the property is rarely present.', path: PATH }),
    ]);
  });

  it('fires on a fragment', async () => {
    const doc = fixture();
    doc.components.schemas.Employee.properties.dateOfDeath['x-rarely-present'] = 'rare';
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: 'x-rarely-present "rare" must be a sentence: capitalised, several words, ending with a full stop.', path: PATH }),
    ]);
  });
});
