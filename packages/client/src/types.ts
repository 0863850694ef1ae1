// Type-level view of the generated paths as this client calls them: each operation keeps
// only the media type keys of the resource version it sends, the Accept header (which the
// client sets) is no longer the caller's to give, and request bodies have their body shape
// (BodyShape). Also the calls by activity name, typed from the same operations.
import type { FetchOptions, FetchResponse } from 'openapi-fetch';
import type { $Read, $Write, paths as GeneratedPayrollPaths } from '@payroll-api/types/payroll';
import type { paths as GeneratedJournalPaths } from '@payroll-api/types/journal';
import type { journalOperations, payrollOperations } from './generated/operations.js';

type PayrollTable = typeof payrollOperations;
type JournalTable = typeof journalOperations;
type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type Below = { '0': never; '1': '0'; '2': '0' | '1'; '3': '0' | '1' | '2'; '4': Below['3'] | '3'; '5': Below['4'] | '4'; '6': Below['5'] | '5'; '7': Below['6'] | '6'; '8': Below['7'] | '7'; '9': Below['8'] | '8' };
/** Whether `yyyy-MM-dd` A is on or before B, compared character by character. */
export type OnOrBefore<A extends string, B extends string> = A extends `${infer a}${infer restA}`
  ? B extends `${infer b}${infer restB}`
    ? a extends b
      ? OnOrBefore<restA, restB>
      : a extends Below[b & Digit]
        ? true
        : false
    : false
  : true;

/** The newest of `Versions` (newest first) dated on or before `Date`, as the client sends it at run time. */
export type PickVersion<Versions extends readonly string[], VersionDate extends string> = Versions extends readonly [infer V extends string, ...infer Older extends string[]]
  ? OnOrBefore<V, VersionDate> extends true
    ? V
    : PickVersion<Older, VersionDate>
  : never;

/**
 * Which version(s) an operation's types follow: `false`, the newest (the package's own);
 * `true` or a date only known at run time (`string`), every served one; a literal date, the
 * version the client picks for it.
 */
export type VersionAt = boolean | string;
type VersionsOf<Key extends string, Table> = Key extends keyof Table ? (Table[Key] extends readonly [unknown, unknown, unknown, infer Vs extends readonly string[]] ? Vs : readonly string[]) : readonly string[];
type VersionOf<Key extends string, At extends VersionAt, Table> = At extends true
  ? VersionsOf<Key, Table>[number]
  : At extends false
    ? VersionsOf<Key, Table>[0]
    : string extends At
      ? VersionsOf<Key, Table>[number]
      : PickVersion<VersionsOf<Key, Table>, At & string>;

type KeepVersion<C, V extends string> = {
  [K in keyof C as K extends `${string};version=${infer X}` ? (X extends V ? K : never) : K]: C[K];
};

type AdaptContent<R, V extends string> = R extends { content: infer C }
  ? C extends Record<string, unknown>
    ? Omit<R, 'content'> & { content: KeepVersion<C, V> }
    : R
  : R;

type DropAccept<P> = P extends { header?: infer H }
  ? [NonNullable<H>] extends [never]
    ? P
    : Omit<P, 'header'> & { header?: Omit<NonNullable<H>, 'Accept'> }
  : P;

/**
 * What a read-only field of a body accepts: nothing but this message, so that TypeScript's
 * error names the problem (`… is not assignable to type '"id is read-only: …"'`).
 */
export type ReadOnlyField<Name extends string> = `${Name} is read-only: leave it out of the body (toBody() does)`;

/**
 * The shape a request body is sent in: readOnly fields at every depth only accept their
 * ReadOnlyField message, writeOnly markers are unwrapped, and objects are closed: the fields
 * the description shows are checked, so a misspelt one is an error even where the schema
 * allows further fields (send undocumented fields by spreading an object of them).
 */
export type BodyShape<T> = T extends $Read<unknown>
  ? never
  : T extends $Write<infer U>
    ? BodyShape<U>
    : T extends readonly (infer E)[]
      ? BodyShape<E>[]
      : T extends object
        ? {
            [K in keyof T as string extends K ? never : NonNullable<T[K]> extends $Read<unknown> ? never : K]: BodyShape<T[K]>;
          } & {
            [K in keyof T as string extends K ? never : NonNullable<T[K]> extends $Read<unknown> ? K : never]?: ReadOnlyField<K & string>;
          }
        : T;

/**
 * The conditional requirements the contract states for a body ("mandatory when", "no
 * fields"), which the generated types cannot carry; the client README's table lists each, and
 * the type tests check each. Keyed by activity, given the body's generated shape.
 */
export interface BodyRules<Body> {
  /** endOfEmploymentDueToIllness is mandatory when endDate is filled (and a call without endDate is refused). */
  PatchTerminateByEmploymentId: Body extends object ? Omit<Body, 'endDate' | 'endOfEmploymentDueToIllness'> & { endDate: string; endOfEmploymentDueToIllness: boolean } : Body;
  /** The operation takes no fields: an empty object. */
  PatchReinstateByEmploymentId: Record<string, never>;
}

/** A body with its activity's conditional requirements, if the contract states any. */
// A route the operation tables do not know (no activity) keeps its body as it is.
export type RuledBody<Id, Body> = [Id] extends [never] ? Body : Id extends keyof BodyRules<unknown> ? BodyRules<Body>[Id] : Body;

/** The activity (operationId) of a `"METHOD /path"` key of either operation table. */
type ActivityOfRoute<Key> = Key extends keyof PayrollTable ? PayrollTable[Key][0] : Key extends keyof JournalTable ? JournalTable[Key][0] : never;

