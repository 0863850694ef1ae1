// Calls a running sandbox as the seeded users of the authorization model (their fixed sandbox
// tokens), and reads a sandbox's snapshot to show that a refused call changed nothing.
import { expect } from 'vitest';
import { USER_TOKEN_PREFIX } from '#sandbox/authorization/model.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { seedSnapshot } from '#sandbox/seed/index.js';

export const tokenOf = (username: string) => `${USER_TOKEN_PREFIX}${username}`;
export const PAYROLL = '/v2/v2/providers';
export const JSON_TYPE = 'application/json';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

export async function call(url: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, Accept: JSON_TYPE, ...(body === undefined ? {} : { 'Content-Type': JSON_TYPE }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A refusal at `step`: 403, the plain {message} body of contract §7 and the sandbox-only header. */
export function expectRefused(answer: Answer, step: number, reason: string): void {
  expect(answer.status, answer.text).toBe(403);
  expect(answer.headers.get('x-sandbox-authorization')).toBe(`step=${step}; reason=${reason}`);
  const body = answer.json();
  expect(Object.keys(body)).toEqual(['message']);
  expect(typeof body.message).toBe('string');
}

export async function snapshotOf(url: string, token: string): Promise<unknown> {
  const response = await fetch(`${url}/__sandbox/snapshot`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json();
}

export async function reset(url: string, token: string): Promise<void> {
  const response = await fetch(`${url}/__sandbox/reset`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
}

/** Runs `refusedCall` and checks the caller's sandbox is exactly as before. */
export async function expectUnchanged(url: string, token: string, refusedCall: () => Promise<void>): Promise<void> {
  const before = await snapshotOf(url, token);
  await refusedCall();
  expect(await snapshotOf(url, token)).toEqual(before);
}

/** The first seeded employee of an employer (generated people carry no well-known id). */
export function firstEmployeeOf(employerId: string): string {
  const employee = (seedSnapshot().collections.employees ?? []).find((e) => e.employerId === employerId);
  if (!employee) throw new Error(`the seed has no employee at ${employerId}`);
  return employee.id;
}

export const EMPLOYERS = ORG_IDS.employers;
