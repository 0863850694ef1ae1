// createSandbox() in process: fetch without a port, one sandbox per token, reset, snapshots,
// the clock, the seed options, and faults that never change what is stored.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, SandboxControlError, type Sandbox } from '../src/index.js';
import { createFixtures } from '../src/fixtures.js';
import { seedSnapshot, sharedSeed } from '../src/seed/index.js';
import { JOURNAL_PROFILE_IDS } from '../src/seed/journal.js';
import { MemoryStore } from '../src/store/memory.js';
import { call, EMPLOYEES, ORIGIN } from './support.js';

const COST_CENTERS = `${ORIGIN}/journal/providers/wagemodels/journalprofiles/${JOURNAL_PROFILE_IDS.wageModelStandard}/costcenters`;
const codes = async (sandbox: Sandbox, token: string) => ((await (await call(sandbox, token, COST_CENTERS)).json())._embedded as Array<{ code: string }>).map((c) => c.code);
const create = (sandbox: Sandbox, token: string, code: string) => call(sandbox, token, COST_CENTERS, { method: 'POST', body: JSON.stringify({ code }) });

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

describe('fetch', () => {
  it('answers a list from the seed in the contract envelope, with the server headers', async () => {
    const res = await call(sandbox, 'a', `${EMPLOYEES}?pageSize=5&orderBy=employeeNumber`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;version=2021-03-29');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('expires')).toMatch(/GMT$/);
    const body = await res.json();
    expect(body).toMatchObject({ pageSize: 5, currentPage: 1, version: { resourceVersion: '2021-03-29' } });
    expect(body._embedded).toHaveLength(5);
  });

  it('takes a Request as well as a URL and init', async () => {
    const res = await sandbox.fetch(new Request(COST_CENTERS, { headers: { Authorization: 'Bearer a', Accept: 'application/json' } }));
    expect(res.status).toBe(200);
  });

  it('refuses what the server refuses, in the contract envelopes', async () => {
    const noToken = await sandbox.fetch(COST_CENTERS);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ message: 'Authorization has been denied for this request.' });
    const badFilter = await call(sandbox, 'a', `${EMPLOYEES}?filter=${encodeURIComponent('nope eq 1')}`);
    expect(badFilter.status).toBe(400);
    expect((await badFilter.json()).messages[0].properties).toEqual(['filter']);
    const unknown = await call(sandbox, 'a', `${ORIGIN}/journal/providers/wagemodels/journalprofiles/costcenters/00000000-0000-4000-8000-000000000000`, { method: 'PATCH', body: '{"code":"X1"}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('');
    const tooLarge = await createSandbox({ maxBodyBytes: 10 });
    const big = await call(tooLarge, 'a', COST_CENTERS, { method: 'POST', body: JSON.stringify({ code: 'K1234567890' }) });
    expect(big.status).toBe(413);
    await tooLarge.close();
  });

  it('keeps one sandbox per token', async () => {
    expect((await create(sandbox, 'alice', 'K901')).status).toBe(201);
    expect(await codes(sandbox, 'alice')).toContain('K901');
    expect(await codes(sandbox, 'bob')).not.toContain('K901');
  });
});

describe('transactions', () => {
  it('runs each API call in one transaction of its sandbox, the clock and authorization included', async () => {
    const opened: Array<{ sandbox: string; mode: string }> = [];
    const counted = await createSandbox({
      store: async (options) => {
        const store = new MemoryStore(options);
        const transaction = store.transaction.bind(store);
        store.transaction = (sandbox, mode, fn) => {
          opened.push({ sandbox, mode });
          return transaction(sandbox, mode, fn);
        };
        return store;
      },
    });
    try {
      await call(counted, 'one', `${EMPLOYEES}?pageSize=5`);
      expect(opened).toEqual([{ sandbox: expect.any(String), mode: 'read' }]);
      opened.length = 0;
      expect((await create(counted, 'one', 'K902')).status).toBe(201);
      expect(opened.map((t) => t.mode)).toEqual(['write']);
      opened.length = 0;
      // Refused by a rule after the handler ran: the one transaction is rolled back.
      expect((await create(counted, 'one', 'K902')).status).toBe(400);
      expect(opened.map((t) => t.mode)).toEqual(['write']);
      expect((await codes(counted, 'one')).filter((code) => code === 'K902')).toHaveLength(1);
    } finally {
      await counted.close();
    }
  });
  it('reads a body before its transaction opens: a client still sending holds no other writer up', async () => {
    let sending!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (sending = controller) });
    sending.enqueue(new TextEncoder().encode('{"code":'));
    const slow = sandbox.fetch(new Request(COST_CENTERS, { method: 'POST', body, duplex: 'half', headers: { Authorization: 'Bearer slow', 'Content-Type': 'application/json', Accept: 'application/json' } } as RequestInit));
    const quick = await Promise.race([create(sandbox, 'slow', 'K903'), new Promise<'held up'>((resolve) => setTimeout(() => resolve('held up'), 2_000))]);
    expect(quick === 'held up' ? quick : quick.status).toBe(201);
    sending.enqueue(new TextEncoder().encode('"K904"}'));
    sending.close();
    expect((await slow).status).toBe(201);
    expect(await codes(sandbox, 'slow')).toEqual(expect.arrayContaining(['K903', 'K904']));
  });
});

