// What the sandbox's tests share: the seed's well-known ids and request helpers.
import { SEED_IDS } from '../src/seed/ids.js';
import type { Sandbox } from '../src/index.js';

export const ORIGIN = 'http://sandbox.test';
export const EMPLOYER = SEED_IDS.employer;
export const EMPLOYEES = `${ORIGIN}/v2/v2/providers/employers/${EMPLOYER}/employees`;
export const PAYROLL_ACCEPT = 'application/json;version=2021-03-29';

export function call(sandbox: Sandbox, token: string, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  if (!headers.has('accept')) headers.set('accept', url.includes('/journal/') ? 'application/json' : PAYROLL_ACCEPT);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', url.includes('/journal/') ? 'application/json' : PAYROLL_ACCEPT);
  return sandbox.fetch(url, { ...init, headers });
}
