// Stateful sequences: what a server that keeps state must do across requests. For every
// resource whose operations allow it: create → read → find in the list (filtered on a field it
// just wrote, where the list takes a filter) → update → read back → delete → 404; the
// employment's termination and reinstatement; and journal creates repeated, which must be
// refused. Each sequence is one case, attributed to its create operation.
import { chainOf } from '@payroll-api/version-changes';
import { messagesOf, type Expectation } from './checks.js';
import type { Finding } from './findings.js';
import { curlOf, type Exchange } from './http.js';
import type { IdPool } from './plan/ids.js';
import type { RequestParts, Target } from './plan/requests.js';
import { bodyExample } from './plan/requests.js';
import type { ApiDescription, OperationSpec } from './description.js';
import { listOrderField, nestedTextField, withValueAt } from './fields.js';
import { crossVersionMismatches, valuesAt } from './version-window.js';

export interface SequenceContext {
  targets: Target[];
  pool: IdPool;
  seed: number;
  exchange(operationId: string, parts: RequestParts, expect: Expectation): Promise<{ exchange: Exchange; findings: Finding[] } | undefined>;
  record(operationId: string, version: string | null, title: string, findings: Finding[], requests: number, ms: number, skipped?: string): void;
  requestCount(): number;
  versionOf(operationId: string): string | null;
}

class SequenceFailed extends Error {}

/** The server refused the first write with a business rule: the sequence cannot run, which is not a finding. */
class SequenceSkipped extends Error {}

type Json = Record<string, unknown>;

const SMALL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A citizen service number that passes the 11-test, derived from `n`. */
export function validBsn(n: number): string {
  for (let candidate = 100_000_000 + (Math.abs(n) % 800_000_000); ; candidate++) {
    const digits = String(candidate).split('').map(Number);
    const sum = digits.slice(0, 8).reduce((acc, d, i) => acc + d * (9 - i), 0) - (digits[8] ?? 0);
    if (sum % 11 === 0) return String(candidate);
  }
}

const contentOf = (body: unknown): Json => {
  const b = body as Json | undefined;
  return ((b && typeof b === 'object' && 'content' in b ? b.content : b) ?? {}) as Json;
};
const embedded = (body: unknown): Json[] => (((body as Json | undefined)?._embedded as Json[] | undefined) ?? []);

function exampleOf(ctx: SequenceContext, operationId: string): Json | undefined {
  for (const target of ctx.targets) {
    const operation = target.api.operations.find((o) => o.operationId === operationId);
    if (operation) return bodyExample(operation, ctx.versionOf(operationId)) as Json | undefined;
  }
  return undefined;
}

/** The operation of the description (either API) with this id. */
function describedOperation(ctx: SequenceContext, operationId: string): { api: ApiDescription; operation: OperationSpec } | undefined {
  for (const target of ctx.targets) {
    const operation = target.api.operations.find((o) => o.operationId === operationId);
    if (operation) return { api: target.api, operation };
  }
  return undefined;
}

/**
 * The nested text field `write` takes and `read` answers at the versions they are sent at, and
 * the one `list` is ordered on; none found skips the sequence, as the description gives nothing to check.
 */
function fieldsOf(ctx: SequenceContext, write: string, read: string, list: string): { written: string; orderedOn: string } {
  const [writer, reader, lister] = [write, read, list].map((id) => describedOperation(ctx, id));
  const written = writer && reader ? nestedTextField(writer.api, writer.operation, reader.operation, ctx.versionOf) : undefined;
  if (!written) throw new SequenceSkipped(`the description gives ${write} no nested text field that ${read} answers`);
  const orderedOn = lister ? listOrderField(lister.api, lister.operation, ctx.versionOf) : undefined;
  if (!orderedOn) throw new SequenceSkipped(`the description gives the items of ${list} no nested text field to order on`);
  return { written, orderedOn };
}

/** The value written at `path` is the value read there. */
function checkReadBack(step: Step, entity: Json, path: string, written: string, request: Exchange['request']): void {
  const read = valuesAt(entity, path);
  step.check(read[0] === written, `the updated ${path} is not read back: ${JSON.stringify(written)} was written, ${read.length > 0 ? JSON.stringify(read[0]) : 'nothing'} is read`, request);
}

