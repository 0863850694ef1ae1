// Every validation code of the Journal API, each by its own scenario, through plain HTTP
// against the running sandbox, on the memory store and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { usePostgres } from '../../support/postgres.js';
import { journalBundle, runScenario, tokenFor, type Send } from './harness.js';
import { pathOf, resolve, SCENARIOS } from './scenarios.js';

const postgres = usePostgres();

function sender(url: string, token: string): Send {
  return async (step, saved) => {
    const hasBody = step.body !== undefined;
    const response = await fetch(`${url}${pathOf(step, saved)}`, {
      method: step.method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
      body: hasBody ? JSON.stringify(resolve(step.body, saved)) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

it('has one scenario per code the description lists (35)', () => {
  const listed = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) for (const code of value) if (typeof code === 'string' && /^API_Journa/.test(code)) listed.add(code);
        collect(value);
      }
    }
  };
  collect(journalBundle);
  expect(listed.size).toBe(35);
  expect(SCENARIOS.map((s) => s.code).sort()).toEqual([...listed].sort());
});

describe.each(['memory', 'postgresql'] as const)('journal validation codes over HTTP (%s store)', (store) => {
  let running: RunningMock;
  beforeAll(async () => {
    running = await startMock({ port: 0, mode: 'sandbox', ...(store === 'postgresql' ? { databaseUrl: await postgres().database('journal_rules') } : {}) });
  });
  afterAll(async () => {
    await running?.close();
  });

  it.each(SCENARIOS.map((s) => [s.code, s] as const))('%s', async (_code, scenario) => {
    const token = tokenFor(scenario, 'http');
    await runScenario(scenario, { url: running.url, token }, sender(running.url, token));
  });
});
