// Versions the tests take from the description instead of writing them down, so that a new
// resource version (`pnpm api:version`) leaves them green: the version the client sends by
// default is the newest its generated table (the registry) gives; fixtures written in the
// employee's shape (personalDetails.lastName, ...) request that shape's version explicitly,
// and keep working while it is served.
import { payrollOperations } from '../src/generated/operations.js';

/** The employee version the fixtures' field names belong to; the tests that use them pin their client to it. */
export const EMPLOYEE_FIXTURES = '2021-03-29';

/** The version the client sends for an operation when nothing is pinned: the newest the description serves. */
export function newestVersion(operationId: string): string {
  const entry = Object.values(payrollOperations).find(([id]) => id === operationId);
  if (!entry) throw new Error(`${operationId} is not a payroll operation`);
  return entry[3][0]!;
}
