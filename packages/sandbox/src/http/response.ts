// An answer of the pipeline as a Fetch API Response (sandbox.fetch, the MSW handlers).
import type { Outgoing } from './outgoing.js';

const NO_BODY = new Set([101, 204, 205, 304]);

export function toFetchResponse(out: Outgoing, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(out.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  const body = NO_BODY.has(out.status) || method === 'HEAD' || out.body === undefined ? null : out.body;
  return new Response(body as BodyInit | null, { status: out.status, headers });
}
