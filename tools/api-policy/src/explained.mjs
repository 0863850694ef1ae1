// Two served versions of a resource may differ incompatibly only as their version change
// record (x-version-changes, @payroll-api/version-changes) says: the sandbox and every server
// run that record to serve the older version from the newer state, so a breaking difference
// the record does not explain would be served wrong. This compares every pair of adjacent
// versions of each operation's media types in one bundle and names each unexplained field.
import { RECORD_KEY, changeFields, recordProblems } from '@payroll-api/version-changes';
import { REGISTRY_KEY, mediaTypeEssence, mediaTypeVersion, operationsOf, resourceIndex } from './diff.mjs';
import { citeChange, isBreakingRule } from './rules.mjs';
import { compareSchemas, newCache } from './schema-diff.mjs';

/** `/content/a/b`, `/_embedded/[]/a/b` and `/a/b` (a request body) are all field `a.b`. */
export function fieldOfPointer(pointer) {
  const segments = String(pointer).split('/').filter((s) => s !== '' && s !== '[]');
  if (segments[0] === 'content' || segments[0] === '_embedded') segments.shift();
  return segments.join('.');
}

const covers = (field, path) => path !== null && (field === path || field.startsWith(`${path}.`));

/** The changes recorded between two versions of a resource (older < newer), oldest step first. */
function recordedBetween(record, resource, older, newer) {
  return (record?.[resource] ?? []).filter((step) => step.previous >= older && step.version <= newer).flatMap((step) => step.changes);
}

/**
 * Returns [{resource, operationId, direction, mediaType, previousVersion, version, field,
 * finding}] for each breaking difference between adjacent served versions that no recorded
 * change names (on either side of it), plus a problem per invalid record.
 */
export function unexplainedDifferences(doc) {
  const record = doc?.[RECORD_KEY] ?? {};
  const problems = recordProblems(record);
  const resources = resourceIndex(doc?.[REGISTRY_KEY]);
  const cache = newCache();
  const same = { base: cache.head, head: cache.head };
  const out = [];
  for (const { operation } of operationsOf(doc).values()) {
    const resource = resources.get(operation.operationId);
    if (!resource) continue;
    const owners = [
      { direction: 'request', content: operation.requestBody?.content },
      ...Object.values(operation.responses ?? {}).map((response) => ({ direction: 'response', content: response?.content })),
    ];
    for (const { direction, content } of owners) {
      const versioned = Object.keys(content ?? {}).filter((key) => mediaTypeVersion(key));
      for (const mediaType of versioned) {
        const version = mediaTypeVersion(mediaType);
        const previous = versioned
          .filter((key) => mediaTypeEssence(key) === mediaTypeEssence(mediaType) && mediaTypeVersion(key) < version)
          .sort((a, b) => (mediaTypeVersion(a) < mediaTypeVersion(b) ? 1 : -1))[0];
        if (!previous) continue;
        const previousVersion = mediaTypeVersion(previous);
        const changes = recordedBetween(record, resource, previousVersion, version).map(changeFields);
        compareSchemas({
          cache: same,
          baseDoc: doc,
          headDoc: doc,
          base: content[previous].schema,
          head: content[mediaType].schema,
          direction,
          emit: (finding) => {
            if (!isBreakingRule(finding.ruleId)) return;
            const field = fieldOfPointer(finding.pointer);
            if (changes.some((c) => covers(field, c.before) || covers(field, c.after))) return;
            out.push({ resource, operationId: operation.operationId, direction, mediaType, previousVersion, version, field, finding: { ...finding, rule: citeChange(finding.ruleId) } });
          },
        });
      }
    }
  }
  return { unexplained: out, problems };
}
