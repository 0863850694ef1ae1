// Reads answered again from the answer cache: only while the state, the request, the caller and
// the sandbox date are the same; never when the handler read the clock's time; bounded by bytes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnswerCache } from '../src/engine/answer-cache.js';
import { createSandboxResponder } from '../src/responder/responder.js';
import type { ResourceModule } from '../src/domain/context.js';
import { payrollDescription, journalDescription } from '../src/generated/descriptions.js';
import { createPipeline } from '../src/engine/pipeline.js';
import { fromUrlAndInit } from '../src/http/request.js';
import { loadApi } from '../src/http/spec.js';
import { createSandbox, type Sandbox } from '../src/index.js';
import { RESOURCE_MODULES } from '../src/resources/index.js';
import { JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';
import { call, daysAhead, EMPLOYEES, ORIGIN, PAYROLL_ACCEPT } from './support.js';

const COST_CENTERS = `${ORIGIN}/journal/providers/wagemodels/journalprofiles/${JOURNAL_PROFILE_IDS.wageModelStandard}/costcenters`;
const bytes = (n: number) => new Uint8Array(n);

describe('AnswerCache', () => {
  const answer = (size: number) => ({ status: 200, contentType: 'application/json', body: bytes(size) });

  it('answers only for the state the answer was read from, and drops a stale one', () => {
    const cache = new AnswerCache(1 << 20);
    const [before, after, description, reloaded] = [{}, {}, {}, {}];
    cache.keep('k', before, description, answer(3));
    expect(cache.answerFor('k', before, description)?.body.byteLength).toBe(3);
    expect(cache.answerFor('k', before, reloaded)).toBeUndefined();
    cache.keep('k', before, description, answer(3));
    expect(cache.answerFor('k', after, description)).toBeUndefined();
    expect(cache.answerFor('k', before, description)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps within its budget, dropping the least recently used first', () => {
    const cache = new AnswerCache(1000);
    const [state, d] = [{}, {}];
    cache.keep('a', state, d, answer(100));
    cache.keep('b', state, d, answer(100));
    cache.answerFor('a', state, d);
    for (let i = 0; i < 7; i++) cache.keep(`c${i}`, state, d, answer(100));
    expect(cache.answerFor('a', state, d)).toBeDefined();
    expect(cache.answerFor('b', state, d)).toBeUndefined();
    // One answer larger than an eighth of the budget is not kept at all.
    cache.keep('big', state, d, answer(200));
    expect(cache.answerFor('big', state, d)).toBeUndefined();
  });
});

describe('reads through createSandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox();
  });
  afterAll(() => sandbox.close());
  beforeEach(() => sandbox.reset());

  const codes = async (token: string) => ((await (await call(sandbox, token, COST_CENTERS)).json())._embedded as Array<{ code: string }>).map((c) => c.code);

  it('show a write at once, in the writer sandbox only', async () => {
    const seeded = await codes('writer');
    expect(await codes('writer')).toEqual(seeded);
    expect(await codes('other')).toEqual(seeded);
    expect((await call(sandbox, 'writer', COST_CENTERS, { method: 'POST', body: JSON.stringify({ code: 'CACHE1' }) })).status).toBe(201);
    const written = await codes('writer');
    expect(written).toHaveLength(seeded.length + 1);
    expect(written).toEqual(expect.arrayContaining([...seeded, 'CACHE1']));
    expect(await codes('other')).toEqual(seeded);
  });

  it('show a reset, a restored snapshot and the clock', async () => {
    const seeded = await codes('c');
    const snapshot = await sandbox.snapshot({ token: 'c' });
    await call(sandbox, 'c', COST_CENTERS, { method: 'POST', body: JSON.stringify({ code: 'CACHE2' }) });
    expect(await codes('c')).toContain('CACHE2');
    await sandbox.restore(snapshot, { token: 'c' });
    expect(await codes('c')).toEqual(seeded);
    await call(sandbox, 'c', COST_CENTERS, { method: 'POST', body: JSON.stringify({ code: 'CACHE3' }) });
    await sandbox.reset({ token: 'c' });
    expect(await codes('c')).toEqual(seeded);

    const first = await call(sandbox, 'c', `${EMPLOYEES}?pageSize=3`);
    const moved = daysAhead(90);
    await sandbox.clock.set(moved, { token: 'c' });
    const later = await call(sandbox, 'c', `${EMPLOYEES}?pageSize=3`);
    expect(later.status).toBe(200);
    expect(later.headers.get('expires')).not.toBe(first.headers.get('expires'));
    expect(new Date(later.headers.get('expires')!).toISOString().slice(0, 10)).toBe(moved.slice(0, 10));
  });

  it('answer each caller, query and version on its own', async () => {
    const page = async (url: string, accept = PAYROLL_ACCEPT) => (await call(sandbox, 'q', url, { headers: { accept } })).json();
    const byNumber = await page(`${EMPLOYEES}?pageSize=2&orderBy=employeeNumber`);
    const byNumberDesc = await page(`${EMPLOYEES}?pageSize=2&orderBy=-employeeNumber`);
    expect(byNumber._embedded[0].id).not.toBe(byNumberDesc._embedded[0].id);
    expect((await page(`${EMPLOYEES}?pageSize=2&orderBy=employeeNumber`))._embedded).toEqual(byNumber._embedded);
    // The stages that follow from the request alone are kept too: each request still gets its own.
    for (let i = 0; i < 2; i++) {
      const refused = await call(sandbox, 'q', `${EMPLOYEES}?pageSize=2`, { headers: { accept: 'application/json;version=1999-01-01' } });
      expect(refused.status).toBe(400);
      expect((await call(sandbox, 'q', `${EMPLOYEES}?pageSize=2`)).status).toBe(200);
      expect((await call(sandbox, 'q', `${EMPLOYEES}?pageSize=0`)).status).toBe(400);
      expect((await call(sandbox, 'q', `${EMPLOYEES}?pageSize=2`, { method: 'POST', body: '{}' })).status).not.toBe(200);
    }
  });
});

