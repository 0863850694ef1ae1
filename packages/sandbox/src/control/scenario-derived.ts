// A scenario's `derived` docs: partial docs of the collections the sandbox derives from the
// description (no resource module declares them, so no entity list names them), keyed by
// collection name, each completed by the generic factory (../fixtures/derived.ts) after the
// scenario's entities are made, so that a doc may be under one of them. A doc's `ref` names
// its id in the result, as an entity's does.
import type { ApiName } from '../domain/context.js';
import type { DocSchemas } from '../domain/doc-schemas.js';
import { createDerivedFactory, DerivedFixtureError } from '../fixtures/derived.js';
import type { Doc } from '../store/types.js';

export interface DerivedScenarioInput {
  /** The scenario's `derived`: partial docs by collection name. */
  given: unknown;
  seed: number | string | undefined;
  /** The state the docs join: the start and the scenario's entities. */
  base: Record<string, Doc[]>;
  apis: Array<{ name: ApiName; doc: Record<string, unknown> }>;
  schemas: DocSchemas;
  /** The refs the scenario's entities took; a derived doc's ref is added. */
  refs: Record<string, string>;
}

/** The docs made by collection, and every problem with its path in the scenario. */
export function makeDerivedDocs(input: DerivedScenarioInput): { collections: Record<string, Doc[]>; problems: Array<{ path: string; message: string }> } {
  const problems: Array<{ path: string; message: string }> = [];
  if (input.given === undefined) return { collections: {}, problems };
  if (!input.given || typeof input.given !== 'object' || Array.isArray(input.given)) return { collections: {}, problems: [{ path: 'derived', message: 'must be an object of lists by collection name' }] };
  const make = createDerivedFactory({ seed: input.seed, base: input.base, apis: input.apis, schemas: input.schemas });
  for (const [collection, docs] of Object.entries(input.given)) {
    const at = `derived.${collection}`;
    if (!make.specs.has(collection)) {
      problems.push({ path: at, message: `is no derived collection (${[...make.specs.keys()].join(', ') || 'the descriptions derive none'})` });
      continue;
    }
    if (!Array.isArray(docs)) {
      problems.push({ path: at, message: 'must be an array' });
      continue;
    }
    docs.forEach((doc: unknown, i) => {
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return problems.push({ path: `${at}[${i}]`, message: 'must be an object' });
      const { ref, ...partial } = doc as Record<string, unknown>;
      if (ref !== undefined && (typeof ref !== 'string' || ref === '')) return problems.push({ path: `${at}[${i}].ref`, message: 'must be a non-empty string' });
      if (typeof ref === 'string' && ref in input.refs) return problems.push({ path: `${at}[${i}].ref`, message: `${JSON.stringify(ref)} names an earlier entity already` });
      try {
        const made = make(collection, partial);
        if (typeof ref === 'string') input.refs[ref] = made.id;
      } catch (error) {
        if (!(error instanceof DerivedFixtureError)) throw error;
        for (const problem of error.problems) problems.push({ path: problem.path ? `${at}[${i}].${problem.path}` : `${at}[${i}]`, message: problem.message });
      }
      return undefined;
    });
  }
  return { collections: make.collections(), problems };
}
