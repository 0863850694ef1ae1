// One change, however many places show it: a change to a shared schema (the `MessageType`
// enum, say) is found once per operation, media type and status that reaches it, and is
// reported once, with the operations it reaches and advice the tooling can carry out.
import { mediaTypeVersion } from './diff.mjs';
import { fieldOfPointer } from './explained.mjs';

/** The key of the change a finding shows: its place in a shared schema, else where it is in the operation. */
function changeKey(f) {
  const what = [f.ruleId, f.kind, f.message, f.permitted ?? null];
  if (f.schema) return JSON.stringify(['schema', f.schema, f.schemaPointer, ...what]);
  return JSON.stringify(['at', f.location, f.pointer, f.element, ...what]);
}

const unique = (list) => [...new Set(list.filter((item) => item !== null && item !== undefined))];

/**
 * Findings folded by the change they show: [{first, findings, operations, resources,
 * versions}], in the order the changes were first found.
 */
export function groupFindings(findings) {
  const groups = new Map();
  for (const f of findings) {
    const key = changeKey(f);
    if (!groups.has(key)) groups.set(key, { first: f, findings: [] });
    groups.get(key).findings.push(f);
  }
  return [...groups.values()].map((group) => ({
    ...group,
    operations: unique(group.findings.map((f) => f.operationId)),
    resources: unique(group.findings.map((f) => f.resource)),
    versions: unique(group.findings.map((f) => f.version)),
  }));
}

// What a media-type version cannot express: the same at every resource version of an operation.
const OPERATION_LEVEL = {
  'operation-renamed': 'an operationId',
  'parameter-removed': 'a parameter',
  'parameter-now-required': 'a parameter',
  'required-parameter-added': 'a parameter',
  'request-body-removed': 'whether a request body is sent',
  'request-body-added': 'whether a request body is sent',
  'request-body-now-required': 'whether a request body is sent',
  'response-removed': 'a response status',
  'header-removed': 'a response header',
  'security-required': 'the security requirements (schemes and scopes)',
  'media-type-removed': 'the media types offered',
};

/**
 * How a breaking change found at `f` can be made without breaking anyone:
 * - `version`: a new resource version (`pnpm api:version`) can carry it;
 * - `operation`: it is about the operation itself, which no media-type version expresses;
 * - `unversioned`: the content carries no `version=` (error bodies, an API without resource versions);
 * - `unregistered`: versioned content of an operation the registry does not list.
 */
export function remedyOf(f) {
  if (OPERATION_LEVEL[f.kind]) return { kind: 'operation', what: OPERATION_LEVEL[f.kind] };
  if (f.location?.startsWith('parameter ')) return { kind: 'operation', what: 'a parameter' };
  if (/^response \S+ header /.test(f.location ?? '')) return { kind: 'operation', what: 'a response header' };
  if (f.mediaType && !mediaTypeVersion(f.mediaType)) return { kind: 'unversioned' };
  if (f.resource) return { kind: 'version' };
  return { kind: 'unregistered' };
}

const COMMANDS_LISTED = 6;

function list(items, limit = 12) {
  const named = items.map((item) => `\`${item}\``);
  return named.length <= limit ? named.join(', ') : `${named.slice(0, limit).join(', ')} and ${named.length - limit} more`;
}

/**
 * Advice for a group of breaking findings, one sentence per way out; `versioned` is false for
 * an API whose description asserts no resource versioning (no registry).
 */
