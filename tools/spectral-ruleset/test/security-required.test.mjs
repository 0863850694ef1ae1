import { describe, expect, it } from 'vitest';
import { fixture, lintRule } from './support/lint.mjs';

const RULE = 'security-required';
const LIST = '/v2/providers/employers/{employerId}/employees';
const LOGO = '/v2/providers/employers/{employerId}/logo/{version}';

describe(RULE, () => {
  it('passes on the base document (security at the root)', async () => {
    expect(await lintRule(RULE, fixture())).toEqual([]);
  });

  it('passes with operation-level security only', async () => {
    const doc = fixture();
    delete doc.security;
    for (const item of Object.values(doc.paths)) {
      for (const op of [item.get, item.post].filter(Boolean)) op.security = [{ OAuth2: [] }];
    }
    expect(await lintRule(RULE, doc)).toEqual([]);
  });

  it('fires on every operation when no security is set', async () => {
    const doc = fixture();
    delete doc.security;
    const results = await lintRule(RULE, doc);
    expect(results.map((r) => r.message)).toEqual([
      `GET ${LIST} has no security: set it on the document (or the operation).`,
      `POST ${LIST} has no security: set it on the document (or the operation).`,
      `GET ${LOGO} has no security: set it on the document (or the operation).`,
    ]);
    expect(results[0]).toMatchObject({ code: RULE, severity: 0, path: ['paths', LIST, 'get'] });
  });

  it('fires when an operation overrides security with an empty list', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.security = [];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `GET ${LOGO} has no security: set it on the document (or the operation).`, path: ['paths', LOGO, 'get', 'security'] }),
    ]);
  });

  it('fires when an anonymous requirement is allowed', async () => {
    const doc = fixture();
    doc.paths[LOGO].get.security = [{ OAuth2: [] }, {}];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `GET ${LOGO} allows an anonymous call (an empty security requirement).`, path: ['paths', LOGO, 'get', 'security', '1'] }),
    ]);
  });

  it('fires when the scheme is not defined', async () => {
    const doc = fixture();
    doc.security = [{ Bearer: [] }];
    const results = await lintRule(RULE, doc);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ message: `GET ${LIST} references the undefined security scheme "Bearer".`, path: ['security', '0', 'Bearer'] });
  });

  it('fires when the scheme is not OAuth2', async () => {
    const doc = fixture();
    doc.components.securitySchemes.ApiKey = { type: 'apiKey', in: 'header', name: 'X-Key' };
    doc.paths[LOGO].get.security = [{ ApiKey: [] }];
    expect(await lintRule(RULE, doc)).toEqual([
      expect.objectContaining({ message: `GET ${LOGO} is secured without an OAuth2 scheme (ApiKey).`, path: ['paths', LOGO, 'get', 'security', '0'] }),
    ]);
  });
});
