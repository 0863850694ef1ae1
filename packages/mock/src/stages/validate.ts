// Stage 4, validate: reads the request body (413 over the limit), checks its media type and
// resource version (Content-Type, section 9), parses JSON, and has Prism validate the whole
// request (parameters, headers, body) against the operation narrowed to the negotiated
// versions. Both responders get requests that passed this stage.
import type http from 'node:http';
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js';
import { message, violationMessages, type NameLookup } from '../errors.js';
import { contentForVersion, isJsonMedia, mediaMatches, requestedVersion } from '../media.js';
import { PREFER_QUERY } from '../prefer.js';
import type { HttpOperation, MediaContent, Violation } from '../prism-types.js';
import { essence, successResponse, versionParam, type Operation } from '../spec.js';
import type { Negotiation } from './negotiate.js';
import { versionFor } from './negotiate.js';
import { badRequest, errorReply, isOutgoing, type Outgoing } from './outgoing.js';
import type { Routed } from './route.js';

/** The request as Prism sees it (also what the examples responder hands Prism). */
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
  bytes: Buffer | undefined;
  requestContent: MediaContent | undefined;
  /** The operation narrowed to the negotiated response and request contents. */
  view: HttpOperation;
  prismRequest: PrismRequest;
}

type BodyRead = { kind: 'empty' } | { kind: 'body'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
    return Promise.resolve({ kind: 'empty' });
  }
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(size === 0 ? { kind: 'empty' } : { kind: 'body', bytes: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => finish({ kind: 'aborted' }));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Prism reports header and query names in lower case; messages use the description's spelling. */
function nameLookup(operation: Operation): NameLookup {
  const headers = new Map<string, string>([['accept', 'Accept'], ['content-type', 'Content-Type'], ['authorization', 'Authorization']]);
  for (const h of operation.prism.request?.headers ?? []) headers.set(h.name.toLowerCase(), h.name);
  const spelling = (params: Array<{ name: string }> | undefined) => {
    const names = new Map(params?.map((p) => [p.name.toLowerCase(), p.name]));
    return (name: string) => names.get(name.toLowerCase()) ?? name;
  };
  return {
    header: (name) => headers.get(name.toLowerCase()) ?? name,
    query: spelling(operation.prism.request?.query),
    path: spelling(operation.prism.request?.path),
  };
}

/** The operation narrowed to one response and one request content, so Prism cannot pick another version. */
function viewOf(operation: Operation, response: MediaContent | undefined, request: MediaContent | undefined, requestType: string | undefined): HttpOperation {
  const key = `${response?.mediaType ?? ''}\n${request?.mediaType ?? ''}\n${requestType ?? ''}`;
  let view = operation.views.get(key);
  if (view) return view;
  const prism = operation.prism;
  const success = successResponse(prism);
  view = {
    ...prism,
    responses: prism.responses.map((r) => (r === success && response ? { ...r, contents: [response] } : r)),
    request:
      prism.request && request && requestType
        ? { ...prism.request, body: { ...prism.request.body, contents: [{ ...request, mediaType: requestType }] } }
        : prism.request,
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

export async function validate(routed: Routed, req: http.IncomingMessage, negotiation: Negotiation, maxBody: number): Promise<ValidRequest | Outgoing> {
  const { operation } = routed;
  const { version } = negotiation;
  const read = await readBody(req, maxBody);
  if (read.kind === 'too-large') {
    return errorReply(413, operation, version, [message(413, `The request body exceeds the limit of ${maxBody} bytes.`, ['body'])], { Connection: 'close' });
  }
  if (read.kind === 'aborted') return { status: 400, headers: { Connection: 'close' } };
  const bodySpec = operation.prism.request?.body;
  let body: unknown;
  let requestContent: MediaContent | undefined;
  let requestType: string | undefined;
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
    let requestVersion: string | undefined;
    if (matching.some((c) => versionParam(c.mediaType))) {
      const bodyChoice = versionFor(operation, 'Content-Type', requestedVersion(contentType), version, negotiation.today);
      if (isOutgoing(bodyChoice)) return bodyChoice;
      requestVersion = bodyChoice?.version.version;
    }
    requestContent = contentForVersion(matching, requestVersion);
    // Prism sees one media type per body: every JSON flavour (text/json, application/*+json) as
    // application/json, so that the set of operation views stays small whatever clients send.
    requestType = isJsonMedia(ess) ? 'application/json' : ess;
    if (isJsonMedia(ess) || (requestContent && isJsonMedia(essence(requestContent.mediaType)))) {
      let text: string;
      try {
        text = utf8.decode(read.bytes);
      } catch {
        return badRequest(operation, version, [message(400, 'The request body is not valid UTF-8 text.', ['body'])]);
      }
      try {
        body = JSON.parse(text);
      } catch (error) {
        return badRequest(operation, version, [message(400, `The request body is not valid JSON: ${(error as Error).message}.`, ['body'])]);
      }
      if (body === null && !acceptsNull(requestContent?.schema)) {
        return badRequest(operation, version, [message(400, 'The request body may not be null.', ['body'])]);
      }
    } else {
      body = read.bytes.toString('utf8');
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
  const result = validateInput({ resource: view as never, element: prismRequest as never });
  if (result._tag === 'Left') {
    const errors = (result.left as unknown as Violation[]).filter((v) => v.severity === 0);
    if (errors.length > 0) return badRequest(operation, version, violationMessages(errors, nameLookup(operation)));
  }
  return { body: requestType ? body : undefined, bytes: read.kind === 'body' ? read.bytes : undefined, requestContent, view, prismRequest };
}
