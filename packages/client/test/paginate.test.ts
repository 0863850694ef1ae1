import { describe, expect, it } from 'vitest';
import { ApiError, createJournalClient, createPayrollClient, paginate } from '../src/index.js';
import { BASE, EMPLOYER, PROFILE, fakeFetch, json, list } from './fake-fetch.js';

/** A list endpoint over `total` numbered items, paged by the request's pageNumber and pageSize. */
function pagedServer(total: number) {
  return fakeFetch((request) => {
    const url = new URL(request.url);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 250);
    const page = Number(url.searchParams.get('pageNumber') ?? 1);
    const items = Array.from({ length: total }, (_, i) => ({ id: `item-${i + 1}`, companyName: `Werkgever ${i + 1}` }));
    return json(
      list(items.slice((page - 1) * pageSize, page * pageSize), {
        currentPage: page,
        pageSize,
        totalPages: Math.ceil(total / pageSize),
      }),
    );
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('paginate', () => {
  it('yields every item of every page, following totalPages and keeping pageSize', async () => {
    const server = pagedServer(7);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const items = await collect(paginate(client, '/v2/providers/employers', { params: { query: { pageSize: 3, orderBy: 'companyName' } } }));
    expect(items.map((i) => i.id)).toEqual(['item-1', 'item-2', 'item-3', 'item-4', 'item-5', 'item-6', 'item-7']);
    expect(server.calls).toHaveLength(3);
    const queries = server.calls.map((c) => Object.fromEntries(new URL(c.url).searchParams));
    expect(queries).toEqual([
      { orderBy: 'companyName', pageSize: '3' },
      { orderBy: 'companyName', pageSize: '3', pageNumber: '2' },
      { orderBy: 'companyName', pageSize: '3', pageNumber: '3' },
    ]);
  });

  it('passes path parameters and a filter, and stops early when the caller breaks', async () => {
    const server = pagedServer(10);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const seen: string[] = [];
    for await (const employee of paginate(client, '/v2/providers/employers/{employerId}/employees', {
      params: { path: { employerId: EMPLOYER }, query: { pageSize: 2, filter: "personalDetails.lastName lk 'Jan'" } },
    })) {
      seen.push(String((employee as { id: string }).id));
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['item-1', 'item-2', 'item-3']);
    expect(server.calls).toHaveLength(2);
    expect(new URL(server.calls[0]!.url).pathname).toBe(`/v2/v2/providers/employers/${EMPLOYER}/employees`);
    expect(new URL(server.calls[0]!.url).searchParams.get('filter')).toBe("personalDetails.lastName lk 'Jan'");
  });

  it('starts at a given page', async () => {
    const server = pagedServer(5);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const items = await collect(paginate(client, '/v2/providers/employers', { params: { query: { pageSize: 2, pageNumber: 2 } } }));
    expect(items.map((i) => i.id)).toEqual(['item-3', 'item-4', 'item-5']);
    expect(server.calls.map((c) => new URL(c.url).searchParams.get('pageNumber'))).toEqual(['2', '3']);
  });

  it('works for journal lists, which describe no paging parameters', async () => {
    const server = pagedServer(3);
    const client = createJournalClient({ baseUrl: 'https://api.test', fetch: server.fetch });
    const items = await collect(
      paginate(client, '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunits', {
        params: { path: { journalProfileId: PROFILE } },
      }),
    );
    expect(items.map((i) => i.id)).toEqual(['item-1', 'item-2', 'item-3']);
    expect(server.calls.map((c) => new URL(c.url).search)).toEqual(['']);
  });

  it('stops at maxPages and on an empty page', async () => {
    const endless = fakeFetch((r) => json(list([{ id: r.url }], { totalPages: 1000, currentPage: 1 })));
    const client = createPayrollClient({ baseUrl: BASE, fetch: endless.fetch });
    expect(await collect(paginate(client, '/v2/providers', { maxPages: 4 }))).toHaveLength(4);
    const empty = fakeFetch(() => json(list([], { totalPages: 9 })));
    const other = createPayrollClient({ baseUrl: BASE, fetch: empty.fetch });
    expect(await collect(paginate(other, '/v2/providers'))).toEqual([]);
    expect(empty.calls).toHaveLength(1);
  });

  it('throws the ApiError of a failing page', async () => {
    const server = fakeFetch((r) =>
      new URL(r.url).searchParams.get('pageNumber') === '2'
        ? json({ version: { resourceVersion: '2018-01-01', obsoleteDate: null }, messages: [{ type: 'Exception', description: 'Onverwachte fout', code: 1 }] }, { status: 400 })
        : json(list([{ id: 'a' }], { totalPages: 3 })),
    );
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    const error = await collect(paginate(client, '/v2/providers')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).operation).toBe('GetProvidersByUser');
    expect((error as ApiError).byType.Exception[0]!.description).toBe('Onverwachte fout');
  });

  it('rejects a bad pageSize or pageNumber before any request', async () => {
    const server = pagedServer(3);
    const client = createPayrollClient({ baseUrl: BASE, fetch: server.fetch });
    await expect(collect(paginate(client, '/v2/providers', { params: { query: { pageSize: 0 } } }))).rejects.toThrow(/pageSize must be a whole number/);
    await expect(collect(paginate(client, '/v2/providers', { params: { query: { pageNumber: 1.5 } } }))).rejects.toThrow(/pageNumber/);
    expect(server.calls).toHaveLength(0);
  });
});
