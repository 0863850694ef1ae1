// A snapshot to import is checked whole before anything changes: its format, that every
// collection is one the sandbox knows, that every doc is an object with a unique string id,
// and every doc against its collection's schema. The first problems are reported. A merge
// (mergeSnapshots) is checked again as the state it makes: its unique fields across the docs
// it keeps, and the relations of the docs it gives (mergeProblems). Each check walks the docs
// one at a time, so that a server may run it in slices (the *InSlices forms) and answer other
// requests between them.
import type { DocSchemas } from '../domain/doc-schemas.js';
import type { CollectionSpec, Doc, Snapshot } from '../store/types.js';
import { ruleKey } from '../store/rule-key.js';
import { mergeById } from '../store/merge.js';
import { valueAt } from '../filter/evaluate.js';
import { runInSlices } from '../util/slices.js';

const MAX_PROBLEMS = 20;

/** A check that yields after each doc it looks at; its problems are gathered in `problems`. */
type Check = (problems: string[]) => Generator<void, void>;

/** The first problems a check finds, in one go. */
function problemsOf(check: Check): string[] {
  const problems: string[] = [];
  for (const _ of check(problems));
  return problems;
}

/**
 * The same, pausing between docs now and then (see Slices). A check done within its first slice
 * answers at once, not as a promise: a small snapshot then takes its place among the sandbox's
 * writes in the order it came, as it did when every check ran in one go.
 */
function problemsInSlices(check: Check): string[] | Promise<string[]> {
  const problems: string[] = [];
  return runInSlices(
    (function* () {
      yield* check(problems);
      return problems;
    })(),
  );
}

const adder = (problems: string[]) => (text: string) => problems.length < MAX_PROBLEMS && problems.push(text);

export function snapshotProblems(value: unknown, collections: Map<string, CollectionSpec>, schemas: DocSchemas): string[] {
  return problemsOf((problems) => checkSnapshot(value, collections, schemas, problems));
}

export function snapshotProblemsInSlices(value: unknown, collections: Map<string, CollectionSpec>, schemas: DocSchemas): string[] | Promise<string[]> {
  return problemsInSlices((problems) => checkSnapshot(value, collections, schemas, problems));
}

function* checkSnapshot(value: unknown, collections: Map<string, CollectionSpec>, schemas: DocSchemas, problems: string[]): Generator<void, void> {
  const add = adder(problems);
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    add('The snapshot must be a JSON object {format, collections, meta}.');
    return;
  }
  const snapshot = value as Partial<Snapshot>;
  if (snapshot.format !== 'payroll-sandbox/1') add(`format must be 'payroll-sandbox/1', not ${JSON.stringify(snapshot.format)?.slice(0, 40)}.`);
  if (snapshot.meta !== undefined && (typeof snapshot.meta !== 'object' || snapshot.meta === null || Array.isArray(snapshot.meta))) add('meta must be an object.');
  if (!snapshot.collections || typeof snapshot.collections !== 'object' || Array.isArray(snapshot.collections)) {
    add('collections must be an object of arrays of docs, by collection name.');
    return;
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
    for (let i = 0; i < docs.length; i++) {
      yield;
      const doc: unknown = docs[i];
      const at = `collections.${name}[${i}]`;
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
        add(`${at} must be an object.`);
        continue;
      }
      const id = (doc as { id?: unknown }).id;
      if (typeof id !== 'string' || id === '') {
        add(`${at}.id must be a non-empty string.`);
        continue;
      }
      if (ids.has(id)) add(`${at}.id ${id} occurs twice.`);
      ids.add(id);
      if (spec.schema) for (const problem of schemas.check(spec.schema.api, spec.schema.component, doc)) add(`${at} (${spec.schema.component}): ${problem}`);
    }
    for (const rule of spec.unique ?? []) {
      const seen = new Set<string>();
      for (let i = 0; i < docs.length; i++) {
        yield;
        const key = ruleKey(docs[i], rule);
        if (key === null) continue;
        if (seen.has(key)) add(`collections.${name}[${i}]: ${rule.fields.join(', ')} must be unique (${rule.name}).`);
        seen.add(key);
      }
    }
  }
}

/**
 * The state a merge makes: in each collection the snapshot gives, a doc whose id is stored
 * replaces that doc and a new one is added; every other doc and collection stays; meta is merged
 * key by key.
 */
export function mergeSnapshots(current: Snapshot, given: Snapshot): Snapshot {
  const collections = { ...current.collections };
  for (const [name, docs] of Object.entries(given.collections)) collections[name] = mergeById(current.collections[name] ?? [], docs);
  return { format: given.format, collections, meta: { ...current.meta, ...given.meta } };
}

/**
 * What a merge would break in the state it makes (`merged`): a unique field the docs given share
 * with a doc kept, and a relation of a doc given that names no doc of the merged state. Docs
 * kept are not checked again: a merge never removes one, and replaced docs keep their ids.
 */
export function mergeProblems(merged: Snapshot, given: Snapshot, collections: Map<string, CollectionSpec>): string[] {
  return problemsOf((problems) => checkMerge(merged, given, collections, problems));
}

export function mergeProblemsInSlices(merged: Snapshot, given: Snapshot, collections: Map<string, CollectionSpec>): string[] | Promise<string[]> {
  return problemsInSlices((problems) => checkMerge(merged, given, collections, problems));
}

function* checkMerge(merged: Snapshot, given: Snapshot, collections: Map<string, CollectionSpec>, problems: string[]): Generator<void, void> {
  const add = adder(problems);
  const ids = new Map<string, Set<string>>();
  const idsOf = (name: string) => {
    let set = ids.get(name);
    if (!set) ids.set(name, (set = new Set((merged.collections[name] ?? []).map((doc) => doc.id))));
    return set;
  };
  for (const [name, docs] of Object.entries(given.collections)) {
    const spec = collections.get(name);
    const givenIds = new Set(docs.map((doc) => doc.id));
    const kept = (merged.collections[name] ?? []).filter((doc) => !givenIds.has(doc.id));
    for (const rule of spec?.unique ?? []) {
      const stored = new Map<string, Doc>();
      for (const doc of kept) {
        const key = ruleKey(doc, rule);
        if (key !== null) stored.set(key, doc);
      }
      for (let i = 0; i < docs.length; i++) {
        yield;
        const key = ruleKey(docs[i], rule);
        const clash = key === null ? undefined : stored.get(key);
        if (clash) add(`collections.${name}[${i}]: ${rule.fields.join(', ')} must be unique (${rule.name}); the stored doc ${clash.id} has the same.`);
      }
    }
    for (const { field, collection, required } of spec?.relations ?? []) {
      for (let i = 0; i < docs.length; i++) {
        yield;
        const doc = docs[i]!;
        const id = valueAt(doc, field.split('.'));
        if ((id === null || id === undefined) && (typeof required === 'function' ? required(doc) : required === true)) add(`collections.${name}[${i}].${field} is required: it names the ${collection} doc it belongs to.`);
        if (id === null || id === undefined) continue;
        if (typeof id !== 'string' || !idsOf(collection).has(id)) add(`collections.${name}[${i}].${field} names ${JSON.stringify(id)}, which ${collection} does not hold after the merge.`);
      }
    }
  }
}
