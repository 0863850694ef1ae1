// Every operation of both descriptions, called in the sandbox as the description shows it
// (seed ids, the request examples as bodies), answers with a described status and a body that
// validates against the bundle's schema at the negotiated resource version. Each operation
// runs in a sandbox of its own, so that a DELETE does not take what a later GET reads.
import { expect, it } from 'vitest';
import { freshToken, sandboxMock } from '../../helpers.js';
import { allOperations, callOperation, responseChecker } from './operations.js';

const mock = sandboxMock();

it('answers every operation with a described status and a body matching its schema', { timeout: 120_000 }, async () => {
  const check = responseChecker();
  const failures: string[] = [];
  const calls = allOperations();
  let validated = 0;
  for (let i = 0; i < calls.length; i += 8) {
    await Promise.all(
      calls.slice(i, i + 8).map(async (call) => {
        const outcome = await callOperation(call, mock().url, freshToken(call.operationId));
        const name = `${call.operationId} (${call.method.toUpperCase()} ${call.template})`;
        if ('skipped' in outcome) return failures.push(`${name}: not called: ${outcome.skipped}`);
        const { res } = outcome;
        if (res.status < 200 || res.status >= 300) return failures.push(`${name}: ${res.status} ${res.text.slice(0, 300)}`);
        const problems = check(call, res);
        if (problems.length > 0) failures.push(`${name}: ${problems.join('; ')}`);
        else validated++;
      }),
    );
  }
  expect(failures.sort()).toEqual([]);
  expect(validated).toBe(calls.length);
});
