// The chain of resource version changes a bundled description declares in `x-version-changes`.
//
// A breaking change ships as a new resource version, and the old version is served for six more
// months. A server keeps one state, in the newest shape, and runs this chain to serve every
// version: a body written at an older version is upgraded step by step to the newest shape, and
// an answer is downgraded step by step to the version the client asked for.
//
// Runtime-neutral on purpose (no node: imports): the sandbox, the conformance checks, the docs
// and the policy checker all read the record through this module.

export const RECORD_KEY = 'x-version-changes';

/** The kinds of change a record holds, each named by the key that carries the field's path. */
export const CHANGE_KINDS = ['rename', 'remove', 'add', 'retype', 'revalue', 'note'];

/** The scalar types a field can be added as or retyped to. */
export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

export class VersionChangeError extends Error {
  constructor(message, { field, resource, version } = {}) {
    super(message);
    this.name = 'VersionChangeError';
    this.field = field;
    this.resource = resource;
    this.version = version;
  }
}

const isNumericText = (value) => typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value));

/**
 * The conversions a `retype` can name. Each has an inverse, so that the chain runs both ways;
 * a value the conversion cannot take is refused with a VersionChangeError naming the field.
 */
export const CONVERSIONS = {
  'number-to-string': { from: 'number', to: 'string', inverse: 'string-to-number', convert: (v) => (typeof v === 'number' ? String(v) : undefined) },
  'string-to-number': { from: 'string', to: 'number', inverse: 'number-to-string', convert: (v) => (isNumericText(v) ? Number(v) : undefined) },
  'integer-to-string': { from: 'integer', to: 'string', inverse: 'string-to-integer', convert: (v) => (Number.isInteger(v) ? String(v) : undefined) },
  'string-to-integer': { from: 'string', to: 'integer', inverse: 'integer-to-string', convert: (v) => (isNumericText(v) && Number.isInteger(Number(v)) ? Number(v) : undefined) },
  'boolean-to-string': { from: 'boolean', to: 'string', inverse: 'string-to-boolean', convert: (v) => (typeof v === 'boolean' ? String(v) : undefined) },
  'string-to-boolean': { from: 'string', to: 'boolean', inverse: 'boolean-to-string', convert: (v) => (v === 'true' ? true : v === 'false' ? false : undefined) },
  'integer-to-number': { from: 'integer', to: 'number', inverse: 'number-to-integer', convert: (v) => (Number.isInteger(v) ? v : undefined) },
  'number-to-integer': { from: 'number', to: 'integer', inverse: 'integer-to-number', convert: (v) => (Number.isInteger(v) ? v : undefined) },
  'value-to-array': { from: 'value', to: 'array', inverse: 'array-to-value', convert: (v) => [v] },
  'array-to-value': { from: 'array', to: 'value', inverse: 'value-to-array', convert: (v) => (Array.isArray(v) && v.length <= 1 ? (v[0] ?? null) : undefined) },
};

/** `a.b[].c` → ['a', 'b', 'c']: arrays of objects are walked element by element, so `[]` is optional. */
export function fieldSegments(path) {
  if (typeof path !== 'string' || path.trim() === '') return null;
  const segments = path.split('.').map((segment) => segment.replace(/\[\]$/, ''));
  return segments.every((segment) => /^[A-Za-z_$][\w$-]*$/.test(segment)) ? segments : null;
}

function kindOf(change) {
  const kinds = CHANGE_KINDS.filter((kind) => Object.hasOwn(change, kind));
  return kinds.length === 1 ? kinds[0] : null;
}

