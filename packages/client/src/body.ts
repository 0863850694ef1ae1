// Read, edit, write back: toBody() turns what a GET answered into the body an operation takes,
// keeping exactly the writable fields of the operation's body schema at every depth. Read-only
// fields are left out, so a metadata object {key, value, …} is sent as {key} (on input only
// the key is sent), and fields the body does not have are not sent. The shapes come from the
// description at build time (scripts/generate.mjs); this entry is separate so that apps that
// do not use it do not carry them.
import type { Readable, operations as PayrollOperations } from '@payroll-api/types/payroll';
import type { operations as JournalOperations } from '@payroll-api/types/journal';
import { bodyOf, bodyShapes } from './generated/bodies.js';
import type { ActivityBody, ActivityOperation, ActivityRoutes, JournalPaths, PayrollPaths } from './types.js';

type RawOperation<Id> = Id extends keyof PayrollOperations
  ? PayrollOperations[Id]
  : Id extends keyof JournalOperations
    ? JournalOperations[Id]
    : never;

/** The body an activity takes, as the client sends it (readOnly fields absent). */
export type BodyOf<Id> = ActivityBody<ActivityOperation<PayrollPaths, Id>> | ActivityBody<ActivityOperation<JournalPaths, Id>>;

/** The read shape of an activity's body schema: what a GET answers, read-only fields included. */
export type ReadShapeOf<Id> = Readable<ActivityBody<RawOperation<Id>>>;

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
 */
export function toBody<Id extends BodyActivities>(activity: Id, read: ReadShapeOf<Id>): BodyOf<Id> {
  const shape = bodyOf[activity];
  if (shape === undefined) throw new TypeError(`toBody: ${String(activity)} takes no JSON body`);
  return project(read, shape) as BodyOf<Id>;
}
