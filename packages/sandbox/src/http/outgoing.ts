// What every stage may answer with: the response as status, headers and body, and the error
// answers in the contract's envelopes, built in one place.
import { httpDate } from '../util/dates.js';
import { envelope, type Message, type VersionInfo } from './errors.js';
import type { Operation } from './spec.js';

export type Headers = Record<string, string | number | string[]>;

export interface Outgoing {
  status: number;
  headers: Headers;
  body?: Uint8Array | string;
}

export function json(status: number, body: unknown, headers: Headers = {}): Outgoing {
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/** Stages return either what the next stage needs or the answer that ends the request. */
export function isOutgoing(value: unknown): value is Outgoing {
  return typeof value === 'object' && value !== null && 'status' in value && 'headers' in value;
}

// Most resources are not cacheable (Expires: now); logos and photos may be cached for a day.
const LONG_CACHED = /Logo|Photo/;

/** The Expires header for an answer to `operation`, at `now` (the sandbox clock, or real time). */
export function expires(operation: Operation | undefined, now: number = Date.now()): string {
  const ttl = operation?.method === 'get' && LONG_CACHED.test(operation.operationId) ? 86_400_000 : 0;
  return httpDate(now + ttl);
}

/** The version object an envelope reports when no version could be negotiated (the newest served). */
export function fallbackVersion(operation: Operation): VersionInfo | null {
  const newest = operation.resource?.versions[0];
  return newest ? { resourceVersion: newest.version, obsoleteDate: newest.obsoleteDate } : null;
}

/** An error answer in the contract's envelope, reporting `version` or else the newest served. */
export function errorReply(status: number, operation: Operation, version: VersionInfo | null, messages: Message[], headers?: Headers): Outgoing {
  return json(status, envelope(version ?? fallbackVersion(operation), messages), headers);
}

export function badRequest(operation: Operation, version: VersionInfo | null, messages: Message[]): Outgoing {
  return errorReply(400, operation, version, messages);
}

/**
 * Messages the sandbox makes up for a problem of the request (not a rule with a code of its
 * own): the journal's message codes are its validation codes (strings) and none names such a
 * problem, so there they carry none, as the 400 schema of each journal operation says.
 */
export function requestStageMessages(operation: Operation, messages: Message[]): Message[] {
  return operation.api.name === 'journal' ? messages.map(({ code: _code, ...rest }) => rest as typeof rest & { code: number }) : messages;
}
