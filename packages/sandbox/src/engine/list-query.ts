// ctx.list(): the client's filter, orderBy, pageNumber and pageSize applied to a collection,
// with the handler's fixed constraints ANDed in. Field tables come from the list item schema
// of the operation at the negotiated version (the fields a client sees are the fields it may
// filter and order on).
import { filterFrom, orderFrom } from '../filter/bind.js';
import { fieldTable } from '../filter/fields.js';
import type { BoundFilter, FieldTable } from '../filter/tree.js';
import type { Tx } from '../store/types.js';
import type { ListPage, ListQuery } from '../domain/context.js';
import { pagingOf } from './paging.js';
import { listItemSchema } from '../http/schema-walk.js';
import { storedField, type Window } from './version-window.js';
import { itemOf } from './list-items.js';

const tables = new WeakMap<object, FieldTable>();
const storedTables = new WeakMap<object, Map<string, FieldTable>>();

/** The field table of a list operation's item schema (cached per response content schema). */
function fieldsOfItems(envelopeSchema: Record<string, unknown>): FieldTable {
  let table = tables.get(envelopeSchema);
  if (!table) {
    table = fieldTable(listItemSchema(envelopeSchema) ?? {});
    tables.set(envelopeSchema, table);
  }
  return table;
}

/**
 * The fields a client may filter and order a list on: named as the list's schema at the
 * version answered names them, each at its place in the handlers' shape when the answer is
 * translated (`at`), so that a renamed field compares as its old name did at the old version.
 */
export function fieldsOfList(envelopeSchema: Record<string, unknown> | undefined, at?: { window: Window; version: string }): FieldTable {
  if (!envelopeSchema) return new Map();
  const table = fieldsOfItems(envelopeSchema);
  if (!at || at.version === at.window.code) return table;
  const key = `${at.window.resource} ${at.window.code} ${at.version}`;
  const perSchema = storedTables.get(envelopeSchema) ?? new Map<string, FieldTable>();
  storedTables.set(envelopeSchema, perSchema);
  let stored = perSchema.get(key);
  if (!stored) {
    stored = new Map([...table].map(([name, field]) => {
      const place = storedField(at.window, at.version, field.path);
      return [name, 'path' in place ? { ...field, path: place.path } : { ...field, unread: place.unread }];
    }));
    perSchema.set(key, stored);
  }
  return stored;
}

function and(left: BoundFilter | undefined, right: BoundFilter | undefined): BoundFilter | undefined {
  if (!left) return right;
  if (!right) return left;
  return { kind: 'and', left, right };
}

export async function listPage(tx: Tx, collection: string, query: URLSearchParams, defaultFields: FieldTable, options: ListQuery = {}): Promise<ListPage> {
  const fields = options.fields ?? defaultFields;
  const paging = pagingOf(query);
  const filterText = query.get('filter');
  const orderText = query.get('orderBy');
  const clientFilter = filterText !== null && filterText.trim() !== '' ? filterFrom(filterText, fields) : undefined;
  const orderBy = orderText !== null && orderText.trim() !== '' ? orderFrom(orderText.trim(), fields) : [];
  const page = await tx.find(collection, {
    where: and(options.where, clientFilter),
    orderBy,
    offset: (paging.pageNumber - 1) * paging.pageSize,
    limit: paging.pageSize,
    // The items are made from the rows by `project` and only read after.
    readOnly: options.project !== undefined,
  });
  const project = options.project;
  return {
    items: project ? page.rows.map((doc) => itemOf(doc, project)) : page.rows,
    totalSize: page.total,
    pageNumber: paging.pageNumber,
    pageSize: paging.pageSize,
  };
}
