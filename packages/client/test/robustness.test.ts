import { describe, expect, it } from 'vitest';
import { ApiError, TimeoutError, createPayrollClient } from '../src/index.js';
import { BASE, EMPLOYER, EMPLOYMENT, fakeFetch, json, list } from './fake-fetch.js';

const fast = { retries: 2, baseDelayMs: 1, maxDelayMs: 5 };
const unavailable = () => new Response(null, { status: 503 });

describe('retries', () => {
  it('retries a GET after 50x answers with backoff, then succeeds', async () => {
    const server = fakeFetch((_, n) => (n < 3 ? unavailable() : json(list([]))));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: fast });
    const { response } = await client.GET('/v2/providers');
    expect(response.status).toBe(200);
    expect(server.calls).toHaveLength(3);
  });

  it('gives up after the configured retries and answers the last 50x', async () => {
    const server = fakeFetch(unavailable);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: { ...fast, retries: 1 } });
    const result = await client.GET('/v2/providers');
    expect(ApiError.from(result)!.status).toBe(503);
    expect(server.calls).toHaveLength(2);
  });

  it('retries network failures of idempotent methods, PUT included, resending the body', async () => {
    const bodies: string[] = [];
    const server = fakeFetch(async (r, n) => {
      bodies.push(await r.text());
      if (n === 1) throw new TypeError('fetch failed');
      return json({ messages: [], content: {} });
    });
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: fast });
    const { response } = await client.PUT('/v2/providers/employers/employees/employments/{employmentId}', {
      params: { path: { employmentId: EMPLOYMENT } },
      body: { incomeRelationshipNumber: 3 } as never,
    });
    expect(response.status).toBe(200);
    expect(bodies).toEqual(['{"incomeRelationshipNumber":3}', '{"incomeRelationshipNumber":3}']);
  });

  it('never retries POST or PATCH', async () => {
    const server = fakeFetch(unavailable);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: fast });
    await client.POST('/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: EMPLOYER } }, body: {} as never });
    await client.PATCH('/v2/providers/employers/employees/employments/{employmentId}/reinstate', { params: { path: { employmentId: EMPLOYMENT } }, body: {} as never });
    expect(server.calls.map((c) => c.method)).toEqual(['POST', 'PATCH']);
    const failing = fakeFetch(() => {
      throw new TypeError('fetch failed');
    });
    const other = createPayrollClient({ baseUrl: BASE, fetch: failing.fetch, retry: fast });
    await expect(other.POST('/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: EMPLOYER } }, body: {} as never })).rejects.toThrow('fetch failed');
    expect(failing.calls).toHaveLength(1);
  });

  it('is configurable: retries off, or other methods and statuses', async () => {
    const server = fakeFetch(unavailable);
    await createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: false }).GET('/v2/providers');
    expect(server.calls).toHaveLength(1);
    const teapot = fakeFetch((_, n) => (n === 1 ? new Response(null, { status: 429 }) : json({ messages: [], content: {} }, { status: 201 })));
    const client = createPayrollClient({ baseUrl: BASE, fetch: teapot.fetch, retry: { ...fast, methods: ['POST'], statuses: [429] } });
    const { response } = await client.POST('/v2/providers/employers/{employerId}/employees', { params: { path: { employerId: EMPLOYER } }, body: {} as never });
    expect(response.status).toBe(201);
    expect(teapot.calls).toHaveLength(2);
  });
});

/** A fetch that never answers, but honours its AbortSignal like the real one. */
const hanging = fakeFetch(
  (request) =>
    new Promise<Response>((_, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason));
    }),
);

describe('timeouts and cancellation', () => {
  it('times out an attempt and, for a GET, retries before failing with TimeoutError', async () => {
    hanging.calls.length = 0;
    const client = createPayrollClient({ baseUrl: BASE, fetch: hanging.fetch, timeoutMs: 20, retry: { ...fast, retries: 1 } });
    const started = Date.now();
    await expect(client.GET('/v2/providers')).rejects.toThrow(TimeoutError);
    expect(hanging.calls).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels through the caller AbortSignal, without retrying', async () => {
    hanging.calls.length = 0;
    const client = createPayrollClient({ baseUrl: BASE, fetch: hanging.fetch, retry: fast });
    const controller = new AbortController();
    const pending = client.GET('/v2/providers', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left the page')), 10);
    await expect(pending).rejects.toThrow('user left the page');
    expect(hanging.calls).toHaveLength(1);
  });

  it('does not send at all with an already aborted signal, and stops waiting during backoff', async () => {
    const server = fakeFetch(unavailable);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, retry: { retries: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    await expect(client.GET('/v2/providers', { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(server.calls).toHaveLength(0);
    const controller = new AbortController();
    const pending = client.GET('/v2/providers', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(pending).rejects.toThrow('stop');
    expect(server.calls).toHaveLength(1);
  });

  it('rejects a non-positive timeout', () => {
    expect(() => createPayrollClient({ baseUrl: BASE, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe('fetch options', () => {
  // Browser integrators rely on these (cookies for a same-site proxy, no HTTP cache, …).
  it.each([
    ['without a time limit', {}],
    ['with a time limit', { timeoutMs: 5_000 }],
  ])('passes the caller’s fetch options through to fetch, %s', async (_name, extra) => {
    const server = fakeFetch(() => json(list([])));
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch, auth: 'tok', ...extra });
    await client.GET('/v2/providers', { credentials: 'include', cache: 'no-store', keepalive: true });
    const request = server.calls[0]!;
    expect(request.credentials).toBe('include');
    expect(request.cache).toBe('no-store');
    expect(request.keepalive).toBe(true);
    expect(request.headers.get('accept')).toBe('application/json;version=2018-01-01');
  });
});
