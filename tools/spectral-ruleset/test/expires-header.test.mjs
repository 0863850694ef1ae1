import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'expires-header';
const LIST = '/v2/providers/employers/{employerId}/employees';

describe(RULE, () => {
  it('passes on the base document', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('fires when a success response lacks Expires', async () => {
    const doc = fixture();
    delete doc.paths[LIST].post.responses['201'].headers;
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        code: RULE,
        severity: 0,
        message: `POST ${LIST}: the 201 response does not declare the Expires header.`,
        path: ['paths', LIST, 'post', 'responses', '201'],
      }),
    ]);
  });

  it('fires when an error response lacks Expires', async () => {
    const doc = fixture();
    doc.paths[LIST].post.responses['409'] = { description: 'A conflict.' };
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({
        message: `POST ${LIST}: the 409 response does not declare the Expires header.`,
        path: ['paths', LIST, 'post', 'responses', '409'],
      }),
    ]);
  });

  it('fires for every operation using a shared error response without Expires', async () => {
    const doc = fixture();
    delete doc.components.responses.NotFound.headers;
    const findings = await lintRule(RULE, doc);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.message.endsWith('the 404 response does not declare the Expires header.'))).toBe(true);
  });

  it('matches the header name case-insensitively', async () => {
    const doc = fixture();
    const response = doc.paths[LIST].post.responses['201'];
    response.headers = { expires: response.headers.Expires };
    expect(await lintRule(RULE, doc)).toEqual([]);
  });
});
