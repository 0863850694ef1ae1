// Text is ordered as a Dutch reader expects (the orderBy parameter's contract gap), not by code point.
import { describe, expect, it } from 'vitest';
import { sortDocs } from '../src/filter/evaluate.js';
import { createSandbox, DEFAULT_TOKEN } from '../src/index.js';
import { call, EMPLOYEES, EMPLOYER } from './support.js';

const NAME = { path: ['name'], type: 'string' } as const;

describe('the order of text', () => {
  it('puts accented letters with their base letter, case and accents weighing only on a tie', () => {
    const docs = ['Zon', 'Éclair', 'eclair', 'appel', 'Ångström', 'über', 'Ui', 'école'].map((name, i) => ({ id: `d${i}`, name: name.toLowerCase() }));
    expect(sortDocs(docs, [{ field: NAME, descending: false }]).map((doc) => doc.name)).toEqual(['ångström', 'appel', 'eclair', 'éclair', 'école', 'über', 'ui', 'zon']);
    expect(sortDocs(docs, [{ field: NAME, descending: true }]).map((doc) => doc.name)[0]).toBe('zon');
  });

  it('orders a list by last name with Éclair before Zon, as served', async () => {
    const sandbox = await createSandbox();
    await sandbox.scenario({ entities: { employees: ['Zon', 'Éclair', 'Eclair'].map((lastName) => ({ employerId: EMPLOYER, personalDetails: { lastName } })) } }, { mode: 'merge' });
    const filter = encodeURIComponent("personalDetails.lastName lk 'clair' or personalDetails.lastName eq 'zon'");
    const res = await call(sandbox, DEFAULT_TOKEN, `${EMPLOYEES}?orderBy=personalDetails.lastName&filter=${filter}`);
    expect(res.status).toBe(200);
    const names = ((await res.json()) as { _embedded: Array<{ personalDetails: { lastName: string } }> })._embedded.map((e) => e.personalDetails.lastName);
    expect(names).toEqual(['Eclair', 'Éclair', 'Zon']);
  });
});
