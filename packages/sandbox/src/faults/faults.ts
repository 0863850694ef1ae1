// Faults and latency on purpose (sandbox only): rules per sandbox that make chosen operations,
// by activity name, answer an error status, lag, or fail at the network level, for the next N
// calls or with a seeded probability; and the X-Sandbox-Fault request header that does the
// same for one call. A fault is decided before the handler runs, so it never changes what is
// stored. Rules live in the sandbox's meta (FAULTS_KEY), in the store: one rule for every process.
import { errorReply, json, type Outgoing } from '../http/outgoing.js';
import { message, UNAUTHORIZED_MESSAGE } from '../http/errors.js';
import type { Operation } from '../http/spec.js';
import type { FaultAction } from '../http/respond.js';
import type { Tx } from '../store/types.js';
import { addKept, readKept, removeKept, writeKept, type KeptKind } from './kept.js';

/** The sandbox-only request header: `status=503`, `delay=800`, `network-error`, joined with `;`. */
export const FAULT_HEADER = 'X-Sandbox-Fault';
export const FAULTS_PATH = '/__sandbox/faults';

export type { FaultAction };

export interface FaultRule extends FaultAction {
  id: string;
  /** Activity names (operationIds) the rule applies to; '*' for every operation. */
  operations: string[];
  /** Apply to the next N matching calls, then lapse (default: every call). */
  times?: number;
  /** Apply with this probability (0..1), drawn from a generator seeded with `seed`. */
  probability?: number;
  seed?: number;
}

/** What the pipeline does: go on (after an optional delay), answer, or fail the connection. */
export type FaultOutcome = { delayMs: number; answer?: Outgoing | 'network-error' };

const MAX_DELAY_MS = 120_000;

/** The `n`th number (from 0) of a small seeded generator (mulberry32): the same seed draws the
 * same faults. Its state is the seed plus n steps, so a rule keeps only how many it drew. */