export function adviceFor(group, { versioned = true } = {}) {
  const parts = new Map();
  for (const f of group.findings) {
    const remedy = remedyOf(f);
    const key = remedy.kind === 'operation' ? `operation:${remedy.what}` : remedy.kind;
    if (!parts.has(key)) parts.set(key, { ...remedy, findings: [] });
    parts.get(key).findings.push(f);
  }
  const sentences = [];
  for (const part of parts.values()) {
    const operations = unique(part.findings.map((f) => f.operationId));
    switch (part.kind) {
      case 'version': {
        // Each resource names the field from its own entity (the comprehensive list nests the employee).
        const byResource = new Map();
        for (const f of part.findings) if (!byResource.has(f.resource)) byResource.set(f.resource, changeOption(f));
        const options = [...byResource.values()];
        const commands =
          byResource.size <= COMMANDS_LISTED
            ? [...byResource].map(([resource, option]) => `\`pnpm api:version ${resource} <yyyy-MM-dd>${option ? ` ${option}` : ''}\``).join(', ')
            : `\`pnpm api:version <resource> <yyyy-MM-dd>\` for each of ${list([...byResource.keys()])}`;
        const there = options.every(Boolean) && byResource.size <= COMMANDS_LISTED
          ? 'which makes the change in the new version\'s copies of the schemas'
          : group.first.schema
            ? `and make the change in the new version's own copy of \`${group.first.schema}\` (the older versions keep \`${group.first.schema}\` as it is)`
            : 'and make the change there';
        const command = commands;
        sentences.push(`A resource version never changes incompatibly: introduce a new resource version instead: ${command}, ${there}.`);
        break;
      }
      case 'operation':
        sentences.push(
          `A media-type version cannot express this: ${part.what} is the same at every resource version of an operation, so \`pnpm api:version\` cannot carry it. ` +
            `The change needs a new operation (its own operationId, and its own path when the method and path are taken), next to ${list(operations)}, which stay${operations.length === 1 ? 's' : ''} as ${operations.length === 1 ? 'it is' : 'they are'}.`,
        );
        break;
      case 'unversioned': {
        const mediaTypes = unique(part.findings.map((f) => f.mediaType));
        const why = versioned ? `${list(mediaTypes)} carries no \`version=\`` : `this API asserts no resource versioning (no media type carries \`version=\`)`;
        sentences.push(
          `No resource version can carry this change in ${list(operations)}: ${why}. Leave it as it is there; a change this incompatible needs a new operation next to the old one.`,
        );
        break;
      }
      default:
        sentences.push(
          `${list(operations)} belong${operations.length === 1 ? 's' : ''} to no resource of the registry (spec/<api>/resource-versions.yaml), so \`pnpm api:version\` cannot version it: ` +
            `add the operation to its resource there, then introduce a new resource version (\`pnpm api:version <resource> <yyyy-MM-dd>\`) and make the change there.`,
        );
    }
  }
  return sentences.join(' ');
}

/** The api:version option that makes a change in the new version's schema copies, when one does. */
function changeOption(f) {
  const field = fieldOfPointer(f.pointer);
  if (!field) return null;
  if (f.kind === 'property-removed') return `--remove ${field}`;
  if (f.kind === 'property-renamed') return `--rename ${field}=${f.after}`;
  if (f.kind === 'type-changed' && /^[a-z]+$/.test(f.after ?? '')) return `--retype ${field}:${f.after}`;
  return null;
}

/** "inside resource version `widget` 2020-01-01", or what else the group's findings are a change of. */
export function scopeOf(group) {
  const { resources, versions, operations } = group;
  if (resources.length === 1) return `inside resource version \`${resources[0]}\` ${versions.length === 1 ? versions[0] : versions.length === 0 ? '(all versions)' : versions.join(', ')}`;
  if (resources.length > 1) return `inside ${resources.length} resources (${list(resources)})`;
  if (versions.length === 1) return `inside version ${versions[0]}`;
  return `to ${operations.length === 1 ? 'an operation' : `${operations.length} operations`}`;
}

function placeText(f) {
  const parts = [f.operationId ? `\`${f.operationId}\` (${f.method} ${f.path})` : f.location];
  if (f.operationId && f.location) parts.push(f.location);
  if (f.mediaType) parts.push(`\`${f.mediaType}\``);
  return parts.join(', ');
}

/** Where a group's change is: its places (a few), or the shared schema and the operations it reaches. */
export function placesOf(group, { limit = 3 } = {}) {
  const { first, findings, operations } = group;
  const at = first.schema ? `in \`${first.schema}\` at \`${first.schemaPointer}\`` : `at \`${first.pointer}\``;
  if (findings.length <= limit) return `${findings.map(placeText).join('; ')}, ${at}`;
  return `${at}, reached by ${findings.length} places in ${operations.length} operation${operations.length === 1 ? '' : 's'}: ${list(operations, 40)}`;
}
