// What a UI needs of an answer's messages: narrowing an error by status and a message by type,
// the messages of a form's fields (the messages' `properties`, typed by the activity's body),
// and the warnings a 200/201 may carry. A separate entry, so that apps without forms do not
// carry it.
import { ApiError, messagesOf, type AnyMessage, type MessageType } from './errors.js';
import type { ActivityBody, ActivityOperation, ActivityRoutes, JournalPaths, PayrollPaths } from './types.js';

/**
 * An ApiError, optionally with one of the given statuses: `if (isApiError(e, 404)) …`.
 * Recognised by its name and fields, so that an ApiError of any copy of this package (the
 * main entry, this one, the sandbox control entry) is one.
 */
export function isApiError(error: unknown, status?: number | readonly number[]): error is ApiError {
  const candidate = error as ApiError | undefined;
  const isOne = error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && typeof candidate?.status === 'number' && Array.isArray(candidate.messages));
  if (!isOne) return false;
  if (status === undefined) return true;
  return typeof status === 'number' ? candidate!.status === status : status.includes(candidate!.status);
}

/** A message of one type. */
export type MessageOfType<M extends AnyMessage, T extends MessageType> = M & { type: T };

const isType =
  <T extends MessageType>(type: T) =>
  <M extends AnyMessage>(message: M): message is MessageOfType<M, T> =>
    message?.type === type;

/** A rule of the API refused the request. */
export const isBrokenBusinessRule = isType('BrokenBusinessRule');
/** A warning: on a 200/201 the request succeeded all the same. */
export const isWarning = isType('Warning');
/** The server failed. */
export const isException = isType('Exception');
/** Something the request refers to does not exist. */
export const isNotFound = isType('NotFound');

/**
 * The `Warning` messages of an answer: a 200/201 may carry them (the contract allows
 * warnings on success). Takes an openapi-fetch result, its `data`, an ApiError or a body.
 */
export function warningsOf<M extends AnyMessage = AnyMessage>(answer: unknown): MessageOfType<M, 'Warning'>[] {
  const body = answer instanceof ApiError ? answer.body : answer && typeof answer === 'object' && 'response' in answer ? ((answer as { data?: unknown; error?: unknown }).data ?? (answer as { error?: unknown }).error) : answer;
  return messagesOf<M>(body).filter(isWarning);
}

type Depth = [never, 0, 1, 2, 3, 4];
type Plain<T> = NonNullable<T>;

/**
 * The paths of a body's fields as the messages' `properties` name them: dotted, with `[n]`
 * for an array item (`address.postalCode`, `items[0].key`).
 */
export type BodyFieldPath<T, D extends number = 5> = [D] extends [never]
  ? never
  : Plain<T> extends readonly (infer Item)[]
    ? `[${number}]` | `[${number}]${Plain<Item> extends object ? `.${BodyFieldPath<Item, Depth[D]>}` | '' : ''}`
    : Plain<T> extends object
      ? {
          [K in keyof Plain<T> & string]: Plain<Plain<T>[K]> extends readonly unknown[]
            ? K | `${K}${BodyFieldPath<Plain<T>[K], Depth[D]>}`
            : Plain<Plain<T>[K]> extends object
              ? K | `${K}.${BodyFieldPath<Plain<T>[K], Depth[D]>}`
              : K;
        }[keyof Plain<T> & string]
      : never;

/** The body of an activity of either API. */
type BodyOfActivity<Id> = ActivityBody<ActivityOperation<PayrollPaths, Id>> | ActivityBody<ActivityOperation<JournalPaths, Id>>;

/** The activities of either API that take a JSON body. */
export type FormActivity = { [Id in keyof ActivityRoutes]: [BodyOfActivity<Id>] extends [never] ? never : Id }[keyof ActivityRoutes];

export interface FieldErrors<Path extends string> {
  /** The descriptions of the messages about each field, by the field's path. */
  fields: Partial<Record<Path, string[]>>;
  /** Messages about no field: without `properties`, or about the body as a whole (`body`). */
  form: string[];
}

/**
 * The messages of a refused request, ready to show under a form's fields: each message under
 * every field its `properties` names, typed by the activity's body
 * (`fieldErrors('PutEmployerByEmployerId', error).fields['address.postalCode']`). Warnings are
 * left out unless `includeWarnings`; a message naming no field, or the body as a whole, goes
 * to `form`. (A message about a parameter or header, e.g. `Accept`, is keyed by its name.)
 */
export function fieldErrors<Id extends FormActivity>(
  _activity: Id,
  answer: unknown,
  options: { includeWarnings?: boolean } = {},
): FieldErrors<BodyFieldPath<BodyOfActivity<Id>>> {
  const body = answer instanceof ApiError ? answer.body : answer;
  const fields: Record<string, string[]> = {};
  const form: string[] = [];
  for (const message of messagesOf(body)) {
    if (isWarning(message) && !options.includeWarnings) continue;
    const named = (message.properties ?? []).filter((path) => path !== 'body');
    if (named.length === 0) form.push(message.description);
    for (const path of named) (fields[path] ??= []).push(message.description);
  }
  return { fields: fields as FieldErrors<BodyFieldPath<BodyOfActivity<Id>>>['fields'], form };
}
