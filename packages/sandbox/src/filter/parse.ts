// The one parser of the contract's filter (section 4.1) and orderBy syntax. The caller hands
// in the parameter already URL-decoded. Precedence where the contract is silent: `and` binds
// tighter than `or`; parentheses group. Keywords and operators are case-insensitive.
import { QueryError, type ComparisonOperator, type FilterNode, type Literal } from './tree.js';

type Token =
  | { kind: '(' | ')'; position: number }
  | { kind: 'string'; value: string; position: number }
  | { kind: 'bare'; text: string; position: number };

const OPERATORS = new Set<string>(['eq', 'ne', 'lk', 'gt', 'ge', 'lt', 'le']);
const FIELD = /^\w+(\.\w+)*$/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function describe(token: Token | undefined): string {
  if (!token) return 'the end of the filter';
  const where = `at position ${token.position + 1}`;
  if (token.kind === 'string') return `'${token.value.replaceAll("'", "''")}' ${where}`;
  if (token.kind === 'bare') return `'${token.text}' ${where}`;
  return `'${token.kind}' ${where}`;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char, position: i });
      i++;
    } else if (char === "'") {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new QueryError('filter', `The quoted value starting at position ${start + 1} has no closing quote.`);
        if (text[i] === "'") {
          // A doubled quote is a quote inside the value.
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      tokens.push({ kind: 'string', value, position: start });
    } else {
      const start = i;
      while (i < text.length && !/[\s()']/.test(text[i]!)) i++;
      tokens.push({ kind: 'bare', text: text.slice(start, i), position: start });
    }
  }
  return tokens;
}

/** Parses a filter such as `(lastName lk 'jan' or initials eq 'J.') and endDate eq null`. */
export function parseFilter(text: string): FilterNode {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new QueryError('filter', 'The filter is empty.');
  let next = 0;
  const peek = () => tokens[next];
  const isKeyword = (token: Token | undefined, word: string) => token?.kind === 'bare' && token.text.toLowerCase() === word;

  /** Operands joined by one keyword, grouped from the left. */
  function joined(kind: 'and' | 'or', operand: () => FilterNode): FilterNode {
    let node = operand();
    while (isKeyword(peek(), kind)) {
      next++;
      node = { kind, left: node, right: operand() };
    }
    return node;
  }
  // `and` binds tighter than `or`: a disjunction of conjunctions.
  const conjunction = () => joined('and', primary);
  const disjunction = () => joined('or', conjunction);

  function primary(): FilterNode {
    const token = tokens[next++];
    if (token?.kind === '(') {
      const node = disjunction();
      const closing = tokens[next++];
      if (closing?.kind !== ')') throw new QueryError('filter', `Expected ')' to close the '(' at position ${token.position + 1}, found ${describe(closing)}.`);
      return node;
    }
    if (token?.kind !== 'bare' || !FIELD.test(token.text) || NUMBER.test(token.text)) {
      throw new QueryError('filter', `Expected a field name or '(', found ${describe(token)}.`);
    }
    const operator = tokens[next++];
    if (operator?.kind !== 'bare' || !OPERATORS.has(operator.text.toLowerCase())) {
      throw new QueryError('filter', `Expected an operator (eq, ne, lk, gt, ge, lt, le) after '${token.text}', found ${describe(operator)}.`);
    }
    return { kind: 'compare', field: token.text, op: operator.text.toLowerCase() as ComparisonOperator, value: literal(tokens[next++]) };
  }

  const node = disjunction();
  if (next < tokens.length) {
    const token = tokens[next];
    const hint = token?.kind === ')' ? " (a ')' without its '(')" : " (combine comparisons with 'and' or 'or')";
    throw new QueryError('filter', `Unexpected ${describe(token)}${hint}.`);
  }
  return node;
}

function literal(token: Token | undefined): Literal {
  if (token?.kind === 'string') return token.value;
  if (token?.kind === 'bare') {
    const word = token.text.toLowerCase();
    if (word === 'null') return null;
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (NUMBER.test(token.text)) {
      const value = Number(token.text);
      if (Number.isFinite(value)) return value;
    }
    throw new QueryError(
      'filter',
      `Expected a value ('quoted text', a number, true, false or null), found ${describe(token)}; dates and text are quoted ('2020-01-31').`,
    );
  }
  throw new QueryError('filter', `Expected a value ('quoted text', a number, true, false or null), found ${describe(token)}.`);
}

export interface OrderTerm {
  /** The field name as written (dotted for a nested field). */
  field: string;
  descending: boolean;
}

const ORDER_BY = /^-?\w+(\.\w+)*(,-?\w+(\.\w+)*)*$/;

/** Parses `lastName,-dateOfBirth` (the contract's pattern, with dots for nested fields). */
export function parseOrderBy(text: string): OrderTerm[] {
  if (!ORDER_BY.test(text)) {
    throw new QueryError(
      'orderBy',
      `'${text}' is not a comma-separated list of field names, each with an optional leading '-' for descending (e.g. lastName,-dateOfBirth).`,
    );
  }
  return text.split(',').map((term) => (term.startsWith('-') ? { field: term.slice(1), descending: true } : { field: term, descending: false }));
}