function seededDraw(seed: number, n: number): number {
  let t = ((seed >>> 0) + Math.imul(n + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

export class FaultProblem extends Error {
  constructor(readonly property: string, description: string) {
    super(description);
  }
}

function checkAction(value: Record<string, unknown>, where: string): FaultAction {
  const action: FaultAction = {};
  const { status, delayMs, networkError, retryAfterSeconds } = value;
  if (status !== undefined) {
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) throw new FaultProblem(`${where}status`, 'status must be an HTTP error status from 400 to 599.');
    action.status = status;
  }
  if (delayMs !== undefined) {
    if (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) throw new FaultProblem(`${where}delayMs`, `delayMs must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
    action.delayMs = delayMs;
  }
  if (networkError !== undefined) {
    if (typeof networkError !== 'boolean') throw new FaultProblem(`${where}networkError`, 'networkError must be true or false.');
    action.networkError = networkError;
  }
  if (retryAfterSeconds !== undefined) {
    if (typeof retryAfterSeconds !== 'number' || !Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0 || retryAfterSeconds > 86_400) throw new FaultProblem(`${where}retryAfterSeconds`, 'retryAfterSeconds must be a whole number of seconds from 0 to 86400.');
    action.retryAfterSeconds = retryAfterSeconds;
  }
  if (action.status === undefined && action.delayMs === undefined && !action.networkError) throw new FaultProblem(`${where}status`, 'A fault needs at least one of status, delayMs and networkError.');
  if (action.status !== undefined && action.networkError) throw new FaultProblem(`${where}networkError`, 'A fault answers a status or fails the connection, not both.');
  return action;
}

/** A rule as sent to PUT/POST /__sandbox/faults, checked; `known` is the set of activity names served. */
export function checkRule(value: unknown, index: number, known?: Set<string>): Omit<FaultRule, 'id'> {
  const where = `faults[${index}].`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FaultProblem(`faults[${index}]`, 'A fault rule is an object such as {"operations": ["GetEmployeesByEmployerId"], "status": 503}.');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['id', 'operations', 'status', 'delayMs', 'networkError', 'retryAfterSeconds', 'times', 'probability', 'seed'].includes(key)) throw new FaultProblem(`${where}${key}`, `Unknown field ${key}; a rule has operations, status, delayMs, networkError, retryAfterSeconds, times, probability and seed.`);
  }
  const operations = raw.operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.some((o) => typeof o !== 'string')) throw new FaultProblem(`${where}operations`, 'operations must be a non-empty list of activity names (operationIds), or ["*"].');
  for (const name of operations as string[]) {
    if (name !== '*' && known && !known.has(name)) throw new FaultProblem(`${where}operations`, `${name.slice(0, 100)} is not an activity of the served descriptions.`);
  }
  const rule: Omit<FaultRule, 'id'> = { operations: operations as string[], ...checkAction(raw, where) };
  if (raw.times !== undefined) {
    if (typeof raw.times !== 'number' || !Number.isInteger(raw.times) || raw.times < 1) throw new FaultProblem(`${where}times`, 'times must be a whole number of calls, at least 1.');
    rule.times = raw.times;
  }
  if (raw.probability !== undefined) {
    if (typeof raw.probability !== 'number' || !(raw.probability >= 0 && raw.probability <= 1)) throw new FaultProblem(`${where}probability`, 'probability must be a number from 0 to 1.');
    rule.probability = raw.probability;
  }
  if (raw.seed !== undefined) {
    if (typeof raw.seed !== 'number' || !Number.isInteger(raw.seed)) throw new FaultProblem(`${where}seed`, 'seed must be a whole number.');
    rule.seed = raw.seed;
  }
  return rule;
}

/** The X-Sandbox-Fault header: `status=503; retryAfter=2`, `delay=800`, `network-error`. */
export function parseFaultHeader(header: string): FaultAction {
  const raw: Record<string, unknown> = {};
  for (const part of header.split(';')) {
    const [key = '', value] = part.split('=').map((s) => s.trim());
    if (key === '') continue;
    const number = value === undefined ? Number.NaN : Number(value);
    if (key === 'status') raw.status = number;
    else if (key === 'delay') raw.delayMs = number;
    else if (key === 'retryAfter') raw.retryAfterSeconds = number;
    else if (key === 'network-error' && value === undefined) raw.networkError = true;
    else throw new FaultProblem(FAULT_HEADER, `${FAULT_HEADER} understands status=<code>, delay=<ms>, retryAfter=<s> and network-error, not '${part.trim().slice(0, 50)}'.`);
  }
  return checkAction(raw, `${FAULT_HEADER}.`);
}

/** The answer a fault status stands for, in the contract's shape for that status. */
export function faultAnswer(operation: Operation | undefined, action: FaultAction): Outgoing | 'network-error' | undefined {
  if (action.networkError) return 'network-error';
  const status = action.status;
  if (status === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (status === 429 || status === 503) headers['Retry-After'] = String(action.retryAfterSeconds ?? 1);
  const text = `Fault injected by the sandbox (${FAULT_HEADER} or ${FAULTS_PATH}).`;
  if (status === 401 || status === 403) return json(status, { message: status === 401 ? UNAUTHORIZED_MESSAGE : text }, headers);
  if (status === 404 || status >= 500) return { status, headers };
  if (!operation) return json(status, { messages: [message(status, text, [], 'Exception')] }, headers);
  return errorReply(status, operation, null, [message(status, text, [], status === 429 ? 'Exception' : 'BrokenBusinessRule')], headers);
}

/** Where a sandbox keeps its fault rules: in its meta, like the clock and the settings (kept.ts). */
export const FAULTS_KEY = 'faults';

/** A rule as kept: what is left of its `times`, and how many numbers its generator has drawn. */
interface KeptRule extends FaultRule {
  drawn?: number;
}

const FAULT_RULES: KeptKind<KeptRule> = { key: FAULTS_KEY, idPrefix: 'fault', valid: keptRule };

function keptRule(rule: unknown): rule is KeptRule {
  const { id: _id, drawn, ...given } = rule as KeptRule;
  if (drawn !== undefined && !(Number.isSafeInteger(drawn) && drawn >= 0)) return false;
  try {
    checkRule(given, 0);
    return true;
  } catch (error) {
    if (error instanceof FaultProblem) return false;
    throw error;
  }
}

const shown = ({ drawn: _drawn, ...rule }: KeptRule): FaultRule => rule;

/** The rules in force in the transaction's sandbox. */
export async function listFaults(tx: Tx): Promise<FaultRule[]> {
  return (await readKept(tx, FAULT_RULES)).rules.map(shown);
}

/** Adds rules (after the ones kept, or in their place with `replace`); the rules now in force. */
export async function addFaults(tx: Tx, rules: Array<Omit<FaultRule, 'id'>>, replace = false): Promise<FaultRule[]> {
  return (await addKept(tx, FAULT_RULES, rules, replace)).map(shown);
}

/** Removes one rule, or every rule without an id; false when there was no such rule. */
export const removeFaults = (tx: Tx, id?: string): Promise<boolean> => removeKept(tx, FAULT_RULES, id);

const applies = (rule: FaultRule, operationId: string) => rule.operations.includes('*') || rule.operations.includes(operationId);

/** Whether a rule of the sandbox may draw a fault for `operationId` (read only: the draw itself
 * changes what is kept, in a write transaction of its own). */
export async function faultsFor(tx: Tx, operationId: string): Promise<boolean> {
  return (await readKept(tx, FAULT_RULES)).rules.some((rule) => applies(rule, operationId));
}

/** The fault for one call of `operationId`, if a rule draws one; counts it against the rule's
 * `times` and moves its generator on, in the write transaction `tx`. */
export async function drawFault(tx: Tx, operationId: string): Promise<FaultAction | undefined> {
  const kept = await readKept(tx, FAULT_RULES);
  let drawn: FaultAction | undefined;
  const rules: KeptRule[] = [];
  for (const rule of kept.rules) {
    if (drawn !== undefined || !applies(rule, operationId)) {
      rules.push(rule);
      continue;
    }
    let next: KeptRule | undefined = rule;
    if (rule.probability !== undefined) {
      const draws = rule.drawn ?? 0;
      next = { ...rule, drawn: draws + 1 };
      if (seededDraw(rule.seed ?? 1, draws) >= rule.probability) {
        rules.push(next);
        continue;
      }
    }
    const { status, delayMs, networkError, retryAfterSeconds } = rule;
    drawn = { status, delayMs, networkError, retryAfterSeconds };
    if (rule.times !== undefined) next = rule.times > 1 ? { ...next, times: rule.times - 1 } : undefined;
    if (next) rules.push(next);
  }
  if (rules.length !== kept.rules.length || rules.some((rule, i) => rule !== kept.rules[i])) await writeKept(tx, FAULT_RULES, { ...kept, rules });
  return drawn;
}
