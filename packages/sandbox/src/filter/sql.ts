// The bound filter tree and sort keys compiled to PostgreSQL over a jsonb `doc` column, with
// exactly evaluate.ts's semantics: values of another JSON type than the field's count as null,
// text is lower-cased (Unicode, as JavaScript does), equal by code point (COLLATE "C") and
// ordered (ORDER BY, gt/ge/lt/le) by the Dutch ICU collation evaluate.ts's compareText matches,
// numbers as numeric, dates as text, date-times as instants (sandbox_instant, created by the
// store), nulls last ascending and first descending, ties by id. Every value is a query
// parameter, and so is every path but one whose segments are all plain field names (a schema's,
// never request text): that is written as `doc -> 'a' -> 'b'`, an expression an index matches.
import type { BoundFilter, FieldInfo, Literal, OrderKey } from './tree.js';

/** Collects query parameters and hands out their placeholders ($1, $2, ...). */
export class SqlParams {
  readonly values: unknown[] = [];
  private readonly paths = new Map<string, string>();

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A path as a text[] parameter, once per distinct path. */
  path(segments: readonly string[]): string {
    const key = JSON.stringify(segments);
    let placeholder = this.paths.get(key);
    if (!placeholder) {
      placeholder = `${this.add(segments)}::text[]`;
      this.paths.set(key, placeholder);
    }
    return placeholder;
  }
}

/** A field name that may be written into SQL text as it is. */
const PLAIN_FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `column -> 'a' -> 'b'` for a path of plain field names (what an expression index on the
 * field is made of), else undefined. */
export function plainJsonPath(path: readonly string[], column = 'doc'): string | undefined {
  if (path.length === 0 || !path.every((segment) => PLAIN_FIELD.test(segment))) return undefined;
  return `${column}${path.map((segment) => ` -> '${segment}'`).join('')}`;
}

export interface SqlDialect {
  /** The collation lower() folds case with: ICU's root locale matches JavaScript's toLowerCase;
   * '' (the database default) where the server has no ICU. */
  foldCollation: string;
  /** The collation strings are ordered with (compareText in evaluate.ts): ' COLLATE "nl-x-icu"'
   * (or "und-x-icu", which orders alike) where the server has ICU, else ' COLLATE "C"'. */
  orderCollation: string;
}

/** A string comparable put in the order the dialect's collation gives (other types as they are). */
export function ordered(value: string, field: FieldInfo, dialect: SqlDialect): string {
  return field.type === 'string' ? `(${value}${dialect.orderCollation})` : value;
}

/** lower() as JavaScript's toLowerCase, its result compared by code point. */
export function foldCase(text: string, dialect: SqlDialect): string {
  return `(lower((${text})${dialect.foldCollation}) COLLATE "C")`;
}

/** The comparable value of a field (see comparableOf in evaluate.ts), NULL when absent. */
export function comparable(field: FieldInfo, params: SqlParams, dialect: SqlDialect, column = 'doc'): string {
  const path = params.path(field.path);
  const json = `${column} #> ${path}`;
  const text = `(${column} #>> ${path})`;
  const is = (type: string) => `jsonb_typeof(${json}) = '${type}'`;
  switch (field.type) {
    case 'string':
      return `(CASE WHEN ${is('string')} THEN ${foldCase(text, dialect)} END)`;
    case 'date':
      return `(CASE WHEN ${is('string')} THEN ${text} COLLATE "C" END)`;
    case 'date-time':
      return `(CASE WHEN ${is('string')} THEN sandbox_instant(${text}) END)`;
    case 'integer':
    case 'number':
      return `(CASE WHEN ${is('number')} THEN ${text}::numeric END)`;
    case 'boolean':
      return `(CASE WHEN ${is('boolean')} THEN (${json})::boolean END)`;
  }
}

function literal(value: Exclude<Literal, null>, field: FieldInfo, params: SqlParams): string {
  switch (field.type) {
    case 'string':
    case 'date':
      return `${params.add(String(value))}::text`;
    case 'date-time':
      return `${params.add(String(value))}::timestamptz`;
    case 'integer':
    case 'number':
      return `${params.add(String(value))}::numeric`;
    case 'boolean':
      return `${params.add(value)}::boolean`;
  }
}

const OPERATORS = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

export function compileFilter(filter: BoundFilter, params: SqlParams, dialect: SqlDialect, column = 'doc'): string {
  switch (filter.kind) {
    case 'true':
      return 'TRUE';
    case 'and':
    case 'or':
      return `(${compileFilter(filter.left, params, dialect, column)} ${filter.kind.toUpperCase()} ${compileFilter(filter.right, params, dialect, column)})`;
    case 'in': {
      const json = plainJsonPath(filter.field.path, column) ?? `${column} #> ${params.path(filter.field.path)}`;
      const values = filter.values.filter((value) => value !== null).map((value) => JSON.stringify(value));
      const parts = [`${json} = ANY(${params.add(values)}::jsonb[])`];
      if (filter.values.includes(null)) parts.push(`${json} IS NULL`, `${json} = 'null'::jsonb`);
      return `(${parts.join(' OR ')})`;
    }
    case 'compare': {
      const value = comparable(filter.field, params, dialect, column);
      if (filter.value === null) return filter.op === 'ne' ? `(${value} IS NOT NULL)` : filter.op === 'eq' ? `(${value} IS NULL)` : 'FALSE';
      const other = literal(filter.value, filter.field, params);
      if (filter.op === 'lk') return `(strpos(${value}, ${other}) > 0)`;
      if (filter.op === 'ne') return `(${value} IS NULL OR ${value} <> ${other})`;
      // eq and ne above compare by code point; the other operators by the order's collation.
      return `(${ordered(value, filter.field, dialect)} ${OPERATORS[filter.op]} ${other})`;
    }
  }
}

/** ORDER BY terms, ending with the id so that pages are stable. */
export function compileOrderBy(keys: readonly OrderKey[], params: SqlParams, dialect: SqlDialect, column = 'doc', idColumn = 'id'): string {
  return orderTerms(keys.map((key) => ({ value: ordered(comparable(key.field, params, dialect, column), key.field, dialect), descending: key.descending })), idColumn);
}

/** ORDER BY terms over values already computed (e.g. columns of a subquery), then the id:
 * nulls last ascending and first descending, as evaluate.ts orders. */
export function orderTerms(values: ReadonlyArray<{ value: string; descending: boolean }>, idColumn = 'id'): string {
  const terms = values.map(({ value, descending }) => `${value} ${descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`);
  terms.push(`${idColumn} COLLATE "C" ASC`);
  return terms.join(', ');
}

/** The SQL function date-times are read with: the same shapes instantOf reads, else NULL
 * (never an error), fractions below a millisecond dropped, no offset meaning UTC. */
export function instantFunctionSql(pattern: string): string {
  const quoted = `'${pattern.replaceAll("'", "''")}'`;
  return `CREATE OR REPLACE FUNCTION sandbox_instant(value text) RETURNS timestamptz
  LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
    SELECT CASE
      WHEN value !~ ${quoted} OR substr(value, 1, 4) = '0000' THEN NULL
      WHEN substr(value, 9, 2)::int > extract(day FROM make_date(substr(value, 1, 4)::int, substr(value, 6, 2)::int, 1)
        + interval '1 month' - interval '1 day') THEN NULL
      ELSE date_trunc('milliseconds', (CASE WHEN value ~ '(Z|[+-]\\d\\d:\\d\\d)$' THEN value ELSE value || 'Z' END)::timestamptz)
    END
  $fn$`;
}
