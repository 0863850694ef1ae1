// The derived collections that start from the examples of their reads
// (`x-sandbox-collection: { seed: examples }`): the docs @payroll-api/openapi-bundle's
// `exampleSeed` reads from the description, added to the default seed. Each doc's parents must
// be docs the seed (or another collection's examples) holds; a description whose examples say
// too little, or name a parent the sandbox does not hold, is refused when the sandbox starts,
// as the lint rule `sandbox-collection-seedable` refuses it earlier.
import { exampleSeed } from '@payroll-api/openapi-bundle/operation-examples';
import type { LoadedApi } from '../http/spec.js';
import type { Doc, Snapshot } from '../store/types.js';
import type { DerivedBehaviour } from './derived.js';

/** The default seed with the example docs of each derived collection that starts from them. */
export function seedWithExamples(seed: Snapshot, apis: LoadedApi[], derived: DerivedBehaviour): Snapshot {
  const added: Record<string, Doc[]> = {};
  const problems: string[] = [];
  const relations: Array<{ collection: string; field: string; target: string }> = [];
  for (const api of apis) {
    const operations = derived.of(api.name, api.doc);
    const own = new Set(operations.collections.map((spec) => spec.name));
    // Only the collections derived here: a module's collection starts from the module's seed.
    const shapes = [...operations.shapes.values()].filter((shape) => own.has(shape.collection));
    const found = exampleSeed(api.doc, shapes);
    for (const { operationId, problem } of found.problems) problems.push(`${api.file}: ${operationId}: ${problem}`);
    for (const [collection, docs] of found.collections) added[collection] = [...(added[collection] ?? []), ...(docs as Doc[])];
    for (const spec of operations.collections) for (const { field, collection } of spec.relations ?? []) if (found.collections.has(spec.name)) relations.push({ collection: spec.name, field, target: collection });
  }
  const holds = (collection: string, id: unknown) => [...(seed.collections[collection] ?? []), ...(added[collection] ?? [])].some((doc) => doc.id === id);
  for (const { collection, field, target } of relations) {
    for (const doc of added[collection] ?? []) {
      if (!holds(target, doc[field])) problems.push(`the example doc ${doc.id} of ${collection} is under ${field} ${JSON.stringify(doc[field])}, which names no doc of ${target} the sandbox holds`);
    }
  }
  if (problems.length > 0) throw new Error(`the sandbox cannot start from this description's examples: ${problems.join('; ')}`);
  if (Object.keys(added).length === 0) return seed;
  return { ...seed, collections: { ...seed.collections, ...Object.fromEntries(Object.entries(added).map(([name, docs]) => [name, [...(seed.collections[name] ?? []), ...docs]])) } };
}
