// The examples responder (--examples): Prism answers from the description's examples, or
// generates from the schemas (--dynamic, Prefer: dynamic=true); Prefer selects an example or
// status. The version object is rewritten to the negotiated version.
import { createLogger } from '@stoplight/prism-core';
import { createInstance } from '@stoplight/prism-http';
import {
  badRequest,
  download,
  errorReply,
  essence,
  isJsonMedia,
  listItems,
  message,
  parsePreferences,
  successContents,
  successHeaders,
  type Exchange,
  type Headers,
  type HttpOperation,
  type Outgoing,
  type Responder,
  type VersionInfo,
} from '@payroll-api/sandbox/engine';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations.js';

/** What Prism answered (the parts read here). */
interface PrismOutput {
  statusCode: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}

// Prism produces responses only: the validate stage has checked the request, the authenticate
// stage the token; response validation and proxying are not its business here.
const PRISM_CONFIG = { checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false };

// A 1x1 transparent PNG: what a photo GET answers when the description shows no body for it.
const PLACEHOLDER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const IMAGE_OPERATION = /Logo|Photo/;

function rewriteVersion(body: unknown, version: VersionInfo | null): unknown {
  if (!version || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const current = (body as Record<string, unknown>).version;
  if (!current || typeof current !== 'object') return body;
  return { ...(body as Record<string, unknown>), version: { ...version } };
}

function serialize(body: unknown, contentType: string): Uint8Array | string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' && !isJsonMedia(essence(contentType))) return body;
  if (Buffer.isBuffer(body)) return body;
  return JSON.stringify(body);
}

type PrismOperation = HttpOperation & { responses: Array<{ code: string; contents?: Array<{ mediaType: string }> }> };

/** Prism's own reading of each loaded description (it needs the examples the engine's model leaves out). */
const prismOperations = new WeakMap<object, Promise<Map<string, PrismOperation>>>();
function prismOperationsOf(doc: Record<string, unknown>): Promise<Map<string, PrismOperation>> {
  let found = prismOperations.get(doc);
  if (!found) {
    found = (async () => {
      const operations = (await getHttpOperationsFromSpec(structuredClone(doc))) as unknown as PrismOperation[];
      return new Map(operations.map((o) => [o.iid ?? `${o.method.toUpperCase()} ${o.path}`, o]));
    })();
    prismOperations.set(doc, found);
  }
  return found;
}

/** Prism's operation narrowed to the negotiated response and request contents, so that it picks no other version. */
function narrowed(operation: PrismOperation, responseType: string | undefined, requestType: string | undefined, requestAs: string | undefined): PrismOperation {
  const success = operation.responses.find((r) => /^2\d\d$/.test(r.code)) ?? operation.responses.find((r) => /^2XX$/i.test(r.code));
  const request = operation.request;
  const body = request?.body;
  return {
    ...operation,
    responses: operation.responses.map((r) => (r === success && responseType ? { ...r, contents: (r.contents ?? []).filter((c) => c.mediaType === responseType) } : r)),
    request:
      request && body && requestType && requestAs
        ? { ...request, body: { ...body, contents: (body.contents ?? []).filter((c) => c.mediaType === requestType).map((c) => ({ ...c, mediaType: requestAs })) } }
        : request,
  };
}

export function examplesResponder(options: { dynamic: boolean; log: (line: string) => void }): Responder {
  const prism = createInstance(
    { mock: { dynamic: false }, ...PRISM_CONFIG } as never,
    { logger: createLogger('payroll-mock', { level: 'silent' }) as never },
  );

  async function respond({ req, routed, negotiation, valid, now }: Exchange): Promise<Outgoing> {
    const { operation } = routed;
    const { version, responseContent } = negotiation;
    const prefs = parsePreferences(req.headers.prefer, routed.query);
    if (!prefs.ok) return badRequest(operation, version, [message(400, prefs.description, ['Prefer'])]);
    const mediaTypes = responseContent ? [responseContent.mediaType, 'application/json;q=0.9', '*/*;q=0.1'] : ['*/*'];
    const full = (await prismOperationsOf(operation.api.doc)).get(operation.operationId);
    if (!full) return errorReply(500, operation, version, [message(500, `The mock has no examples for ${operation.operationId}.`, [], 'Exception')]);
    const requestAs = valid.prismRequest.headers['content-type'];
    const view = narrowed(full, responseContent?.mediaType, valid.requestContent?.mediaType, requestAs);
    const result = await prism.request(
      valid.prismRequest as never,
      [view as never],
      {
        mock: { dynamic: prefs.prefer.dynamic ?? options.dynamic, code: prefs.prefer.code, exampleKey: prefs.prefer.example, seed: prefs.prefer.seed, mediaTypes },
        ...PRISM_CONFIG,
      } as never,
    )();
    if (result._tag === 'Left') {
      const error = result.left as Error & { status?: number; detail?: string };
      if (error.status === 404 || error.status === 406) {
        const what = error.status === 406 ? 'Accept' : 'Prefer';
        return badRequest(operation, version, [message(400, error.detail || error.message, [what])]);
      }
      options.log(`payroll-mock: ${operation.operationId}: ${error.detail || error.message}`);
      return errorReply(500, operation, version, [message(500, `The mock could not produce a response: ${error.detail || error.message}`, [], 'Exception')]);
    }
    const output = (result.right as { output: PrismOutput }).output;
    const ok = output.statusCode >= 200 && output.statusCode < 300;

    const headers: Headers = {};
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      const lower = name.toLowerCase();
      // Content-Disposition belongs to downloads only (set below); Prism would fill in the
      // header's example value ("string") on every list answer.
      if (value === null || value === undefined || lower === 'expires' || lower === 'content-type' || lower === 'content-disposition') continue;
      headers[name] = String(value);
    }
    Object.assign(headers, successHeaders(operation, negotiation, now));

    if (negotiation.negotiated.kind === 'export' && ok) return download(operation, negotiation, output.statusCode, listItems(output.body), headers);

    if (ok && output.body === undefined && operation.method === 'get' && IMAGE_OPERATION.test(operation.operationId) && successContents(operation.model).length === 0) {
      return { status: output.statusCode, headers: { ...headers, 'Content-Type': 'image/png' }, body: PLACEHOLDER_PNG };
    }
    const contentType = (output.headers?.['Content-type'] as string | undefined) ?? (output.body === undefined ? undefined : 'application/json');
    const payload = serialize(rewriteVersion(output.body, version), contentType ?? '');
    if (contentType && payload !== undefined) headers['Content-Type'] = contentType;
    return { status: output.statusCode, headers, body: payload };
  }

  return { identify: async () => ({}), withClock: (caller, _write, rest) => rest({ now: Date.now(), caller }, undefined), respond };
}