describe('reset, snapshot and restore', () => {
  it('resets one token, or all', async () => {
    await create(sandbox, 'alice', 'K902');
    await create(sandbox, 'bob', 'K902');
    await sandbox.reset({ token: 'alice' });
    expect(await codes(sandbox, 'alice')).not.toContain('K902');
    expect(await codes(sandbox, 'bob')).toContain('K902');
    await sandbox.reset();
    expect(await codes(sandbox, 'bob')).not.toContain('K902');
  });

  it('restores a snapshot into another token, and refuses a bad one without change', async () => {
    await create(sandbox, 'alice', 'K903');
    const snapshot = await sandbox.snapshot({ token: 'alice' });
    await sandbox.restore(snapshot, { token: 'carol' });
    expect(await codes(sandbox, 'carol')).toContain('K903');
    const before = await sandbox.snapshot({ token: 'carol' });
    const broken = { ...snapshot, collections: { ...snapshot.collections, journalCostCenters: [{ id: 'x', code: 42 }] } };
    await expect(sandbox.restore(broken as never, { token: 'carol' })).rejects.toBeInstanceOf(SandboxControlError);
    expect(await sandbox.snapshot({ token: 'carol' })).toEqual(before);
  });
});

describe('a merge never leaves an orphan', () => {
  it('refuses, whole and with the field named, a merged employee without its employer', async () => {
    const token = 'orphan';
    const { employees } = (await sandbox.snapshot({ token })).collections;
    const id = employees![0]!.id;
    const before = await sandbox.snapshot({ token });
    const merge = sandbox.restore({ format: 'payroll-sandbox/1', collections: { employees: [{ id, personalDetails: { lastName: 'Partial' } }], employments: [] }, meta: {} } as never, { token, mode: 'merge' });
    await expect(merge).rejects.toMatchObject({ status: 400, body: { messages: [expect.objectContaining({ description: expect.stringContaining('employerId is required') })] } });
    expect(await sandbox.snapshot({ token })).toEqual(before);
  });

  it("refuses, whole and with every field named, journal docs without what they belong to", async () => {
    const token = 'journal-orphans';
    const before = await sandbox.snapshot({ token });
    const { journalCostCenters, journalMatrixEntries, journalProfiles, journals, journalWageModels } = before.collections;
    const without = <T extends object>(doc: T, ...fields: string[]) => Object.fromEntries(Object.entries(doc).filter(([field]) => !fields.includes(field)));
    const atAdministration = journalCostCenters!.find((doc) => doc.level === 'payrollAdministration')!;
    const wageModelProfile = journalProfiles!.find((doc) => doc.level === 'wageModel')!;
    const collections = {
      journalCostCenters: [without(journalCostCenters![0]!, 'journalProfileId'), without(atAdministration, 'payrollAdministrationId')],
      journalMatrixEntries: [without(journalMatrixEntries![0]!, 'costUnitId')],
      journalProfiles: [without(wageModelProfile, 'wageModelId')],
      journals: [without(journals![0]!, 'payrollAdministrationId')],
      journalWageModels: [without(journalWageModels![0]!, 'providerId')],
    };
    const merge = sandbox.restore({ format: 'payroll-sandbox/1', collections, meta: {} } as never, { token, mode: 'merge' });
    const refused = (await merge.catch((error: { status: number; body: { messages: Array<{ description: string }> } }) => error)) as { status: number; body: { messages: Array<{ description: string }> } };
    expect(refused.status).toBe(400);
    expect(refused.body.messages.map((m) => m.description.match(/^collections\.\w+\[\d\]\.\w+ is required/)?.[0])).toEqual([
      'collections.journalCostCenters[0].journalProfileId is required',
      'collections.journalCostCenters[1].payrollAdministrationId is required',
      'collections.journalMatrixEntries[0].costUnitId is required',
      'collections.journalProfiles[0].wageModelId is required',
      'collections.journals[0].payrollAdministrationId is required',
      'collections.journalWageModels[0].providerId is required',
    ]);
    expect(await sandbox.snapshot({ token })).toEqual(before);
  });
});