type ShapeContent<R, Id> = R extends { content: infer C } ? Omit<R, 'content'> & { content: { [M in keyof C]: RuledBody<Id, BodyShape<C[M]>> } } : R;

type AdaptOperation<Op, V extends string, Id> = {
  [K in keyof Op]: K extends 'parameters'
    ? DropAccept<Op[K]>
    : K extends 'requestBody'
      ? ShapeContent<AdaptContent<Op[K], V>, Id>
      : K extends 'responses'
        ? { [S in keyof Op[K]]: AdaptContent<Op[K][S], V> }
        : Op[K];
};

/** Paths with each operation narrowed to the version(s) it is sent at (see VersionAt). */
export type VersionedPaths<P, At extends VersionAt = false, Table = PayrollTable> = {
  [Path in keyof P]: {
    [M in keyof P[Path]]: M extends HttpMethod
      ? P[Path][M] extends object
        ? AdaptOperation<P[Path][M], VersionOf<`${Uppercase<M>} ${Path & string}`, At, Table>, ActivityOfRoute<`${Uppercase<M>} ${Path & string}`>>
        : P[Path][M]
      : P[Path][M];
  };
};

/** Payroll paths typed at the versions this package was generated for. */
export type PayrollPaths = VersionedPaths<GeneratedPayrollPaths>;
/** Payroll paths typed at every served version (a resourceVersionDate known only at run time). */
export type PayrollPathsAnyVersion = VersionedPaths<GeneratedPayrollPaths, true>;
/** Payroll paths typed at the versions a literal resourceVersionDate picks, operation by operation. */
export type PayrollPathsAt<VersionDate extends string> = VersionedPaths<GeneratedPayrollPaths, VersionDate>;
/** Journal paths (not versioned; Accept is set by the client). */
export type JournalPaths = VersionedPaths<GeneratedJournalPaths, true>;

/** The JSON media types of responses the clients parse. */
export type PayrollMedia = `application/json${string}`;
export type JournalMedia = 'application/json';

/** Activity name (operationId) -> `"METHOD /path"`, from an operation table. */
export type RoutesOf<Table> = {
  [K in keyof Table as Table[K] extends readonly [infer Id extends string, ...unknown[]] ? Id : never]: K;
};
/** Every activity of both APIs -> `"METHOD /path"` (the names are unique across them). */
export type ActivityRoutes = RoutesOf<typeof payrollOperations> & RoutesOf<typeof journalOperations>;

type RouteMethod<Route> = Route extends `${infer M} ${string}` ? Lowercase<M> : never;
type RoutePath<Route> = Route extends `${string} ${infer P}` ? P : never;

/** The path of an activity. */
export type ActivityPath<Id> = Id extends keyof ActivityRoutes ? RoutePath<ActivityRoutes[Id]> : never;

/** The operation of an activity in the client's paths. */
export type ActivityOperation<Paths, Id> = Id extends keyof ActivityRoutes
  ? RoutePath<ActivityRoutes[Id]> extends infer P extends keyof Paths
    ? RouteMethod<ActivityRoutes[Id]> extends infer M extends keyof Paths[P]
      ? Paths[P][M]
      : never
    : never
  : never;

/** The activities the paths of a client offer (payroll or journal). */
export type ActivitiesOf<Paths> = {
  [Id in keyof ActivityRoutes]: RoutePath<ActivityRoutes[Id]> extends keyof Paths ? Id : never;
}[keyof ActivityRoutes];

type Location<Op, Where extends string> = Op extends { parameters: infer P }
  ? Where extends keyof P
    ? [NonNullable<P[Where]>] extends [never]
      ? {}
      : NonNullable<P[Where]>
    : {}
  : {};
type Flatten<T> = { [K in keyof T]: T[K] };

/** The parameters of a call by activity name: path and query parameters in one object. */
export type ActivityParams<Op> = Flatten<Location<Op, 'path'> & Location<Op, 'query'>>;

/** The JSON body an operation takes (never when it takes none). */
export type ActivityBody<Op> = Op extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer C }
    ? C[keyof C]
    : never
  : never;

/** Everything else a call passes to fetch: headers, signal, parseAs, credentials, … */
export type ActivityInit<Op> = Omit<FetchOptions<Op>, 'params' | 'body'>;

/** The params argument of a call by activity name: optional when no parameter is required. */
export type ParamsArg<Op> = {} extends ActivityParams<Op> ? [params?: ActivityParams<Op>] : [params: ActivityParams<Op>];

/** The arguments of a call by activity name: `(params, body, init?)` with a body, else `(params?, init?)`. */
export type ActivityArgs<Op> = [ActivityBody<Op>] extends [never]
  ? [...params: ParamsArg<Op>, init?: ActivityInit<Op>]
  : [params: ActivityParams<Op>, body: ActivityBody<Op>, init?: ActivityInit<Op>];

/** A call by activity name; it answers like the path-based calls: `{ data, error, response }`. */
export type ActivityCall<Op, Media extends `${string}/${string}`> = Op extends Record<string | number, any>
  ? (...args: ActivityArgs<Op>) => Promise<FetchResponse<Op, {}, Media>>
  : never;

/** One method per activity of the paths: `payroll.GetEmployeesByEmployerId({ employerId })`. */
export type ActivityCalls<Paths, Media extends `${string}/${string}`> = {
  [Id in ActivitiesOf<Paths>]: ActivityCall<ActivityOperation<Paths, Id>, Media>;
};

/** The activities of the paths whose GET is at one of the paths `Among`. */
export type GetActivitiesAt<Paths, Among> = {
  [Id in ActivitiesOf<Paths>]: ActivityRoutes[Id] extends `GET ${infer P}` ? (P extends Among ? Id : never) : never;
}[ActivitiesOf<Paths>];
