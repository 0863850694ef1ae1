// What a resource module gives the sandbox engine, and what the engine gives a handler.
// A handler is the whole answer to one operation (by activity name, the operationId): it
// reads and writes through ctx.tx, which is one transaction; throwing a SandboxError (or
// anything) rolls every write of the request back.

import type { Message, VersionInfo } from '../http/errors.js';
import type { Outgoing } from '../http/outgoing.js';
import type { BoundFilter, FieldTable } from '../filter/tree.js';
import type { CollectionSpec, Doc, ForeseenRead, Tx } from '../store/types.js';
import type { CreateRule } from './create-rules.js';

export type ApiName = 'payroll' | 'journal';

/** Who calls. An arbitrary bearer token is a user with every right (quick starts stay one curl). */
export interface Principal {
  /** The sandbox this caller's data lives in. */
  sandbox: string;
  /** The bearer token as sent. */
  token: string;
  /** Set for tokens issued by the sandbox's token endpoint. */
  userId?: string;
  clientId?: string;
  /** Hosted: the OAuth client (created by the operator) whose sandboxes this caller reaches. */
  tenant?: string;
  /** The user was in the authorization model when the token was issued (fixed sandbox user
   * tokens too): its calls go through the five-step decision; other users have every right. */
  modelUser?: boolean;
  /** Set by the authorize stage: fixed constraints ANDed into every list of a collection
   * (a role's data scope, the employers a user may reach). */
  dataScope?: Record<string, BoundFilter>;
  /** Set with the clock: new employers no caller sees yet (authorization/teams.ts). */
  hiddenEmployers?: string[];
}

export interface ListQuery {
  /** Fixed constraints (e.g. employerId from the path, a data scope), ANDed with the client's filter. */
  where?: BoundFilter;
  /** The fields a client may filter and order on; default: derived from the operation's list item schema. */
  fields?: FieldTable;
  /** Turns a stored doc into the list item the operation answers (default: the doc as stored). */
  project?: (doc: Doc) => unknown;
}

export interface ListPage {
  items: unknown[];
  totalSize: number;
  pageNumber: number;
  pageSize: number;
}

export interface OperationContext {
  api: ApiName;
  operationId: string;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Request headers, names in lower case. */
  headers: Record<string, string | undefined>;
  /** The parsed JSON body, already validated against the operation's request schema (the
   * validate stage runs before the responder); the bytes (Uint8Array) for non-JSON bodies. */
  body: unknown;
  /** The bundle of the operation's API as served (reloaded with it): read shapes from it, never mutate it. */
  description: Record<string, unknown>;
  /** The negotiated resource version of the response (null for the journal API). */
  version: VersionInfo | null;
  /** The schema of the answer as negotiated (dereferenced), when the operation answers JSON. */
  answerSchema?: Record<string, unknown>;
  /** The schema of the request body as sent (dereferenced), when the operation takes JSON. */
  requestSchema?: Record<string, unknown>;
  tx: Tx;
  /** The sandbox clock (real time unless set or advanced through the control endpoints). An
   * answer that reads it is never reused (see answer-cache.ts); read `today` when the date is enough. */
  now: Date;
  /** The sandbox clock's date (yyyy-MM-dd, UTC). */
  today: string;
  principal: Principal;
  /** Reads `collection` with the client's filter, orderBy, pageNumber and pageSize applied
   * (a QueryError becomes a 400 naming the parameter). */
  list(collection: string, query?: ListQuery): Promise<ListPage>;
  /** A new uuid. */
  newId(): string;
}

/** What a handler answers; the engine wraps it into the contract's envelopes. */
export type Reply =
  /** Detail envelope {version, messages, content}; content {} for "detail, empty content". */
  | { kind: 'detail'; status?: 200 | 201; content: unknown; messages?: Message[] }
  /** List envelope {totalSize, pageSize, totalPages, currentPage, version, messages, _embedded}. */
  | { kind: 'list'; page: ListPage; messages?: Message[] }
  /** Answered as is (no envelope): provider contact information, logo and photo bytes, ... */
  | { kind: 'raw'; status?: number; body?: unknown; contentType?: string; headers?: Record<string, string> };

export interface Handler {
  (ctx: OperationContext): Promise<Reply>;
  /** The reads the handler makes first, by the request's path parameters (see
   * TransactionOptions.reads): a store may send them with the transaction's opening. */
  reads?: (params: Record<string, string>) => ForeseenRead[];
}

/** The handler, naming the reads it makes first (see Handler.reads). */
export function withReads(handler: (ctx: OperationContext) => Promise<Reply>, reads: (params: Record<string, string>) => ForeseenRead[]): Handler {
  return Object.assign(handler, { reads });
}

/** One resource module (resources/<name>.ts): its collections and its operations' handlers. */
export interface ResourceModule {
  collections: CollectionSpec[];
  handlers: Record<string, Handler>;
  /** What each create (by operationId) requires; checked before its handler runs, and kept by every edit of what it creates. */
  creates?: Record<string, CreateRule>;
}

/** A refused operation's answer, thrown so that the request's transaction rolls its writes back
 * before the answer is given (engine/sandbox.ts catches it). */
export class Refused extends Error {
  constructor(readonly answer: Outgoing) {
    super(`refused with ${answer.status}`);
    this.name = 'Refused';
  }
}

/** Thrown by a handler: the request is refused and nothing it wrote is kept. */
export class SandboxError extends Error {
  constructor(
    /** 400, 403, 404 (answered with no body), 409... */
    readonly status: number,
    readonly messages: Message[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(messages.map((m) => m.description).join(' ') || `status ${status}`);
    this.name = 'SandboxError';
  }
}
