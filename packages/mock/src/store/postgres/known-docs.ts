// What a transaction has read or written, kept as JSON text, and lists kept current by writes.
import { CollectionScan, type Doc, type FindQuery } from '@payroll-api/sandbox/engine';

/** Docs as their JSON text (what PostgreSQL sends): each reader parses a copy of its own. A
 * list of every match (no page) keeps its query: a write to the collection updates it. */
export type Known = string | null | KnownList;

export interface KnownList {
  rows: string[];
  total: number;
  whole?: FindQuery;
}

/** Matches of a list kept up to date by the writes after it, at most (a longer one is dropped). */
export const UPDATED_LIST_ROWS = 1_000;

/** A list of every match, after the doc `id` was written as `json` (null: removed). */
export function listAfterWrite(list: KnownList & { whole: FindQuery }, id: string, json: string | null): KnownList {
  const texts = new Map<string, string>();
  const docs: Doc[] = [];
  const keep = (text: string, doc: Doc) => {
    texts.set(doc.id, text);
    docs.push(doc);
  };
  for (const text of list.rows) {
    const doc = JSON.parse(text) as Doc;
    if (doc.id !== id) keep(text, doc);
  }
  if (json !== null) keep(json, JSON.parse(json) as Doc);
  const rows = new CollectionScan(docs).find(list.whole).rows.map((doc) => texts.get(doc.id)!);
  return { rows, total: rows.length, whole: list.whole };
}
