// A snapshot to import is checked whole before anything changes: its format, that every
// collection is one the sandbox knows, that every doc is an object with a unique string id,
// and every doc against its collection's schema. The first problems are reported.
import type { DocSchemas } from '../engine/doc-schemas.js';
import type { CollectionSpec, Snapshot } from '../store/types.js';

const MAX_PROBLEMS = 20;

export function snapshotProblems(value: unknown, collections: Map<string, CollectionSpec>, schemas: DocSchemas): string[] {
  const problems: string[] = [];
  const add = (text: string) => problems.length < MAX_PROBLEMS && problems.push(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['The snapshot must be a JSON object {format, collections, meta}.'];
  const snapshot = value as Partial<Snapshot>;
  if (snapshot.format !== 'payroll-sandbox/1') add(`format must be 'payroll-sandbox/1', not ${JSON.stringify(snapshot.format)?.slice(0, 40)}.`);
  if (snapshot.meta !== undefined && (typeof snapshot.meta !== 'object' || snapshot.meta === null || Array.isArray(snapshot.meta))) add('meta must be an object.');
  if (!snapshot.collections || typeof snapshot.collections !== 'object' || Array.isArray(snapshot.collections)) {
    add('collections must be an object of arrays of docs, by collection name.');
    return problems;
  }
  for (const [name, docs] of Object.entries(snapshot.collections)) {
    const spec = collections.get(name);
    if (!spec) {
      add(`collections.${name}: the sandbox has no such collection.`);
      continue;
    }
    if (!Array.isArray(docs)) {
      add(`collections.${name} must be an array.`);
      continue;
    }
    const ids = new Set<string>();
    docs.forEach((doc: unknown, i) => {
      const at = `collections.${name}[${i}]`;
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return add(`${at} must be an object.`);
      const id = (doc as { id?: unknown }).id;
      if (typeof id !== 'string' || id === '') return add(`${at}.id must be a non-empty string.`);
      if (ids.has(id)) add(`${at}.id ${id} occurs twice.`);
      ids.add(id);
      if (spec.schema) for (const problem of schemas.check(spec.schema.api, spec.schema.component, doc)) add(`${at} (${spec.schema.component}): ${problem}`);
    });
    for (const rule of spec.unique ?? []) {
      const seen = new Set<string>();
      docs.forEach((doc: unknown, i) => {
        const values = rule.fields.map((path) => path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), doc));
        if (values.some((v) => v === null || v === undefined)) return;
        const key = JSON.stringify(values.map((v) => (rule.caseInsensitive && typeof v === 'string' ? v.toLowerCase() : v)));
        if (seen.has(key)) add(`collections.${name}[${i}]: ${rule.fields.join(', ')} must be unique (${rule.name}).`);
        seen.add(key);
      });
    }
  }
  return problems;
}

/** The docs of a collection with `given` merged in by id: a doc whose id is stored replaces it (in its place), a new one is added at the end. */
export function mergeById<T extends { id: string }>(stored: readonly T[], given: readonly T[]): T[] {
  const byId = new Map(given.map((doc) => [doc.id, doc]));
  const kept = stored.map((doc) => byId.get(doc.id) ?? doc);
  const storedIds = new Set(stored.map((doc) => doc.id));
  return [...kept, ...given.filter((doc) => !storedIds.has(doc.id))];
}
