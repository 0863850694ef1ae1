// Errors and messages: the contract's envelope messages, typed by their message type.
import type { Message } from '@payroll-api/types/payroll';
import type { JournalMessageCode, KnownJournalCode } from './generated/journal-codes.js';
import { redact } from './redact.js';

export type { JournalMessageCode, KnownJournalCode, Message };
export type MessageType = 'BrokenBusinessRule' | 'Warning' | 'Exception' | 'NotFound';

/**
 * A message of the journal API: its `code` is one of the validation codes the journal's 400
 * responses name (`KnownJournalCode`, offered by completion) or any other code.
 */
export type JournalMessage = Omit<Message, 'code'> & { code?: JournalMessageCode };

/** A message of either API. */
export type AnyMessage = Message | JournalMessage;

/**
 * The message type of an openapi-fetch result's error body: the journal's when its codes are
 * strings, else the payroll's.
 */
export type MessageOf<Error> = Error extends { messages?: readonly (infer M)[] }
  ? [Extract<M extends { code?: infer C } ? C : never, string>] extends [never]
    ? Message
    : JournalMessage
  : never;

type ResultMessage<R> = [MessageOf<R extends { error?: infer E } ? NonNullable<E> : never>] extends [never]
  ? AnyMessage
  : MessageOf<R extends { error?: infer E } ? NonNullable<E> : never>;
export const MESSAGE_TYPES: readonly MessageType[] = ['BrokenBusinessRule', 'Warning', 'Exception', 'NotFound'];

/** What the client knows about the operation a response belongs to. */
export interface OperationInfo {
  operation: string;
  method: string;
  path: string;
  /** Payroll only: the registry resource and the version sent. */
  resource?: string;
  version?: string;
}

// What the client knows about a response travels on the response itself, under a private
// symbol (WeakMaps per request cost garbage-collection time). The token it was answered to is
// kept only inside a scrubbing function, so that inspecting a response never shows it.
const TAG = Symbol('payroll-api');
interface Tag {
  info?: OperationInfo;
  scrub?: (text: string) => string;
}
type Tagged = Response & { [TAG]?: Tag };
export const tagResponse = (response: Response, info: OperationInfo | undefined, token?: string): Response => {
  (response as Tagged)[TAG] = { info, scrub: token ? (text) => redact(text, [token]) : undefined };
  return response;
};

/** A copy of a parsed body with every string scrubbed of the token (tokens need no JSON escaping). */
const scrub = (body: unknown, tag: Tag | undefined): unknown =>
  tag?.scrub && body !== undefined ? JSON.parse(tag.scrub(JSON.stringify(body))) : body;

/** The messages of an envelope-shaped body (empty for anything else). */
export function messagesOf<M extends AnyMessage = AnyMessage>(body: unknown): M[] {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? (messages.filter((m) => m && typeof m === 'object') as M[]) : [];
}

/**
 * Multi-patch results: the messages that carry the id of an entity, grouped by that id
 * (the contract ties a failing action's message to its entity through `id`).
 */
export function messagesByEntity<M extends AnyMessage = AnyMessage>(body: unknown, types: readonly MessageType[] = MESSAGE_TYPES): Map<string, M[]> {
  const byId = new Map<string, M[]>();
  for (const m of messagesOf<M>(body)) {
    if (typeof m.id !== 'string' || !types.includes(m.type as MessageType)) continue;
    const list = byId.get(m.id);
    if (list) list.push(m);
    else byId.set(m.id, [m]);
  }
  return byId;
}

/**
 * A non-2xx answer of the API. Carries no request headers, so never a token. `M` is the
 * message type: the journal's (string codes) for a journal operation, the payroll's otherwise;
 * an ApiError caught without knowing its API carries either.
 */
export class ApiError<M extends AnyMessage = AnyMessage> extends Error {
  override readonly name = 'ApiError';
  // `declare`: assigned in the constructor, no separate field definitions in the output.
  /** Messages of the envelope by type. */
  declare readonly byType: Readonly<Record<MessageType, M[]>>;
  /** The envelope's messages (empty when the body is not an envelope). */
  declare readonly messages: M[];
  /** The plain `{message}` a 401/403 may return instead of the envelope. */
  declare readonly plainMessage: string | undefined;
  /** Messages tied to an entity id (multi-patch), by id. */
  declare readonly byEntity: Map<string, M[]>;

  constructor(
    readonly status: number,
    /** The operationId (the response's URL for a response this client did not send). */
    readonly operation: string,
    /** The parsed body (JSON) or its text. */
    readonly body: unknown,
    readonly info?: OperationInfo,
  ) {
    const messages = messagesOf<M>(body);
    const plain = (body as { message?: unknown } | null)?.message;
    const plainMessage = typeof plain === 'string' ? plain : undefined;
    const first = messages.find((m) => m.type !== 'Warning') ?? messages[0];
    const detail = first ? `${first.type}: ${first.description}` : plainMessage ?? (typeof body === 'string' ? body.slice(0, 200) : '');
    super(`${operation} failed with status ${status}${detail ? ` (${detail})` : ''}`);
    this.messages = messages;
    this.plainMessage = plainMessage;
    const byType = { BrokenBusinessRule: [], Warning: [], Exception: [], NotFound: [] } as Record<MessageType, M[]>;
    for (const m of messages) byType[m.type as MessageType]?.push(m);
    this.byType = byType;
    this.byEntity = messagesByEntity<M>(body);
  }

  /** The ApiError of an openapi-fetch result, or undefined when it succeeded. */
  static from<R extends { error?: unknown; response: Response }>(result: R): ApiError<ResultMessage<R>> | undefined {
    const { response } = result;
    if (response.ok) return undefined;
    const tag = (response as Tagged)[TAG];
    const info = tag?.info;
    const body = scrub(result.error, tag);
    return new ApiError(response.status, info?.operation ?? response.url, body, info);
  }
}

/** The data of an openapi-fetch result; throws its ApiError when the answer is not 2xx. */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): Exclude<R['data'], undefined> {
  const error = ApiError.from(result);
  if (error) throw error;
  return result.data as Exclude<R['data'], undefined>;
}
