// Read, edit, write back: toBody() turns what a GET answered into the body an operation takes,
// keeping exactly the writable fields of the operation's body schema at every depth. Read-only
// fields are left out, so a metadata object {key, value, …} is sent as {key} (on input only
// the key is sent), and fields the body does not have are not sent. The shapes come from the
// description at build time (scripts/generate.mjs); this entry is separate so that apps that
// do not use it do not carry them.
import type { Readable, operations as PayrollOperations } from '@payroll-api/types/payroll';
import type { operations as JournalOperations } from '@payroll-api/types/journal';
import { bodyOf, bodyOfVersion, bodyShapes } from './generated/bodies.js';
import type { ActivityBody, ActivityOperation, ActivityRoutes, JournalPaths, PayrollPaths, PayrollPathsAt } from './types.js';

type RawOperation<Id> = Id extends keyof PayrollOperations
  ? PayrollOperations[Id]
  : Id extends keyof JournalOperations
    ? JournalOperations[Id]
    : never;

/**
 * The body an activity takes, as the client sends it (readOnly fields absent): at the newest
 * resource version, or at `Version` (a version the activity serves, or a date: the newest
 * version on or before it).
 */
export type BodyOf<Id, Version extends string = never> =
  | ActivityBody<ActivityOperation<[Version] extends [never] ? PayrollPaths : PayrollPathsAt<Version>, Id>>
  | ActivityBody<ActivityOperation<JournalPaths, Id>>;

type VersionedBody<Op, Version extends string> = Op extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer C }
    ? `application/json;version=${Version}` extends keyof C
      ? C[`application/json;version=${Version}`]
      : C[keyof C]
    : never
  : never;

/** The read shape of an activity's body schema (what a GET answers, read-only fields included), at `Version` when given. */
export type ReadShapeOf<Id, Version extends string = never> = Readable<[Version] extends [never] ? ActivityBody<RawOperation<Id>> : VersionedBody<RawOperation<Id>, Version>>;

/** The activities (of both APIs) that take a JSON body. */
export type BodyActivities = {
  [Id in keyof ActivityRoutes]: [BodyOf<Id>] extends [never] ? never : Id;
}[keyof ActivityRoutes];

function project(value: unknown, shape: number): unknown {
  if (!shape || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => project(item, shape));
  const fields = bodyShapes[shape]!;
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) out[key] = project(field, fields[key]!);
  }
  return out;
}

/**
 * The body of `activity` made from a read shape (a GET's content, edited or not):
 * `payroll.PutEmployerByEmployerId({ employerId }, toBody('PutEmployerByEmployerId', employer))`.
 * A client pinned to an older resource version passes it:
 * `toBody('PutEmployeeByEmployeeId', employee, '2021-03-29')`.
 */
export function toBody<Id extends BodyActivities, const Version extends string = never>(activity: Id, read: ReadShapeOf<Id, Version>, version?: Version): BodyOf<Id, Version> {
  const newest = bodyOf[activity];
  if (newest === undefined) throw new TypeError(`toBody: ${String(activity)} takes no JSON body`);
  const byVersion = bodyOfVersion[activity];
  let shape = newest;
  if (version !== undefined && byVersion) {
    const served = Object.keys(byVersion).sort().reverse();
    const picked = served.find((v) => v <= version);
    if (picked === undefined) throw new RangeError(`toBody: ${String(activity)} serves no version on or before ${version} (${served.join(', ')})`);
    shape = byVersion[picked]!;
  }
  return project(read, shape) as BodyOf<Id, Version>;
}
