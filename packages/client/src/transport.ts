// The fetch that openapi-fetch calls: authentication, retries with backoff, timeouts and
// cancellation, and the inspection of answers (warnings, partial failures, deprecations).
import { authenticator, type Auth, type FetchLike } from './auth.js';
import { messagesByEntity, messagesOf, tagResponse, type AnyMessage, type OperationInfo } from './errors.js';

export interface RetryOptions {
  /** Extra attempts after the first (default 2). */
  retries?: number;
  /** Methods that may be retried (default the idempotent GET, HEAD, OPTIONS, PUT, DELETE). */
  methods?: readonly string[];
  /** Statuses that are retried (default 500, 502, 503, 504). */
  statuses?: readonly number[];
  /** First backoff delay in ms, doubled per attempt with jitter (default 200). */
  baseDelayMs?: number;
  /** Upper bound of one delay in ms (default 5000). */
  maxDelayMs?: number;
}

export interface WarningEvent<M extends AnyMessage = AnyMessage> extends OperationInfo {
  status: number;
  messages: M[];
}

export interface PartialFailureEvent<M extends AnyMessage = AnyMessage> extends OperationInfo {
  status: number;
  /** Failing entities of a multi-patch: entity id -> its messages. */
  failures: Map<string, M[]>;
}

export interface DeprecationEvent {
  operation: string;
  /** The resource (payroll) or operation (journal) whose version is deprecated. */
  resource: string;
  /** The resource version the answer used. */
  version: string | undefined;
  /** The date the version stops being served: `version.obsoleteDate`, else the Sunset date. */
  date: string | undefined;
  obsoleteDate?: string;
  /** Raw `Deprecation` and `Sunset` header values, when present. */
  deprecation?: string;
  sunset?: string;
}

/** `M`: the message type of the API (the payroll's or the journal's). */
export interface TransportOptions<M extends AnyMessage = AnyMessage> {
  auth?: Auth;
  fetch?: FetchLike;
  /** Retry policy for network failures and 50x answers; false turns retries off. */
  retry?: RetryOptions | false;
  /** Time limit of one attempt in ms (headers and body); none by default. */
  timeoutMs?: number;
  /** A 2xx answer carried messages of type Warning. */
  onWarning?: (event: WarningEvent<M>) => void;
  /** A 2xx multi-patch answer reported failing entities (messages with an id). */
  onPartialFailure?: (event: PartialFailureEvent<M>) => void;
  /** An answer used a deprecated resource version; called once per resource version. */
  onDeprecation?: (event: DeprecationEvent) => void;
}

/** One attempt ran out of time. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

const IDEMPOTENT = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'];

/**
 * What the transport sends: the parts of a Request that the client builds for a call
 * (client.ts). Middleware added with `client.use` receives it as the call's Request, so it
 * keeps a Request's `url`, `method`, `headers`, `body` and `signal`.
 */
export interface Outgoing {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  readonly signal: AbortSignal | null;
  /**
   * Everything the caller gave for fetch (credentials, cache, mode, …) with the headers
   * above; passed on as it is.
   */
  readonly init: RequestInit;
  /** The operation of the call. */
  readonly info?: OperationInfo;
}

