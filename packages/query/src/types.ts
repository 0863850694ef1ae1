// The types of the options, from the client's calls by activity name: params, body, data and
// the ApiError of each API (the journal's with its string codes).
import type { ActivitiesOf, ActivityRoutes, ApiError, JournalMessage, JournalPaths, ListActivities, Message, PayrollPaths } from '@payroll-api/client';
import type {
  DataTag,
  InfiniteData,
  InfiniteQueryObserverOptions,
  MutationOptions,
  QueryFilters,
  QueryFunction,
  QueryObserverOptions,
  WithRequired,
} from '@tanstack/query-core';

export type Api = 'payroll' | 'journal';
/** Path parameters, the ids of a key. */
export type Ids = Record<string, string>;
export type QueryParams = Record<string, unknown>;

/** A key: api → resource → ids → activity → query parameters → resourceVersionDate (null: the client's own versions). */
export type ActivityKey<Id extends string = string> = readonly [api: Api, resource: string, ids: Ids, activity: Id, query: QueryParams, resourceVersionDate: string | null];
export type InfiniteActivityKey<Id extends string = string> = readonly [...ActivityKey<Id>, 'pages'];

type CallOf<C, Id> = Id extends keyof C ? C[Id] : never;
/** What an activity answers: the envelope of its 2xx response. */
export type DataOf<C, Id> = CallOf<C, Id> extends (...args: never[]) => Promise<infer R> ? (R extends { data?: infer D } ? Exclude<D, undefined> : never) : never;
/** Its parameters: path and query parameters in one object, as the client takes them. */
export type ParamsOf<C, Id> = CallOf<C, Id> extends (...args: infer A) => unknown ? A[0] : never;
type BodyArg<C, Id> = CallOf<C, Id> extends (params: never, body: infer B, init?: infer I) => unknown
  ? [I] extends [undefined] ? never : unknown extends I ? never : B
  : never;
/** What a mutation takes: `{ params, body }` (`{ params }` for a write without a body). */
export type VariablesOf<C, Id> = [BodyArg<C, Id>] extends [never] ? { params: ParamsOf<C, Id> } : { params: ParamsOf<C, Id>; body: BodyArg<C, Id> };

type ParamsArgs<C, Id> = undefined extends ParamsOf<C, Id> ? [params?: ParamsOf<C, Id>] : [params: ParamsOf<C, Id>];

export type ActivityQueryOptions<Data, Err, Id extends string> = WithRequired<QueryObserverOptions<Data, Err, Data, Data, ActivityKey<Id>>, 'queryFn'> & {
  queryKey: DataTag<ActivityKey<Id>, Data, Err>;
};
export type ActivityInfiniteQueryOptions<Data, Err, Id extends string> = WithRequired<
  InfiniteQueryObserverOptions<Data, Err, InfiniteData<Data, number>, InfiniteActivityKey<Id>, number>,
  'queryFn'
> & {
  queryKey: DataTag<InfiniteActivityKey<Id>, InfiniteData<Data, number>, Err>;
  queryFn: QueryFunction<Data, InfiniteActivityKey<Id>, number>;
};
export type ActivityMutationOptions<Data, Err, Variables> = WithRequired<MutationOptions<Data, Err, Variables>, 'mutationFn' | 'mutationKey'>;

/**
 * Replaces what a write invalidates: given the derived filters, the variables and the data,
 * the filters to invalidate (return `[derived, …more]` to add to them).
 */
export type InvalidateOverride = (context: { derived: QueryFilters; variables: { params?: QueryParams; body?: unknown }; data: unknown }) => QueryFilters[];

type Gets<Paths> = { [Id in ActivitiesOf<Paths>]: ActivityRoutes[Id] extends `GET ${string}` ? Id : never }[ActivitiesOf<Paths>];
type Writes<Paths> = Exclude<ActivitiesOf<Paths>, Gets<Paths>>;

type Factories<C, Paths, Err> = {
  [Id in Gets<Paths>]: (...params: ParamsArgs<C, Id>) => ActivityQueryOptions<DataOf<C, Id>, Err, Id>;
} & {
  infinite: { [Id in ListActivities<Paths> & Gets<Paths>]: (...params: ParamsArgs<C, Id>) => ActivityInfiniteQueryOptions<DataOf<C, Id>, Err, Id> };
  mutation: { [Id in Writes<Paths>]: (options?: { invalidate?: InvalidateOverride }) => ActivityMutationOptions<DataOf<C, Id>, Err, VariablesOf<C, Id>> };
};

export type PayrollFactories<C> = Factories<C, PayrollPaths, ApiError<Message>>;
export type JournalFactories<C> = Factories<C, JournalPaths, ApiError<JournalMessage>>;
