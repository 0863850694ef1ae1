// Every validation code of the Journal API through this client against the mock's sandbox:
// the same scenarios as the mock's own HTTP test (packages/mock/test/sandbox/journal), sent
// with createJournalClient; each refusal arrives as an ApiError naming the operation, with
// the code in its BrokenBusinessRule messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createJournalClient } from '../src/index.js';
import { runScenario, tokenFor, type Send } from '../../mock/test/sandbox/journal/harness.js';
import { resolve, SCENARIOS } from '../../mock/test/sandbox/journal/scenarios.js';
import { startMock, type RunningMock } from './mock-server.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

describe('journal validation codes through the client', () => {
  it.each(SCENARIOS.map((s) => [s.code, s] as const))('%s', async (_code, scenario) => {
    const token = tokenFor(scenario, 'client');
    const client = createJournalClient({ baseUrl: mock.origin, auth: token });
    const errors: ApiError[] = [];
    const send: Send = async (step, saved) => {
      const options = { params: { path: resolve(step.params, saved) }, ...(step.body === undefined ? {} : { body: resolve(step.body, saved) }) };
      const result = await (client as unknown as Record<string, (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>>)[step.method]!(step.path, options);
      const error = ApiError.from(result);
      if (!error) return { status: result.response.status, body: result.data };
      errors.push(error);
      return { status: error.status, body: error.body };
    };
    await runScenario(scenario, { url: mock.origin, token }, send);

    expect(errors).toHaveLength(1);
    const [error] = errors as [ApiError];
    expect(error.operation).toBe(scenario.operation);
    expect(error.status).toBe(400);
    const codes: unknown[] = error.byType.BrokenBusinessRule.map((m) => m.code);
    expect(codes).toContain(scenario.code);
    expect(error.message).toContain(scenario.operation);
    // A matrix edit's failed action is tied to its entity.
    if (scenario.messageId) expect(error.byEntity.get(scenario.messageId)?.map((m) => m.code as unknown)).toContain(scenario.code);
  });
});
