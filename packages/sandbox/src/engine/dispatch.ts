// One operation in the sandbox: the handler of its operationId runs in the request's store
// transaction (read for GET, write otherwise; opened with the clock) with the OperationContext;
// its reply is wrapped in the contract's envelopes, or becomes a csv/xlsx download. Refusals: SandboxError (400/403/404,
// 404 without body), UniqueViolation (400 naming the fields), QueryError (400 naming the
// parameter), thrown as Refused. Anything thrown rolls the request's writes back.
import { message, requiredMessage, type Message } from '../http/errors.js';
import { isJsonMedia } from '../http/media.js';
import { essence, successResponse, type Operation } from '../http/spec.js';
import { badRequest, errorReply, requestStageMessages, type Outgoing } from '../http/outgoing.js';
import { download, successHeaders, type Exchange } from '../http/respond.js';
import { pathParams } from '../http/route.js';
import { SETTINGS_KEY, splitUnknownFields, type SandboxSettings } from '../http/unknown-fields.js';
import { QueryError } from '../filter/tree.js';
import { UniqueViolation, type Tx } from '../store/types.js';
import { sequentialId } from '../util/ids.js';
import { answerAt, bodyForHandler, windowOf } from './version-window.js';
import { detailEnvelope, listEnvelope } from './envelopes.js';
import { fieldsOfList, listPage } from './list-query.js';
import { listAnswerText } from './list-items.js';
import { projectToSchema } from '../http/schema-walk.js';
import { Refused, SandboxError, type Handler, type OperationContext, type Principal, type Reply } from '../domain/context.js';
import type { AnswerCache, CachedAnswer } from './answer-cache.js';
import { editRequirements } from './create-requirements.js';
import { missingFields, type CreateRule } from '../domain/create-rules.js';

const utf8 = new TextEncoder();

/** The sandbox meta key holding the next id's number. */
const ID_SEQUENCE = 'ids';

function successStatus(operation: Operation): number {
  const code = Number(successResponse(operation.model)?.code);
  return Number.isInteger(code) ? code : 200;
}

/** The fields a uniqueness rule is about, without the foreign keys that scope it. */
function ruleFields(fields: string[]): string[] {
  const own = fields.filter((f) => !/Id$/.test(f.split('.').pop() ?? ''));
  return own.length > 0 ? own : fields;
}

function uniqueMessage(violation: UniqueViolation): Message {
  const fields = ruleFields(violation.fields);
  return message(400, `The value of ${fields.join(', ')} is already in use; it must be unique (${violation.rule}).`, fields);
}

