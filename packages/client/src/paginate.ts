// Paging: every item of every page of a list operation, following `totalPages`.
import type { Client, FetchOptions } from 'openapi-fetch';
import type { ListItemOf, ResponseBodyOf } from '@payroll-api/types/payroll';
import { unwrap } from './errors.js';

type GetOf<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op } ? Op : never;

/** Paths whose GET answers a list envelope (`_embedded`). */
export type ListPaths<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: infer Op }
    ? ResponseBodyOf<Op> extends { _embedded?: unknown }
      ? P
      : never
    : never;
}[keyof Paths] &
  string;

/** The item type of a list path. */
export type ListItemAt<Paths, P extends keyof Paths> = ListItemOf<ResponseBodyOf<GetOf<Paths, P>>>;

/** Request options of a list path (path parameters, filter, orderBy, pageSize, …). */
export type ListInit<Paths, P extends keyof Paths> = FetchOptions<GetOf<Paths, P>>;

type InitArgs<Paths, P extends keyof Paths> = GetOf<Paths, P> extends { parameters: { path: object } }
  ? [init: ListInit<Paths, P> & { maxPages?: number }]
  : [init?: ListInit<Paths, P> & { maxPages?: number }];

/**
 * Iterates the items of every page of a list operation. Starts at `pageNumber` (default 1),
 * keeps the caller's `pageSize`, filter and orderBy, and stops after `totalPages` (or at
 * `maxPages`, default 10000, or at an empty page). A non-2xx page throws its ApiError.
 */
export async function* paginate<Paths extends {}, P extends ListPaths<Paths>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  client: Client<Paths, any>,
  path: P,
  ...[init]: InitArgs<Paths, P>
): AsyncGenerator<ListItemAt<Paths, P>, void, undefined> {
  const { maxPages = 10_000, ...options } = (init ?? {}) as { maxPages?: number; params?: { query?: Record<string, unknown> } };
  const query = options.params?.query ?? {};
  const size = query.pageSize;
  if (size !== undefined && !(Number.isInteger(size) && (size as number) >= 1)) {
    throw new RangeError(`paginate: pageSize must be a whole number of at least 1, got ${String(size)}`);
  }
  let page = (query.pageNumber as number | undefined) ?? 1;
  if (!(Number.isInteger(page) && page >= 1)) throw new RangeError(`paginate: pageNumber must be a whole number of at least 1`);
  const get = client.GET as (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  for (let fetched = 0; fetched < maxPages; fetched++, page++) {
    // The first request goes as the caller wrote it (page 1 is the default); later pages add
    // pageNumber. Journal lists describe no paging parameters, so a one-page journal list is
    // fetched exactly as described.
    const params = fetched === 0 ? options.params : { ...options.params, query: { ...query, pageNumber: page } };
    const data = unwrap(await get(path, { ...options, params })) as {
      _embedded?: ListItemAt<Paths, P>[];
      totalPages?: number;
    };
    const items = data?._embedded ?? [];
    yield* items;
    if (items.length === 0 || typeof data.totalPages !== 'number' || page >= data.totalPages) return;
  }
}
