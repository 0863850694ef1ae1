// One-off answers (sandbox only): the next N calls of an activity answered with a status, a body
// and headers the client chose, to test how it treats them (a 400 with a given message, a 200
// with a Warning). An answer is given after authentication and authorization, in place of
// negotiation, validation and the handler, so a call the caller may not make keeps its refusal
// and nothing stored changes. Answers live in the sandbox's meta (ANSWERS_KEY, kept.ts), like the
// fault rules: counted across every process on one store, cleared by a reset, carried by a snapshot.
import { json, type Outgoing } from '../http/outgoing.js';
import { REQUEST_ID_HEADER } from '../http/request-id.js';
import type { Tx } from '../store/types.js';
import { FaultProblem } from './faults.js';
import { addKept, readKept, removeKept, writeKept, type KeptKind } from './kept.js';

export const ANSWERS_PATH = '/__sandbox/answers';
export const ANSWERS_KEY = 'answers';

export interface OneOffAnswer {
  id: string;
  /** The activity name (operationId) whose calls it answers. */
  operation: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Calls still to be answered (default 1). */
  times?: number;
}

/** Largest body of one answer, as JSON text. */
export const MAX_ANSWER_BODY = 64 * 1024;
const MAX_TIMES = 1000;
const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 4096;
/** What the sandbox sets itself on every answer, or what describes the message rather than the answer. */
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', REQUEST_ID_HEADER.toLowerCase()]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** An answer as sent to POST /__sandbox/answers, checked; `known` is the set of activity names served. */
export function checkAnswer(value: unknown, index: number, known?: Set<string>): Omit<OneOffAnswer, 'id'> {
  const where = `answers[${index}].`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FaultProblem(`answers[${index}]`, 'An answer is an object such as {"operation": "PutEmployeeByEmployeeId", "status": 400, "body": {...}}.');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['id', 'operation', 'status', 'body', 'headers', 'times'].includes(key)) throw new FaultProblem(`${where}${key}`, `Unknown field ${key}; an answer has operation, status, body, headers and times.`);
  }
  const { operation, status, body, headers, times } = raw;
  if (typeof operation !== 'string' || (known && !known.has(operation))) throw new FaultProblem(`${where}operation`, `operation must be an activity of the served descriptions${typeof operation === 'string' ? `, not ${operation.slice(0, 100)}` : ''}.`);
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) throw new FaultProblem(`${where}status`, 'status must be an HTTP status from 200 to 599.');
  const answer: Omit<OneOffAnswer, 'id'> = { operation, status };
  if (body !== undefined) {
    if (status === 204 || status === 304) throw new FaultProblem(`${where}body`, `A ${status} answer has no body.`);
    if (JSON.stringify(body).length > MAX_ANSWER_BODY) throw new FaultProblem(`${where}body`, `The body of an answer is at most ${MAX_ANSWER_BODY} bytes of JSON.`);
    answer.body = body;
  }
  if (headers !== undefined) answer.headers = checkHeaders(headers, `${where}headers`);
  if (times !== undefined) {
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > MAX_TIMES) throw new FaultProblem(`${where}times`, `times must be a whole number of calls from 1 to ${MAX_TIMES}.`);
    answer.times = times;
  }
  return answer;
}

function checkHeaders(headers: unknown, where: string): Record<string, string> {
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) throw new FaultProblem(where, 'headers must be an object of header names and text values.');
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw new FaultProblem(where, `At most ${MAX_HEADERS} headers per answer.`);
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new FaultProblem(`${where}.${name.slice(0, 100)}`, 'A header name is a token of letters, digits and !#$%&\'*+.^_`|~-.');
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('access-control-')) throw new FaultProblem(`${where}.${name}`, `${name} is set by the sandbox itself and cannot be answered.`);
    if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE || !HEADER_VALUE.test(value)) throw new FaultProblem(`${where}.${name}`, `A header value is one line of text of at most ${MAX_HEADER_VALUE} characters.`);
  }
  return headers as Record<string, string>;
}

const ANSWERS: KeptKind<OneOffAnswer> = {
  key: ANSWERS_KEY,
  idPrefix: 'answer',
  valid(answer): answer is OneOffAnswer {
    const { id: _id, ...given } = answer as OneOffAnswer;
    try {
      checkAnswer(given, 0);
      return true;
    } catch (error) {
      if (error instanceof FaultProblem) return false;
      throw error;
    }
  },
};

/** The answers still to be given in the transaction's sandbox, in the order they are given. */
export async function listAnswers(tx: Tx): Promise<OneOffAnswer[]> {
  return (await readKept(tx, ANSWERS)).rules;
}

export const addAnswers = (tx: Tx, answers: Array<Omit<OneOffAnswer, 'id'>>): Promise<OneOffAnswer[]> => addKept(tx, ANSWERS, answers);
export const removeAnswers = (tx: Tx, id?: string): Promise<boolean> => removeKept(tx, ANSWERS, id);

/** Whether an answer waits for a call of `operationId` (read only: taking it is a write of its own). */
export async function answersFor(tx: Tx, operationId: string): Promise<boolean> {
  return (await readKept(tx, ANSWERS)).rules.some((answer) => answer.operation === operationId);
}

/** The first answer waiting for `operationId`, counted against its `times` in the write
 * transaction `tx`; undefined when another call took the last one meanwhile. */
export async function takeAnswer(tx: Tx, operationId: string): Promise<Outgoing | undefined> {
  const kept = await readKept(tx, ANSWERS);
  const index = kept.rules.findIndex((answer) => answer.operation === operationId);
  if (index < 0) return undefined;
  const answer = kept.rules[index]!;
  const left = (answer.times ?? 1) - 1;
  const rules = [...kept.rules];
  if (left > 0) rules[index] = { ...answer, times: left };
  else rules.splice(index, 1);
  await writeKept(tx, ANSWERS, { ...kept, rules });
  return answered(answer);
}

/** The answer as sent: its JSON body (application/json unless its headers name another type). */
function answered({ status, body, headers = {} }: OneOffAnswer): Outgoing {
  if (body === undefined) return { status, headers: { ...headers } };
  const given = Object.keys(headers).find((name) => name.toLowerCase() === 'content-type');
  const out = json(status, body, headers);
  if (given !== undefined && given !== 'Content-Type') delete out.headers['Content-Type'];
  return out;
}
