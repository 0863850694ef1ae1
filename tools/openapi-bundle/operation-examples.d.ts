import type { OperationShape, ShapeProblem } from './operation-shape.js';

export interface ExampleSeed {
  /** The docs each collection that says `seed: examples` starts from, by collection name. */
  collections: Map<string, Array<Record<string, unknown> & { id: string }>>;
  /** Why a collection cannot start from its examples (an item without an id, a parent no example names). */
  problems: ShapeProblem[];
}

/** The docs the success examples of a collection's reads show, each under its parents. */
export declare function exampleSeed(doc: unknown, shapes: Iterable<Pick<OperationShape, 'operationId' | 'path' | 'method' | 'kind' | 'collection' | 'parents'> & { seed?: 'empty' | 'examples' } | ShapeProblem>): ExampleSeed;
