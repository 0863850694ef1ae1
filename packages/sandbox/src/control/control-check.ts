// Control requests (`/__sandbox/*`) checked against the control description as API requests are
// checked against theirs: query, path and JSON body by the same validator (http/request-schema.ts),
// refused with 400 and the envelope naming each field. Only a caller the sandbox knows is
// checked (no token stays a 401); a path or method the description lacks, and a body that is
// not JSON, go on to the control handlers, which answer them (404, 405, 400) as before.
import { message, violationMessages } from '../http/errors.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { bytesBody, type SandboxRequest } from '../http/request.js';
import { validateRequest } from '../http/request-schema.js';
import { parseJsonBytes } from '../http/json-body.js';
import { pathParams } from '../http/route.js';
import { loadApi, matchRoute, type ApiName, type LoadedApi } from '../http/spec.js';

/** Larger than any control body the handlers take; each handler applies its own limit after this. */
const MAX_CONTROL_BODY = 256 * 1024 * 1024;

export type ControlCheck = (req: SandboxRequest, pathname: string) => Promise<{ ok: true; req: SandboxRequest } | { ok: false; out: Outgoing }>;

export function controlCheck(description: Record<string, unknown>): ControlCheck {
  let api: LoadedApi | undefined;
  return async (req, pathname) => {
    // The control description is routed like an API description; its name only labels messages.
    api ??= loadApi('sandbox-control' as ApiName, description, 'sandbox control description');
    const match = matchRoute(api, pathname, (req.method ?? 'GET').toLowerCase());
    if (match.kind !== 'operation') return { ok: true, req };
    const model = match.operation.model;
    const read = model.request?.body ? await req.readBody(MAX_CONTROL_BODY) : ({ kind: 'empty' } as const);
    if (read.kind !== 'body' && read.kind !== 'empty') return { ok: true, req: { ...req, readBody: async () => read } };
    const bytes = read.kind === 'body' ? read.bytes : undefined;
    let passOn: SandboxRequest = { ...req, readBody: bytesBody(bytes) };
    let body: unknown;
    if (bytes) {
      const parsed = await (req.parseJson ?? parseJsonBytes)(bytes);
      if (parsed === undefined) return { ok: true, req: passOn };
      if (!parsed.ok) return { ok: false, out: json(400, { messages: [message(400, parsed.description, [parsed.field])] }) };
      body = parsed.value;
      passOn = { ...passOn, parsedBody: { value: body } };
    }
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) {
      const known = query[name];
      query[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
    }
    const violations = validateRequest(model, { query, headers: Object.fromEntries(Object.entries(req.headers).filter((entry): entry is [string, string] => entry[1] !== undefined)), path: pathParams({ method: req.method ?? 'GET', pathname, query: url.searchParams, operation: match.operation, routedPath: match.path }), body, hasBody: bytes !== undefined });
    if (violations.length === 0) return { ok: true, req: passOn };
    const messages = violationMessages(violations, { header: (n) => n, query: (n) => n, path: (n) => n });
    return { ok: false, out: json(400, { messages: messages.length > 0 ? messages : [message(400, 'The request does not match the control description.', ['body'])] }) };
  };
}
