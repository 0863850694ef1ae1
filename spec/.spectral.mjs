// Spectral configuration of the bundled descriptions (dist/payroll.json, dist/journal.json,
// dist/sandbox-control.json),
// run by scripts/lint.mjs: the recommended OpenAPI rules, the OWASP API security rules and
// the house rules of tools/spectral-ruleset. A rule is turned off only where it demands
// something the contract says is not shown (or contradicts it); each says why, here.
import house from '@payroll-api/spectral-ruleset';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

/** A Spectral override target: one operation of a bundle, as `file#pointer` (Spectral
 * compares against URI-encoded pointers, so `{` is written `%7B`). */
function operationIn(file, template, method) {
  return `${file}#/paths/${encodeURIComponent(template.replaceAll('~', '~0').replaceAll('/', '~1'))}/${method}`;
}

export default {
  extends: [[oas, 'recommended'], [owasp, 'recommended'], house],
  rules: {
    // Rate limits are not shown in the contract (section 8), and its status table has no
    // 429: declaring rate-limit headers or a 429 response would invent them.
    'owasp:api4:2023-rate-limit': 'off',
    'owasp:api4:2023-rate-limit-retry-after': 'off',
    'owasp:api4:2023-rate-limit-responses-429': 'off',
    // CORS is not part of the contract; no Access-Control-* header is shown.
    'owasp:api8:2023-define-cors-origin': 'off',
    // The contract gives length and range limits for some fields only (section 8, and the
    // field tables), and no maximum page size or array length. Every limit it gives is in the
    // description; demanding maxLength/maximum/maxItems/pattern on every other field would
    // mean inventing limits the API does not enforce (a breaking change in its own terms).
    'owasp:api4:2023-string-limit': 'off',
    'owasp:api4:2023-string-restricted': 'off',
    'owasp:api4:2023-integer-limit': 'off',
    'owasp:api4:2023-integer-limit-legacy': 'off',
    'owasp:api4:2023-array-limit': 'off',
    // The contract does not say the access token is a JWT (token_type is "bearer", its format
    // is not shown), so the description cannot claim RFC 8725 support.
    'owasp:api2:2023-jwt-best-practices': 'off',
    // This rule asks for a 500 body; the contract does not show the body of a 50x response
    // (common/responses/InternalServerError.yaml notes the gap). That 500 is declared on
    // every operation is checked by the house rule error-responses-declared.
    'owasp:api8:2023-define-error-responses-500': 'off',
  },
  overrides: [
    {
      files: ['dist/journal.json', 'dist/journal.yaml'],
      rules: {
        // The journal contract says the payroll contract's general conventions (resource
        // versioning through Accept, the list and detail envelopes) are not asserted for its
        // area beyond what it states, and it states none of these three: its media types are
        // plain (text/plain, application/json, text/json, csv, xlsx) with no resource version
        // registry, and it names neither an Accept header nor list query parameters.
        'versioned-media-types': 'off',
        'accept-header-required': 'off',
        'list-operation-paging': 'off',
      },
    },
    {
      files: ['dist/sandbox-control.json', 'dist/sandbox-control.yaml'],
      rules: {
        // The sandbox control API is the sandbox's own, not the contract's: these house rules
        // encode conventions of the Payroll and HR API contract only. Its media types carry no
        // resource version and take no Accept header; its paths are given by the sandbox, not
        // the contract or the production service (no x-path-source); its ids are names
        // (usernames, right ids), not uuids; it answers no 403, and a 404 only for an entry of
        // the model; its tokens are the sandbox's own bearer tokens, not the OAuth2 scheme's;
        // the contract's Expires header is the API's; a POST that acts (reset, advance) answers
        // 200. The examples responder never serves it, so success examples are not demanded.
        // Its endpoints are the sandbox's own code, never derived from their description.
        'versioned-media-types': 'off',
        'sandbox-collection-inferable': 'off',
        'accept-header-required': 'off',
        'path-source-marker': 'off',
        'path-params-uuid': 'off',
        'error-responses-declared': 'off',
        'not-found-declared': 'off',
        'security-required': 'off',
        'expires-header': 'off',
        'post-returns-201': 'off',
        'success-example': 'off',
        // The sandbox serves plain HTTP on the developer's machine (127.0.0.1).
        'owasp:api8:2023-no-server-http': 'off',
        // Reads and actions without a body take no input that can be invalid: a 400 is
        // declared where the sandbox can answer one (every request with a body).
        'owasp:api8:2023-define-error-validation': 'off',
      },
    },
    {
      files: ['dist/sandbox-control.json', 'dist/sandbox-control.yaml'].flatMap((file) => [
        operationIn(file, '/__sandbox/sandboxes', 'get'),
        operationIn(file, '/auth/token', 'post'),
      ]),
      rules: {
        // GetSandboxes (ids derived from tokens, for an operator) and the token endpoint
        // (it issues the tokens) need no token, so they have no 401.
        'owasp:api8:2023-define-error-responses-401': 'off',
        'owasp:api2:2023-read-restricted': 'off',
        'owasp:api2:2023-write-restricted': 'off',
      },
    },
    {
      files: ['dist/journal.json', 'dist/journal.yaml'].map((file) =>
        operationIn(file, '/journal/providers/wagemodels/{wageModelId}/journalprofiles', 'post'),
      ),
      rules: {
        // PostJournalProfileByWageModelId: the journal contract says its responses other than
        // 201 are not shown (only its 400 codes are listed), so 401, 403, 404 and 500 are not
        // described for this one operation (x-contract-gap on the operation).
        'error-responses-declared': 'off',
        'not-found-declared': 'off',
        'owasp:api8:2023-define-error-responses-401': 'off',
      },
    },
  ],
};
