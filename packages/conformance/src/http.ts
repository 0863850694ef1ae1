// Every request the checker sends goes through one Requester: it refuses any origin it was not
// given, stops at the request budget, keeps to the rate, and records the exchange so that a
// finding can show it and a one-line curl can reproduce it.

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ReceivedResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  bytes: Buffer;
  /** The parsed body when it is JSON text; undefined otherwise. */
  json: unknown;
  jsonError?: string;
}

export interface Exchange {
  request: OutgoingRequest;
  response?: ReceivedResponse;
  /** Why no response came (connection refused, timeout, ...). */
  error?: string;
  ms: number;
}

export class BudgetExhausted extends Error {
  constructor(max: number) {
    super(`the request budget of ${max} requests is used up (--max-requests)`);
    this.name = 'BudgetExhausted';
  }
}

export interface RequesterOptions {
  /** Origins (scheme://host:port) requests may go to; anything else is refused before sending. */
  origins: string[];
  maxRequests: number;
  /** Requests per second at most; 0 for no limit. */
  rps: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export class Requester {
  private sent = 0;
  private nextSlot = 0;
  private readonly origins: Set<string>;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: RequesterOptions) {
    this.origins = new Set(options.origins.map((o) => new URL(o).origin));
    this.fetch = options.fetch ?? fetch;
  }

  get count(): number {
    return this.sent;
  }

  get remaining(): number {
    return this.options.maxRequests - this.sent;
  }

  async send(request: OutgoingRequest): Promise<Exchange> {
    const origin = new URL(request.url).origin;
    if (!this.origins.has(origin)) throw new Error(`refusing to send to ${origin}: only ${[...this.origins].join(', ')} were given`);
    if (this.sent >= this.options.maxRequests) throw new BudgetExhausted(this.options.maxRequests);
    this.sent++;
    if (this.options.rps > 0) {
      const now = Date.now();
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + 1000 / this.options.rps;
      if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
    }
    const started = performance.now();
    try {
      const response = await this.fetch(request.url, {
        method: request.method.toUpperCase(),
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { request, response: parseBody(response.status, headers, bytes), ms: performance.now() - started };
    } catch (error) {
      return { request, error: (error as Error).message, ms: performance.now() - started };
    }
  }
}

export function parseBody(status: number, headers: Record<string, string>, bytes: Buffer): ReceivedResponse {
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const out: ReceivedResponse = { status, headers, bytes, json: undefined };
  if (bytes.length > 0 && (type === 'application/json' || type === 'text/json' || type.endsWith('+json'))) {
    try {
      out.json = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      out.jsonError = (error as Error).message;
    }
  }
  return out;
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A one-line curl that sends the same request; the bearer token stands as $PAYROLL_TOKEN. */
export function curlOf(request: OutgoingRequest): string {
  const parts = ['curl', '-i'];
  if (request.method.toUpperCase() !== 'GET') parts.push('-X', request.method.toUpperCase());
  parts.push(quote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = name.toLowerCase() === 'authorization' && /^Bearer\s/i.test(value) ? 'Authorization: Bearer $PAYROLL_TOKEN' : `${name}: ${value}`;
    parts.push('-H', shown.includes('$PAYROLL_TOKEN') ? `"${shown}"` : quote(shown));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