export function createTransport<M extends AnyMessage>(options: TransportOptions<M>) {
  const auth = authenticator(options.auth);
  const retry = options.retry === false ? undefined : options.retry ?? {};
  const retries = retry?.retries ?? 2;
  const methods = retry?.methods ?? IDEMPOTENT;
  const statuses = retry?.statuses ?? [500, 502, 503, 504];
  const baseDelay = retry?.baseDelayMs ?? 200;
  const maxDelay = retry?.maxDelayMs ?? 5000;
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number');
  const seen = new Set<string>();
  const inspecting = Boolean(options.onWarning || options.onPartialFailure || options.onDeprecation);

  function attempt(request: Outgoing): Promise<Response> {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const { url, method, signal, init, info } = request;
    signal?.throwIfAborted();
    // Without a time limit the request goes as it is (its own signal carries cancellation),
    // and the answer comes back without any promise of the client's in between.
    if (!timeoutMs) return inspecting ? inspect(fetchImpl(url, init), info) : fetchImpl(url, init);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort);
    const timed = { ...init, signal: controller.signal };
    return (async () => {
      try {
        const response = await fetchImpl(url, timed);
        return inspecting ? await inspect(response, info) : response;
      } catch (error) {
        if (timedOut) throw new TimeoutError(`${info?.operation ?? method} timed out after ${timeoutMs} ms`);
        throw error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    })();
  }

  async function inspect(answer: Response | Promise<Response>, info: OperationInfo | undefined): Promise<Response> {
    const response = await answer;
    const deprecation = response.headers.get('deprecation') ?? undefined;
    const sunset = response.headers.get('sunset') ?? undefined;
    let body: unknown;
    let out = response;
    if (response.ok && /json/i.test(response.headers.get('content-type') ?? '')) {
      const text = await response.text();
      out = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
      // Parse only answers that can carry something to report: messages, or an obsolete date.
      if (/"messages"\s*:\s*\[\s*\{|"obsoleteDate"\s*:\s*"/.test(text)) {
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      }
    }
    const version = (body as { version?: { resourceVersion?: unknown; obsoleteDate?: unknown } } | undefined)?.version;
    const obsoleteDate = typeof version?.obsoleteDate === 'string' ? version.obsoleteDate : undefined;
    if (info && options.onDeprecation && (obsoleteDate || deprecation || sunset)) {
      const used = typeof version?.resourceVersion === 'string' ? version.resourceVersion : info.version;
      const resource = info.resource ?? info.operation;
      const key = `${resource}@${used}`;
      if (!seen.has(key)) {
        seen.add(key);
        options.onDeprecation({
          operation: info.operation,
          resource,
          version: used,
          date: obsoleteDate ?? httpDate(sunset) ?? httpDate(deprecation),
          obsoleteDate,
          deprecation,
          sunset,
        });
      }
    }
    if (info && body !== undefined) {
      const warnings = messagesOf<M>(body).filter((m) => m.type === 'Warning');
      if (warnings.length > 0) options.onWarning?.({ ...info, status: response.status, messages: warnings });
      const failures = messagesByEntity<M>(body, ['BrokenBusinessRule', 'Exception', 'NotFound']);
      if (failures.size > 0) options.onPartialFailure?.({ ...info, status: response.status, failures });
    }
    return out;
  }

  function delay(n: number, signal: AbortSignal | null): Promise<void> {
    // Exponential backoff with jitter.
    const ms = Math.min(maxDelay, baseDelay * 2 ** n) * (0.5 + Math.random() / 2);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', done);
        resolve();
      }, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  return async function send(request: Outgoing): Promise<Response> {
    const { method, signal, info } = request;
    // Bodies openapi-fetch serialises (strings, FormData, …) can be sent again; a stream cannot.
    const repeatable = !(request.body instanceof ReadableStream);
    const mayRetry = retry !== undefined && repeatable && methods.includes(method);
    let renewed = false;
    for (let n = 0; ; n++) {
      const pending = auth?.token();
      const token = typeof pending === 'object' ? await pending : pending;
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      let response: Response;
      try {
        response = await attempt(request);
      } catch (error) {
        if (signal?.aborted || !mayRetry || n >= retries) throw error;
        await delay(n, signal);
        continue;
      }
      if (response.status === 401 && repeatable && auth && token && !renewed && auth.renew(token)) {
        // The token was rejected: obtain a new one once and repeat the request once.
        renewed = true;
        await response.body?.cancel();
        n--;
        continue;
      }
      if (mayRetry && n < retries && statuses.includes(response.status)) {
        await response.body?.cancel();
        await delay(n, signal);
        continue;
      }
      return tagResponse(response, info, token);
    }
  };
}

/** `yyyy-MM-dd` of an HTTP date (Sunset) or of an `@epoch` structured date (Deprecation). */
export function httpDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const epoch = /^@(-?\d+)$/.exec(value.trim());
  const time = epoch ? Number(epoch[1]) * 1000 : Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}
