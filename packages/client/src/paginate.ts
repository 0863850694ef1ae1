// Paging: every item of every page of a list operation, following `totalPages`.
import type { Client, FetchOptions } from 'openapi-fetch';
import type { ListItemOf, ResponseBodyOf } from '@payroll-api/types/payroll';
import { unwrap } from './errors.js';
import type { ActivityInit, ActivityOperation, ActivityPath, GetActivitiesAt, ParamsArg } from './types.js';

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

/** Activities whose GET answers a list envelope. */
export type ListActivities<Paths> = GetActivitiesAt<Paths, ListPaths<Paths>>;

type ActivityListArgs<Paths, N> = [
  ...params: ParamsArg<ActivityOperation<Paths, N>>,
  init?: ActivityInit<ActivityOperation<Paths, N>> & { maxPages?: number },
];

/** The arguments after the list: `init` by a path, `(params, init)` by an activity. */
export type PaginateArgs<Paths, Target> = Target extends `/${string}` ? InitArgs<Paths, Target & keyof Paths> : ActivityListArgs<Paths, Target>;

/** The path of a list named by its path or its activity. */
type ListPathOf<Paths, Target> = (Target extends `/${string}` ? Target : ActivityPath<Target>) & keyof Paths;

/**
 * Iterates the items of every page of a list operation, named by its path
 * (`paginate(client, '/v2/…/{employerId}/employees', { params: { path, query } })`) or by its
 * activity (`paginate(client, 'GetEmployeesByEmployerId', { employerId, pageSize })`). Starts
 * at `pageNumber` (default 1), keeps the caller's `pageSize`, filter and orderBy, and stops
 * after `totalPages` (or at `maxPages`, default 10000, or at an empty page). A non-2xx page
 * throws its ApiError.
 */
export async function* paginate<Paths extends {}, Target extends ListPaths<Paths> | ListActivities<Paths>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  client: Client<Paths, any>,
  target: Target,
  ...[first, second]: PaginateArgs<Paths, Target>
): AsyncGenerator<ListItemAt<Paths, ListPathOf<Paths, Target>>, void, undefined> {
  // By path: (init with params.path and params.query); by activity: (flat params, init).
  const named = !target.startsWith('/');
  const { maxPages = 10_000, ...options } = ((named ? second : first) ?? {}) as unknown as { maxPages?: number; params?: { query?: Record<string, unknown> } };
  const query = ((named ? first : options.params?.query) ?? {}) as Record<string, unknown>;
  for (const name of ['pageSize', 'pageNumber']) {
    const value = query[name];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1)) {
      throw new RangeError(`paginate: ${name} must be a whole number of at least 1, got ${String(value)}`);
    }
  }
  let page = (query.pageNumber as number | undefined) ?? 1;
  const calls = client as unknown as Record<string, (a: unknown, b: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>>;
  for (let fetched = 0; fetched < maxPages; fetched++, page++) {
    // Later pages add pageNumber (page 1 is the default). Journal lists describe no paging
    // parameters, so a one-page journal list is fetched exactly as described.
    const paged = fetched === 0 ? query : { ...query, pageNumber: page };
    const result = named ? await calls[target]!(paged, options) : await calls.GET!(target, { ...options, params: { ...options.params, query: paged } });
    const data = unwrap(result) as { _embedded?: unknown[]; totalPages?: number };
    const items = data?._embedded ?? [];
    yield* items as ListItemAt<Paths, ListPathOf<Paths, Target>>[];
    if (items.length === 0 || typeof data.totalPages !== 'number' || page >= data.totalPages) return;
  }
}