/** The list ordered descending on the nested field `path` comes back in that order. */
async function checkOrdered(step: Step, list: string, params: Record<string, string>, path: string): Promise<void> {
  const ordered = await step(list, { params, query: { orderBy: `-${path}`, pageSize: '250' } }, [200], `order the list on a nested field (orderBy=-${path})`);
  const values = embedded(ordered.body).map((item) => valuesAt(item, path)[0]);
  const misplaced = values.findIndex((value, i) => i > 0 && descendsBefore(value, values[i - 1]));
  step.check(misplaced === -1, `orderBy=-${path}: ${JSON.stringify(values[misplaced - 1])} comes before ${JSON.stringify(values[misplaced])}`, ordered.request);
}

function hasOperations(ctx: SequenceContext, ids: string[]): boolean {
  return ids.every((id) => ctx.targets.some((t) => t.api.operations.some((o) => o.operationId === id)));
}

function pathOf(ctx: SequenceContext, operationId: string): string {
  for (const target of ctx.targets) {
    const operation = target.api.operations.find((o) => o.operationId === operationId);
    if (operation) return operation.path;
  }
  return '';
}

async function sequence(ctx: SequenceContext, owner: string, title: string, operations: string[], steps: (step: Step) => Promise<void>): Promise<void> {
  if (!hasOperations(ctx, operations)) return;
  const findings: Finding[] = [];
  const before = ctx.requestCount();
  const started = performance.now();
  let first = true;
  const step: Step = async (operationId, parts, statuses, label) => {
    // A step may ask for another served version than the negotiated default (the version window).
    const version = parts.version !== undefined ? parts.version : ctx.versionOf(operationId);
    const result = await ctx.exchange(operationId, { ...parts, version }, { version, statuses });
    if (!result) throw new SequenceFailed(`${operationId} is not described`);
    const status = result.exchange.response?.status;
    const refusedFirst = first && status === 400 && result.findings.every((f) => f.check === 'status');
    first = false;
    if (refusedFirst) throw new SequenceSkipped(`the server refused the create (${label}): ${messagesOf(result.exchange.response?.json)}`);
    findings.push(...result.findings);
    if (status === undefined || !statuses.includes(status)) {
      findings.push({ check: 'sequence', message: `${label}: expected ${statuses.join(' or ')}, got ${status ?? result.exchange.error}${status && status >= 400 ? ` (${messagesOf(result.exchange.response?.json)})` : ''}`, curl: curlOf(result.exchange.request), status });
      throw new SequenceFailed(label);
    }
    return { body: result.exchange.response?.json, request: result.exchange.request };
  };
  const check: Check = (ok, message, request) => {
    if (!ok) {
      findings.push({ check: 'sequence', message, curl: request ? curlOf(request) : undefined });
      throw new SequenceFailed(message);
    }
  };
  step.check = check;
  let skipped: string | undefined;
  try {
    await steps(step);
  } catch (error) {
    if (error instanceof SequenceSkipped) skipped = error.message;
    else if (!(error instanceof SequenceFailed)) throw error;
  }
  ctx.record(owner, ctx.versionOf(owner), title, findings, ctx.requestCount() - before, performance.now() - started, skipped);
}

type Check = (ok: boolean, message: string, request?: Exchange['request']) => void;
interface Step {
  (operationId: string, parts: Omit<RequestParts, 'version'> & { version?: string | null }, statuses: number[], label: string): Promise<{ body: unknown; request: Exchange['request'] }>;
  check: Check;
}

const quoteFilter = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Whether `name` may not follow `previous` in a descending order of text: the description
 * compares case-insensitively and sorts nulls first when descending.
 */
function descendsBefore(name: unknown, previous: unknown): boolean {
  if (previous == null) return false;
  if (name == null) return true;
  return String(name).toLowerCase() > String(previous).toLowerCase();
}

