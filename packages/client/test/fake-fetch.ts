// An injected fetch that records every request and answers from a handler.
export type Handler = (request: Request, call: number) => Response | Promise<Response>;

export function fakeFetch(handler: Handler) {
  const calls: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push(request);
    return handler(request, calls.length);
  };
  return { fetch, calls };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

export const version = (resourceVersion = '2018-01-01', obsoleteDate: string | null = null) => ({
  resourceVersion,
  obsoleteDate,
});

export function list<T>(items: T[], page: { currentPage?: number; totalPages?: number; pageSize?: number } = {}) {
  return {
    version: version(),
    messages: [],
    totalSize: items.length,
    pageSize: page.pageSize ?? 250,
    totalPages: page.totalPages ?? 1,
    currentPage: page.currentPage ?? 1,
    _embedded: items,
  };
}

export const BASE = 'https://api.test/v2';
export const EMPLOYER = '7b1c7a1e-2b8e-4a57-9d2f-0c6c2f1d9a10';
export const EMPLOYEE = 'c0a8f4d2-5e2b-4b0f-8a1e-3f6d2e9b7c41';
export const EMPLOYMENT = '2d4b6f8a-1c3e-4a5b-9d7f-6e8a0b2c4d6e';
export const PROFILE = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
