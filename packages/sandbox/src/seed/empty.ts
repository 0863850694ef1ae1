// The empty start (createSandbox({ seed: 'empty' })): only what no operation can create —
// the provider, the journal's wage models and the authorization model — so that a test adds
// every employer, employee and journal entity it needs itself.
import type { Snapshot } from '../store/types.js';
import { AUTHORIZATION_COLLECTION } from './authorization.js';
import { cloneJson } from '../store/clone.js';
import { sharedSeed } from './index.js';
import { JOURNAL_COLLECTIONS } from './journal.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';

const KEPT = new Set<string>([ORG_COLLECTIONS.providers, JOURNAL_COLLECTIONS.wageModels, AUTHORIZATION_COLLECTION]);

export function emptySeed(): Snapshot {
  const seed = sharedSeed();
  return { ...seed, collections: Object.fromEntries(Object.entries(seed.collections).map(([name, docs]) => [name, KEPT.has(name) ? cloneJson(docs) : []])) };
}
