// A generated sequence of requests for the differential replay: reads, writes, refusals and
// control calls over a few tokens, drawn by fast-check from a fixed seed. Steps refer to
// entities they created by position (`created`), so that one sequence runs on any transport.
import fc from 'fast-check';
import type { WireRequest } from './wire.js';

export type Step =
  | { kind: 'list-employees'; token: string; pageSize: number; pageNumber: number; orderBy?: string; filter?: string }
  | { kind: 'get-employee'; token: string; index: number }
  | { kind: 'put-employee'; token: string; index: number; lastName: string }
  | { kind: 'list-cost-centers'; token: string }
  | { kind: 'create-cost-center'; token: string; code: string }
  | { kind: 'patch-cost-center'; token: string; created: number; code: string }
  | { kind: 'delete-cost-center'; token: string; created: number }
  | { kind: 'bad-body'; token: string }
  | { kind: 'unknown-employer'; token: string }
  | { kind: 'no-token' }
  | { kind: 'advance-clock'; token: string; days: number }
  | { kind: 'reset'; token: string }
  | { kind: 'snapshot'; token: string }
  | { kind: 'fault'; token: string; status: number };

const token = fc.constantFrom('d1', 'd2', 'd3');
const code = fc.constantFrom('K1', 'K2', 'K3', 'Q10', 'Q11', 'Z99', 'k1 ', '');

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('list-employees' as const), token, pageSize: fc.integer({ min: 1, max: 30 }), pageNumber: fc.integer({ min: 1, max: 5 }), orderBy: fc.option(fc.constantFrom('employeeNumber', '-employeeNumber', 'dateOfBirth,-employeeNumber', 'nope'), { nil: undefined }), filter: fc.option(fc.constantFrom("personalDetails.lastName lk 'a'", 'employeeNumber gt 1010', "dateOfBirth ge '1980-01-01'", 'employeeNumber eq', 'x eq 1'), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('get-employee' as const), token, index: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('put-employee' as const), token, index: fc.integer({ min: 0, max: 9 }), lastName: fc.constantFrom('Jansen', 'de Vries', 'Bakker', '') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('list-cost-centers' as const), token }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create-cost-center' as const), token, code }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('patch-cost-center' as const), token, created: fc.nat(50), code }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-cost-center' as const), token, created: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad-body' as const), token }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknown-employer' as const), token }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'no-token' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance-clock' as const), token, days: fc.integer({ min: 1, max: 400 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), token }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const), token }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fault' as const), token, status: fc.constantFrom(400, 401, 403, 404, 429, 500, 503) }) },
);

export function generateSequence(length: number, seed: number): Step[] {
  return fc.sample(fc.array(step, { minLength: length, maxLength: length }), { seed, numRuns: 1 })[0]!;
}

const PAYROLL = 'application/json;version=2021-03-29';

export function wire(method: string, path: string, token: string | undefined, body?: unknown, extra: Record<string, string> = {}): WireRequest {
  const accept = path.startsWith('/v2') ? PAYROLL : 'application/json';
  return {
    method,
    path,
    headers: { Accept: accept, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'Content-Type': accept } : {}), ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}