export async function runSequences(ctx: SequenceContext): Promise<void> {
  const tag = `${ctx.seed.toString(36)}${Date.now().toString(36).slice(-5)}`;
  const param = (name: string, operationId: string) => ctx.pool.value(name, pathOf(ctx, operationId));

  // Provider logos.
  const providerId = param('providerId', 'PostProviderLogoByProviderId');
  if (providerId) {
    await sequence(ctx, 'PostProviderLogoByProviderId', 'create → read → list (filter name) → update → read back → delete → 404', ['PostProviderLogoByProviderId', 'GetProviderLogoByLogoId', 'GetProviderLogosByProviderId', 'PutProviderLogoByLogoId', 'DeleteProviderLogoByLogoId'], async (step) => {
      const name = `Conformance ${tag}`.slice(0, 50);
      const body = { ...(exampleOf(ctx, 'PostProviderLogoByProviderId') ?? {}), attribute: 'conf', name, data: SMALL_PNG, mimeType: 'image/png' };
      const created = await step('PostProviderLogoByProviderId', { params: { providerId }, body }, [200, 201], 'create a logo');
      const logoId = String(contentOf(created.body).id ?? '');
      step.check(/^[0-9a-f-]{36}$/i.test(logoId), 'the created logo has no id', created.request);
      const read = await step('GetProviderLogoByLogoId', { params: { logoId } }, [200], 'read the created logo');
      step.check(contentOf(read.body).name === name, `the logo read back is named ${JSON.stringify(contentOf(read.body).name)}, not ${JSON.stringify(name)}`, read.request);
      const listed = await step('GetProviderLogosByProviderId', { params: { providerId }, query: { filter: `name eq ${quoteFilter(name)}` } }, [200], 'find the logo in the list');
      step.check(embedded(listed.body).some((l) => l.id === logoId), 'the list filtered on the new name does not hold the created logo', listed.request);
      const renamed = `${name.slice(0, 44)} (2)`;
      await step('PutProviderLogoByLogoId', { params: { logoId }, body: { ...body, name: renamed } }, [200], 'update the logo');
      const again = await step('GetProviderLogoByLogoId', { params: { logoId } }, [200], 'read the updated logo');
      step.check(contentOf(again.body).name === renamed, 'the update is not read back', again.request);
      await step('DeleteProviderLogoByLogoId', { params: { logoId } }, [200], 'delete the logo');
      await step('GetProviderLogoByLogoId', { params: { logoId } }, [404], 'the deleted logo answers 404');
    });
  }

  // Employees, with their employment's termination and reinstatement.
  const employerId = param('employerId', 'PostEmployeeByEmployerId');
  if (employerId) {
    const employeeOps = ['PostEmployeeByEmployerId', 'GetEmployeeByEmployeeId', 'GetEmployeesByEmployerId', 'PutEmployeeByEmployeeId', 'GetEmploymentByEmploymentId', 'PatchTerminateByEmploymentId', 'PatchReinstateByEmploymentId', 'DeleteEmploymentByEmploymentId'];
    await sequence(ctx, 'PostEmployeeByEmployerId', 'create → read → list (filter employeeNumber) → update → read back → list (orderBy a nested field) → terminate → reinstate → delete → 404', employeeOps, async (step) => {
      const employeeNumber = 900_000 + (Number.parseInt(tag, 36) % 90_000);
      const example = exampleOf(ctx, 'PostEmployeeByEmployerId') ?? {};
      const employeeData = { ...((example.employeeData as Json) ?? {}), employeeNumber };
      const body = { ...example, employeeData, citizenServiceNumber: { citizenServiceNumber: validBsn(employeeNumber) } };
      const created = await step('PostEmployeeByEmployerId', { params: { employerId }, body }, [200, 201], 'create an employee');
      const ids = contentOf(created.body);
      const employeeId = String(ids.employeeId ?? '');
      const employmentId = String(ids.employmentId ?? '');
      step.check(employeeId.length === 36 && employmentId.length === 36, 'the answer holds no employeeId and employmentId', created.request);
      const read = await step('GetEmployeeByEmployeeId', { params: { employeeId } }, [200], 'read the created employee');
      step.check(contentOf(read.body).employeeNumber === employeeNumber, `employeeNumber read back is ${JSON.stringify(contentOf(read.body).employeeNumber)}, not ${employeeNumber}`, read.request);
      const listed = await step('GetEmployeesByEmployerId', { params: { employerId }, query: { filter: `employeeNumber eq ${employeeNumber}` } }, [200], 'find the employee in the list');
      step.check(embedded(listed.body).some((e) => e.id === employeeId), 'the list filtered on the new employeeNumber does not hold the created employee', listed.request);
      const current = contentOf(read.body);
      const update = exampleOf(ctx, 'PutEmployeeByEmployeeId') ?? {};
      const fields = fieldsOf(ctx, 'PutEmployeeByEmployeeId', 'GetEmployeeByEmployeeId', 'GetEmployeesByEmployerId');
      const written = `Conformance${tag}`.slice(0, 25);
      await step('PutEmployeeByEmployeeId', { params: { employeeId }, body: withValueAt({ ...update, employeeNumber: current.employeeNumber }, fields.written, written) }, [200], 'update the employee');
      const again = await step('GetEmployeeByEmployeeId', { params: { employeeId } }, [200], 'read the updated employee');
      checkReadBack(step, contentOf(again.body), fields.written, written, again.request);
      await checkOrdered(step, 'GetEmployeesByEmployerId', { employerId }, fields.orderedOn);

      const employment = contentOf((await step('GetEmploymentByEmploymentId', { params: { employmentId } }, [200], 'read the new employment')).body);
      const start = typeof employment.startDate === 'string' ? employment.startDate : new Date().toISOString().slice(0, 10);
      const endDate = new Date(Date.parse(`${start}T00:00:00Z`) + 90 * 86_400_000).toISOString().slice(0, 10);
      const terminate = { ...(exampleOf(ctx, 'PatchTerminateByEmploymentId') ?? {}), endDate, endOfEmploymentDueToIllness: false, createMdvEntry: false };
      await step('PatchTerminateByEmploymentId', { params: { employmentId }, body: terminate }, [200], 'terminate the employment');
      const ended = await step('GetEmploymentByEmploymentId', { params: { employmentId } }, [200], 'read the terminated employment');
      step.check(contentOf(ended.body).endDate === endDate, `endDate read back is ${JSON.stringify(contentOf(ended.body).endDate)}, not ${endDate}`, ended.request);
      await step('PatchReinstateByEmploymentId', { params: { employmentId }, body: {} }, [200], 'reinstate the employment');
      const active = await step('GetEmploymentByEmploymentId', { params: { employmentId } }, [200], 'read the reinstated employment');
      step.check(contentOf(active.body).endDate == null, 'the reinstated employment still has an endDate', active.request);
      await step('PatchReinstateByEmploymentId', { params: { employmentId }, body: {} }, [400], 'reinstating an active employment is refused');

      await step('DeleteEmploymentByEmploymentId', { params: { employmentId } }, [200], 'delete the only employment (and so the person)');
      await step('GetEmployeeByEmployeeId', { params: { employeeId } }, [404], 'the deleted person answers 404');
    });
  }

  // Concept employees: no delete is described.
  if (employerId) {
    await sequence(ctx, 'PostConceptEmployeeByEmployerId', 'create → read → list (filter uniqueName) → update (minimized) → read back → list (orderBy a nested field)', ['PostConceptEmployeeByEmployerId', 'GetConceptEmployeeByConceptEmployeeId', 'GetConceptEmployeesByEmployerId', 'PutConceptEmployeeMinimizedByConceptEmployeeId', 'GetConceptEmployeeMinimizedByConceptEmployeeId'], async (step) => {
      const uniqueName = `Conformance ${tag}`;
      const created = await step('PostConceptEmployeeByEmployerId', { params: { employerId }, body: { ...(exampleOf(ctx, 'PostConceptEmployeeByEmployerId') ?? {}), uniqueName } }, [200, 201], 'create a concept employee');
      const conceptEmployeeId = String(contentOf(created.body).id ?? '');
      step.check(conceptEmployeeId.length === 36, 'the created concept employee has no id', created.request);
      const read = await step('GetConceptEmployeeByConceptEmployeeId', { params: { conceptEmployeeId } }, [200], 'read the created concept employee');
      step.check(contentOf(read.body).uniqueName === uniqueName, 'uniqueName is not read back', read.request);
      const listed = await step('GetConceptEmployeesByEmployerId', { params: { employerId }, query: { filter: `uniqueName eq ${quoteFilter(uniqueName)}` } }, [200], 'find the concept employee in the list');
      step.check(embedded(listed.body).some((c) => c.id === conceptEmployeeId), 'the list filtered on uniqueName does not hold the created concept employee', listed.request);
      const minimized = exampleOf(ctx, 'PutConceptEmployeeMinimizedByConceptEmployeeId') ?? {};
      const fields = fieldsOf(ctx, 'PutConceptEmployeeMinimizedByConceptEmployeeId', 'GetConceptEmployeeMinimizedByConceptEmployeeId', 'GetConceptEmployeesByEmployerId');
      const written = `Conformance${tag}`.slice(0, 25);
      await step('PutConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId }, body: withValueAt(minimized, fields.written, written) }, [200], 'update the minimized concept employee');
      const again = await step('GetConceptEmployeeMinimizedByConceptEmployeeId', { params: { conceptEmployeeId } }, [200], 'read the minimized concept employee');
      checkReadBack(step, contentOf(again.body), fields.written, written, again.request);
      // The concept employees' own list.
      await checkOrdered(step, 'GetConceptEmployeesByEmployerId', { employerId }, fields.orderedOn);
    });
  }

  // Journal: cost centers and cost units at wage model level.
  for (const kind of ['CostCenter', 'CostUnit'] as const) {
    const post = `Post${kind}AtWageModelLevelByJournalProfileId`;
    const list = `Get${kind}sAtWageModelLevelByJournalProfileId`;
    const patch = `Patch${kind}AtWageModelLevelByJournalProfileId`;
    const remove = `Delete${kind}AtWageModelLevelBy${kind}Id`;
    const idName = kind === 'CostCenter' ? 'costCenterId' : 'costUnitId';
    const journalProfileId = param('journalProfileId', post);
    if (!journalProfileId) continue;
    await sequence(ctx, post, 'create → list → duplicate refused → update → list → delete → gone', [post, list, patch, remove], async (step) => {
      const code = `C${tag}`.slice(0, 10).toUpperCase();
      const body = { ...(exampleOf(ctx, post) ?? {}), code };
      const created = await step(post, { params: { journalProfileId }, body }, [201], `create a ${kind}`);
      const id = String(contentOf(created.body).id ?? '');
      step.check(id.length === 36, `the created ${kind} has no id`, created.request);
      const listed = await step(list, { params: { journalProfileId } }, [200], `find the ${kind} in the list`);
      step.check(embedded(listed.body).some((e) => e.id === id && e.code === code), `the list does not hold the created ${kind} with code ${code}`, listed.request);
      await step(post, { params: { journalProfileId }, body }, [400], `a second ${kind} with the same code is refused`);
      // Only the code is known of a cost center or cost unit (journal document §2), so the update changes the code.
      const recoded = `D${tag}`.slice(0, 10).toUpperCase();
      await step(patch, { params: { [idName]: id }, body: { ...(exampleOf(ctx, patch) ?? {}), code: recoded } }, [200], `update the ${kind}`);
      const again = await step(list, { params: { journalProfileId } }, [200], `read the updated ${kind}`);
      step.check(embedded(again.body).some((e) => e.id === id && e.code === recoded), 'the updated code is not read back', again.request);
      await step(remove, { params: { [idName]: id } }, [200], `delete the ${kind}`);
      const after = await step(list, { params: { journalProfileId } }, [200], `the deleted ${kind} is gone`);
      step.check(!embedded(after.body).some((e) => e.id === id), `the deleted ${kind} is still listed`, after.request);
    });
  }

  // Journal profiles at payroll administration level.
  const payrollAdministrationId = param('payrollAdministrationId', 'PostJournalProfileByPayrollAdministrationId');
  if (payrollAdministrationId) {
    const ops = ['PostJournalProfileByPayrollAdministrationId', 'GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', 'PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId', 'DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId'];
    await sequence(ctx, ops[0] as string, 'create → read → duplicate refused → update → read back → delete → 404', ops, async (step) => {
      const description = `Conformance profile ${tag}`;
      const body = { ...(exampleOf(ctx, 'PostJournalProfileByPayrollAdministrationId') ?? {}), description };
      const created = await step('PostJournalProfileByPayrollAdministrationId', { params: { payrollAdministrationId }, body }, [201], 'create a journal profile');
      const journalProfileId = String(contentOf(created.body).id ?? '');
      step.check(journalProfileId.length === 36, 'the created journal profile has no id', created.request);
      const read = await step('GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', { params: { journalProfileId } }, [200], 'read the journal profile');
      step.check(contentOf(read.body).description === description, 'the description is not read back', read.request);
      await step('PostJournalProfileByPayrollAdministrationId', { params: { payrollAdministrationId }, body }, [400], 'a second profile with the same description is refused');
      const renamed = `${description} (2)`;
      await step('PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId', { params: { journalProfileId }, body: { ...(exampleOf(ctx, 'PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId') ?? {}), description: renamed } }, [200], 'update the journal profile');
      const again = await step('GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', { params: { journalProfileId } }, [200], 'read the updated journal profile');
      step.check(contentOf(again.body).description === renamed, 'the update is not read back', again.request);
      await step('DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId', { params: { journalProfileId } }, [200], 'delete the journal profile');
      await step('GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', { params: { journalProfileId } }, [404], 'the deleted journal profile answers 404');
    });
  }

  await runVersionWindow(ctx);

  // Journal profiles at wage model level: only list and create are described.
  const wageModelId = param('wageModelId', 'PostJournalProfileByWageModelId');
  if (wageModelId) {
    await sequence(ctx, 'PostJournalProfileByWageModelId', 'create → list → duplicate refused', ['PostJournalProfileByWageModelId', 'GetJournalProfilesByWageModelId'], async (step) => {
      const description = `Conformance wage model profile ${tag}`;
      const body = { ...(exampleOf(ctx, 'PostJournalProfileByWageModelId') ?? {}), description };
      const created = await step('PostJournalProfileByWageModelId', { params: { wageModelId }, body }, [201], 'create a wage model journal profile');
      const id = String(contentOf(created.body).id ?? '');
      const listed = await step('GetJournalProfilesByWageModelId', { params: { wageModelId } }, [200], 'find the profile in the list');
      step.check(embedded(listed.body).some((p) => p.id === id && p.description === description), 'the list does not hold the created profile', listed.request);
      await step('PostJournalProfileByWageModelId', { params: { wageModelId }, body }, [400], 'a second profile with the same description is refused');
    });
  }
}

/**
 * The six-month window, for every resource the description records a version change for: the
 * entity read at the older version is written back at it and read at the newer one, then
 * written at the newer one and read at the older one; each time the fields the record names
 * must correspond as it says (a PUT replaces every field, so a server that does not run the
 * chain loses a renamed field).
 */
async function runVersionWindow(ctx: SequenceContext): Promise<void> {
  for (const target of ctx.targets) {
    const chain = chainOf(target.api.doc);
    if (!chain) continue;
    for (const [resource, steps] of Object.entries(chain.record)) {
      const own = target.api.operations.filter((o) => o.resource?.name === resource);
      const put = own.find((o) => o.method.toLowerCase() === 'put' && o.body);
      const get = put && own.find((o) => o.method.toLowerCase() === 'get' && o.path === put.path);
      if (!put || !get) continue;
      const params: Record<string, string> = {};
      for (const parameter of put.parameters.filter((p) => p.in === 'path')) {
        const value = ctx.pool.value(parameter.name, put.path);
        if (value) params[parameter.name] = value;
      }
      if (put.parameters.some((p) => p.in === 'path' && !params[p.name])) continue;
      for (const { previous, version } of steps) {
        await sequence(ctx, put.operationId, `written at ${previous}, read at ${version}, and back`, [put.operationId, get.operationId], async (step) => {
          const before = contentOf((await step(get.operationId, { params, version: previous }, [200], `read at ${previous}`)).body);
          await step(put.operationId, { params, body: before, version: previous }, [200], `write at ${previous}`);
          const after = await step(get.operationId, { params, version }, [200], `read at ${version}`);
          for (const mismatch of crossVersionMismatches(chain, resource, previous, version, before, contentOf(after.body))) step.check(false, mismatch.message, after.request);
          const newer = contentOf(after.body);
          await step(put.operationId, { params, body: newer, version }, [200], `write at ${version}`);
          const back = await step(get.operationId, { params, version: previous }, [200], `read at ${previous} again`);
          for (const mismatch of crossVersionMismatches(chain, resource, version, previous, newer, contentOf(back.body))) step.check(false, mismatch.message, back.request);
        });
      }
    }
  }
}
