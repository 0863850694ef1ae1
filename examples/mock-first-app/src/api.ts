import { ApiError, createPayrollClient, type ListItemAt, type PayrollPathsAt } from '@payroll-api/client';
import type { PayrollFactories } from '@payroll-api/query';
import { QueryClient } from '@tanstack/react-query';

/**
 * The resource versions the app is written at: its field names are the employee's at 2021-03-29,
 * so a newer employee version (a renamed field) leaves the app working while 2021-03-29 is served.
 */
export const RESOURCE_VERSION_DATE = '2021-03-29';

/**
 * The app's client for the API at `origin` (payroll under /v2), at RESOURCE_VERSION_DATE. A
 * 502/503/504 or a network failure of a GET or PUT is retried twice, quickly, before the reader
 * sees an error.
 */
export function createApiClient(origin: string, token: string) {
  return createPayrollClient({ baseUrl: `${origin}/v2`, auth: token, resourceVersionDate: RESOURCE_VERSION_DATE, retry: { retries: 2, baseDelayMs: 100, maxDelayMs: 400 } });
}

export type Payroll = ReturnType<typeof createApiClient>;
/** Query, infinite query and mutation options by activity name, with the keys and invalidation of @payroll-api/query. */
export type Queries = PayrollFactories<Payroll>;

/**
 * The app's cache. No retry of its own: the client already retries what is worth retrying
 * (a 502/503/504 or a network failure), and a 4xx answers the same the second time.
 */
export function createAppQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}
type Paths = PayrollPathsAt<typeof RESOURCE_VERSION_DATE>;
export type EmployeeRow = ListItemAt<Paths, '/v2/providers/employers/{employerId}/employees'>;
export type EmploymentRow = ListItemAt<Paths, '/v2/providers/employers/employees/{employeeId}/employments'>;

/** What the reader is told when a call fails: the contract's messages, or the network failure. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const messages = error.messages.map((m) => m.description).filter(Boolean);
    return `The server answered ${error.status}${messages.length ? `: ${messages.join(' ')}` : error.plainMessage ? `: ${error.plainMessage}` : '.'}`;
  }
  if (error instanceof TypeError) return 'The server could not be reached.';
  return error instanceof Error ? error.message : String(error);
}
