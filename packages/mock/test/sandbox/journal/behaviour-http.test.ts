// The journal rules around the codes: what succeeds, how codes compare, several failing rules
// at once, the matrix edit as a multi-patch, and what deleting each kind of payroll
// administration profile removes. Plain HTTP against the running sandbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { COST_CENTER_IDS as CC, COST_UNIT_IDS as CU, JOURNAL_PROFILE_IDS as P } from '#sandbox/seed/journal.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';
import { expectValidAnswer, reset, snapshotOf, type Answer, type Sandbox } from './harness.js';
import { PATHS, pathOf, UNKNOWN_ID, type Method, type Step } from './scenarios.js';

let running: RunningMock;
let sandbox: Sandbox;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  sandbox = { url: running.url, token: 'journal-behaviour' };
});
afterAll(async () => {
  await running?.close();
});
beforeEach(async () => {
  await reset(sandbox);
});

const W = P.wageModelStandard;
const PA = ORG_IDS.payrollAdministrations.bouwgroepMonthly;

/** Sends one request and checks a 2xx or 400 answer against the operation's schema. */
async function call(method: Method, path: Step['path'], params: Record<string, string>, body?: unknown): Promise<Answer> {
  const step: Step = { method, path, params, body };
  const response = await fetch(`${sandbox.url}${pathOf(step)}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.token}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const answer = { status: response.status, body: text ? JSON.parse(text) : undefined };
  if (answer.status < 300 || answer.status === 400) expectValidAnswer(step, answer.status, answer.body);
  return answer;
}
const codesOf = (answer: Answer) => (answer.body.messages as Array<{ code: unknown }>).map((m) => m.code);
const costCenterCodes = async (profile: string = W) => ((await call('GET', PATHS.costCenters, { journalProfileId: profile })).body._embedded as Array<{ code: string }>).map((c) => c.code);
const matrixOf = async () => (await call('GET', PATHS.matrix, { journalProfileId: W })).body._embedded;

describe('cost centers and cost units', () => {
  it('creates, lists, edits and deletes a cost center', async () => {
    const created = await call('POST', PATHS.costCenters, { journalProfileId: W }, { code: 'K160' });
    expect(created.status).toBe(201);
    const id = created.body.content.id as string;
    expect(created.body.content).toEqual({ id, code: 'K160' });
    expect(await costCenterCodes()).toContain('K160');

    const edited = await call('PATCH', PATHS.costCenter, { costCenterId: id }, { code: 'K170' });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toEqual({ id, code: 'K170' });

    const deleted = await call('DELETE', PATHS.costCenter, { costCenterId: id });
    expect(deleted.status).toBe(200);
    expect(deleted.body.content).toEqual({});
    expect(await costCenterCodes()).not.toContain('K170');
    const gone = await call('PATCH', PATHS.costCenter, { costCenterId: id }, { code: 'K180' });
    expect(gone).toEqual({ status: 404, body: undefined });
  });

  it('refuses a cost center without a code, naming the field with no journal code', async () => {
    const before = await costCenterCodes();
    const refused = await call('POST', PATHS.costCenters, { journalProfileId: W }, {});
    expect(refused.status).toBe(400);
    // The post model requires the code: the request stage refuses it, with no code (no journal code names this).
    expect(refused.body.messages).toEqual([{ id: null, type: 'BrokenBusinessRule', description: 'The field code is required.', properties: ['code'] }]);
    expect(await costCenterCodes()).toEqual(before);
  });

  it('deletes a cost unit nothing uses', async () => {
    expect((await call('DELETE', PATHS.costUnit, { costUnitId: CU.unused })).status).toBe(200);
    expect((await call('GET', PATHS.costUnits, { journalProfileId: W })).body._embedded.map((c: { id: string }) => c.id)).not.toContain(CU.unused);
  });

  it('compares codes case-insensitively and without trailing spaces, and stores them as sent', async () => {
    const leading = await call('POST', PATHS.costCenters, { journalProfileId: W }, { code: ' K100' });
    expect(leading.status).toBe(201);
    expect(leading.body.content.code).toBe(' K100');
    const trailing = await call('POST', PATHS.costCenters, { journalProfileId: W }, { code: 'k100  ' });
    expect(codesOf(trailing)).toEqual(['API_Journal_WageModelCostCenter_Code_NotUnique_WageModelLevel']);
    expect(trailing.body.messages[0].properties).toEqual(['code']);
  });

  it('keeps codes unique per journal profile: another profile may use the same code', async () => {
    expect(await costCenterCodes(P.wageModelProjects)).toEqual(['K100']);
    expect((await call('POST', PATHS.costCenters, { journalProfileId: P.wageModelProjects }, { code: 'K200' })).status).toBe(201);
  });

  it("renames the copy an employment's journal allocation keeps, so the payroll API shows the new code", async () => {
    expect((await call('PATCH', PATHS.costCenter, { costCenterId: CC.inJournalAllocation }, { code: 'K501' })).status).toBe(200);
    const response = await fetch(`${sandbox.url}/v2/v2/providers/employers/${SEED_IDS.employer}/employees/employments/comprehensive?pageSize=250`, {
      headers: { Authorization: `Bearer ${sandbox.token}`, Accept: 'application/json;version=2018-01-01' },
    });
    expect(response.status).toBe(200);
    const allocations = ((await response.json())._embedded as Array<{ journalAllocation: { allocationBasedOnActualHours?: { costCenter?: { key: string; code: string } | null } } | null }>)
      .map((item) => item.journalAllocation?.allocationBasedOnActualHours?.costCenter)
      .filter((costCenter) => costCenter?.key === CC.inJournalAllocation);
    expect(allocations).toEqual([expect.objectContaining({ key: CC.inJournalAllocation, code: 'K501' })]);
  });

  it('lets a cost center keep its own code in another case', async () => {
    const edited = await call('PATCH', PATHS.costCenter, { costCenterId: CC.unused }, { code: 'k100' });
    expect(edited.status).toBe(200);
    expect(edited.body.content.code).toBe('k100');
  });

  it('reports every use that blocks a delete, in the order of the codes', async () => {
    const refused = await call('DELETE', PATHS.costCenter, { costCenterId: CC.inLinkAndMatrix });
    expect(refused.status).toBe(400);
    expect(codesOf(refused)).toEqual([
      'API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_WageModelLevel',
      'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_WageModelLevel',
    ]);
  });

  it('reports a code taken at several levels once per level, in the order of the levels', async () => {
    // The API cannot write the provider level: the state comes from a snapshot of the seed
    // with one more provider-level cost center, coded as a payroll administration's own one.
    const state = await snapshotOf(sandbox);
    const provider = state.collections.journalCostCenters.find((d: { id: string }) => d.id === CC.provider);
    state.collections.journalCostCenters.push({ ...provider, id: UNKNOWN_ID, code: 'K-AMS' });
    const imported = await fetch(`${sandbox.url}/__sandbox/snapshot`, { method: 'PUT', headers: { Authorization: `Bearer ${sandbox.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(state) });
    expect(imported.status).toBeLessThan(300);
    const refused = await call('POST', PATHS.costCenters, { journalProfileId: W }, { code: 'k-ams' });
    expect(codesOf(refused)).toEqual([
      'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel',
      'API_Journal_WageModelCostCenter_Code_NotUnique_PayrollAdministrationLevel',
    ]);
  });

  it('answers 404 without a body for an unknown journal profile or a profile of another level', async () => {
    for (const journalProfileId of [UNKNOWN_ID, P.providerStandard, P.ownUnused]) {
      expect(await call('GET', PATHS.costCenters, { journalProfileId })).toEqual({ status: 404, body: undefined });
      expect(await call('POST', PATHS.costUnits, { journalProfileId }, { code: 'X1' })).toEqual({ status: 404, body: undefined });
    }
    // A payroll administration level cost center is not addressed by the wage model paths.
    expect(await call('DELETE', PATHS.costCenter, { costCenterId: CC.administrationAddition })).toEqual({ status: 404, body: undefined });
  });
});

