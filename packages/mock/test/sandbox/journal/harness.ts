// Runs journal scenarios against a running sandbox: a fresh sandbox per scenario (reset under
// its own token), the setup writes, reads before and after, and the check of an answer against
// the operation's response schema in the journal bundle (ajv).
import { expect } from 'vitest';
import { bundles, contentValidator, describedResponse } from '../../support/bundle-schemas.js';
import { PATHS, pathOf, resolve, type Scenario, type Step } from './scenarios.js';

type Json = Record<string, any>;
/** The journal bundle as built from the description. */
export const journalBundle = bundles.journal;

/** The answer validates against the operation's JSON response schema for its status. */
export function expectValidAnswer(step: Pick<Step, 'method' | 'path'>, status: number, body: unknown): void {
  const key = `${step.method} ${step.path} ${status}`;
  const described = describedResponse('journal', step.path, step.method, status);
  expect(described?.response.content?.['application/json']?.schema, `${key} is described`).toBeDefined();
  const validate = contentValidator('journal', described!, 'application/json');
  expect(validate(body) ? [] : validate.errors, `${key} answer matches its schema`).toEqual([]);
}

/** One HTTP exchange as a test sees it. */
export interface Answer {
  status: number;
  body: any;
}

/** How a runner sends a step (raw HTTP or the client). */
export type Send = (step: Step, saved: Record<string, string>) => Promise<Answer>;

export interface Sandbox {
  url: string;
  token: string;
}

async function control(sandbox: Sandbox, method: string, path: string): Promise<any> {
  const response = await fetch(`${sandbox.url}/__sandbox${path}`, { method, headers: { Authorization: `Bearer ${sandbox.token}` } });
  expect(response.status, `${method} /__sandbox${path}`).toBeLessThan(300);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** The sandbox's whole state, to show a refused request changed nothing. */
export const snapshotOf = (sandbox: Sandbox) => control(sandbox, 'GET', '/snapshot');
export const reset = (sandbox: Sandbox) => control(sandbox, 'POST', '/reset');

/** A token of its own per scenario: its sandbox starts from the seed. */
export const tokenFor = (scenario: Scenario, runner: string) => `${runner}-${scenario.code}`.replace(/[^\w-]/g, '-');

/** Runs the scenario's setup and checks the trigger's answer; returns the answer. */
export async function runScenario(scenario: Scenario, sandbox: Sandbox, send: Send): Promise<Answer> {
  await reset(sandbox);
  const saved: Record<string, string> = {};
  for (const step of scenario.setup ?? []) {
    const answer = await send(step, saved);
    expect(answer.status, `setup ${step.method} ${pathOf(step, saved)}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    if (step.save) saved[step.save] = answer.body.content.id;
  }
  const readAll = () => Promise.all(scenario.reads.map((read) => send(read, saved)));
  const readsBefore = await readAll();
  const stateBefore = await snapshotOf(sandbox);

  const answer = await send(scenario.trigger, saved);
  expect(answer.status).toBe(400);
  expectValidAnswer(scenario.trigger, 400, answer.body);
  const messages = answer.body.messages as Json[];
  expect(messages.map((m) => m.code)).toEqual(expectedCodes(scenario));
  for (const m of messages) {
    expect(m.type).toBe('BrokenBusinessRule');
    expect(m.description).toEqual(expect.any(String));
    expect(m.id).toBe(scenario.messageId === undefined ? null : resolve(scenario.messageId, saved));
  }

  expect(await readAll(), 'the reads answer the same').toEqual(readsBefore);
  for (const read of readsBefore) expect(read.status).toBe(200);
  expect(await snapshotOf(sandbox), 'the sandbox state is unchanged').toEqual(stateBefore);
  return answer;
}

/** A repeated combination fails at each occurrence; every other scenario breaks one rule once. */
const expectedCodes = (scenario: Scenario) =>
  scenario.code.endsWith('_CostCenterCostUnit_NotUnique') && Array.isArray(scenario.trigger.body)
    ? scenario.trigger.body.map(() => scenario.code)
    : [scenario.code];

export { PATHS };
