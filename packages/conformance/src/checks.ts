// The checks every response gets: its status is one the operation describes, its Content-Type
// is a described media type (naming the version served), its body validates against the
// schema of that version, the envelope's invariants hold (paging arithmetic, the version
// object), Expires is present, 404 and 5xx have no body, and 401 has the plain {message} shape.
// With strict properties, a JSON body may hold no property its version's schema does not name.
import { undeclaredProperties } from '@payroll-api/openapi-bundle';
import { essenceOf, isJson, responseFor, type ApiDescription, type Content, type OperationSpec } from './description.js';
import type { Finding } from './findings.js';
import { curlOf, type Exchange } from './http.js';
import type { SchemaValidator } from './schemas.js';

export interface Expectation {
  /** The resource version the request asked for and should be served (payroll); null when unversioned. */
  version: string | null;
  /** The obsoleteDate the registry gives that version. */
  obsoleteDate?: string | null;
  /** Statuses this case requires; undefined accepts any described status. */
  statuses?: number[];
  /** The paging the request asked for, to compare with the envelope (stateful servers echo it). */
  paging?: { pageNumber: number; pageSize?: number };
}

export interface CheckContext {
  api: ApiDescription;
  validator: SchemaValidator;
  /** Report every property of a JSON body that the schema of the served version does not name. */
  strictProperties?: boolean;
}

/** At most this many undeclared properties are reported per answer. */
const MAX_UNDECLARED = 8;

/** Whether a described media type (possibly a range such as image/* or *\/*) covers `essence`. */
function mediaRangeMatches(described: string, essence: string): boolean {
  if (described === essence || described === '*/*') return true;
  return described.endsWith('/*') && essence.startsWith(described.slice(0, -1));
}

/** The version= parameter of a Content-Type or Accept value as sent (not only well-formed dates). */
export function versionParamOf(contentType: string): string | null {
  return /;\s*version=([^;\s]+)/i.exec(contentType)?.[1] ?? null;
}

function pick(same: Content[], version: string | null): Content | undefined {
  return same.find((c) => c.version === version) ?? same.find((c) => c.version === null) ?? (version === null ? same[0] : undefined);
}

/** All findings for one exchange of `operation`. */
export function checkExchange(ctx: CheckContext, operation: OperationSpec, exchange: Exchange, expect: Expectation): Finding[] {
  const curl = curlOf(exchange.request);
  const findings: Finding[] = [];
  const add = (check: Finding['check'], message: string) => findings.push({ check, message, curl, status: exchange.response?.status });
  const response = exchange.response;
  if (!response) {
    add('transport', `no response: ${exchange.error ?? 'unknown error'}`);
    return findings;
  }
  const { status, headers, bytes, json } = response;

  const described = responseFor(operation, status);
  if (!described) add('status', `status ${status} is not described for ${operation.operationId} (described: ${operation.responses.map((r) => r.status).join(', ')})`);
  if (expect.statuses && !expect.statuses.includes(status)) add('status', `expected status ${expect.statuses.join(' or ')}, got ${status}`);

  if (!headers.expires) add('expires', 'the Expires header is missing (contract §4.1: every response carries Expires)');

  if (status === 404 || status >= 500) {
    if (bytes.length > 0) add('no-body', `a ${status} must have no body, got ${bytes.length} bytes${headers['content-type'] ? ` of ${headers['content-type']}` : ''}`);
    return findings;
  }

  if (status === 401) {
    const ok = json && typeof json === 'object' && !Array.isArray(json) && typeof (json as Record<string, unknown>).message === 'string';
    if (!ok) add('unauthorized-shape', `a 401 body must be the plain {"message": string}, got ${bytes.length ? bytes.toString('utf8').slice(0, 120) : 'no body'}`);
  }

  const contentType = headers['content-type'];
  const describedContents = described?.contents ?? [];
  if (bytes.length === 0) {
    if (describedContents.length > 0 && status !== 204) add('schema', `the body is empty, but ${operation.operationId} describes a ${described?.status} body`);
    return findings;
  }
  if (!contentType) {
    add('content-type', 'a body without a Content-Type header');
    return findings;
  }
  const essence = essenceOf(contentType);
  const served = versionParamOf(contentType);
  if (!described) return findings;
  if (described.bodyNotShown) return findings;
  if (describedContents.length === 0) {
    add('content-type', `${described.status} describes no body, got ${contentType}`);
    return findings;
  }
  const matching = describedContents.filter((c) => mediaRangeMatches(c.essence, essence));
  if (matching.length === 0) {
    add('content-type', `Content-Type ${contentType} is not described for ${described.status} (described: ${[...new Set(describedContents.map((c) => c.mediaType))].join(', ')})`);
    return findings;
  }
  const versioned = matching.some((c) => c.version !== null);
  if (versioned && /^2/.test(String(status)) && expect.version !== null) {
    if (served === null) add('content-type', `Content-Type ${contentType} does not name the resource version served (expected version=${expect.version})`);
    else if (served !== expect.version) add('content-type', `version ${served} was served, but ${expect.version} was negotiated`);
  }
  const content = pick(matching, served ?? expect.version);
  if (isJson(essence)) {
    if (response.jsonError) {
      add('schema', `the body is not valid JSON: ${response.jsonError}`);
      return findings;
    }
    if (content?.schema) {
      for (const issue of ctx.validator.validate(operation.api, content.schema, json)) {
        add('schema', `body${issue.at || ''} ${issue.message} (schema of ${content.mediaType})`);
      }
      if (ctx.strictProperties) {
        const api = operation.api;
        const undeclared = undeclaredProperties(ctx.api.doc, content.schema, json, { matches: (schema, value) => ctx.validator.matches(api, schema as Record<string, unknown>, value) });
        for (const field of undeclared.slice(0, MAX_UNDECLARED)) add('undeclared-property', `\`${field}\` is not named by the schema of ${content.mediaType}`);
        if (undeclared.length > MAX_UNDECLARED) add('undeclared-property', `and ${undeclared.length - MAX_UNDECLARED} more properties the schema of ${content.mediaType} does not name`);
      }
    }
    checkEnvelope(json, expect, status, add);
  }
  return findings;
}

