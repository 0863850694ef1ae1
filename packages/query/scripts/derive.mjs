// What each activity of a bundled description is, for keys and invalidation, derived from the
// description (scripts/generate.mjs writes it as src/generated/operations.ts; the README's
// invalidation table is rendered from the same result, and a test keeps the two equal).
//
//   family:     the kind of entity a resource holds: the registry resource without its variant
//               suffix (employmentMinimized → employment); the journal, which has no registry,
//               uses the collection its path names.
//   entity id:  the path parameter that addresses one entity of a family: for a list at
//               `…/{parentId}/things`, the parameter of `…/things/{thingId}`.
//   embeds:     a GET embeds a family when its answer reaches one of the family's entity schemas
//               through `$ref`s (a comprehensive employment holds the Employee), or has a
//               property named after the family (an employment's `employee` summary).
//   changes:    a write changes its own family, the families whose entity ids its answer
//               carries (PostEmployeeByEmployerId answers an employeeId and an employmentId: it
//               creates both), and what the contract says a write does beyond that (CONTRACT).
//   invalidates: every query naming a changed entity's id, and every GET that embeds a changed
//               family, narrowed at run time to the ids the write knows (its path parameters and
//               the ids its answer carries).
import { deref, isListEnvelope, operationsOf, successContent } from '@payroll-api/openapi-bundle';

/** Effects of writes the contract states in prose only (contract, section 4.3). */
const CONTRACT = {
  // "also deletes the person when no other employment remains"
  DeleteEmploymentByEmploymentId: ['employee'],
};

const GET = 0;
const LIST = 1;
const WRITE = 2;

export const paramsOf = (p) => p.match(/[^{}]+(?=})/g) ?? [];
const literals = (p) => p.split('/').filter((s) => s && !s.startsWith('{'));
/** The path up to and including its last parameter ('' when it has none). */
const entityPath = (p) => (/^(.*\})/.exec(p)?.[1] ?? '');
const refName = (ref) => ref.split('/').at(-1);
const jsonSchemas = (doc, op) =>
  Object.entries(successContent(doc, op))
    .filter(([media]) => /^application\/json/.test(media))
    .map(([, body]) => body?.schema)
    .filter(Boolean);
const isList = (doc, op) => jsonSchemas(doc, op).some((schema) => isListEnvelope(doc, schema));

/** The component schemas a schema reaches through `$ref`s, and every property name on the way. */
function reach(doc, schema) {
  const names = new Set();
  const properties = new Set();
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      if (names.has(name)) return;
      names.add(name);
      walk(deref(doc, node));
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') for (const property of Object.keys(value)) properties.add(property);
      if (key !== '$ref' && key !== 'examples' && key !== 'example') walk(value);
    }
  };
  walk(schema);
  return { names, properties };
}

/** The entity schema of an answer: a detail's `content`, a list's `_embedded` items, or the answer itself. */
function entitySchemaOf(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 10) return undefined;
  const content = s.properties?.content ?? s.properties?._embedded?.items;
  if (content) return content;
  // The envelope comes first in allOf, the part that names the entity after it.
  for (const part of [...(s.allOf ?? [])].reverse()) {
    const found = entitySchemaOf(doc, part, depth + 1);
    if (found) return found;
  }
  return depth === 0 ? schema : undefined;
}

/** The properties [name, schema] of an object schema, through allOf and $refs. */
function propertiesOf(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 10) return [];
  return [...Object.entries(s.properties ?? {}), ...(s.allOf ?? []).flatMap((part) => propertiesOf(doc, part, depth + 1))];
}

/**
 * The table of one API: activity → entry.
 *   GET:   { resource, ids, kind: 0 | 1, family, embeds: families }
 *   write: { resource, ids, kind: 2, family, changes: families, entities: [id parameter],
 *            answerIds: [[id parameter, answer content field]], reads: [GET activity] }
 */
