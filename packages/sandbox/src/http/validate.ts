// Stage 4, validate: reads the request body (413 over the limit), checks its media type and
// resource version (Content-Type, section 9), parses JSON, and validates the whole request
// (parameters, headers, body) against the operation narrowed to the negotiated versions.
// Both responders get requests that passed this stage.
import { message, violationMessages, type Message, type NameLookup } from './errors.js';
import { contentForVersion, isJsonMedia, mediaMatches, requestedVersion } from './media.js';
import { PREFER_QUERY } from './prefer.js';
import type { HttpOperation, MediaContent } from './operation.js';
import { tooLargeText, type SandboxRequest } from './request.js';
import { parseJsonBody } from './json-body.js';
import { validateRequest, type RequestParts } from './request-schema.js';
import { essence, successResponse, versionParam, type Operation } from './spec.js';
import type { Negotiation } from './negotiate.js';
import { versionFor } from './negotiate.js';
import { badRequest, errorReply, isOutgoing, requestStageMessages, type Outgoing } from './outgoing.js';
import type { Routed } from './route.js';
import { pathParams } from './route.js';
import { strictUtf8 } from '../util/bytes.js';

/** The request as validated (also what the examples responder hands Prism). */
export interface PrismRequest {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body: unknown;
}

export interface ValidRequest {
  /** Parsed JSON, text for other media types, undefined without a body. */
  body: unknown;
  /** The raw bytes, when there was a body. */
  bytes: Uint8Array | undefined;
  requestContent: MediaContent | undefined;
  /** The resource version the body is written at (its Content-Type's version=, negotiated); undefined for an unversioned body. */
  requestVersion: string | undefined;
  /** The operation narrowed to the negotiated response and request contents. */
  view: HttpOperation;
  prismRequest: PrismRequest;
}

/** Violations name headers and query parameters in lower case; messages use the description's spelling. */
function nameLookup(operation: Operation): NameLookup {
  const headers = new Map<string, string>([['accept', 'Accept'], ['content-type', 'Content-Type'], ['authorization', 'Authorization']]);
  for (const h of operation.model.request?.headers ?? []) headers.set(h.name.toLowerCase(), h.name);
  const spelling = (params: Array<{ name: string }> | undefined) => {
    const names = new Map(params?.map((p) => [p.name.toLowerCase(), p.name]));
    return (name: string) => names.get(name.toLowerCase()) ?? name;
  };
  return {
    header: (name) => headers.get(name.toLowerCase()) ?? name,
    query: spelling(operation.model.request?.query),
    path: spelling(operation.model.request?.path),
  };
}

/** The operation narrowed to one response and one request content, so that no other version is validated against. */
function viewOf(operation: Operation, response: MediaContent | undefined, request: MediaContent | undefined, requestType: string | undefined): HttpOperation {
  const key = `${response?.mediaType ?? ''}\n${request?.mediaType ?? ''}\n${requestType ?? ''}`;
  let view = operation.views.get(key);
  if (view) return view;
  const model = operation.model;
  const success = successResponse(model);
  view = {
    ...model,
    responses: model.responses.map((r) => (r === success && response ? { ...r, contents: [response] } : r)),
    request:
      model.request && request && requestType
        ? { ...model.request, body: { ...model.request.body, contents: [{ ...request, mediaType: requestType }] } }
        : model.request,
  };
  if (operation.views.size >= 64) operation.views.clear();
  operation.views.set(key, view);
  return view;
}

function acceptsNull(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true) return true;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.some((s) => acceptsNull(s as Record<string, unknown>))) return true;
  }
  return type === undefined && !schema.properties && !schema.allOf && !schema.$ref && !schema.oneOf && !schema.anyOf;
}

/** A responder's rules of a JSON request body beyond its schema (the body as sent, at `requestVersion`). */
export type BodyProblems = (operation: Operation, body: unknown, requestVersion: string | undefined) => Message[];

