import { Spectral } from '@stoplight/spectral-core';
import { describe, expect, it } from 'vitest';
import ruleset from '../ruleset.mjs';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'error-responses-declared';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when 401, 403 and 500 are missing', async () => {
    const doc = fixture();
    delete doc.paths[LOGO].get.responses['401'];
    delete doc.paths[LOGO].get.responses['403'];
    delete doc.paths[LOGO].get.responses['500'];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `GET ${LOGO} does not declare the 401, 403, 500 response(s).`,
        path: ['paths', LOGO, 'get', 'responses'],
      }),
    ]);
  });

  it('fires when 400 is missing, and does not accept 4XX for it', async () => {
    const doc = fixture();
    delete doc.paths[LIST].post.responses['400'];
    doc.paths[LIST].post.responses['4XX'] = { description: 'A client error.' };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `POST ${LIST} does not declare the 400 response(s).` }),
    ]);
  });

  it('accepts 5XX for 500 (the contract\'s 50x)', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.responses['5XX'] = doc.paths[LOGO].get.responses['500'];
    delete doc.paths[LOGO].get.responses['500'];
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('rejects invalid options', async () => {
    const spectral = new Spectral();
    const broken = { ...ruleset.rules[RULE], then: { ...ruleset.rules[RULE].then, functionOptions: { statuses: ['40x'] } } };
    let error;
    try {
      spectral.setRuleset({ rules: { [RULE]: broken } });
    } catch (e) {
      error = e;
    }
    expect(error?.errors?.map((e) => e.message)).toEqual(['must match pattern "^[1-5]\\d\\d$"']);
  });
});
