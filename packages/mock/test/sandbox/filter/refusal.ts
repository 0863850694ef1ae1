// The QueryError a call throws (any other outcome fails the test).
import { QueryError } from '#sandbox/filter/tree.js';

export function refusal(run: () => unknown): QueryError {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('expected a QueryError');
}
