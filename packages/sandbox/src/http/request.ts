// The request as every stage reads it, whatever carried it: the Node server adapts an
// IncomingMessage to it, sandbox.fetch and the MSW handlers a Fetch API Request. Header
// names are lower case; a header sent twice is one comma-joined value.
import { concat } from '../util/bytes.js';
import type { JsonRead } from './json-body.js';

/** `too-large` may name the limit that refused it and the setting that sets it (a server's). */
export type BodyRead = { kind: 'empty' } | { kind: 'body'; bytes: Uint8Array } | { kind: 'too-large'; limit?: number; setting?: string } | { kind: 'aborted' };

/** The refusal of a body past a limit, naming the setting when the server said which. */
export function tooLargeText(read: { limit?: number; setting?: string }, limit: number): string {
  return `The request body exceeds the limit of ${read.limit ?? limit} bytes${read.setting ? ` (${read.setting})` : ''}.`;
}

export interface SandboxRequest {
  /** Upper case. */
  method: string;
  /** The request target: path and query, e.g. `/v2/v2/providers?pageSize=5`. */
  url: string;
  headers: Record<string, string | undefined>;
  /** The body, read once, refused past `limit` bytes. */
  readBody(limit: number): Promise<BodyRead>;
  /** The body as parsed by an earlier stage (the control check), so that it is parsed once. */
  parsedBody?: { value: unknown };
  /** The server's own parse of a JSON body, with parseJsonBytes' answers (a Node server parses a
   * large one on another thread); without it, the stages run parseJsonBytes themselves. */
  parseJson?(bytes: Uint8Array): Promise<JsonRead | undefined>;
}

/** The body reader of a request whose bytes are already in hand. */
export function bytesBody(bytes: Uint8Array | undefined): SandboxRequest['readBody'] {
  return async (limit) => (!bytes || bytes.length === 0 ? { kind: 'empty' } : bytes.length > limit ? { kind: 'too-large' } : { kind: 'body', bytes });
}

/** A Fetch API Request as the stages read it. */
export function fromFetchRequest(request: Request): SandboxRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let read: Promise<BodyRead> | undefined;
  return {
    method: request.method.toUpperCase(),
    url: `${url.pathname}${url.search}`,
    headers,
    readBody(limit) {
      read ??= readFetchBody(request, limit);
      return read;
    },
  };
}

async function readFetchBody(request: Request, limit: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return { kind: 'too-large' };
  if (!request.body) return { kind: 'empty' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'aborted' };
  }
  return size === 0 ? { kind: 'empty' } : { kind: 'body', bytes: concat(chunks) };
}

/**
 * A request given as a URL and init (sandbox.fetch(url, init)), read without building a
 * Request first: the common case in tests, and a third of the in-process cost otherwise.
 * Bodies other than text and bytes go through a Request, which knows how to read them.
 */
export function fromUrlAndInit(url: string | URL, init: RequestInit | undefined): SandboxRequest | undefined {
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) return undefined;
  const parsed = typeof url === 'string' ? new URL(url) : url;
  const headers: Record<string, string> = {};
  const given = init?.headers;
  if (given instanceof Headers) given.forEach((value, name) => (headers[name] = value));
  else if (Array.isArray(given)) for (const [name, value] of given) headers[name.toLowerCase()] = headers[name.toLowerCase()] === undefined ? value! : `${headers[name.toLowerCase()]}, ${value}`;
  else if (given) for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
  const bytes = body === undefined || body === null ? undefined : typeof body === 'string' ? new TextEncoder().encode(body) : body instanceof ArrayBuffer ? new Uint8Array(body) : body;
  if (bytes && typeof body === 'string' && headers['content-type'] === undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
  return {
    method: (init?.method ?? 'GET').toUpperCase(),
    url: `${parsed.pathname}${parsed.search}`,
    headers,
    readBody: bytesBody(bytes),
  };
}
