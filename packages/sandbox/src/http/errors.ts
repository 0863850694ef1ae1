// Error bodies in the contract's shapes: the JSON envelope {version, messages} for 400s, the
// plain {message} for 401, and the translation of Prism's validation results into messages
// that name the offending field in `properties`.
import type { Violation } from './operation.js';

export interface VersionInfo {
  resourceVersion: string;
  obsoleteDate: string | null;
}

export type MessageType = 'BrokenBusinessRule' | 'Warning' | 'Exception' | 'NotFound';

export interface Message {
  code: number;
  id: null;
  type: MessageType;
  description: string;
  properties: string[];
}

/**
 * The contract does not show its catalogue of message codes, so the mock uses the HTTP
 * status as the code of every message it makes up.
 */
export function message(status: number, description: string, properties: string[] = [], type: MessageType = 'BrokenBusinessRule'): Message {
  return { code: status, id: null, type, description, properties };
}

/** The error envelope. An unversioned API (journal) has no version object to report. */
export function envelope(version: VersionInfo | null, messages: Message[]): Record<string, unknown> {
  return version ? { version, messages } : { messages };
}

export const UNAUTHORIZED_MESSAGE = 'Authorization has been denied for this request.';

/** The message of a required field left out: a create's and an edit's that would take it away read alike. */
export function requiredMessage(field: string): Message {
  return message(400, `The field ${field} is required.`, [field]);
}

/** A body path as the contract's `properties` show it: dotted, with [n] for array items. */
function fieldPath(segments: string[]): string {
  let out = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

/** Prism prefixes its messages with where the error is; the envelope says that itself. */
function stripPrismPrefix(violation: Violation): string {
  const [where, ...rest] = violation.path ?? [];
  const kind = rest.length > 0 ? (where === 'body' ? 'property ' : 'parameter ') : '';
  const prefix = `Request ${where ? `${where} ` : ''}${kind}${rest.join('.').trim()}${rest.length > 0 ? ' ' : ''}`;
  return violation.message.startsWith(prefix) ? violation.message.slice(prefix.length) : violation.message;
}

export interface NameLookup {
  /** The spelling the description uses for a header (`accept` → `Accept`) or query parameter. */
  header(name: string): string;
  query(name: string): string;
  path(name: string): string;
}

/** A rule as a sentence of its own (as written: it may start with a field's name), full stop last. */
function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** One envelope message per validation problem. */
export function violationMessages(violations: Violation[], names: NameLookup): Message[] {
  const messages: Message[] = [];
  for (const violation of violations) {
    const [where = 'body', ...rest] = violation.path ?? [];
    const missing = /must have required property '([^']+)'/.exec(violation.message)?.[1];
    const extra = /found '([^']+)'/.exec(violation.message)?.[1];
    const segments = missing ? [...rest, missing] : extra && violation.code === 'additionalProperties' ? [...rest, extra] : rest;
    let field: string;
    let label: string;
    if (!violation.path || violation.path.length === 0) {
      field = 'body';
      label = 'The request body';
    } else if (where === 'body') {
      field = fieldPath(segments) || 'body';
      label = field === 'body' ? 'The request body' : `The field ${field}`;
    } else if (where === 'header') {
      field = names.header(segments[0] ?? '');
      label = `The header ${field}`;
    } else if (where === 'query') {
      field = names.query(segments[0] ?? '');
      label = `The query parameter ${field}`;
    } else {
      field = names.path(segments[0] ?? where);
      label = `The path parameter ${field}`;
    }
    if (violation.code === 'more') {
      messages.push(message(400, `${violation.message}: correct the ones above and send it again.`, []));
      continue;
    }
    if (missing && where === 'body' && field !== 'body') {
      messages.push(violation.rule ? message(400, `${requiredMessage(field).description} ${sentence(violation.rule)}`, [field]) : requiredMessage(field));
      continue;
    }
    const description = missing
      ? `${label} is required.`
      : violation.message === 'Body parameter is required'
        ? 'The request body is required.'
        : `${label} ${stripPrismPrefix(violation)}.`;
    messages.push(message(400, violation.rule ? `${description} ${sentence(violation.rule)}` : description, [field]));
  }
  return messages;
}
