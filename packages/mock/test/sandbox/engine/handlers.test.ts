// Every operation of both descriptions has exactly one sandbox handler, so that no request
// can reach an operation the sandbox does not answer.
import { expect, it } from 'vitest';
import { handlerTable } from '#sandbox/responder/responder.js';
import { RESOURCE_MODULES } from '#sandbox/resources/index.js';
import { allOperations } from './operations.js';

it('has a handler for every operationId of the payroll and journal descriptions', () => {
  const handlers = handlerTable(RESOURCE_MODULES);
  const missing = allOperations()
    .filter((call) => !handlers.has(call.operationId))
    .map((call) => `${call.api} ${call.method.toUpperCase()} ${call.template} ${call.operationId}`);
  expect(missing).toEqual([]);
});

it('has no handler for an operation the descriptions do not have', () => {
  const described = new Set(allOperations().map((call) => call.operationId));
  const extra = [...handlerTable(RESOURCE_MODULES).keys()].filter((id) => !described.has(id));
  expect(extra).toEqual([]);
});
