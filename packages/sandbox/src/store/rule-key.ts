// What a unique rule compares, in one place: the stores decide with it, and the snapshot and
// merge checks (control/snapshot-check.ts) foresee the stores' refusals with it.
import { valueAt } from '../filter/evaluate.js';
import type { UniqueRule } from './types.js';

/** The text a rule compares for one field, as PostgreSQL's `doc #>> path` gives it (lower-cased
 * for case-insensitive rules), or null when the doc is not constrained. */
export function ruleKey(doc: unknown, rule: UniqueRule): string | null {
  const parts: string[] = [];
  for (const field of rule.fields) {
    const value = valueAt(doc, field.split('.'));
    if (value === null || value === undefined) return null;
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(rule.caseInsensitive ? text.toLowerCase() : text);
  }
  return JSON.stringify(parts);
}
