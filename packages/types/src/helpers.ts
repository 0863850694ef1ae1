// Generic helpers over an openapi-typescript `operations` interface. Each API entry point
// (payroll, journal) binds them to its own operations.
import type { Readable, Writable } from './generated/payroll.js';

/** The JSON media type keys of a content map: `application/json` with or without `;version=…`. */
export type JsonMediaKey<C> = Extract<keyof C, `application/json${string}`>;

/** The schema under the JSON media type(s) of a content map. */
export type JsonContent<C> = C extends Record<string, unknown> ? C[JsonMediaKey<C>] : never;

/**
 * The schema of a content map at one resource version (`application/json;version=<Version>`);
 * without a version (`never`), or where the content is not versioned, every JSON media type's.
 */
export type JsonContentAt<C, Version extends string = never> = [Version] extends [never]
  ? JsonContent<C>
  : C extends Record<string, unknown>
    ? `application/json;version=${Version}` extends keyof C
      ? C[`application/json;version=${Version}`]
      : JsonContent<C>
    : never;

/** The request body of an operation as it is sent (readOnly fields absent), at `Version` when given. */
export type RequestBodyOf<Op, Version extends string = never> = Op extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer C }
    ? Writable<JsonContentAt<C, Version>>
    : never
  : never;

/** The success (200 or 201) JSON body of an operation as it is received, at `Version` when given. */
export type ResponseBodyOf<Op, Status extends number = 200 | 201, Version extends string = never> = Op extends { responses: infer R }
  ? {
      [S in Extract<keyof R, Status>]: R[S] extends { content: infer C } ? Readable<JsonContentAt<C, Version>> : never;
    }[Extract<keyof R, Status>]
  : never;

/** The item type of a list envelope's `_embedded`. */
export type ListItemOf<Body> = Body extends { _embedded?: infer E } ? NonNullable<E> extends readonly (infer I)[] ? ItemOf<NonNullable<E>, I> : never : never;

// `_embedded` is `unknown[] & Item[]` (the envelope's open array narrowed by allOf); indexing
// the intersection yields the narrowed item, where `infer` would yield `unknown`.
type ItemOf<E, I> = E extends readonly unknown[] ? (unknown extends E[number] ? I : E[number]) : I;

/** The query parameters an operation accepts. */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The path parameters an operation needs. */
export type PathParamsOf<Op> = Op extends { parameters: { path?: infer P } } ? NonNullable<P> : never;
