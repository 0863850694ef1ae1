// A list of rules a sandbox keeps in its meta (fault rules, one-off answers): in the store, so
// that every process on one store reads and counts the same rules, a reset clears them and a
// snapshot carries them. Each rule gets an id that is not reused within the sandbox.
import type { Tx } from '../store/types.js';

interface KeptList<R> {
  /** The number of the next rule's id. */
  next: number;
  rules: R[];
}

/** One kind of kept rule: its meta key, its id prefix and the check a kept rule must pass
 * (what a snapshot brought that is not a rule is left out). */
export interface KeptKind<R extends { id: string }> {
  key: string;
  idPrefix: string;
  valid(rule: unknown): rule is R;
}

export async function readKept<R extends { id: string }>(tx: Tx, kind: KeptKind<R>): Promise<KeptList<R>> {
  const kept = await tx.getMeta<Partial<KeptList<unknown>>>(kind.key);
  const rules = Array.isArray(kept?.rules) ? kept.rules.filter((rule): rule is R => !!rule && typeof rule === 'object' && typeof (rule as R).id === 'string' && kind.valid(rule)) : [];
  const next = typeof kept?.next === 'number' && Number.isSafeInteger(kept.next) ? kept.next : rules.length + 1;
  return { next, rules };
}

export async function writeKept<R extends { id: string }>(tx: Tx, kind: KeptKind<R>, kept: KeptList<R>): Promise<void> {
  await tx.setMeta(kind.key, kept);
}

/** Adds rules after the ones kept (or in their place with `replace`), each with a new id; every rule now kept. */
export async function addKept<R extends { id: string }>(tx: Tx, kind: KeptKind<R>, given: Array<Omit<R, 'id'>>, replace = false): Promise<R[]> {
  const kept = await readKept(tx, kind);
  const rules = [...(replace ? [] : kept.rules), ...given.map((rule, i) => ({ ...rule, id: `${kind.idPrefix}-${kept.next + i}` }) as R)];
  await writeKept(tx, kind, { next: kept.next + given.length, rules });
  return rules;
}

/** Removes one rule, or every rule without an id; false when there was no such rule. */
export async function removeKept<R extends { id: string }>(tx: Tx, kind: KeptKind<R>, id?: string): Promise<boolean> {
  const kept = await readKept(tx, kind);
  const rules = id === undefined ? [] : kept.rules.filter((rule) => rule.id !== id);
  if (rules.length === kept.rules.length) return id === undefined;
  await writeKept(tx, kind, { ...kept, rules });
  return true;
}
