// The seed every sandbox starts from: the organisation (providers, employers,
// administrations, concept employees, logos), the people (employees, employments), the
// journal configuration and the authorization model, as one snapshot. Deterministic: built from fixed data only.
import { cloneJson, freezeJson } from '../store/clone.js';
import type { Doc, Snapshot } from '../store/types.js';
import { authorizationSeed } from './authorization.js';
import { journalSeed } from './journal.js';
import { organisationSeed } from './organisation.js';
import { peopleSeed } from './people.js';

const PARTS: Array<() => Record<string, Doc[]>> = [organisationSeed, peopleSeed, journalSeed, authorizationSeed];

let generated: Record<string, readonly Doc[]> | undefined;

/**
 * The seed's docs, generated once per process (it takes tens of milliseconds, and a test suite
 * may make a sandbox per test) and frozen at every depth: a store keeps them as they are, since a
 * write replaces a doc and never changes one, so every sandbox of the process can start from them.
 */
function generatedSeed(): Record<string, readonly Doc[]> {
  if (generated) return generated;
  const collections: Record<string, Doc[]> = {};
  for (const part of PARTS) {
    for (const [name, docs] of Object.entries(part())) {
      const into = (collections[name] ??= []);
      const ids = new Set(into.map((d) => d.id));
      for (const doc of docs) {
        if (ids.has(doc.id)) throw new Error(`seed: ${name} holds the id ${doc.id} twice`);
        ids.add(doc.id);
        into.push(freezeJson(doc));
      }
    }
  }
  generated = collections;
  return generated;
}

/** The seed over the process's one set of frozen docs (fresh arrays), for a store to start from. */
export function sharedSeed(): Snapshot {
  const collections: Record<string, Doc[]> = {};
  for (const [name, docs] of Object.entries(generatedSeed())) collections[name] = [...docs];
  return { format: 'payroll-sandbox/1', collections, meta: {} };
}

/** The seed as a snapshot of the caller's own: every doc a copy it may change. */
export function seedSnapshot(): Snapshot {
  return cloneJson(sharedSeed());
}

/** The seed's collection names (a custom seed may leave some out; they still exist). */
export function seedCollectionNames(): string[] {
  return Object.keys(generatedSeed());
}
