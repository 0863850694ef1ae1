// Faults and latency on purpose (sandbox only): rules per sandbox that make chosen operations,
// by activity name, answer an error status, lag, or fail at the network level, for the next N
// calls or with a seeded probability; and the X-Sandbox-Fault request header that does the
// same for one call. A fault is decided before the handler runs, so it never changes what is
// stored. Rules live in the engine (per process), not in the store.
import { errorReply, json, type Outgoing } from '../http/outgoing.js';
import { message, UNAUTHORIZED_MESSAGE } from '../http/errors.js';
import type { Operation } from '../http/spec.js';
import type { FaultAction } from '../http/respond.js';

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

interface LiveRule extends FaultRule {
  remaining: number | undefined;
  random: () => number;
}

/** What the pipeline does: go on (after an optional delay), answer, or fail the connection. */
export type FaultOutcome = { delayMs: number; answer?: Outgoing | 'network-error' };

const MAX_DELAY_MS = 120_000;

/** A small seeded generator (mulberry32): the same seed draws the same faults. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
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
export function checkRule(value: unknown, index: number, known: Set<string>): Omit<FaultRule, 'id'> {
  const where = `faults[${index}].`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FaultProblem(`faults[${index}]`, 'A fault rule is an object such as {"operations": ["GetEmployeesByEmployerId"], "status": 503}.');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['id', 'operations', 'status', 'delayMs', 'networkError', 'retryAfterSeconds', 'times', 'probability', 'seed'].includes(key)) throw new FaultProblem(`${where}${key}`, `Unknown field ${key}; a rule has operations, status, delayMs, networkError, retryAfterSeconds, times, probability and seed.`);
  }
  const operations = raw.operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.some((o) => typeof o !== 'string')) throw new FaultProblem(`${where}operations`, 'operations must be a non-empty list of activity names (operationIds), or ["*"].');
  for (const name of operations as string[]) {
    if (name !== '*' && !known.has(name)) throw new FaultProblem(`${where}operations`, `${name.slice(0, 100)} is not an activity of the served descriptions.`);
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

/** The fault rules of every sandbox this engine serves. */
export class Faults {
  private readonly bySandbox = new Map<string, LiveRule[]>();
  private next = 1;

  list(sandbox: string): FaultRule[] {
    return (this.bySandbox.get(sandbox) ?? []).map(({ remaining, random: _random, ...rule }) => ({ ...rule, ...(remaining !== undefined ? { times: remaining } : {}) }));
  }

  add(sandbox: string, rules: Array<Omit<FaultRule, 'id'>>): FaultRule[] {
    const live = this.bySandbox.get(sandbox) ?? [];
    for (const rule of rules) {
      const id = `fault-${this.next++}`;
      live.push({ ...rule, id, remaining: rule.times, random: seeded(rule.seed ?? 1) });
    }
    this.bySandbox.set(sandbox, live);
    return this.list(sandbox);
  }

  replace(sandbox: string, rules: Array<Omit<FaultRule, 'id'>>): FaultRule[] {
    this.bySandbox.delete(sandbox);
    return this.add(sandbox, rules);
  }

  /** Removes the rules of every sandbox. */
  clear(): void {
    this.bySandbox.clear();
  }

  remove(sandbox: string, id?: string): boolean {
    if (id === undefined) return this.bySandbox.delete(sandbox);
    const live = this.bySandbox.get(sandbox) ?? [];
    const kept = live.filter((r) => r.id !== id);
    this.bySandbox.set(sandbox, kept);
    return kept.length !== live.length;
  }

  /** The fault for one call of `operationId` in `sandbox`, if a rule draws one (and counts it). */
  draw(sandbox: string, operationId: string): FaultAction | undefined {
    const live = this.bySandbox.get(sandbox);
    if (!live || live.length === 0) return undefined;
    for (const rule of live) {
      if (!rule.operations.includes('*') && !rule.operations.includes(operationId)) continue;
      if (rule.probability !== undefined && rule.random() >= rule.probability) continue;
      if (rule.remaining !== undefined) {
        rule.remaining -= 1;
        if (rule.remaining <= 0) live.splice(live.indexOf(rule), 1);
      }
      const { status, delayMs, networkError, retryAfterSeconds } = rule;
      return { status, delayMs, networkError, retryAfterSeconds };
    }
    return undefined;
  }
}
