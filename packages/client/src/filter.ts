// Builders for the `filter` and `orderBy` query parameters, in the contract's grammar:
//   <field> <eq|ne|lk|gt|ge|lt|le> <value>, joined by `and` / `or`, grouped by parentheses;
//   nested fields dotted; strings and dates ('yyyy-MM-dd') single-quoted with quotes doubled;
//   the literal null. orderBy: comma-separated fields, nested fields dotted as in the filter, a
//   leading minus for descending.
import { toIsoDate } from './dates.js';

export type FilterOperator = 'eq' | 'ne' | 'lk' | 'gt' | 'ge' | 'lt' | 'le';
const OPERATORS: readonly string[] = ['eq', 'ne', 'lk', 'gt', 'ge', 'lt', 'le'];
/** A field name, nested fields dotted: the filter grammar's and the export's X-ReportInput's. */
export const FIELD_RE = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** A date literal of a filter; make one with `filterDate()`. */
export interface FilterDate {
  readonly date: string;
}

export type FilterValue = string | number | boolean | null | Date | FilterDate;

/** A filter expression; `String(expr)` (or `.text`) is the parameter value. */
export interface FilterExpr {
  readonly text: string;
  /** The logical operator at the top of the expression, if any. */
  readonly joinedBy?: 'and' | 'or';
  toString(): string;
}

type Depth = [never, 0, 1, 2, 3, 4];
type Plain<T> = NonNullable<T>;

/** Dotted paths of the scalar and object fields of T (arrays excluded), to depth 5. */
export type FieldPath<T, D extends number = 5> = unknown extends T
  ? string
  : [D] extends [never]
    ? never
    : Plain<T> extends readonly unknown[]
      ? never
      : Plain<T> extends object
        ? {
            [K in keyof Plain<T> & string]: Plain<Plain<T>[K]> extends readonly unknown[]
              ? never
              : Plain<Plain<T>[K]> extends object
                ? K | `${K}.${FieldPath<Plain<T>[K], Depth[D]>}`
                : K;
          }[keyof Plain<T> & string]
        : never;

/** The type at a dotted path of T. */
export type FieldType<T, P extends string> = unknown extends T
  ? unknown
  : P extends `${infer H}.${infer R}`
    ? H extends keyof Plain<T>
      ? FieldType<Plain<T>[H], R>
      : unknown
    : P extends keyof Plain<T>
      ? Plain<T>[P]
      : unknown;

/** The literals a field of type V may be compared with. */
export type ValueFor<V> = unknown extends V
  ? FilterValue
  :
      | null
      | ([Plain<V>] extends [number]
          ? number
          : [Plain<V>] extends [boolean]
            ? boolean
            : [Plain<V>] extends [string]
              ? string | Date | FilterDate
              : FilterValue);

/** A date literal, checked: `filterDate('2024-01-31')` or `filterDate(new Date())` (UTC day). */
export function filterDate(value: string | Date): FilterDate {
  return { date: toIsoDate(value, 'filter date') };
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function literal(value: FilterValue, field: string): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`filter: the value of ${field} must be a finite number`);
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return quote(value);
  // A Date or a filterDate(): checked and written yyyy-MM-dd.
  const date = value instanceof Date ? value : (value as Partial<FilterDate> | undefined)?.date;
  if (date instanceof Date || typeof date === 'string') return quote(toIsoDate(date, `filter: the date of ${field}`));
  throw new TypeError(`filter: unsupported value for ${field}: ${String(value)}`);
}

function expr(text: string, joinedBy?: 'and' | 'or'): FilterExpr {
  if (text.length > 2048) throw new RangeError(`filter: the expression is ${text.length} characters; at most 2048`);
  return { text, joinedBy, toString: () => text };
}

/** One comparison: `where('endDate', 'eq', null)` -> `endDate eq null`. */
export function where(field: string, operator: FilterOperator, value: FilterValue): FilterExpr {
  if (typeof field !== 'string' || field === '') throw new TypeError('filter: the field name is empty');
  if (!FIELD_RE.test(field)) {
    throw new TypeError(`filter: invalid field name ${JSON.stringify(field)} (letters, digits and _, nested with dots)`);
  }
  if (!OPERATORS.includes(operator)) {
    throw new TypeError(`filter: unknown operator ${JSON.stringify(operator)} (one of ${OPERATORS.join(', ')})`);
  }
  return expr(`${field} ${operator} ${literal(value, field)}`);
}

function join(op: 'and' | 'or', parts: readonly (FilterExpr | undefined | false)[]): FilterExpr {
  const present = parts.filter((p): p is FilterExpr => Boolean(p));
  if (present.length === 0) throw new TypeError(`filter: ${op}() needs at least one expression`);
  if (present.length === 1) return present[0]!;
  // A nested expression joined by the other operator is parenthesised, so that the result
  // means what was built whatever the server's precedence.
  const text = present.map((p) => (p.joinedBy && p.joinedBy !== op ? `(${p.text})` : p.text)).join(` ${op} `);
  return expr(text, op);
}

/** All of the expressions (falsy entries are skipped, for optional criteria). */
export const and = (...parts: (FilterExpr | undefined | false)[]): FilterExpr => join('and', parts);
/** Any of the expressions (falsy entries are skipped). */
export const or = (...parts: (FilterExpr | undefined | false)[]): FilterExpr => join('or', parts);

/** A field of an orderBy, dotted for a nested field, a leading minus for descending. */
export type OrderField<Item> = unknown extends Item ? string : FieldPath<Item> | `-${FieldPath<Item>}`;

/** The `orderBy` value: `orderBy('-startDate', 'personalDetails.lastName')`. */
export function orderBy(...fields: string[]): string {
  if (fields.length === 0) throw new TypeError('orderBy: give at least one field');
  for (const f of fields) {
    if (typeof f !== 'string' || f === '' || f === '-') throw new TypeError('orderBy: a field name is empty');
    // A field path as the filter writes it, optionally preceded by the minus of descending.
    if (!FIELD_RE.test(f.replace(/^-/, ''))) {
      throw new TypeError(`orderBy: invalid field ${JSON.stringify(f)} (a field path or -path)`);
    }
  }
  const text = fields.join(',');
  if (text.length > 1024) throw new RangeError(`orderBy: ${text.length} characters; at most 1024`);
  return text;
}

/** Typed builders for the items of one list: field names are checked against `Item`. */
export interface FilterBuilder<Item> {
  where<P extends FieldPath<Item>>(field: P, operator: FilterOperator, value: ValueFor<FieldType<Item, P>>): FilterExpr;
  and(...parts: (FilterExpr | undefined | false)[]): FilterExpr;
  or(...parts: (FilterExpr | undefined | false)[]): FilterExpr;
  orderBy(...fields: OrderField<Item>[]): string;
  date(value: string | Date): FilterDate;
}

/** `filterFor<ListItem<'GetEmploymentsByEmployerId'>>()`: builders typed by the list item. */
export function filterFor<Item = unknown>(): FilterBuilder<Item> {
  return { where: where as FilterBuilder<Item>['where'], and, or, orderBy, date: filterDate };
}