describe('matrix edit', () => {
  it('links and unlinks combinations', async () => {
    const linked = await call('PATCH', PATHS.matrix, { journalProfileId: W }, [{ costCenterId: CC.unused, costUnitId: CU.unused, isLinked: true }]);
    expect(linked.status).toBe(200);
    expect(linked.body.messages).toEqual([]);
    expect(linked.body._embedded).toContainEqual({ costCenterId: CC.unused, costUnitId: CU.unused, isLocked: false });
    const unlinked = await call('PATCH', PATHS.matrix, { journalProfileId: W }, [{ costCenterId: CC.unused, costUnitId: CU.unused, isLinked: false }]);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body._embedded).not.toContainEqual(expect.objectContaining({ costCenterId: CC.unused }));
  });

  it('answers 200 when one action succeeded, with a message carrying the id of each failed one', async () => {
    const before = await matrixOf();
    const answer = await call('PATCH', PATHS.matrix, { journalProfileId: W }, [
      { costCenterId: CC.inMatrixWageModel, costUnitId: CU.inMatrixWageModel, isLinked: false },
      { costCenterId: CC.unused, costUnitId: CU.unused, isLinked: true },
      { costCenterId: UNKNOWN_ID, costUnitId: CU.unused, isLinked: true },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.messages.map((m: { code: string; id: string }) => [m.code, m.id])).toEqual([
      ['API_Journal_WageModelCostCenterCostUnitMatrix_CostCenterCostUnit_IsLocked', CC.inMatrixWageModel],
      ['API_Journal_WageModelCostCenterCostUnitMatrix_CostCenter_NotExists', UNKNOWN_ID],
    ]);
    const expected = [...before, { costCenterId: CC.unused, costUnitId: CU.unused, isLocked: false }].sort(byCombination);
    expect([...answer.body._embedded].sort(byCombination)).toEqual(expected);
    expect((await matrixOf()).sort(byCombination)).toEqual(expected);
  });

  it('reports every failure of one item, in the order of the codes', async () => {
    const answer = await call('PATCH', PATHS.matrix, { journalProfileId: W }, [{ costCenterId: UNKNOWN_ID, costUnitId: CC.unused, isLinked: true }]);
    expect(answer.status).toBe(400);
    expect(answer.body.messages.map((m: { code: string; id: string }) => [m.code, m.id])).toEqual([
      ['API_Journal_WageModelCostCenterCostUnitMatrix_CostCenter_NotExists', UNKNOWN_ID],
      ['API_Journal_WageModelCostCenterCostUnitMatrix_CostUnit_NotExists', CC.unused],
    ]);
  });
});

