// Spectral configuration of both bundled descriptions (dist/payroll.json, dist/journal.json),
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
