// Unique rules and relations as partial expression indexes of sandbox_doc, and the errors the
// unique ones raise (23505 becomes a UniqueViolation naming the rule).
import { createHash } from 'node:crypto';
import { foldCase, plainJsonPath, UniqueViolation, type SqlDialect, type UniqueRule } from '@payroll-api/sandbox/engine';
import { PLAIN_ID, quoteLiteral } from './schema.js';

interface IndexedRule {
  collection: string;
  rule: UniqueRule;
}

export class DocIndexes {
  private readonly rules = new Map<string, IndexedRule>();
  private readonly relations = new Set<string>();
  /** Per collection with unique rules: the condition under which another doc clashes with $4. */
  private readonly clashes = new Map<string, string>();

  constructor(private readonly dialect: () => SqlDialect) {}

  /** A partial unique index per rule, named by a hash of its definition (names stay short). */
  uniqueIndexSql(collection: string, rule: UniqueRule): string {
    const name = `sandbox_unique_${createHash('sha256').update(JSON.stringify([collection, rule.fields, !!rule.caseInsensitive])).digest('hex').slice(0, 20)}`;
    this.rules.set(name, { collection, rule });
    const { keys, conditions } = this.ruleSql(collection, rule, 'doc');
    // The replace's check (see PostgresTx.replace): another doc with the same keys as $4.
    const mine = this.ruleSql(collection, rule, '$4::jsonb').keys;
    const other = this.ruleSql(collection, rule, 'other.doc');
    const clash = `(${[...other.conditions, ...other.keys.map((key, i) => `${key} = ${mine[i]}`)].join(' AND ')})`;
    const known = this.clashes.get(collection);
    this.clashes.set(collection, known ? `${known} OR ${clash}` : clash);
    return `CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON sandbox_doc (sandbox, ${keys.map((key) => `(${key})`).join(', ')}) WHERE ${conditions.join(' AND ')}`;
  }

  /** An index of a collection's docs by a relation field, for the lists that select by it (an
   * `in` filter on a plain field compiles to the same expression; see plainJsonPath). */
  relationIndexSql(collection: string, field: string): string {
    const expression = plainJsonPath([field]);
    if (!expression || !PLAIN_ID.test(collection)) throw new Error(`The collection ${collection} declares a relation by a field that is no plain field name: ${field}`);
    const name = `sandbox_by_${createHash('sha256').update(JSON.stringify([collection, field])).digest('hex').slice(0, 20)}`;
    this.relations.add(name);
    return `CREATE INDEX IF NOT EXISTS ${name} ON sandbox_doc (sandbox, (${expression})) WHERE collection = ${quoteLiteral(collection)}`;
  }

  /** Whether an index of sandbox_doc is one of the rules or relations declared now. */
  declares(name: string): boolean {
    return this.rules.has(name) || this.relations.has(name);
  }

  /** The condition under which another doc of the collection clashes with the doc $4 (undefined: no rules). */
  clashOf(collection: string): string | undefined {
    return this.clashes.get(collection);
  }

  /** The UniqueViolation a PostgreSQL unique violation stands for, or the error as it is. */
  violation(error: unknown, collection: string): unknown {
    const pgError = error as { code?: string; constraint?: string };
    if (pgError?.code !== '23505') return error;
    const indexed = pgError.constraint ? this.rules.get(pgError.constraint) : undefined;
    if (indexed) return new UniqueViolation(indexed.collection, indexed.rule.name, indexed.rule.fields);
    if (pgError.constraint === 'sandbox_doc_pkey') return new UniqueViolation(collection, 'id', ['id']);
    return error;
  }

  /** A rule's key expressions over a doc (`column`), and the condition of the index's rows. */
  private ruleSql(collection: string, rule: UniqueRule, column: string): { keys: string[]; conditions: string[] } {
    const texts = rule.fields.map((field) => `(${column} #>> ${quoteLiteral(`{${field.split('.').map((s) => `"${s.replaceAll('"', '\\"')}"`).join(',')}}`)})`);
    const keys = texts.map((text) => (rule.caseInsensitive ? foldCase(text, this.dialect()) : text));
    const table = column.includes('.') ? `${column.split('.')[0]}.` : '';
    const conditions = [`${table}collection = ${quoteLiteral(collection)}`, ...texts.map((text) => `${text} IS NOT NULL`)];
    return { keys, conditions };
  }
}
