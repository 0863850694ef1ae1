// Talks to a running sandbox the way an integrator does: operations by activity name, the
// Accept header carrying the operation's resource version, and every answer checked against
// the operation's response schema in the payroll bundle (ajv). Control endpoints reset a
// token's sandbox and export its snapshot, to show that a refused request changed nothing.
import { expect } from 'vitest';
import { bundles, contentValidator, describedResponse } from '../../support/bundle-schemas.js';

type Json = Record<string, any>;

export const bundle = bundles.payroll;

interface OperationRef {
  path: string;
  method: string;
  operation: Json;
}

const operations = new Map<string, OperationRef>();
for (const [path, item] of Object.entries(bundle.paths as Json)) {
  for (const [method, operation] of Object.entries(item as Json)) {
    if (operation && typeof operation === 'object' && typeof operation.operationId === 'string') operations.set(operation.operationId, { path, method, operation });
  }
}

export function operationOf(operationId: string): OperationRef {
  const found = operations.get(operationId);
  if (!found) throw new Error(`no operation ${operationId} in the payroll bundle`);
  return found;
}

/** The media type key of the operation's success answer (its newest version). */
export function acceptOf(operationId: string): string {
  const ref = operationOf(operationId);
  for (const status of ['200', '201']) {
    const content = ref.operation.responses?.[status]?.content;
    if (content) {
      const keys = Object.keys(content).filter((k) => k.startsWith('application/json')).sort();
      if (keys.length > 0) return keys[keys.length - 1]!;
    }
  }
  return 'application/json;version=2018-01-01';
}

/** The answer validates against the operation's response schema for its status and media type. */
export function expectValidAnswer(operationId: string, status: number, mediaType: string, body: unknown): void {
  const ref = operationOf(operationId);
  const found = describedResponse('payroll', ref.path, ref.method, status);
  expect(found, `${operationId} describes a ${status}`).toBeDefined();
  const content = found!.response.content as Json | undefined;
  if (!content) {
    expect(body, `${operationId} ${status} has no body`).toBeUndefined();
    return;
  }
  const key = content[mediaType] ? mediaType : Object.keys(content).find((k) => k.split(';')[0] === mediaType.split(';')[0]);
  expect(key, `${operationId} ${status} describes ${mediaType}`).toBeDefined();
  const validate = contentValidator('payroll', found!, key!);
  expect(validate(body) ? [] : validate.errors, `${operationId} ${status} ${key} answer matches its schema`).toEqual([]);
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Skip the schema check (for answers no schema describes, e.g. a 404 without body). */
  unchecked?: boolean;
}

/** A client of one sandbox (one token). */
export class OrgClient {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async call(operationId: string, options: CallOptions = {}): Promise<Answer> {
    const ref = operationOf(operationId);
    const path = ref.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const search = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const accept = acceptOf(operationId);
    const hasBody = options.body !== undefined;
    const requestType = hasBody ? Object.keys(ref.operation.requestBody?.content ?? {}).sort().pop() ?? 'application/json' : undefined;
    const response = await fetch(`${this.url}/v2${path}${search}`, {
      method: ref.method.toUpperCase(),
      headers: { Authorization: `Bearer ${this.token}`, Accept: accept, ...(requestType ? { 'Content-Type': requestType } : {}) },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    if (!options.unchecked && response.status !== 404) expectValidAnswer(operationId, response.status, accept, body);
    if (response.status === 404) expect(text, `${operationId}: a 404 has no body`).toBe('');
    return { status: response.status, body, headers: response.headers };
  }

  private async control(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.url}/__sandbox${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} /__sandbox${path}`).toBeLessThan(300);
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  }

  reset(): Promise<void> {
    return this.control('POST', '/reset');
  }

  /** The whole state of the sandbox (to show a refused request changed nothing). */
  snapshot(): Promise<any> {
    return this.control('GET', '/snapshot');
  }

  setClock(isoInstant: string): Promise<any> {
    return this.control('PUT', '/clock', { now: isoInstant });
  }

  advanceClock(by: { days?: number; hours?: number; minutes?: number; seconds?: number }): Promise<any> {
    return this.control('POST', '/clock/advance', by);
  }

  /** Adds a new employer to the caller's team (§2.4); it shows a few minutes of sandbox time later. */
  addToTeam(employerId: string): Promise<{ addedAt: string | null; visibleFrom: string | null; visible: boolean }> {
    return this.control('PUT', `/authorization/teams/${employerId}`);
  }

  teams(): Promise<Record<string, { addedAt: string | null; visibleFrom: string | null; visible: boolean }>> {
    return this.control('GET', '/authorization/teams');
  }

  /** Makes a just-created employer visible: added to the team, and the cache delay skipped. */
  async makeVisible(employerId: string): Promise<void> {
    await this.addToTeam(employerId);
    await this.advanceClock({ minutes: 10 });
  }

  /** Runs a request that must be refused, and checks the sandbox is the same afterwards. */
  async expectRefusedUnchanged(operationId: string, options: CallOptions, status: number, property?: string): Promise<Answer> {
    const before = await this.snapshot();
    const answer = await this.call(operationId, options);
    expect(answer.status, `${operationId} is refused`).toBe(status);
    if (property !== undefined) {
      expect(answer.body.messages.some((m: Json) => m.type === 'BrokenBusinessRule' && m.properties?.includes(property)), `a BrokenBusinessRule names ${property}: ${JSON.stringify(answer.body.messages)}`).toBe(true);
    }
    expect(await this.snapshot(), 'the refused request changed nothing').toEqual(before);
    return answer;
  }
}