describe('the handler runs again', () => {
  /** Every handler counted; GetEmployeesByEmployerId reads the clock's time when `readsNow` is set. */
  async function countingSandbox() {
    const calls = new Map<string, number>();
    let readsNow = false;
    const modules: ResourceModule[] = RESOURCE_MODULES.map((module) => ({
      ...module,
      handlers: Object.fromEntries(
        Object.entries(module.handlers).map(([operationId, handler]) => [
          operationId,
          (ctx: Parameters<typeof handler>[0]) => {
            calls.set(operationId, (calls.get(operationId) ?? 0) + 1);
            if (readsNow && operationId === 'GetEmployeesByEmployerId') void ctx.now;
            return handler(ctx);
          },
        ]),
      ),
    }));
    const apis = [loadApi('payroll', payrollDescription), loadApi('journal', journalDescription)];
    const responder = await createSandboxResponder({ apis: () => apis, modules, log: () => {} });
    const pipeline = createPipeline({ apis: () => apis, responder: () => responder, mode: 'sandbox', maxBodyBytes: 1 << 20, log: () => {} });
    const get = async (url: string, token = 't') => {
      const out = await pipeline(fromUrlAndInit(url, { headers: { authorization: `Bearer ${token}`, accept: PAYROLL_ACCEPT } })!);
      if (out === 'network-error') throw new Error('network error');
      return out.status;
    };
    return { calls, get, setReadsNow: (value: boolean) => (readsNow = value), close: () => responder.close() };
  }

  it('only when something it depends on changed, or when it read the time', async () => {
    const s = await countingSandbox();
    const list = `${EMPLOYEES}?pageSize=4`;
    const count = () => s.calls.get('GetEmployeesByEmployerId') ?? 0;
    expect(await s.get(list)).toBe(200);
    expect(await s.get(list)).toBe(200);
    expect(count()).toBe(1);
    await s.get(`${list}&pageNumber=2`);
    await s.get(list, 'another-token');
    expect(count()).toBe(3);
    s.setReadsNow(true);
    await s.get(`${EMPLOYEES}?pageSize=5`);
    await s.get(`${EMPLOYEES}?pageSize=5`);
    expect(count()).toBe(5);
    await s.close();
  });
});
