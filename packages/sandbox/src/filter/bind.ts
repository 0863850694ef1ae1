// Checks a parsed filter or orderBy against the fields of a list item (fields.ts) and converts
// its literals to the field's type, giving the trees the stores evaluate. Every refusal is a
// QueryError naming the parameter, the field and what was wrong.
import { parseFilter, parseOrderBy, type OrderTerm } from './parse.js';
import { daysInMonth } from '../util/dates.js';
import { instantOf } from './evaluate.js';
import { QueryError, type BoundFilter, type FieldInfo, type FieldTable, type FilterNode, type Literal, type OrderKey } from './tree.js';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-\d{2}$/;

function isCalendarDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return year > 0 && day >= 1 && day <= daysInMonth(year, month);
}

/** The dotted paths of the fields whose last segment is `name` (`lastName` → `personalDetails.lastName`). */
function leavesNamed(table: FieldTable, name: string): string[] {
  const tail = `.${name.toLowerCase()}`;
  return [...new Set([...table.entries()].filter(([key]) => key.endsWith(tail)).map(([, field]) => field.path.join('.')))];
}

/** At most this many paths are offered for a name that ends several. */
const SUGGESTED = 5;

function lookup(table: FieldTable, name: string, parameter: 'filter' | 'orderBy'): FieldInfo {
  const field = table.get(name.toLowerCase());
  if (field?.unread) throw new QueryError(parameter, `Field '${name}' ${field.unread}: it cannot be filtered or ordered on.`);
  if (field) return field;
  const leaves = leavesNamed(table, name);
  const quoted = leaves.slice(0, SUGGESTED).map((path) => `'${path}'`);
  const hint =
    leaves.length === 0 ? '' : `${leaves.length === 1 ? ` Did you mean ${quoted[0]}?` : ` Did you mean one of ${quoted.join(', ')}?`} A field inside an object is named by its dotted path.`;
  throw new QueryError(parameter, `Unknown field '${name}': it is not a field of this list that can be filtered or ordered on.${hint}`);
}

function show(value: Literal): string {
  return typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value);
}

/** The literal converted to the field's type (see BoundFilter), or a QueryError. */
function convert(node: FilterNode & { kind: 'compare' }, field: FieldInfo): Literal {
  const { value, op } = node;
  const refuse = (expected: string): never => {
    throw new QueryError('filter', `Field '${node.field}' is ${field.type === 'integer' ? 'an' : 'a'} ${field.type}: ${expected}, not ${show(value)}.`);
  };
  if (value === null) {
    if (op !== 'eq' && op !== 'ne') throw new QueryError('filter', `Only eq and ne compare with null ('${node.field} ${op} null').`);
    return null;
  }
  if (op === 'lk' && field.type !== 'string') {
    throw new QueryError('filter', `lk (contains) applies to text fields; '${node.field}' is ${field.type === 'integer' ? 'an' : 'a'} ${field.type}.`);
  }
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? value.toLowerCase() : refuse('compare it with quoted text');
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : refuse('compare it with a whole number');
    case 'number':
      return typeof value === 'number' ? value : refuse('compare it with a number');
    case 'boolean':
      return typeof value === 'boolean' ? value : refuse('compare it with true or false');
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? value : refuse("compare it with a quoted date such as '2020-01-31'");
    case 'date-time': {
      if (typeof value !== 'string') return refuse("compare it with a quoted date or date-time such as '2020-01-31T09:00:00Z'");
      const instant = isCalendarDate(value) ? instantOf(`${value}T00:00:00Z`) : instantOf(value);
      return instant === null ? refuse("compare it with a quoted date or date-time such as '2020-01-31T09:00:00Z'") : new Date(instant).toISOString();
    }
  }
}

export function bindFilter(node: FilterNode, table: FieldTable): BoundFilter {
  if (node.kind !== 'compare') return { kind: node.kind, left: bindFilter(node.left, table), right: bindFilter(node.right, table) };
  const field = lookup(table, node.field, 'filter');
  return { kind: 'compare', field, op: node.op, value: convert(node, field) };
}

export function bindOrderBy(terms: readonly OrderTerm[], table: FieldTable): OrderKey[] {
  return terms.map((term) => ({ field: lookup(table, term.field, 'orderBy'), descending: term.descending }));
}

/** A client's filter parameter (URL-decoded) as the tree the stores evaluate. */
export function filterFrom(text: string, table: FieldTable): BoundFilter {
  return bindFilter(parseFilter(text), table);
}

/** A client's orderBy parameter as sort keys. */
export function orderFrom(text: string, table: FieldTable): OrderKey[] {
  return bindOrderBy(parseOrderBy(text), table);
}
