// What one validation carries while it runs, and how a problem is reported. A schema is
// compiled once into a tree of closures (compile.ts); each validation runs them against one
// Run. The rules for reporting are JSON Schema 2020-12 as ajv 8 applies them: with allErrors
// every problem is collected; without it the first problem outside a combinator ends the
// validation, while inside anyOf/oneOf/not/if/contains/propertyNames problems are collected so
// the combinator can decide.

/** One problem, in ajv's shape (instancePath and schemaPath are JSON pointers, the latter a URI fragment). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
  /** The property name a `propertyNames` subschema refused. */
  propertyName?: string;
}

/** A compiled schema: true when the data is valid; `errors` then null, else the problems. */
export interface Validator {
  (data: unknown): boolean;
  errors: SchemaError[] | null;
}

export interface ValidatorOptions {
  /** Report every problem (true) or stop at the first one. */
  allErrors: boolean;
  /** Coerce scalars to the schema's type in place (query, header and path parameters are text). */
  coerceTypes: boolean;
}

/** The state of one validation: the problems so far, the evaluation variables, where it is. */
export interface Run {
  errors: SchemaError[];
  /** The evaluated properties/items and validity flags a compiled schema keeps between keywords (see evaluated.ts). */
  slots: unknown[];
  /** The instance location: property names and item indexes from the root. */
  path: unknown[];
  /** The value under validation after a subschema on the same value ran (it may have coerced it). */
  data: unknown;
  /** The property name a `propertyNames` subschema is looking at. */
  propertyName: string | undefined;
}

/** Thrown to end a validation at its first problem (allErrors off, outside combinators). */
export const FIRST_PROBLEM = Symbol('first problem');

/** A compiled (sub)schema: validates the value held at parent[key] and returns it, coerced when it was. */
export type Check = (data: unknown, parent: any, key: any, run: Run) => unknown;

/** One keyword of a compiled schema; false: the keywords after it in its group are skipped (first-problem mode). */
export type Step = (data: any, parent: any, key: any, run: Run) => boolean;

/** How a schema location reports: the compile context's part the runtime needs. */
export interface Reporter {
  allErrors: boolean;
  /** Inside anyOf/oneOf/not/if/contains/propertyNames: problems are collected, never final. */
  composite: boolean;
  /** Inside not/if: only whether there are problems matters. */
  createErrors: boolean;
  /** Inside propertyNames: problems name the property. */
  propertyName: boolean;
}

/** Counted but never shown: a problem inside `not` or `if`. */
const UNSEEN: SchemaError = { instancePath: '', schemaPath: '', keyword: '', params: {}, message: '' };

const escapeSegment = (segment: unknown): string => (typeof segment === 'string' ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : String(segment));

/** The JSON pointer of the run's current instance location. */
export function instancePath(run: Run): string {
  let pointer = '';
  for (const segment of run.path) pointer += `/${escapeSegment(segment)}`;
  return pointer;
}

/** A schema location's segment in a schemaPath (a URI fragment of a JSON pointer). */
export const schemaSegment = (segment: string | number): string => (typeof segment === 'number' ? String(segment) : encodeURIComponent(escapeSegment(segment)));

/**
 * Records one problem. `append`: the problem sums up those already collected (anyOf, oneOf,
 * if, propertyNames), which then stay when it ends the validation; otherwise it is the only one
 * a first-problem validation returns.
 */
export function report(at: Reporter, run: Run, keyword: string, schemaPath: string, params: Record<string, unknown>, message: string, append = false): void {
  if (!at.createErrors) {
    run.errors.push(UNSEEN);
    return;
  }
  const error: SchemaError = { instancePath: instancePath(run), schemaPath, keyword, params, message };
  if (at.propertyName) error.propertyName = run.propertyName;
  if (at.composite || at.allErrors) {
    run.errors.push(error);
    return;
  }
  if (!append) run.errors.length = 0;
  run.errors.push(error);
  throw FIRST_PROBLEM;
}

/** Drops the problems after the first `count` (a combinator that passed). */
export function resetErrors(run: Run, count: number): void {
  run.errors.length = count;
}

/** Runs a subschema on the same value; true when it added no problem. */
export function runSame(check: Check, parent: unknown, key: unknown, run: Run): boolean {
  const before = run.errors.length;
  run.data = check(run.data, parent, key, run);
  return run.errors.length === before;
}

/** Runs a subschema on a property or item of the value; true when it added no problem. */
export function runChild(check: Check, container: any, at: unknown, run: Run): boolean {
  const before = run.errors.length;
  const own = run.data;
  run.path.push(at);
  check(container[at as string], container, at, run);
  run.path.pop();
  run.data = own;
  return run.errors.length === before;
}
