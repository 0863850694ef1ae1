// TanStack Query options for the calls by activity name of @payroll-api/client: one query
// per GET, one infinite query per list, one mutation per write, with keys and invalidation
// taken from the description (src/generated/operations.ts).
import type { MutationFunctionContext, QueryFilters, QueryKey } from '@tanstack/query-core';
import { partialMatchKey } from '@tanstack/query-core';
import { unwrap } from '@payroll-api/client';
import { journalOperations, payrollOperations } from './generated/operations.js';
import type { Api, Ids, InvalidateOverride, JournalFactories, PayrollFactories, QueryParams } from './types.js';

export type * from './types.js';

type Entry = readonly [
  resource: string,
  ids: string,
  kind: number,
  entities?: readonly string[],
  reads?: readonly string[],
  answerIds?: ReadonlyArray<readonly [param: string, field: string]>,
];
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

/**
 * What a successful write invalidates: every query naming an entity it changed (by the id the
 * write knows, else any id), and every GET that embeds what it changed, narrowed to the ids the
 * write knows: its path parameters and the ids its answer (`data`) carries.
 */
export function invalidationOf(api: Api, activity: string, params: QueryParams = {}, data?: unknown): QueryFilters {
  const table: Table = api === 'payroll' ? payrollOperations : journalOperations;
  const [, , , entities = [], reads = [], answerIds = []] = table[activity] ?? [];
  const known: Ids = {};
  for (const name in params) if (typeof params[name] === 'string') known[name] = params[name];
  const content = (data as { content?: Record<string, unknown> } | undefined)?.content;
  for (const [param, field] of answerIds) if (typeof content?.[field] === 'string') known[param] = content[field];
  const targets: QueryKey[] = reads.map((read) => {
    const [resource, names] = table[read]!;
    const ids: Ids = {};
    for (const name of names.split(' ')) if (name in known) ids[name] = known[name]!;
    return [api, resource, ids, read];
  });
  return {
    queryKey: [api],
    predicate: ({ queryKey }) => {
      const ids = queryKey[2] as Ids;
      return entities.some((entity) => entity in ids && (!(entity in known) || ids[entity] === known[entity])) || targets.some((target) => partialMatchKey(queryKey, target));
    },
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
      // The invalidation runs here, not in onSuccess, so that an app's own onSuccess (spread
      // over these options) cannot replace it; awaiting it keeps the mutation pending until the
      // affected queries have refetched.
      mutationFn: async (variables: { params?: QueryParams; body?: unknown }, { client: queryClient }: MutationFunctionContext) => {
        const data = unwrap(await ('body' in variables ? calls[activity]!(variables.params, variables.body as object) : calls[activity]!(variables.params)));
        const derived = invalidationOf(api, activity, variables.params, data);
        const override = options.invalidate ?? overrides[activity];
        const filters = override ? override({ derived, variables, data }) : [derived];
        await Promise.all(filters.map((filter) => queryClient.invalidateQueries(filter)));
        return data;
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