/** The problems of one change (empty when it is well formed). */
export function changeProblems(change) {
  if (!change || typeof change !== 'object' || Array.isArray(change)) return ['a change is an object such as {rename: a.b, to: c}'];
  const kind = kindOf(change);
  if (!kind) return [`a change names exactly one of ${CHANGE_KINDS.join(', ')} (got ${Object.keys(change).join(', ') || 'nothing'})`];
  const problems = [];
  const field = change[kind];
  if (!fieldSegments(field)) problems.push(`${kind}: "${field}" is not a dotted field path`);
  if (kind === 'rename' && !(typeof change.to === 'string' && /^[A-Za-z_$][\w$-]*$/.test(change.to))) {
    problems.push(`rename ${field}: "to" is the new name of the field in the same object (got ${JSON.stringify(change.to)})`);
  }
  if ((kind === 'add' || kind === 'retype') && !FIELD_TYPES.includes(change.type)) {
    problems.push(`${kind} ${field}: "type" is one of ${FIELD_TYPES.join(', ')} (got ${JSON.stringify(change.type)})`);
  }
  if (kind === 'retype') {
    const conversion = CONVERSIONS[change.conversion];
    if (!conversion) problems.push(`retype ${field}: "conversion" is one of ${Object.keys(CONVERSIONS).join(', ')} (got ${JSON.stringify(change.conversion)})`);
    else if (conversion.to !== 'value' && conversion.to !== change.type && !(conversion.to === 'number' && change.type === 'integer')) {
      problems.push(`retype ${field}: conversion ${change.conversion} gives a ${conversion.to}, not a ${change.type}`);
    }
  }
  if (kind === 'revalue') {
    const values = change.values;
    const ok = values && typeof values === 'object' && !Array.isArray(values) && Object.keys(values).length > 0;
    if (!ok) problems.push(`revalue ${field}: "values" maps each old value to its new value`);
    else if (new Set(Object.values(values)).size !== Object.keys(values).length) problems.push(`revalue ${field}: two old values map to the same new value, so the change cannot be undone`);
  }
  if (kind === 'note' && !(typeof change.description === 'string' && change.description.trim())) {
    problems.push(`note ${field}: "description" says what changed`);
  }
  return problems;
}

/**
 * The field a change names at the version before it (`before`) and at its own version
 * (`after`), as dotted paths; null where the field does not exist.
 */
export function changeFields(change) {
  const kind = kindOf(change);
  const field = change[kind];
  switch (kind) {
    case 'rename':
      return { kind, before: field, after: [...fieldSegments(field).slice(0, -1), change.to].join('.') };
    case 'remove':
      return { kind, before: field, after: null };
    case 'add':
      return { kind, before: null, after: field };
    default:
      return { kind, before: field, after: field };
  }
}

const code = (text) => `\`${text}\``;
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const show = (value) => code(JSON.stringify(value));

/** One sentence, in markdown, for a migration note ("`placeOfBirth` is now `birthPlace`."). */
export function describeChange(change) {
  const { kind, before, after } = changeFields(change);
  switch (kind) {
    case 'rename':
      return `${code(before)} is now ${code(after)}.`;
    case 'remove':
      return `${code(before)} is removed${change.default === undefined ? '' : `; older versions read ${show(change.default)}`}.`;
    case 'add':
      return change.default === undefined
        ? `${code(after)} is new (optional, ${article(change.type)}).`
        : `${code(after)} is new and required (${article(change.type)}); a write at an older version gets ${show(change.default)}.`;
    case 'retype': {
      const conversion = CONVERSIONS[change.conversion];
      return `${code(before)} is now ${article(change.type)}${conversion.from === 'value' ? '' : ` (was ${article(conversion.from)})`}: older versions are converted with ${code(change.conversion)}.`;
    }
    case 'revalue':
      return `${code(before)} changes values: ${Object.entries(change.values).map(([from, to]) => `${show(from)} is now ${show(to)}`).join(', ')}.`;
    default:
      return `${code(before)}: ${change.description.trim()}`;
  }
}

/**
 * The problems of a whole record: `{resource: [{version, previous, changes: [...]}, ...]}`,
 * newest first, each step joining `previous` to `version`.
 */
export function recordProblems(record) {
  if (record === undefined || record === null) return [];
  if (typeof record !== 'object' || Array.isArray(record)) return [`${RECORD_KEY} maps each resource to its list of version steps`];
  const problems = [];
  for (const [resource, steps] of Object.entries(record)) {
    if (!Array.isArray(steps)) {
      problems.push(`${resource}: a list of version steps`);
      continue;
    }
    steps.forEach((step, index) => {
      const where = `${resource} ${step?.version ?? `#${index}`}`;
      if (!step || typeof step.version !== 'string' || typeof step.previous !== 'string') problems.push(`${where}: a step names its version and its previous version`);
      else if (step.previous >= step.version) problems.push(`${where}: the previous version ${step.previous} is not earlier`);
      else if (index > 0 && steps[index - 1].previous !== step.version) problems.push(`${where}: the steps do not join (newest first, each one's previous is the next one's version)`);
      if (!Array.isArray(step?.changes)) problems.push(`${where}: "changes" is a list`);
      else for (const change of step.changes) problems.push(...changeProblems(change).map((p) => `${where}: ${p}`));
    });
  }
  return problems;
}