export function deriveTable(doc, resourceOf, familyOf) {
  const ops = [...operationsOf(doc)].filter(({ operation }) => operation.operationId);
  const idOf = (o) => o.operation.operationId;
  const gets = ops.filter((o) => o.method === 'get');
  const getAt = new Map(gets.map((o) => [o.path, o]));
  const familyOfOp = (o) => familyOf(resourceOf(idOf(o), o.path));
  const families = new Set(ops.map(familyOfOp));

  // The id parameter of each family: a list at …/{parentId}/things and an entity at …/things/{thingId}.
  const entityId = new Map();
  for (const list of gets.filter((o) => isList(doc, o.operation))) {
    const bare = `/${literals(list.path).join('/')}`;
    const entity = ops.find((o) => paramsOf(o.path).length && o.path === `${bare}/{${paramsOf(o.path).at(-1)}}`);
    if (entity && !entityId.has(familyOfOp(list))) entityId.set(familyOfOp(list), paramsOf(entity.path).at(-1));
  }
  // A family without such a list: the parameter its detail GETs end in.
  for (const get of gets.filter((o) => !isList(doc, o.operation) && o.path.endsWith('}'))) {
    if (!entityId.has(familyOfOp(get)) && paramsOf(get.path).length === 1) entityId.set(familyOfOp(get), paramsOf(get.path)[0]);
  }
  const familyOfId = new Map([...entityId].map(([family, id]) => [id, family]));

  // The entity schemas of each family: what its GETs answer.
  const entitySchemas = new Map();
  for (const get of gets) {
    const names = entitySchemas.get(familyOfOp(get)) ?? new Set();
    for (const schema of jsonSchemas(doc, get.operation)) {
      const entity = entitySchemaOf(doc, schema);
      if (entity?.$ref) names.add(refName(entity.$ref));
    }
    entitySchemas.set(familyOfOp(get), names);
  }

  const table = {};
  for (const get of gets) {
    const { names, properties } = reach(doc, { allOf: jsonSchemas(doc, get.operation) });
    const embeds = [...families].filter(
      (family) => family === familyOfOp(get) || properties.has(family) || [...(entitySchemas.get(family) ?? [])].some((name) => names.has(name)),
    );
    table[idOf(get)] = { resource: resourceOf(idOf(get), get.path), ids: paramsOf(get.path), kind: isList(doc, get.operation) ? LIST : GET, family: familyOfOp(get), embeds };
  }
  for (const write of ops.filter((o) => o.method !== 'get')) {
    const id = idOf(write);
    // A write on a list's own path (a create, a matrix edit) changes that collection; any other
    // changes the entity of the GET at its entity path, else its own resource's.
    const read = getAt.get(write.path) && isList(doc, getAt.get(write.path).operation) ? getAt.get(write.path) : getAt.get(entityPath(write.path));
    const family = read ? familyOfOp(read) : familyOfOp(write);
    const answerIds = [];
    for (const schema of jsonSchemas(doc, write.operation)) {
      for (const [field, property] of propertiesOf(doc, entitySchemaOf(doc, schema))) {
        // The answer's own id, or the read-only id of an entity of another family it made.
        const param = field === 'id' ? entityId.get(family) : familyOfId.has(field) && (property.readOnly || deref(doc, property)?.readOnly) ? field : undefined;
        if (param && !answerIds.some(([p]) => p === param)) answerIds.push([param, field]);
      }
    }
    const changes = [...new Set([family, ...answerIds.map(([param]) => familyOfId.get(param)), ...(CONTRACT[id] ?? [])])];
    for (const named of CONTRACT[id] ?? []) if (!families.has(named)) throw new Error(`query: ${id} changes ${named}, which is no family of the description`);
    const entities = changes.map((f) => entityId.get(f)).filter(Boolean);
    const reads = gets.filter((get) => table[idOf(get)].embeds.some((f) => changes.includes(f))).map(idOf);
    table[id] = { resource: resourceOf(id, write.path), ids: paramsOf(write.path), kind: WRITE, family, changes, entities, answerIds, reads };
  }
  return table;
}

/** Both APIs' tables from their bundles. */
export function deriveTables(payroll, journal) {
  const registry = payroll['x-resource-versions']?.resources;
  if (!registry) throw new Error('query: the payroll bundle has no x-resource-versions registry.');
  const registered = new Map(Object.entries(registry).flatMap(([name, r]) => (r.operations ?? []).map((id) => [id, name])));
  return {
    payroll: deriveTable(
      payroll,
      (id) => {
        const name = registered.get(id);
        if (!name) throw new Error(`query: ${id} is in no resource of the registry`);
        return name;
      },
      // The registry names variants of a resource after it: employmentMinimized, employmentComprehensive.
      (resource) => resource.replace(/(Minimized|Comprehensive)$/, ''),
    ),
    // The journal has no registry: a resource is the collection its path names last.
    journal: deriveTable(journal, (_id, p) => literals(p).at(-1).toLowerCase(), (resource) => resource),
  };
}

/** The README's table of what each write invalidates (markdown). */
export function invalidationMarkdown(tables) {
  const rows = [];
  for (const [api, table] of Object.entries(tables)) {
    for (const [id, entry] of Object.entries(table)) {
      if (entry.kind !== WRITE) continue;
      const narrowed = (read) => {
        const known = table[read].ids.filter((p) => entry.ids.includes(p) || entry.answerIds.some(([param]) => param === p));
        return known.length ? `${read} (${known.join(', ')})` : read;
      };
      const entities = entry.entities.map((p) => `\`${p}\``).join(', ') || '–';
      rows.push(`| ${api} | \`${id}\` | ${entry.changes.join(', ')} | ${entities} | ${entry.reads.map((r) => `\`${narrowed(r)}\``).join(', ')} |`);
    }
  }
  return ['| API | write | changes | every query naming | and the GETs that embed what it changes (narrowed to) |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The markers around the generated table in README.md. */
export const README_TABLE = ['<!-- invalidation table: node scripts/generate.mjs --readme -->', '<!-- end of the invalidation table -->'];
