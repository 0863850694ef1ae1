// The seed every sandbox starts from: the organisation (providers, employers,
// administrations, concept employees, logos), the people (employees, employments), the
// journal configuration and the authorization model, as one snapshot. Deterministic: built from fixed data only.
import type { Doc, Snapshot } from '../store/types.js';
import { authorizationSeed } from './authorization.js';
import { journalSeed } from './journal.js';
import { organisationSeed } from './organisation.js';
import { peopleSeed } from './people.js';

const PARTS: Array<() => Record<string, Doc[]>> = [organisationSeed, peopleSeed, journalSeed, authorizationSeed];

export function seedSnapshot(): Snapshot {
  const collections: Record<string, Doc[]> = {};
  for (const part of PARTS) {
    for (const [name, docs] of Object.entries(part())) {
      const into = (collections[name] ??= []);
      const ids = new Set(into.map((d) => d.id));
      for (const doc of docs) {
        if (ids.has(doc.id)) throw new Error(`seed: ${name} holds the id ${doc.id} twice`);
        ids.add(doc.id);
        into.push(doc);
      }
    }
  }
  return { format: 'payroll-sandbox/1', collections, meta: {} };
}

let names: string[] | undefined;

/** The seed's collection names (a custom seed may leave some out; they still exist). */
export function seedCollectionNames(): string[] {
  names ??= Object.keys(seedSnapshot().collections);
  return names;
}