describe('the clock', () => {
  it('is per sandbox; set, advance and back to real time', async () => {
    const set = await sandbox.clock.set('2030-01-31T09:00:00Z', { token: 'alice' });
    expect(set.today).toBe('2030-01-31');
    expect((await sandbox.clock.advance({ days: 1 }, { token: 'alice' })).today).toBe('2030-02-01');
    expect((await sandbox.clock.get({ token: 'bob' })).offsetMs).toBe(0);
    const res = await call(sandbox, 'alice', COST_CENTERS);
    expect(new Date(res.headers.get('expires')!).getUTCFullYear()).toBe(2030);
    expect((await sandbox.clock.set(null, { token: 'alice' })).offsetMs).toBe(0);
    await expect(sandbox.clock.advance({ weeks: 1 } as never, { token: 'alice' })).rejects.toThrow(/The field weeks must NOT have additional properties/);
  });
});

describe('seeds', () => {
  it('starts empty but for the provider, the wage models and the authorization model', async () => {
    const empty = await createSandbox({ seed: 'empty' });
    const snapshot = await empty.snapshot();
    expect(snapshot.collections.employees).toEqual([]);
    expect(snapshot.collections.providers?.length).toBeGreaterThan(0);
    expect((await call(empty, 'a', `${EMPLOYEES}`)).status).toBe(404);
    await empty.close();
  });

  it('starts from a snapshot, and refuses a bad one by name', async () => {
    await create(sandbox, 'alice', 'K904');
    const from = await createSandbox({ seed: await sandbox.snapshot({ token: 'alice' }) });
    expect(await codes(from, 'anyone')).toContain('K904');
    await create(from, 'anyone', 'K905');
    await from.reset();
    expect(await codes(from, 'anyone')).toEqual(expect.arrayContaining(['K904']));
    expect(await codes(from, 'anyone')).not.toContain('K905');
    await from.close();
    await expect(createSandbox({ seed: { format: 'payroll-sandbox/1', collections: { employees: [{ id: 1 }] }, meta: {} } as never })).rejects.toThrow(/seed snapshot is not valid/);
  });
});

