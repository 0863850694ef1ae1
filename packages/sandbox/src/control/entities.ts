// The entity read of the control endpoints: one kind of entity of the caller's sandbox in the
// shape the API serves it, found without the API's paths, parents or authorization.
//   POST /__sandbox/entities/{list}/find   {"where": {...}, "filter": "...", "orderBy": "...", "take": 100, "skip": 0}
// `where` (equality by field of the read shape) becomes a filter tree of `eq` comparisons, bound
// with `filter` and `orderBy` against the read shape's fields by the API's own binder, and found
// by the store's own find over the read shapes: one query language, one evaluator.
import { message } from '../http/errors.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import type { SandboxRequest } from '../http/request.js';
import type { Principal } from '../domain/context.js';
import type { DocSchemas } from '../domain/doc-schemas.js';
import { bindFilter, bindOrderBy } from '../filter/bind.js';
import { fieldTable } from '../filter/fields.js';
import { parseFilter, parseOrderBy } from '../filter/parse.js';
import { QueryError, type FieldTable, type FilterNode, type Literal } from '../filter/tree.js';
import { CollectionScan } from '../store/scan.js';
import type { Doc, Store } from '../store/types.js';
import type { EntityList, EntityLists } from '@payroll-api/types/sandbox-control';
import { controlDescription } from '../generated/control-description.js';
import { FIXTURE_KINDS, readShape, type FixtureKind } from '../fixtures/factories.js';
import { jsonBody, refused } from './control-endpoints.js';
import { SCENARIO_LISTS } from './scenario.js';

export const ENTITIES_PATH = '/__sandbox/entities';

/** The kinds offered, by list name: the lists the control description's EntityList names (those
 * with an id and a read shape), each of the kind a scenario's list of that name makes. */
const ENTITY_LIST_NAMES = (controlDescription.components as { schemas: { EntityList: { enum: EntityList[] } } }).schemas.EntityList.enum;
export const ENTITY_LISTS = Object.fromEntries(ENTITY_LIST_NAMES.map((list) => [list, SCENARIO_LISTS[list]])) as EntityLists;

/** Kinds that share their collection with other levels, told apart by the stored `level`. */
const LEVELLED = new Set<FixtureKind>(['providerJournalProfile', 'journalProfile', 'administrationJournalProfile']);

export const DEFAULT_TAKE = 100;
export const MAX_TAKE = 1000;
const MAX_WHERE_DEPTH = 8;

export interface EntitiesControlContext {
  store: Store;
  schemas: () => DocSchemas;
  principal(token: string): Promise<Principal | undefined>;
}

const tables = new WeakMap<DocSchemas, Map<FixtureKind, FieldTable>>();

/** The fields of a kind's read shape that can be matched and ordered on. */
function tableOf(kind: FixtureKind, schemas: DocSchemas): FieldTable {
  let byKind = tables.get(schemas);
  if (!byKind) tables.set(schemas, (byKind = new Map()));
  let table = byKind.get(kind);
  if (!table) {
    const { api = 'payroll', component } = FIXTURE_KINDS[kind];
    byKind.set(kind, (table = fieldTable(component ? (schemas.component(api, component) ?? {}) : {})));
  }
  return table;
}

/** `where` as `eq` comparisons joined by `and`: `{ personalDetails: { lastName: 'Visser' } }`
 * is `personalDetails.lastName eq 'Visser'`. */
function whereNode(where: unknown, path: string[] = []): FilterNode | undefined {
  if (!where || typeof where !== 'object' || Array.isArray(where)) throw new QueryError('filter', `where${path.length ? ` at ${path.join('.')}` : ''} must be an object of fields and the values they equal.`);
  if (path.length > MAX_WHERE_DEPTH) throw new QueryError('filter', `where reaches at most ${MAX_WHERE_DEPTH} levels deep.`);
  let node: FilterNode | undefined;
  for (const [name, value] of Object.entries(where as Record<string, unknown>)) {
    const field = [...path, name];
    let part: FilterNode | undefined;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) part = whereNode(value, field);
    else if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) part = { kind: 'compare', field: field.join('.'), op: 'eq', value: value as Literal };
    else throw new QueryError('filter', `where.${field.join('.')}: arrays cannot be matched; give a text, a number, true, false or null.`);
    if (part) node = node ? { kind: 'and', left: node, right: part } : part;
  }
  return node;
}