const byCombination = (a: { costCenterId: string; costUnitId: string }, b: { costCenterId: string; costUnitId: string }) =>
  `${a.costCenterId}${a.costUnitId}`.localeCompare(`${b.costCenterId}${b.costUnitId}`);

describe('journal profiles', () => {
  it('creates a wage model profile, which lists and owns no cost centers yet', async () => {
    const created = await call('POST', PATHS.wageModelProfiles, { wageModelId: SEED_IDS.wageModel }, { description: 'Reiskosten' });
    expect(created.status).toBe(201);
    const listed = await call('GET', PATHS.wageModelProfiles, { wageModelId: SEED_IDS.wageModel });
    expect(listed.body._embedded).toContainEqual(created.body.content);
    expect(await costCenterCodes(created.body.content.id)).toEqual([]);
    expect(await call('GET', PATHS.wageModelProfiles, { wageModelId: UNKNOWN_ID })).toEqual({ status: 404, body: undefined });
  });

  it('creates, reads and edits a payroll administration profile', async () => {
    const created = await call('POST', PATHS.administrationProfiles, { payrollAdministrationId: PA }, { description: 'Vestiging Eindhoven' });
    expect(created.status).toBe(201);
    const journalProfileId = created.body.content.id as string;
    expect((await call('GET', PATHS.administrationProfile, { journalProfileId })).body.content).toEqual({ id: journalProfileId, description: 'Vestiging Eindhoven' });
    const edited = await call('PATCH', PATHS.administrationProfile, { journalProfileId }, { description: 'Vestiging Tilburg' });
    expect(edited.body.content).toEqual({ id: journalProfileId, description: 'Vestiging Tilburg' });
    expect(await call('POST', PATHS.administrationProfiles, { payrollAdministrationId: UNKNOWN_ID }, { description: 'X' })).toEqual({ status: 404, body: undefined });
  });

  it('deleting a deviating profile removes only the deviation', async () => {
    const before = await snapshotOf(sandbox);
    const deleted = await call('DELETE', PATHS.administrationProfile, { journalProfileId: P.deviationUnused });
    expect(deleted.status).toBe(200);
    expect(deleted.body.content).toEqual({});
    expect(await call('GET', PATHS.administrationProfile, { journalProfileId: P.deviationUnused })).toEqual({ status: 404, body: undefined });
    const listed = await call('GET', PATHS.wageModelProfiles, { wageModelId: SEED_IDS.wageModel });
    expect(listed.body._embedded.map((p: { id: string }) => p.id)).toContain(P.wageModelProjects);
    expect(removedDocs(before, await snapshotOf(sandbox))).toEqual([`journalProfiles/${P.deviationUnused}`]);
  });

  it("deleting the administration's own profile deletes its children", async () => {
    const before = await snapshotOf(sandbox);
    expect((await call('DELETE', PATHS.administrationProfile, { journalProfileId: P.ownUnused })).status).toBe(200);
    const removed = removedDocs(before, await snapshotOf(sandbox));
    expect(removed).toEqual(expect.arrayContaining([`journalProfiles/${P.ownUnused}`, `journalCostCenters/${CC.ownUnused}`, `journalCostUnits/${CU.ownUnused}`]));
    expect(removed.filter((doc) => doc.startsWith('journalMatrixEntries/'))).toHaveLength(1);
    expect(removed).toHaveLength(4);
  });

  it('refuses to delete a profile of another level', async () => {
    expect(await call('DELETE', PATHS.administrationProfile, { journalProfileId: W })).toEqual({ status: 404, body: undefined });
  });
});

/** `collection/id` of every doc in `before` that `after` no longer has. */
function removedDocs(before: { collections: Record<string, Array<{ id: string }>> }, after: { collections: Record<string, Array<{ id: string }>> }): string[] {
  const removed: string[] = [];
  for (const [name, docs] of Object.entries(before.collections)) {
    const kept = new Set((after.collections[name] ?? []).map((d) => d.id));
    for (const doc of docs) if (!kept.has(doc.id)) removed.push(`${name}/${doc.id}`);
  }
  return removed;
}
