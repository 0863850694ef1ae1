// Every operation of both descriptions is answered: claimed by a resource module (the contract's
// rules), or derived from its description (resources/derived.ts); none is both, and no module
// claims an operation the descriptions do not have. The sandbox README lists the claimed ones.
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { handlerTable } from '#sandbox/responder/responder.js';
import { RESOURCE_MODULES } from '#sandbox/resources/index.js';
import { deriveOperations } from '#sandbox/resources/derived.js';
import { realBundle } from '../../fixtures/fixture.js';
import { allOperations } from './operations.js';
import { describedJournal } from '../../support/described-operations.js';

const README = new URL('../../../../sandbox/README.md', import.meta.url);
const handlers = handlerTable(RESOURCE_MODULES);

it('answers every operation of the payroll and journal descriptions, each claimed by a module or derived', () => {
  const derived = { payroll: deriveOperations('payroll', realBundle('payroll'), RESOURCE_MODULES), journal: deriveOperations('journal', realBundle('journal'), RESOURCE_MODULES) };
  const unanswered = allOperations()
    .filter((call) => !handlers.has(call.operationId) && !derived[call.api].shapes.has(call.operationId))
    .map((call) => `${call.api} ${call.method.toUpperCase()} ${call.template} ${call.operationId}: ${derived[call.api].problems.get(call.operationId) ?? 'no shape'}`);
  expect(unanswered).toEqual([]);
  const both = allOperations().filter((call) => handlers.has(call.operationId) && derived[call.api].shapes.has(call.operationId));
  expect(both).toEqual([]);
});

it('derives the operations a description gains and no module claims', () => {
  const derived = deriveOperations('journal', describedJournal(), RESOURCE_MODULES);
  expect(Object.fromEntries([...derived.shapes].map(([id, shape]) => [id, `${shape.kind} ${shape.collection}`]))).toEqual({
    GetCostUnitAtWageModelLevelByCostUnitId: 'detail journalCostUnits',
    GetCostUnitGroupsByJournalProfileId: 'list costUnitGroups',
    PostCostUnitGroupByJournalProfileId: 'create costUnitGroups',
    PatchCostUnitGroupByCostUnitGroupId: 'merge costUnitGroups',
  });
  expect(derived.collections).toEqual([{ name: 'costUnitGroups', schema: { api: 'journal', component: 'CostUnitGroup' }, relations: [{ field: 'journalProfileId', collection: 'journalProfiles' }] }]);
});

it('has no handler for an operation the descriptions do not have', () => {
  const described = new Set(allOperations().map((call) => call.operationId));
  const extra = [...handlers.keys()].filter((id) => !described.has(id));
  expect(extra).toEqual([]);
});

it('lists the claimed operations in the sandbox README, by module', () => {
  const text = fs.readFileSync(README, 'utf8');
  const listed = new Set([...text.matchAll(/<!-- claimed:start -->([\s\S]*?)<!-- claimed:end -->/g)].flatMap((m) => [...m[1]!.matchAll(/`(\w+)`/g)].map((n) => n[1]!)));
  expect([...listed].filter((id) => /^[A-Z]/.test(id)).sort()).toEqual([...handlers.keys()].sort());
});
