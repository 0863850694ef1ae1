// TanStack Query options for the calls by activity name of @payroll-api/client: one query
// per GET, one infinite query per list, one mutation per write, with keys and invalidation
// taken from the description (src/generated/operations.ts).
import type { MutationFunctionContext, QueryFilters, QueryKey } from '@tanstack/query-core';
import { partialMatchKey } from '@tanstack/query-core';
import { unwrap } from '@payroll-api/client';
import { journalOperations, payrollOperations } from './generated/operations.js';
import type { Api, Ids, InvalidateOverride, JournalFactories, PayrollFactories, QueryParams } from './types.js';

export type * from './types.js';

type Entry = readonly [resource: string, ids: string, kind: number, entity?: string, lists?: readonly string[]];
type Table = Readonly<Record<string, Entry>>;
type Call = (params?: object, second?: object, third?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
const LIST = 1;
const WRITE = 2;

/** The key of an activity's query: [api, resource, ids, activity, query, resourceVersionDate]. */
function keyOf(api: Api, table: Table, activity: string, params: QueryParams = {}, version: string | null) {
  const [resource, names] = table[activity]!;
  const ids: Ids = {};
  const query: QueryParams = {};
  for (const name in params) {
    if (names.split(' ').includes(name)) ids[name] = params[name] as string;
    else query[name] = params[name];
  }
  return [api, resource, ids, activity, query, version] as const;
}

/** Filters for every query of an API whose ids name all of `ids`: "everything about employer X". */
export function about(api: Api, ids: Ids): QueryFilters {
  return { queryKey: [api], predicate: (query) => partialMatchKey([query.queryKey[2]], [ids]) };
}

/** What a successful write invalidates: every query about its entity and the lists of its kind. */
export function invalidationOf(api: Api, activity: string, params: QueryParams = {}): QueryFilters {
  const table: Table = api === 'payroll' ? payrollOperations : journalOperations;
  const [, , , entity, lists = []] = table[activity] ?? [];
  const targets: QueryKey[] = lists.map((list) => {
    const [resource, names] = table[list]!;
    // A list is narrowed to the ids the write knows (an employer's employees after a create).
    const ids: Ids = {};
    for (const name of names.split(' ')) if (name in params) ids[name] = params[name] as string;
    return [api, resource, ids, list];
  });
  if (entity) targets.push([api, undefined, { [entity]: params[entity] }]);
  return {
    queryKey: [api],
    predicate: ({ queryKey }) => targets.some((target) => partialMatchKey(queryKey, target.map((part, i) => (part === undefined ? queryKey[i] : part)))),
  };
}

function factories(api: Api, client: object, version: string | null, overrides: Record<string, InvalidateOverride | undefined> = {}) {
  const table: Table = api === 'payroll' ? payrollOperations : journalOperations;
  const calls = client as Record<string, Call>;
  const named = (kind: (entry: Entry) => boolean, make: (activity: string) => unknown): Record<string, unknown> =>
    new Proxy({} as Record<string, unknown>, {
      get: (cache, activity: string) => (cache[activity] ??= table[activity] && kind(table[activity]) ? make(activity) : undefined),
    });
  const queries: Record<string, unknown> = named(
    (e) => e[2] !== WRITE,
    (activity) => (params?: QueryParams) => ({
      queryKey: keyOf(api, table, activity, params, version),
      queryFn: async ({ signal }: { signal: AbortSignal }) => unwrap(await calls[activity]!(params, { signal })),
    }),
  );
  const infinite = named(
    (e) => e[2] === LIST,
    (activity) => (params: QueryParams = {}) => {
      const first = (params.pageNumber as number | undefined) ?? 1;
      return {
        queryKey: [...keyOf(api, table, activity, params, version), 'pages'],
        // The first page is asked for as given (journal lists describe no paging parameters).
        queryFn: async ({ signal, pageParam }: { signal: AbortSignal; pageParam: number }) =>
          unwrap(await calls[activity]!(pageParam === first ? params : { ...params, pageNumber: pageParam }, { signal })),
        initialPageParam: first,
        getNextPageParam: (last: { _embedded?: unknown[]; totalPages?: number }, _all: unknown, page: number) =>
          last._embedded?.length && typeof last.totalPages === 'number' && page < last.totalPages ? page + 1 : undefined,
      };
    },
  );
  const mutations = named(
    (e) => e[2] === WRITE,
    (activity) => (options: { invalidate?: InvalidateOverride } = {}) => ({
      mutationKey: [api, table[activity]![0], activity],
      mutationFn: async (variables: { params?: QueryParams; body?: unknown }) =>
        unwrap(await ('body' in variables ? calls[activity]!(variables.params, variables.body as object) : calls[activity]!(variables.params))),
      // Returning the invalidation keeps the mutation pending until the affected queries refetched.
      onSuccess: (data: unknown, variables: { params?: QueryParams; body?: unknown }, _result: unknown, { client: queryClient }: MutationFunctionContext) => {
        const derived = invalidationOf(api, activity, variables.params);
        const override = options.invalidate ?? overrides[activity];
        const filters = override ? override({ derived, variables, data }) : [derived];
        return Promise.all(filters.map((filter) => queryClient.invalidateQueries(filter)));
      },
    }),
  );
  // One object: the queries by activity name, with the infinite queries and mutations beside them.
  return new Proxy(queries, { get: (target, name: string) => (name === 'infinite' ? infinite : name === 'mutation' ? mutations : target[name]) });
}

/**
 * Query, infinite query and mutation options for every activity of a payroll client. The
 * client's resourceVersionDate is part of every key.
 */
export function payrollQueries<C extends object>(client: C, options: { invalidate?: Record<string, InvalidateOverride> } = {}): PayrollFactories<C> {
  return factories('payroll', client, (client as { resourceVersionDate?: string }).resourceVersionDate ?? null, options.invalidate) as unknown as PayrollFactories<C>;
}

/** Query, infinite query and mutation options for every activity of a journal client. */
export function journalQueries<C extends object>(client: C, options: { invalidate?: Record<string, InvalidateOverride> } = {}): JournalFactories<C> {
  return factories('journal', client, null, options.invalidate) as unknown as JournalFactories<C>;
}
