// The change table of the contract (section 9, Versioning) as the checker applies it. Every
// finding cites one row; every refusal cites one policy rule. The ids are stable: they appear
// in the JSON output and in tests.

export const CONTRACT_SECTION = '§9 Versioning';

/** Classification rows: how a difference between two descriptions is classified. */
export const CHANGE_RULES = {
  'NB-FIELD': { row: 'Non breaking', change: 'a new optional field' },
  'NB-ENDPOINT': { row: 'Non breaking', change: 'a new endpoint' },
  'NB-OPERATION': { row: 'Non breaking', change: 'a new operation' },
  'NB-PARAMETER': { row: 'Non breaking', change: 'a new optional parameter' },
  'NB-VERSION': { row: 'Non breaking', change: 'a new resource version' },
  'NB-DEPRECATION': {
    row: 'Non breaking',
    change: 'an obsoleteDate announced for a version that has a successor (the old version is served for six more months)',
  },
  'NB-COMPATIBLE': {
    row: 'Non breaking',
    change: 'a compatible change: the request accepts more, or the response promises more, than before',
  },
  'NB-DEFAULT': {
    row: 'Non breaking',
    change: 'a documented default changed: a client that leaves the value out now gets another one (a changeset names it)',
  },
  'B-NAME': { row: 'Breaking', change: "a change of a JSON element's name" },
  'B-TYPE': { row: 'Breaking', change: "a change of a JSON element's type" },
  'B-PATTERN': { row: 'Breaking', change: "a change of a JSON element's pattern" },
  'B-LENGTH': { row: 'Breaking', change: "a change of a JSON element's minimum or maximum length" },
  'B-RANGE': { row: 'Breaking', change: "a change of a JSON element's minimum or maximum value" },
  'B-FORMAT': { row: 'Breaking', change: "a change of a JSON element's format" },
  'B-ENUM': { row: 'Breaking', change: "a change of a JSON element's allowed values" },
  'B-REMOVAL': { row: 'Breaking', change: 'the removal of an element, endpoint, operation or parameter' },
  'B-REQUIRED': { row: 'Breaking', change: 'a new required element or parameter (an OAuth scope or security scheme included)' },
  'B-OBSOLETE': { row: 'Breaking', change: 'passing an obsoleteDate: the version is no longer served' },
};

/** Enforcement rules: what a release may contain. */
export const POLICY_RULES = {
  'P-IN-VERSION': 'A breaking change never happens inside an existing resource version; it comes as a new resource version.',
  'P-SUCCESSOR': "When a new resource version is introduced, the previous version's obsoleteDate is at least six months after the release that ships the new version (and after its date).",
  'P-VERSION-DATE': 'A new resource version is dated no earlier than the release that ships it: not before today, and after the last release.',
  'P-BASELINE': 'The baseline is the last release: it equals that release\'s archive and moves only with `pnpm release`.',
  'P-NO-EARLIER': 'An obsoleteDate never moves earlier.',
  'P-REMOVE-AFTER-OBSOLETE': 'A version (and an operation or endpoint with all its versions) is removed only once its obsoleteDate has passed.',
  'P-EXPLAINED': 'Two served versions of a resource differ incompatibly only where their version change record (x-version-changes) names the field, so that one state serves both.',
  'P-CHANGESET': 'Every change to a published description comes with a changeset of at least the matching bump (patch: wording; minor: additions and new versions; major: removals) that names each changed resource or operation (a changed default: the field or parameter).',
};

/** How many months an old version is served after its successor's date. */
export const SUPPORT_MONTHS = 6;

/** "§9 Breaking: the removal of …" */
export function citeChange(ruleId) {
  const rule = CHANGE_RULES[ruleId];
  if (!rule) throw new Error(`unknown change rule ${ruleId}`);
  return `${CONTRACT_SECTION}, ${rule.row}: ${rule.change}`;
}

export function isBreakingRule(ruleId) {
  return CHANGE_RULES[ruleId]?.row === 'Breaking';
}

export const BUMPS = ['none', 'patch', 'minor', 'major'];

export function maxBump(a, b) {
  return BUMPS.indexOf(a) >= BUMPS.indexOf(b) ? a : b;
}

export function bumpAtLeast(actual, required) {
  return BUMPS.indexOf(actual ?? 'none') >= BUMPS.indexOf(required);
}
