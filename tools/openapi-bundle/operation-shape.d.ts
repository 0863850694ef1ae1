/** The extension that names the collection an operation reads or writes, where its description cannot say. */
export declare const COLLECTION_EXTENSION: 'x-sandbox-collection';

export type OperationKind = 'list' | 'detail' | 'create' | 'replace' | 'merge' | 'remove';

export interface OperationShape {
  operationId: string;
  path: string;
  method: string;
  kind: OperationKind;
  /** The component of the docs it reads or writes (null when only `x-sandbox-collection` names them). */
  component: string | null;
  /** `x-sandbox-collection` when given, else named after the component. */
  collection: string;
  annotated: boolean;
  /** How the collection starts: from nothing, or from the examples of its reads (`x-sandbox-collection: { seed: examples }`). */
  seed: 'empty' | 'examples';
  /** The path parameter that is the doc's id (the path's last segment), or null. */
  idParameter: string | null;
  /** The other path parameters: the ids of the doc's parents, stored under the same names. */
  parents: string[];
}

export interface ShapeProblem {
  operationId: string;
  path: string;
  method: string;
  problem: string;
}

/** The `{name}` of each path parameter segment, in path order. */
export declare function pathParameters(path: string): string[];

/** A plural, lower camel case collection name for a component: CostUnitGroup → costUnitGroups. */
export declare function collectionNameOf(component: string): string;

/** The shape of every operation of a bundle, by operationId. */
export declare function operationShapes(doc: unknown): Map<string, OperationShape | ShapeProblem>;

/** The collection whose docs a path parameter names, where exactly one operation's path ends in it. */
export declare function parameterCollections(shapes: Map<string, { idParameter: string | null; collection: string }>): Map<string, string>;