function checkEnvelope(body: unknown, expect: Expectation, status: number, add: (check: Finding['check'], message: string) => void): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const envelope = body as Record<string, unknown>;
  const version = envelope.version as Record<string, unknown> | undefined;
  if (version && typeof version === 'object' && expect.version !== null) {
    if (version.resourceVersion !== expect.version) add('envelope-version', `version.resourceVersion is ${JSON.stringify(version.resourceVersion)}, but ${expect.version} was negotiated`);
    if (expect.obsoleteDate !== undefined && version.obsoleteDate !== expect.obsoleteDate) {
      add('envelope-version', `version.obsoleteDate is ${JSON.stringify(version.obsoleteDate)}, but the registry gives ${JSON.stringify(expect.obsoleteDate)}`);
    }
  }
  if (!/^2/.test(String(status)) || !Array.isArray(envelope._embedded)) return;
  const { totalSize, pageSize, totalPages, currentPage } = envelope;
  const items = (envelope._embedded as unknown[]).length;
  if (!isInt(totalSize) || !isInt(pageSize) || !isInt(totalPages) || !isInt(currentPage)) return;
  const pages = Math.ceil(totalSize / pageSize);
  // An empty list is one (empty) page or none; the contract does not say which.
  if (totalPages !== pages && !(totalSize === 0 && totalPages <= 1)) add('envelope-paging', `totalPages is ${totalPages}, but ceil(totalSize ${totalSize} / pageSize ${pageSize}) is ${pages}`);
  if (items > pageSize) add('envelope-paging', `_embedded holds ${items} items, more than pageSize ${pageSize}`);
  if (currentPage < totalPages && items !== pageSize) add('envelope-paging', `page ${currentPage} of ${totalPages} holds ${items} items, not a full page of ${pageSize}`);
  if (currentPage > totalPages && items > 0) add('envelope-paging', `page ${currentPage} is past the last page (${totalPages}) but holds ${items} items`);
  if (currentPage === totalPages && totalSize > 0 && items !== totalSize - (totalPages - 1) * pageSize) {
    add('envelope-paging', `the last page holds ${items} items, but totalSize ${totalSize} leaves ${totalSize - (totalPages - 1) * pageSize}`);
  }
  if (expect.paging) {
    if (currentPage !== expect.paging.pageNumber) add('envelope-paging', `currentPage is ${currentPage}, but page ${expect.paging.pageNumber} was asked for`);
    if (expect.paging.pageSize !== undefined && pageSize !== expect.paging.pageSize) add('envelope-paging', `pageSize is ${pageSize}, but ${expect.paging.pageSize} was asked for`);
  }
}

const isInt = (n: unknown): n is number => Number.isInteger(n);

/** Whether a 400 body names `field` (in a message's properties or description). */
export function namesField(body: unknown, field: string): boolean {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return false;
  const wanted = field.toLowerCase();
  return messages.some((m) => {
    const message = m as { properties?: unknown; description?: unknown };
    const properties = Array.isArray(message.properties) ? message.properties.map((p) => String(p).toLowerCase()) : [];
    return properties.some((p) => p === wanted || p.endsWith(`.${wanted}`) || p.startsWith(`${wanted}.`) || p.startsWith(`${wanted}[`)) || String(message.description ?? '').toLowerCase().includes(wanted);
  });
}

/** The descriptions of an answer's messages (or its plain {message}), for notes and findings. */
export function messagesOf(body: unknown): string {
  const messages = (body as { messages?: Array<{ description?: string }> } | undefined)?.messages;
  if (Array.isArray(messages) && messages.length > 0) return messages.map((m) => m.description ?? '').join(' ').slice(0, 300);
  return (body as { message?: string } | undefined)?.message ?? 'no message';
}
