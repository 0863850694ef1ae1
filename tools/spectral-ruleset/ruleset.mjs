// The house Spectral ruleset: the conventions of the Payroll and HR API contract that the
// generic OpenAPI rulesets cannot know. One function per rule in ./functions, one test per
// rule in ./test; README.md says what each rule enforces and why.
import acceptHeaderRequired from './functions/accept-header-required.mjs';
import contractGapSentence from './functions/contract-gap-sentence.mjs';
import errorResponsesDeclared from './functions/error-responses-declared.mjs';
import expiresHeader from './functions/expires-header.mjs';
import listOperationPaging from './functions/list-operation-paging.mjs';
import mediaTypeExampleServed from './functions/media-type-example-served.mjs';
import notFoundDeclared from './functions/not-found-declared.mjs';
import operationIdActivity from './functions/operation-id-activity.mjs';
import pathParamsUuid from './functions/path-params-uuid.mjs';
import pathSourceMarker from './functions/path-source-marker.mjs';
import postReturns201 from './functions/post-returns-201.mjs';
import rarelyPresentSentence from './functions/rarely-present-sentence.mjs';
import sandboxCollectionInferable from './functions/sandbox-collection-inferable.mjs';
import sandboxCollectionSeedable from './functions/sandbox-collection-seedable.mjs';
import securityRequired from './functions/security-required.mjs';
import successExample from './functions/success-example.mjs';
import versionChangesFields from './functions/version-changes-fields.mjs';
import versionedMediaTypes from './functions/versioned-media-types.mjs';

const PATH_ITEMS = '$.paths[*]';

/** A rule whose function reports its own messages and paths. */
function rule(description, given, fn, extra = {}) {
  return { description, message: '{{error}}', severity: 'error', given, then: { function: fn, ...extra.then }, ...extra.rule };
}

export default {
  rules: {
    'operation-id-activity': rule(
      'operationId is the activity name, its verb is the HTTP method, and it starts with its x-activity.',
      PATH_ITEMS,
      operationIdActivity,
    ),
    'accept-header-required': rule(
      'Every operation declares the required Accept header that carries the resource version.',
      PATH_ITEMS,
      acceptHeaderRequired,
    ),
    'security-required': rule(
      'Every operation is secured by a defined OAuth2 scheme (its own security or the document\'s).',
      '$',
      securityRequired,
    ),
    'list-operation-paging': rule(
      'A list GET takes filter, orderBy, pageNumber and pageSize; paging parameters come only with the list envelope.',
      PATH_ITEMS,
      listOperationPaging,
    ),
    'versioned-media-types': rule(
      'JSON success and request media types are versioned with exactly the registry versions of the operation\'s resource, newest first.',
      '$',
      versionedMediaTypes,
    ),
    'media-type-example-served': rule(
      'An Accept or Content-Type example names only versions the operation\'s resource serves.',
      '$',
      mediaTypeExampleServed,
    ),
    'version-changes-fields': rule(
      'Every version change record joins two served versions of its resource and names fields that exist in them.',
      '$',
      versionChangesFields,
    ),
    'sandbox-collection-inferable': rule(
      'The sandbox can tell from its description which stored docs each operation serves, or x-sandbox-collection names them.',
      '$',
      sandboxCollectionInferable,
      { rule: { resolved: false } },
    ),
    'sandbox-collection-seedable': rule(
      'A collection that starts from its examples (x-sandbox-collection seed: examples) has reads whose examples show docs with ids, under parents the examples name.',
      '$',
      sandboxCollectionSeedable,
      { rule: { resolved: false } },
    ),
    'post-returns-201': rule('A POST declares 201 and no 200.', '$.paths[*].post', postReturns201),
    'error-responses-declared': rule(
      'Every operation declares the 400, 401, 403 and 500 (or 5XX) responses.',
      PATH_ITEMS,
      errorResponsesDeclared,
      { then: { functionOptions: { statuses: ['400', '401', '403', '500'] } } },
    ),
    'not-found-declared': rule('An operation on a path with parameters declares 404.', PATH_ITEMS, notFoundDeclared),
    'path-params-uuid': rule('Every path parameter is a required uuid string.', PATH_ITEMS, pathParamsUuid),
    'success-example': rule('Every success media type with a schema has an example.', PATH_ITEMS, successExample),
    'expires-header': rule('Every response, errors included, declares the Expires header.', PATH_ITEMS, expiresHeader),
    'path-source-marker': rule('Every path item says x-path-source: contract, published or inferred (an operation may narrow it).', PATH_ITEMS, pathSourceMarker),
    'contract-gap-sentence': rule(
      'x-contract-gap is a sentence saying what the contract does not show.',
      "$..['x-contract-gap']",
      contractGapSentence,
      // Read the document as written: a gap noted once on a shared component is one finding.
      { rule: { resolved: false } },
    ),
    'rarely-present-sentence': rule(
      'x-rarely-present is a sentence saying why the property is rarely present.',
      "$..['x-rarely-present']",
      rarelyPresentSentence,
      { rule: { resolved: false } },
    ),
  },
};