/** The dotted path of the first string (or key) in a JSON body holding U+0000, '' for the body itself. */
function nulField(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulField(item, `${at}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    for (const [key, item] of Object.entries(value)) {
      const path = at ? `${at}.${key}` : key;
      if (key.includes('\u0000')) return path;
      const found = nulField(item, path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** An edit whose entity lacks what its create requires is refused as the create would be (its writes roll back). */
function refuseLostRequirements(operation: Operation, answer: Reply, createRules: ReadonlyMap<string, CreateRule>): void {
  if (answer.kind !== 'detail') return;
  const required = editRequirements(operation, createRules);
  const missing = required ? missingFields(required, answer.content) : [];
  if (missing.length > 0) throw new SandboxError(400, requestStageMessages(operation, missing.map(requiredMessage)));
}

/** A handler's context. A class rather than an object literal: a literal with a getter (`now`)
 * is built on a slow path, several microseconds, and one is built for every request. */
class HandlerContext implements OperationContext {
  readonly api: OperationContext['api'];
  readonly operationId: string;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly headers: Record<string, string | undefined>;
  readonly body: unknown;
  readonly description: Record<string, unknown>;
  readonly version: OperationContext['version'];
  readonly answerSchema: Record<string, unknown> | undefined;
  readonly requestSchema: Record<string, unknown> | undefined;
  readonly tx: Tx;
  readonly today: string;
  readonly principal: Principal;
  readonly list: OperationContext['list'];
  readonly newId: () => string;

  constructor(
    fields: Omit<OperationContext, 'now'>,
    private readonly nowMs: number,
    /** Called when the handler reads the clock's time (its answer is then never kept). */
    private readonly onNow: () => void,
  ) {
    this.api = fields.api;
    this.operationId = fields.operationId;
    this.params = fields.params;
    this.query = fields.query;
    this.headers = fields.headers;
    this.body = fields.body;
    this.description = fields.description;
    this.version = fields.version;
    this.answerSchema = fields.answerSchema;
    this.requestSchema = fields.requestSchema;
    this.tx = fields.tx;
    this.today = fields.today;
    this.principal = fields.principal;
    this.list = fields.list;
    this.newId = fields.newId;
  }

  get now(): Date {
    this.onNow();
    return new Date(this.nowMs);
  }
}

/** Everything a read's answer depends on besides the state it reads (see answer-cache.ts). */
function readKey(exchange: Exchange, principal: Principal, today: string): string {
  const { routed, negotiation, req } = exchange;
  const { operation } = routed;
  return [
    operation.api.name,
    operation.operationId,
    req.url,
    JSON.stringify(negotiation.version),
    negotiation.choice?.version.version ?? '',
    negotiation.responseContent?.mediaType ?? '',
    today,
    JSON.stringify(req.headers),
    JSON.stringify(principal),
  ].join('\n');
}

/** The handler of an operation: a resource module's, else the behaviour derived from its description. */
export type HandlerLookup = (operation: Operation) => Handler | { problem: string };

export async function dispatch(tx: Tx, handlerOf: HandlerLookup, createRules: ReadonlyMap<string, CreateRule>, exchange: Exchange, principal: Principal, log: (line: string) => void, cache?: AnswerCache): Promise<Outgoing> {
  const { routed, negotiation, valid, now, req } = exchange;
  const { operation } = routed;
  const { version, responseContent } = negotiation;
  const handler = handlerOf(operation);
  if (typeof handler !== 'function') {
    log(`payroll-mock: the sandbox cannot answer ${operation.operationId}: ${handler.problem}`);
    return errorReply(500, operation, version, [message(500, `The sandbox cannot answer ${operation.operationId}: ${handler.problem}.`, [], 'Exception')]);
  }
  const nul = nulField(valid.body, '');
  if (nul !== undefined) {
    // PostgreSQL cannot store a NUL character in text; refused in every store so that both answer alike.
    return badRequest(operation, version, [message(400, `The field ${nul || 'body'} contains a NUL character (\\u0000), which cannot be stored.`, [nul || 'body'])]);
  }
  const mode = operation.method === 'get' || operation.method === 'head' ? 'read' : 'write';
  // The handlers read and write one shape per resource: a body written at another served
  // version is taken to it, and the answer from it to the version asked for.
  const versionWindow = windowOf(operation);
  const answeredAt = negotiation.choice?.version.version;
  const schema = responseContent?.schema;
  const jsonRequest = valid.requestContent ? isJsonMedia(essence(valid.requestContent.mediaType)) : true;
  // Unknown at the version the body is written at (an older version's name among them), found
  // and dropped before the body is taken to the handlers' shape, where it could mean a field.
  const split = valid.requestContent && jsonRequest ? splitUnknownFields(valid.requestContent.schema, valid.body) : { fields: [], known: valid.body };
  const unknown = split.fields;
  // The sandbox date the versions were chosen on: the handlers' today too.
  const { today } = negotiation;
  const cacheKey = cache && mode === 'read' && negotiation.negotiated.kind !== 'export' ? readKey(exchange, principal, today) : undefined;
  // Set when this read may be kept: its state's identity, unless the handler read the clock's time.
  let readFrom: object | string | undefined;
  let reply: Reply | { kind: 'cached'; answer: CachedAnswer };
  try {
    reply = await (async () => {
      if (cacheKey !== undefined && tx.version) {
        const answer = cache!.answerFor(cacheKey, tx.version, operation.api.doc);
        if (answer) return { kind: 'cached' as const, answer };
        readFrom = tx.version;
      }
      // Ids of created entities follow a sequence per sandbox (kept in its meta), so that the
      // same requests give the same ids on every run, store and transport.
      const issued = mode === 'write' ? ((await tx.getMeta<{ next?: number }>(ID_SEQUENCE))?.next ?? 1) : 1;
      let next = issued;
      // The sandbox's unknownFields setting (PUT /__sandbox/settings): unknown body fields are dropped, warned about or refused.
      const unknownMode = unknown.length > 0 ? ((await tx.getMeta<SandboxSettings>(SETTINGS_KEY))?.unknownFields ?? 'ignore') : 'ignore';
      if (unknownMode === 'reject') throw new SandboxError(400, unknown.map((field) => message(400, `The field ${field} is not a field of this body.`, [field])));
      const ctx = new HandlerContext(
        {
          api: operation.api.name,
          operationId: operation.operationId,
          params: pathParams(routed),
          query: routed.query,
          headers: req.headers,
          // An operation that declares no body gets the bytes as sent (the handler decides what they may hold).
          body: valid.requestContent && jsonRequest ? (versionWindow && valid.requestVersion ? bodyForHandler(versionWindow, valid.requestVersion, split.known) : split.known) : valid.bytes,
          description: operation.api.doc,
          version,
          answerSchema: schema,
          requestSchema: valid.requestContent && jsonRequest ? valid.requestContent.schema : undefined,
          tx,
          today,
          principal,
          list: (collection, query = {}) => {
            const scope = principal.dataScope?.[collection];
            const where = scope && query.where ? { kind: 'and' as const, left: scope, right: query.where } : (scope ?? query.where);
            return listPage(tx, collection, routed.query, fieldsOfList(schema, versionWindow && answeredAt ? { window: versionWindow, version: answeredAt } : undefined), { ...query, where });
          },
          newId: () => {
            if (mode !== 'write') throw new Error(`${operation.operationId} reads: it cannot create an entity`);
            return sequentialId(principal.sandbox, next++);
          },
        },
        now,
        () => {
          readFrom = undefined;
        },
      );
      const answer = await handler(ctx);
      refuseLostRequirements(operation, answer, createRules);
      if (next !== issued) await tx.setMeta(ID_SEQUENCE, { next });
      if (unknownMode !== 'warn' || answer.kind === 'raw') return answer;
      const warning = message(successStatus(operation), `The body fields ${unknown.join(', ')} are not fields of this body and were ignored.`, unknown, 'Warning');
      return { ...answer, messages: [...(answer.messages ?? []), warning] };
    })();
  } catch (error) {
    // Thrown on, so that the request's transaction rolls back what the handler wrote.
    if (error instanceof SandboxError) {
      if (error.status === 404) throw new Refused({ status: 404, headers: { ...error.headers } });
      throw new Refused(errorReply(error.status, operation, version, error.messages, error.headers));
    }
    if (error instanceof UniqueViolation) throw new Refused(badRequest(operation, version, [uniqueMessage(error)]));
    if (error instanceof QueryError) throw new Refused(badRequest(operation, version, [message(400, `The query parameter ${error.parameter} is not valid: ${error.message}`, [error.parameter])]));
    throw error;
  }

  const headers = successHeaders(operation, negotiation, now);
  if (reply.kind === 'cached') {
    const { status, contentType, body } = reply.answer;
    headers['Content-Type'] = contentType;
    return { status, headers, body };
  }
  const contentType = responseContent?.mediaType;
  if (reply.kind === 'raw') {
    const status = reply.status ?? successStatus(operation);
    const out: Outgoing = { status, headers: { ...headers, ...reply.headers } };
    if (reply.body !== undefined) {
      const type = reply.contentType ?? contentType ?? 'application/json';
      out.body = reply.body instanceof Uint8Array || (typeof reply.body === 'string' && !isJsonMedia(essence(type))) ? (reply.body as Uint8Array | string) : JSON.stringify(reply.body);
      out.headers['Content-Type'] = type;
    }
    return out;
  }
  if (reply.kind === 'list' && negotiation.negotiated.kind === 'export') {
    const rows = reply.page.items.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null);
    const items = versionWindow && answeredAt ? rows.map((row) => answerAt(versionWindow, answeredAt, row)) : rows;
    return download(operation, negotiation, successStatus(operation), items, headers);
  }
  const envelope =
    reply.kind === 'list'
      ? listEnvelope(reply.page, reply.messages ?? [], version, schema)
      : detailEnvelope(reply.content, reply.messages ?? [], version, schema);
  // Nothing the description does not name at the version answered: stored fields the answer's schema has not (at any depth) are left out.
  const at = versionWindow && answeredAt ? { window: versionWindow, version: answeredAt } : undefined;
  const status = reply.kind === 'detail' && reply.status ? reply.status : successStatus(operation);
  const type = contentType ?? 'application/json';
  const text = (reply.kind === 'list' ? listAnswerText(envelope, schema, at) : undefined) ?? JSON.stringify(projectToSchema(at ? answerAt(at.window, at.version, envelope) : envelope, schema));
  headers['Content-Type'] = type;
  if (cacheKey === undefined || !readFrom) return { status, headers, body: text };
  const answer: CachedAnswer = { status, contentType: type, body: utf8.encode(text) };
  cache!.keep(cacheKey, readFrom, operation.api.doc, answer);
  return { status, headers, body: answer.body };
}
