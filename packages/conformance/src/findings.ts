// What a run produces: cases (one request, or one sequence of requests, with an expectation)
// grouped by operation and version, each with the findings that broke the description.
import type { ApiName } from './description.js';

export type CheckName =
  | 'transport'
  | 'status'
  | 'content-type'
  | 'schema'
  | 'undeclared-property'
  | 'envelope-paging'
  | 'envelope-version'
  | 'expires'
  | 'no-body'
  | 'unauthorized-shape'
  | 'negotiation'
  | 'invalid-request'
  | 'not-found'
  | 'sequence'
  | 'export';

export interface Finding {
  check: CheckName;
  message: string;
  /** A one-line curl that reproduces the request behind the finding. */
  curl?: string;
  status?: number;
}

export type CaseKind = 'valid' | 'generated' | 'negotiation' | 'invalid' | 'unauthorized' | 'not-found' | 'sequence' | 'export' | 'proxied';

export interface CaseResult {
  api: ApiName;
  operationId: string;
  /** The resource version the case is about; null for an unversioned operation. */
  version: string | null;
  kind: CaseKind;
  title: string;
  findings: Finding[];
  /** Why the case was not run (no id known for a path parameter, writes not allowed, ...). */
  skipped?: string;
  /** A note that is not a failure (e.g. a valid request refused by a business rule). */
  note?: string;
  requests: number;
  ms: number;
}

export interface RunSummary {
  startedAt: string;
  finishedAt: string;
  target: { payrollUrl?: string; journalUrl?: string };
  seed: number;
  readOnly: boolean;
  /** Whether properties the description does not name were reported, and why. */
  strictProperties: { strict: boolean; reason: string };
  requests: number;
  cases: CaseResult[];
  /** Operation × version pairs exercised by at least one case, and those in the description. */
  coverage: { covered: number; total: number; uncovered: Array<{ api: ApiName; operationId: string; version: string | null; reason: string }> };
  failures: number;
  /** Set when the run stopped early (request budget, unreachable server). */
  stoppedEarly?: string;
}

export const failed = (c: CaseResult): boolean => c.findings.length > 0;
