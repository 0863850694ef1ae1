// The SQL of a list. A page gathers the matching docs' ids and sort keys first and reads only
// the page's docs whole, with the total (one row without a doc for a page past the end); a
// list of every match (a rule's or a relation's lookup) is read in one pass.
import { createHash } from 'node:crypto';
import { SqlParams, comparable, compileFilter, orderTerms, ordered, type FindQuery, type SqlDialect } from '@payroll-api/sandbox/engine';
import { PLAIN_ID, quoteLiteral } from './schema.js';

/** Distinct list queries (filter and order shapes) kept prepared on each connection, at most:
 * PostgreSQL then plans a shape once instead of on every list. */
const PREPARED_LISTS = 100;

export interface ListSql {
  text: string;
  values: unknown[];
  /** Every match wanted (no paging): the rows are the matches' docs, and there is no total column. */
  whole: boolean;
}

/** A sandbox's source as a transaction's opening finds it: its own rows once it has a state row,
 * else the seed's (see sendForeseenReads). */
export interface OpeningSource {
  sandbox: string;
  seed: string;
}

/** The source of `sandbox` as SQL, by its state row (what the opening's state reads too). */
export const openingSourceSql = (sandboxSql: string, seedSql: string) => `(SELECT coalesce(max(sandbox), ${seedSql}) FROM sandbox_state WHERE sandbox = ${sandboxSql})`;

/** The query of `find(collection, query)` over the docs of `source`. */
export function listSql(source: string | OpeningSource, collection: string, query: FindQuery, dialect: SqlDialect): ListSql {
  const params = new SqlParams();
  // A collection named in the text (they are the store's own names) lets the planner use the
  // partial indexes of that collection in a prepared statement's generic plan too.
  const sandboxSql = typeof source === 'string' ? params.add(source) : openingSourceSql(params.add(source.sandbox), params.add(source.seed));
  const collectionSql = PLAIN_ID.test(collection) ? quoteLiteral(collection) : params.add(collection);
  const scope = `sandbox = ${sandboxSql} AND collection = ${collectionSql}`;
  const where = query.where ? `${scope} AND ${compileFilter(query.where, params, dialect)}` : scope;
  const keys = (query.orderBy ?? []).map((key, i) => ({ sql: `${ordered(comparable(key.field, params, dialect), key.field, dialect)} AS k${i}`, value: `k${i}`, descending: key.descending }));
  const columns = ['id', ...keys.map((key) => key.sql)].join(', ');
  let paging = '';
  if (query.limit !== undefined) paging += ` LIMIT ${params.add(query.limit)}`;
  if (query.offset) paging += ` OFFSET ${params.add(query.offset)}`;
  const pageKeys = keys.map((key) => ({ value: `page.${key.value}`, descending: key.descending }));
  const whole = paging === '';
  const text = whole
    ? `SELECT ${['doc::text AS doc', ...keys.map((key) => key.sql)].join(', ')} FROM sandbox_doc WHERE ${where} ORDER BY ${orderTerms(keys)}`
    : `WITH matches AS MATERIALIZED (SELECT ${columns} FROM sandbox_doc WHERE ${where}),
       page AS (SELECT * FROM matches ORDER BY ${orderTerms(keys)}${paging})
       SELECT (SELECT count(*) FROM matches) AS total, d.doc::text AS doc
       FROM (SELECT 1) AS one
       LEFT JOIN (page JOIN sandbox_doc d ON d.sandbox = ${sandboxSql} AND d.collection = ${collectionSql} AND d.id = page.id) ON TRUE
       ORDER BY ${orderTerms(pageKeys, 'page.id')}`;
  return { text, values: params.values, whole };
}

/** Names to prepare list queries under, by their text, while there is room (see PREPARED_LISTS). */
export class ListStatements {
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < PREPARED_LISTS) {
      name = `sandbox_list_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }
}