describe('the default seed, shared by the sandboxes of a process', () => {
  it("is generated once and frozen; a snapshot of it is the caller's own copy", () => {
    const shared = sharedSeed();
    const again = sharedSeed();
    expect(again.collections.employees![0]).toBe(shared.collections.employees![0]);
    expect(again.collections.employees).not.toBe(shared.collections.employees);
    expect(Object.isFrozen(shared.collections.employees![0])).toBe(true);
    expect(() => ((shared.collections.employees![0] as Record<string, unknown>).employeeNumber = 1)).toThrow(TypeError);
    const own = seedSnapshot();
    expect(own).toEqual(shared);
    (own.collections.employees![0] as Record<string, unknown>).employeeNumber = 999_999;
    own.collections.employees!.length = 0;
    expect(sharedSeed()).toEqual(shared);
    expect(seedSnapshot().collections.employees!.length).toBe(shared.collections.employees!.length);
  });

  it("starts every sandbox from it: one's writes, imports and scenarios reach no other", async () => {
    const [first, second] = await Promise.all([createSandbox(), createSandbox()]);
    const detail = async (box: Sandbox, id: string) => (await (await call(box, 'a', `${ORIGIN}/v2/v2/providers/employers/employees/${id}`)).json()).content;
    const id = ((await (await call(first, 'a', `${EMPLOYEES}?pageSize=1&orderBy=employeeNumber`)).json())._embedded as Array<{ id: string }>)[0]!.id;
    const before = await detail(second, id);
    const put = await call(first, 'a', `${ORIGIN}/v2/v2/providers/employers/employees/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json;version=2021-03-29' },
      body: JSON.stringify({ ...before, personalDetails: { ...before.personalDetails, lastName: 'Veranderd' } }),
    });
    expect(put.status).toBe(200);
    expect((await detail(first, id)).personalDetails.lastName).toBe('Veranderd');
    const changed = seedSnapshot();
    (changed.collections.employees![0] as Record<string, unknown>).personalDetails = { lastName: 'Elders' };
    const third = await createSandbox({ scenario: { start: 'seed', entities: { employees: [{ id, personalDetails: { lastName: 'Scenario' } }] } } });
    const fourth = await createSandbox();
    expect(await detail(second, id)).toEqual(before);
    expect(await detail(fourth, id)).toEqual(before);
    expect((await detail(third, id)).personalDetails.lastName).toBe('Scenario');
    await Promise.all([first, second, third, fourth].map((box) => box.close()));
  });
});

describe('seeds made with the fixtures', () => {
  it('starts from the empty seed plus entities the factories made', async () => {
    const make = createFixtures({ seed: 'seeds', base: 'empty' });
    const employer = make.employer({ companyName: 'Drukkerij De Pers B.V.' });
    make.employee({ employerId: employer.id });
    make.employment({ endDate: '2026-06-30' });
    const empty = await createSandbox({ seed: 'empty' });
    const base = await empty.snapshot();
    await empty.close();
    const from = await createSandbox({ seed: { ...base, collections: { ...base.collections, ...make.collections() } } });
    const employees = `${ORIGIN}/v2/v2/providers/employers/${employer.id}/employees`;
    const listed = (await (await call(from, 'a', employees)).json())._embedded as Array<{ id: string }>;
    expect(listed).toHaveLength(1);
    const employments = await (await call(from, 'a', `${ORIGIN}/v2/v2/providers/employers/employees/${listed[0]!.id}/employments`)).json();
    expect(employments._embedded).toEqual([expect.objectContaining({ endDate: '2026-06-30' })]);
    await from.close();
  });
});

describe('faults', () => {
  it('fails the next call of an operation with the contract body for the status, and changes nothing', async () => {
    await sandbox.faults.add([{ operations: ['PostCostCenterAtWageModelLevelByJournalProfileId'], status: 503, retryAfterSeconds: 7, times: 1 }], { token: 'alice' });
    const failed = await create(sandbox, 'alice', 'K906');
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('7');
    expect(await failed.text()).toBe('');
    expect(await codes(sandbox, 'alice')).not.toContain('K906');
    expect((await create(sandbox, 'alice', 'K906')).status).toBe(201);
    expect(await sandbox.faults.list({ token: 'alice' })).toEqual([]);
  });

  it('answers 429 and 400 in the envelope, and 401 and 403 as {message}', async () => {
    const statuses = [429, 400, 401, 403, 404, 500];
    const bodies: Record<number, unknown> = {};
    for (const status of statuses) {
      const res = await call(sandbox, 'alice', COST_CENTERS, { headers: { 'X-Sandbox-Fault': `status=${status}` } });
      expect(res.status).toBe(status);
      const text = await res.text();
      bodies[status] = text ? JSON.parse(text) : undefined;
    }
    expect(bodies[429]).toMatchObject({ messages: [{ code: 429, type: 'Exception' }] });
    expect(bodies[400]).toMatchObject({ messages: [{ code: 400, type: 'BrokenBusinessRule' }] });
    expect(bodies[401]).toEqual({ message: 'Authorization has been denied for this request.' });
    expect(bodies[403]).toEqual({ message: expect.stringContaining('Fault injected') });
    expect(bodies[404]).toBeUndefined();
    expect(bodies[500]).toBeUndefined();
  });

  it('lags by the delay asked, then answers', async () => {
    const started = performance.now();
    const res = await call(sandbox, 'alice', COST_CENTERS, { headers: { 'X-Sandbox-Fault': 'delay=150' } });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('rejects like fetch on a network error', async () => {
    await expect(call(sandbox, 'alice', COST_CENTERS, { method: 'POST', body: '{"code":"K907"}', headers: { 'X-Sandbox-Fault': 'network-error' } })).rejects.toBeInstanceOf(TypeError);
    expect(await codes(sandbox, 'alice')).not.toContain('K907');
  });

  it('draws faults with a seeded probability: the same seed, the same calls fail', async () => {
    const pattern = async (token: string) => {
      await sandbox.faults.add([{ operations: ['*'], status: 500, probability: 0.5, seed: 42 }], { token });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await call(sandbox, token, COST_CENTERS)).status);
      return out;
    };
    const first = await pattern('p1');
    expect(await pattern('p2')).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it("a sandbox's reset clears its fault rules and settings, and leaves another sandbox's rules", async () => {
    await sandbox.faults.add([{ operations: ['*'], status: 503 }], { token: 'reset-a' });
    await sandbox.faults.add([{ operations: ['*'], status: 503 }], { token: 'reset-b' });
    await call(sandbox, 'reset-a', `${ORIGIN}/__sandbox/settings`, { method: 'PUT', body: '{"unknownFields":"reject"}', headers: { 'content-type': 'application/json' } });
    await sandbox.reset({ token: 'reset-a' });
    expect(await sandbox.faults.list({ token: 'reset-a' })).toEqual([]);
    expect((await call(sandbox, 'reset-a', COST_CENTERS)).status).toBe(200);
    expect(await (await call(sandbox, 'reset-a', `${ORIGIN}/__sandbox/settings`)).json()).not.toMatchObject({ unknownFields: 'reject' });
    expect(await sandbox.faults.list({ token: 'reset-b' })).toHaveLength(1);
    await sandbox.reset();
    expect(await sandbox.faults.list({ token: 'reset-b' })).toEqual([]);
  });

  it('refuses a bad rule or header by name', async () => {
    await expect(sandbox.faults.add([{ operations: ['NoSuchActivity'], status: 503 }])).rejects.toThrow(/not an activity/);
    await expect(sandbox.faults.add([{ operations: ['*'], status: 200 }])).rejects.toThrow(/The field faults\[0\]\.status must be >= 400/);
    const res = await call(sandbox, 'alice', COST_CENTERS, { headers: { 'X-Sandbox-Fault': 'explode' } });
    expect(res.status).toBe(400);
    expect((await res.json()).messages[0].properties).toEqual(['X-Sandbox-Fault']);
  });
});

describe('fetch forms', () => {
  it('answers a URL with init exactly as the same Request', async () => {
    const init = { method: 'POST', headers: [['Authorization', 'Bearer forms'], ['Accept', 'application/json'], ['Content-Type', 'application/json']] as [string, string][], body: JSON.stringify({ code: 'F1' }) };
    const direct = await sandbox.fetch(COST_CENTERS, init);
    await sandbox.reset({ token: 'forms' });
    const viaRequest = await sandbox.fetch(new Request(COST_CENTERS, init));
    expect(direct.status).toBe(201);
    expect([viaRequest.status, await viaRequest.text()]).toEqual([direct.status, await direct.text()]);
    const bytes = await sandbox.fetch(COST_CENTERS, { method: 'POST', headers: { Authorization: 'Bearer forms', 'Content-Type': 'application/json' }, body: new TextEncoder().encode('{"code":"F2"}') });
    expect(bytes.status).toBe(201);
  });

  it('rejects an aborted call as fetch does', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sandbox.fetch(COST_CENTERS, { signal: controller.signal, headers: { Authorization: 'Bearer a' } })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