export async function validate(routed: Routed, req: SandboxRequest, negotiation: Negotiation, maxBody: number, bodyProblems?: BodyProblems): Promise<ValidRequest | Outgoing> {
  const { operation } = routed;
  const { version } = negotiation;
  const read = await req.readBody(maxBody);
  if (read.kind === 'too-large') {
    return errorReply(413, operation, version, [message(413, tooLargeText(read, maxBody), ['body'])], { Connection: 'close' });
  }
  if (read.kind === 'aborted') return { status: 400, headers: { Connection: 'close' } };
  const bodySpec = operation.model.request?.body;
  let body: unknown;
  let requestContent: MediaContent | undefined;
  let requestType: string | undefined;
  let requestVersion: string | undefined;
  if (read.kind === 'body' && bodySpec?.contents && bodySpec.contents.length > 0) {
    const contentType = req.headers['content-type'];
    const supported = [...new Set(bodySpec.contents.map((c) => essence(c.mediaType)))];
    if (!contentType) {
      return badRequest(operation, version, [message(400, `A request body needs a Content-Type header; supported: ${supported.join(', ')}.`, ['Content-Type'])]);
    }
    const ess = essence(contentType);
    const matching = bodySpec.contents.filter((c) => mediaMatches(essence(c.mediaType), ess));
    if (matching.length === 0) {
      return badRequest(operation, version, [message(400, `The Content-Type ${ess || contentType} is not accepted by ${operation.operationId}; supported: ${supported.join(', ')}.`, ['Content-Type'])]);
    }
    if (matching.some((c) => versionParam(c.mediaType))) {
      const bodyChoice = versionFor(operation, 'Content-Type', requestedVersion(contentType), version, negotiation.today);
      if (isOutgoing(bodyChoice)) return bodyChoice;
      requestVersion = bodyChoice?.version.version;
    }
    requestContent = contentForVersion(matching, requestVersion);
    // One media type per body: every JSON flavour (text/json, application/*+json) as
    // application/json, so that the set of operation views stays small whatever clients send.
    requestType = isJsonMedia(ess) ? 'application/json' : ess;
    if (isJsonMedia(ess) || (requestContent && isJsonMedia(essence(requestContent.mediaType)))) {
      const text = strictUtf8(read.bytes);
      if (text === undefined) return badRequest(operation, version, [message(400, 'The request body is not valid UTF-8 text.', ['body'])]);
      const parsed = await parseJsonBody(text);
      if (!parsed.ok) return badRequest(operation, version, [message(400, parsed.description, [parsed.field])]);
      body = parsed.value;
      if (body === null && !acceptsNull(requestContent?.schema)) {
        return badRequest(operation, version, [message(400, 'The request body may not be null.', ['body'])]);
      }
    } else {
      body = new TextDecoder().decode(read.bytes);
    }
  }

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'x-reportinput') continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (requestType) {
    headers['content-type'] = requestType;
    headers['content-length'] = String(read.kind === 'body' ? read.bytes.length : 0);
  } else {
    delete headers['content-type'];
    delete headers['content-length'];
    delete headers['transfer-encoding'];
  }
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(routed.query.keys())) {
    if (PREFER_QUERY.includes(name)) continue;
    const values = routed.query.getAll(name);
    query[name] = values.length === 1 ? (values[0] as string) : values;
  }
  const view = viewOf(operation, negotiation.responseContent, requestContent, requestType);
  const prismRequest: PrismRequest = {
    method: routed.method === 'head' ? 'get' : routed.method,
    url: { path: routed.routedPath, query },
    headers,
    body: requestType ? body : undefined,
  };
  const parts: RequestParts = { query, headers, path: pathParams(routed), body, hasBody: requestType !== undefined };
  const violations = validateRequest(view, parts);
  const schemaMessages = violationMessages(violations, nameLookup(operation));
  // The responder's own rules of the body, in the same answer: every problem at once.
  const said = new Set(schemaMessages.map((m) => m.description));
  const ruleMessages = requestType && isJsonMedia(requestType) && bodyProblems ? bodyProblems(operation, body, requestVersion).filter((m) => !said.has(m.description)) : [];
  if (schemaMessages.length > 0 || ruleMessages.length > 0) return badRequest(operation, version, requestStageMessages(operation, [...schemaMessages, ...ruleMessages]));
  return { body: requestType ? body : undefined, bytes: read.kind === 'body' ? read.bytes : undefined, requestContent, requestVersion, view, prismRequest };
}
