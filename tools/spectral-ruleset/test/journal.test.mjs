// The journal description follows only what the journal contract asserts. Its contract
// does not assert the payroll resource versioning, the Accept parameter or list paging, so
// spec/.spectral.mjs scopes exactly these three rules off for dist/journal.*; every other
// house rule holds for a journal-shaped document.
import { describe, expect, it } from 'vitest';
import { fixtureText, lintText, ruleNames } from './support/lint.mjs';

const NOT_ASSERTED_BY_JOURNAL = ['accept-header-required', 'list-operation-paging', 'versioned-media-types'];
const journal = fixtureText('journal.yaml');

describe('a journal-shaped document', () => {
  it('passes every house rule the journal contract asserts', async () => {
    const asserted = ruleNames.filter((name) => !NOT_ASSERTED_BY_JOURNAL.includes(name));
    expect(await lintText(journal, 'yaml', asserted)).toEqual([]);
  });

  it('is flagged by exactly the three payroll-only rules, which is why they are scoped off', async () => {
    const results = await lintText(journal, 'yaml');
    expect([...new Set(results.map((r) => r.code))].sort()).toEqual(NOT_ASSERTED_BY_JOURNAL);
    expect(results.map((r) => r.message)).toEqual(
      expect.arrayContaining([
        'The document has no x-resource-versions registry with resources.',
        'GET /journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters does not declare the Accept header parameter.',
        'GET /journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters answers with the list envelope but lacks the query parameter(s) filter, orderBy, pageNumber, pageSize.',
        'POST /journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters: media type "application/*+json" of the request body is not versioned (;version=yyyy-MM-dd).',
      ]),
    );
  });

  it('still has the journal conventions enforced: a POST answering 200 is caught', async () => {
    const broken = journal.replace("        '201':\n", "        '200':\n");
    const results = await lintText(broken, 'yaml', ['post-returns-201']);
    expect(results.map((r) => r.message)).toEqual([
      'A POST must declare the 201 response.',
      'A POST answers 201, never 200: remove the 200 response.',
    ]);
  });
});