/**
 * The record in a resource version registry: each version entry may carry `changes`, the
 * changes from the entry below it. Gives `{resource: [{version, previous, changes}]}`, newest
 * first, with a step (empty or not) for every version that has a predecessor.
 */
export function recordFromRegistry(registry) {
  const record = {};
  for (const [resource, entry] of Object.entries(registry?.resources ?? {})) {
    const versions = [...(entry.versions ?? [])].sort((a, b) => (a.version < b.version ? 1 : -1));
    const steps = versions.slice(0, -1).map((v, i) => ({ version: v.version, previous: versions[i + 1].version, changes: v.changes ?? [] }));
    if (steps.length > 0) record[resource] = steps;
  }
  return record;
}

/** Calls fn(parent, key) for every object that holds (or would hold) the field, through arrays. */
function eachParent(value, segments, fn) {
  if (Array.isArray(value)) {
    for (const item of value) eachParent(item, segments, fn);
    return;
  }
  if (!value || typeof value !== 'object') return;
  if (segments.length === 1) {
    fn(value, segments[0]);
    return;
  }
  eachParent(value[segments[0]], segments.slice(1), fn);
}

/** Renames a key in place, keeping its position among the object's keys. */
function renameKey(object, from, to) {
  if (!Object.hasOwn(object, from)) return;
  const entries = Object.entries(object).map(([key, value]) => (key === from ? [to, value] : [key, value]));
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, value] of entries) object[key] = value;
}

function convert(name, value, context) {
  if (value === null || value === undefined) return value;
  const converted = CONVERSIONS[name].convert(value);
  if (converted === undefined) {
    throw new VersionChangeError(`${context.field}: ${JSON.stringify(value)} cannot be converted (${name}) for ${context.resource} version ${context.version}`, context);
  }
  return converted;
}

/** Applies one change to an entity, in place; `direction` is 'up' (older to newer) or 'down'. */
function applyChange(entity, change, direction, context) {
  const { kind, before, after } = changeFields(change);
  const segments = fieldSegments(before ?? after);
  const key = segments.at(-1);
  const ctx = { ...context, field: before ?? after };
  eachParent(entity, segments, (parent) => {
    switch (kind) {
      case 'rename':
        if (direction === 'up') renameKey(parent, key, change.to);
        else renameKey(parent, change.to, key);
        break;
      case 'remove':
        if (direction === 'up') delete parent[key];
        else if (change.default !== undefined && !Object.hasOwn(parent, key)) parent[key] = structuredClone(change.default);
        break;
      case 'add':
        if (direction === 'down') delete parent[key];
        else if (change.default !== undefined && !Object.hasOwn(parent, key)) parent[key] = structuredClone(change.default);
        break;
      case 'retype':
        if (Object.hasOwn(parent, key)) {
          const name = direction === 'up' ? change.conversion : CONVERSIONS[change.conversion].inverse;
          parent[key] = convert(name, parent[key], ctx);
        }
        break;
      case 'revalue':
        if (Object.hasOwn(parent, key)) {
          const map = direction === 'up' ? change.values : Object.fromEntries(Object.entries(change.values).map(([a, b]) => [b, a]));
          if (Object.hasOwn(map, String(parent[key]))) parent[key] = map[String(parent[key])];
        }
        break;
      default:
        break; // a note explains a change; the value is the same on both sides
    }
  });
}

/** The fields of the contract's envelopes that hold the entity: the detail's and the list's. */
export const ENTITY_FIELDS = ['content', '_embedded'];

const COMBINATIONS = ['allOf', 'oneOf', 'anyOf'];

function schemaReaches(schema, segments, seen) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  if (segments.length === 0) return true;
  seen.add(schema);
  const [first, ...rest] = segments;
  if (schema.properties && Object.hasOwn(schema.properties, first) && schemaReaches(schema.properties[first], rest, new Set(seen))) return true;
  if (schema.items && schemaReaches(schema.items, segments, seen)) return true;
  return COMBINATIONS.some((key) => (schema[key] ?? []).some((part) => schemaReaches(part, segments, seen)));
}

