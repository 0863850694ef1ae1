// The filter tree: one parser (parse.ts) turns the contract's filter syntax (section 4.1) into
// a FilterNode; bind.ts checks it against the list item's fields and types, giving a
// BoundFilter that every store evaluates (evaluate.ts in memory, sql.ts for PostgreSQL).
//
// Semantics where the contract is silent (also stated in the description with x-contract-gap):
// - `and` binds tighter than `or`; parentheses group.
// - Field names are case-insensitive; a dot reaches a nested field (address.city).
//   A metadata object named bare compares its key (gender eq 2 is gender.key eq 2).
// - Strings compare case-insensitively (both sides lower-cased, then by code point); `lk`
//   matches when the value contains the literal (case-insensitive, no wildcards).
// - Literals: 'quoted' strings ('' is a quote inside), numbers, true/false, null;
//   dates and date-times are quoted ('2020-01-31').
// - `eq null` matches a null or missing value, `ne null` a present one. Only eq and ne take
//   null. A null or missing value never matches eq/gt/ge/lt/le/lk with a non-null literal,
//   and always matches ne with one.
// - Arrays cannot be filtered or ordered on.
// - orderBy: nulls sort last ascending and first descending; ties are broken by id ascending.

/** A stored document as filters read it: a JSON object with an id (the store's unit). */
export type Doc = { id: string } & Record<string, unknown>;

export type ComparisonOperator = 'eq' | 'ne' | 'lk' | 'gt' | 'ge' | 'lt' | 'le';

export type Literal = string | number | boolean | null;

/** As parsed: field names as written, literal as written. */
export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'compare'; field: string; op: ComparisonOperator; value: Literal };

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time';

/** A filterable, orderable field of a list item: its path as stored and its type. */
export interface FieldInfo {
  /** Path segments in the description's spelling, e.g. ['address', 'city']. */
  path: string[];
  type: FieldType;
  /** Why the field cannot be filtered or ordered on at the version asked for (a sentence after its name), when it cannot. */
  unread?: string;
}

/** Lower-cased dotted name (as a client may write it) to field; bare metadata names map to `.key`. */
export type FieldTable = Map<string, FieldInfo>;

/** Checked and typed: what the stores evaluate. Literals are converted to the field's type
 * (strings lower-cased for comparison, dates as 'yyyy-MM-dd', date-times as ISO instants in UTC). */
export type BoundFilter =
  | { kind: 'and' | 'or'; left: BoundFilter; right: BoundFilter }
  | { kind: 'compare'; field: FieldInfo; op: ComparisonOperator; value: Literal }
  /** The value at `field` is one of `values`, compared exactly (no case folding): what the
   * engine adds for fixed constraints such as employerId = <path parameter> or a data scope. */
  | { kind: 'in'; field: FieldInfo; values: Literal[] }
  | { kind: 'true' };

export interface OrderKey {
  field: FieldInfo;
  descending: boolean;
}

/** Why a filter or orderBy was refused; `parameter` is 'filter' or 'orderBy'. */
export class QueryError extends Error {
  constructor(
    readonly parameter: 'filter' | 'orderBy' | 'pageNumber' | 'pageSize',
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}
