// Type-level view of the generated paths as this client calls them: each operation keeps
// only the media type keys of the resource version it sends, and the Accept header (which
// the client sets) is no longer the caller's to give.
import type { paths as GeneratedPayrollPaths } from '@payroll-api/types/payroll';
import type { paths as GeneratedJournalPaths } from '@payroll-api/types/journal';
import type { payrollOperations } from './generated/operations.js';

type Table = typeof payrollOperations;
type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The version(s) an operation's types follow: the newest, or every served one. */
type VersionsOf<Key extends string> = Key extends keyof Table ? Table[Key][3] : readonly string[];
type VersionOf<Key extends string, All extends boolean> = All extends true ? VersionsOf<Key>[number] : VersionsOf<Key>[0];

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

type AdaptOperation<Op, V extends string> = {
  [K in keyof Op]: K extends 'parameters'
    ? DropAccept<Op[K]>
    : K extends 'requestBody'
      ? AdaptContent<Op[K], V>
      : K extends 'responses'
        ? { [S in keyof Op[K]]: AdaptContent<Op[K][S], V> }
        : Op[K];
};

/** Paths with each operation narrowed to the version(s) it is sent at. */
export type VersionedPaths<P, All extends boolean = false> = {
  [Path in keyof P]: {
    [M in keyof P[Path]]: M extends HttpMethod
      ? P[Path][M] extends object
        ? AdaptOperation<P[Path][M], VersionOf<`${Uppercase<M>} ${Path & string}`, All>>
        : P[Path][M]
      : P[Path][M];
  };
};

/** Payroll paths typed at the versions this package was generated for. */
export type PayrollPaths = VersionedPaths<GeneratedPayrollPaths>;
/** Payroll paths typed at every served version (the client was given a resourceVersionDate). */
export type PayrollPathsAnyVersion = VersionedPaths<GeneratedPayrollPaths, true>;
/** Journal paths (not versioned; Accept is set by the client). */
export type JournalPaths = VersionedPaths<GeneratedJournalPaths, true>;

/** The JSON media types of responses the clients parse. */
export type PayrollMedia = `application/json${string}`;
export type JournalMedia = 'application/json';