/**
 * Whether a schema whose references are resolved (a bundle as Spectral or a dereferencer
 * gives it) declares the field: in the entity of a detail or list envelope, or in the schema
 * itself (a request body), through compositions and arrays of objects.
 */
export function schemaHasField(schema, path) {
  const segments = fieldSegments(path);
  if (!segments) return false;
  for (const envelope of ENTITY_FIELDS) {
    if (schemaReaches(schema, [envelope], new Set())) return schemaReaches(schema, [envelope, ...segments], new Set());
  }
  return schemaReaches(schema, segments, new Set());
}

/**
 * The entities of a document: the items of a list envelope (`_embedded`), the `content` of a
 * detail envelope (an object with `content` next to `version` or `messages`), else the
 * document itself (a request body).
 */
export function entitiesOf(doc) {
  if (!doc || typeof doc !== 'object') return [];
  const [detail, list] = ENTITY_FIELDS;
  if (Array.isArray(doc[list])) return doc[list];
  if (Object.hasOwn(doc, detail) && (Object.hasOwn(doc, 'version') || Object.hasOwn(doc, 'messages'))) {
    return doc[detail] && typeof doc[detail] === 'object' ? [doc[detail]] : [];
  }
  return [doc];
}

/** The steps from `from` to `to` (from < to), oldest first; throws when the chain does not join them. */
function stepsBetween(record, resource, from, to) {
  const steps = record[resource] ?? [];
  const path = [];
  let at = from;
  while (at !== to) {
    const step = steps.find((s) => s.previous === at);
    if (!step || step.version > to) {
      throw new VersionChangeError(`no chain of version changes leads from ${resource} ${from} to ${to}`, { resource, version: to });
    }
    path.push(step);
    at = step.version;
  }
  return path;
}

function run(record, resource, from, to, doc, direction) {
  if (from === to) return doc;
  const [older, newer] = direction === 'up' ? [from, to] : [to, from];
  if (older > newer) throw new VersionChangeError(`${direction === 'up' ? 'upgrade' : 'downgrade'} of ${resource}: ${from} is later than ${to}`, { resource, version: to });
  let steps = stepsBetween(record, resource, older, newer);
  if (direction === 'down') steps = [...steps].reverse();
  const out = structuredClone(doc);
  const entities = entitiesOf(out);
  for (const step of steps) {
    const changes = direction === 'up' ? step.changes : [...step.changes].reverse();
    for (const entity of entities) {
      for (const change of changes) applyChange(entity, change, direction, { resource, version: step.version });
    }
  }
  return out;
}

/**
 * The chain of a bundle. `upgrade` takes a request body written at an older version to a newer
 * one (newest: the stored shape); `downgrade` takes an answer from a newer version to an older
 * one. Both take a detail or list envelope or a bare entity (entitiesOf), and neither changes
 * its argument.
 */
export function versionChanges(bundleOrRecord) {
  const record = bundleOrRecord && Object.hasOwn(bundleOrRecord, RECORD_KEY) ? bundleOrRecord[RECORD_KEY] : (bundleOrRecord?.openapi ? {} : (bundleOrRecord ?? {}));
  const problems = recordProblems(record);
  if (problems.length > 0) throw new VersionChangeError(`${RECORD_KEY} is not valid: ${problems.join('; ')}`);
  return {
    record,
    /** The steps of a resource, newest first. */
    steps: (resource) => record[resource] ?? [],
    upgrade: (resource, fromVersion, toVersion, body) => run(record, resource, fromVersion, toVersion, body, 'up'),
    downgrade: (resource, fromNewest, toVersion, doc) => run(record, resource, fromNewest, toVersion, doc, 'down'),
  };
}

const chains = new WeakMap();

/**
 * The chain of a bundle, or null when it records no version change: what a server or a checker
 * asks per request, so it is read (and validated) once per bundle object.
 */
export function chainOf(bundle) {
  let chain = chains.get(bundle);
  if (chain === undefined) {
    const read = versionChanges(bundle);
    chain = Object.keys(read.record).length > 0 ? read : null;
    chains.set(bundle, chain);
  }
  return chain;
}