export async function entitiesControl(req: SandboxRequest, pathname: string, ctx: EntitiesControlContext): Promise<Outgoing> {
  const match = /^\/__sandbox\/entities\/([^/]+)\/find$/.exec(pathname);
  const list = match ? decodeURIComponent(match[1]!) : undefined;
  if (!list || !Object.hasOwn(ENTITY_LISTS, list)) return refused(404, `There is no entity list here; the lists are ${Object.keys(ENTITY_LISTS).join(', ')}, read with POST ${ENTITIES_PATH}/{list}/find.`, ['list']);
  if (req.method !== 'POST') return { status: 405, headers: { Allow: 'POST' } };
  const token = bearerToken(req);
  const principal = token === undefined ? undefined : await ctx.principal(token);
  if (!principal) return unauthorized();
  const body = await jsonBody(req, 64 * 1024);
  if (!body.ok) return body.out;
  const query = (body.value ?? {}) as { where?: unknown; filter?: unknown; orderBy?: unknown; take?: unknown; skip?: unknown };
  if (typeof query !== 'object' || Array.isArray(query)) return refused(400, 'The body is an object such as {"where": {"personalDetails": {"lastName": "Visser"}}, "take": 10}.', ['body']);
  const take = query.take ?? DEFAULT_TAKE;
  const skip = query.skip ?? 0;
  if (typeof take !== 'number' || !Number.isInteger(take) || take < 0 || take > MAX_TAKE) return refused(400, `take must be a whole number from 0 to ${MAX_TAKE}.`, ['take']);
  if (typeof skip !== 'number' || !Number.isInteger(skip) || skip < 0) return refused(400, 'skip must be a whole number, at least 0.', ['skip']);
  const kind: FixtureKind = ENTITY_LISTS[list as EntityList];
  const schemas = ctx.schemas();
  const table = tableOf(kind, schemas);
  let where;
  let orderBy;
  try {
    const conditions = [query.where === undefined ? undefined : whereNode(query.where), typeof query.filter === 'string' ? parseFilter(query.filter) : undefined].filter((node) => node !== undefined);
    if (query.filter !== undefined && typeof query.filter !== 'string') throw new QueryError('filter', 'filter is a text in the API\'s filter syntax.');
    const node = conditions.reduce<FilterNode | undefined>((left, right) => (left ? { kind: 'and', left, right } : right), undefined);
    where = node && bindFilter(node, table);
    if (query.orderBy !== undefined && typeof query.orderBy !== 'string') throw new QueryError('orderBy', 'orderBy is a text in the API\'s orderBy syntax.');
    orderBy = query.orderBy ? bindOrderBy(parseOrderBy(query.orderBy), table) : undefined;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const property = error.parameter === 'filter' && query.filter === undefined ? 'where' : error.parameter;
    return json(400, { messages: [message(400, error.message, [property])] });
  }
  const { collection, level } = FIXTURE_KINDS[kind];
  const stored = await ctx.store.transaction(principal.sandbox, 'read', async (tx) => (await tx.find(collection)).rows);
  const shapes = new Map<string, unknown>();
  const scanned: Doc[] = [];
  for (const doc of stored) {
    if (LEVELLED.has(kind) && doc.level !== level) continue;
    const shape = readShape(kind, doc, schemas) as Record<string, unknown>;
    shapes.set(doc.id, shape);
    // Matched and ordered by the read shape's fields; ties broken by the stored id.
    scanned.push({ ...shape, id: doc.id });
  }
  const page = new CollectionScan(scanned).find({ where, orderBy, offset: skip, limit: take });
  return json(200, { entities: page.rows.map((row) => shapes.get(row.id)), total: page.total });
}
