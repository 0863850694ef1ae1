// Operations no resource module claims answer from state the moment they are described: the
// behaviour derived from the description (resources/derived.ts), over memory and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '#sandbox/index.js';
import { JOURNAL_PROFILE_IDS } from '#sandbox/seed/journal.js';
import { SEED_USERS } from '#sandbox/seed/authorization.js';
import { USER_TOKEN_PREFIX } from '#sandbox/authorization/model.js';
import { createStore } from '../../../src/store/index.js';
import { describedJournal } from '../../support/described-operations.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();
const profile = JOURNAL_PROFILE_IDS.wageModelStandard;
const base = 'http://sandbox.test/journal/providers/wagemodels/journalprofiles';

const stores = {
  memory: async () => undefined,
  postgres: async () => {
    const databaseUrl = await postgres().database('engine_derived');
    return (options: Parameters<typeof createStore>[0]) => createStore({ ...options, databaseUrl });
  },
};

for (const [name, storeOf] of Object.entries(stores)) {
  describe(`derived operations (${name})`, () => {
    let sandbox: Sandbox;
    const call = (path: string, init: RequestInit & { token?: string } = {}) =>
      sandbox.fetch(`${base}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${init.token ?? `derived-${name}`}`, Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      });

    beforeAll(async () => {
      sandbox = await createSandbox({ descriptions: { journal: describedJournal() }, store: await storeOf(), log: () => {} });
    }, 60_000);
    afterAll(() => sandbox?.close());

    it('reads one doc of a module collection by the path id, in the read shape, and 404 when absent', async () => {
      const list = await (await call(`/${profile}/costunits`)).json();
      const first = list._embedded[0];
      const detail = await call(`/costunits/${first.id}`);
      expect(detail.status).toBe(200);
      expect((await detail.json()).content).toEqual(first);
      expect((await call('/costunits/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });

    it('creates under the path parent, lists the parent s docs with filter and order, and isolates tokens', async () => {
      for (const code of ['B2', 'A1', 'C3']) {
        const created = await call(`/${profile}/costunitgroups`, { method: 'POST', body: JSON.stringify({ code, description: `Groep ${code}` }) });
        expect(created.status).toBe(201);
        const body = await created.json();
        expect(body.content).toEqual({ id: expect.any(String), code, description: `Groep ${code}` });
      }
      const page = await (await call(`/${profile}/costunitgroups?orderBy=code&pageSize=2`)).json();
      expect(page.totalSize).toBe(3);
      expect(page._embedded.map((g: { code: string }) => g.code)).toEqual(['A1', 'B2']);
      const filtered = await (await call(`/${profile}/costunitgroups?filter=${encodeURIComponent("code eq 'C3'")}`)).json();
      expect(filtered._embedded.map((g: { code: string }) => g.code)).toEqual(['C3']);
      // Another profile sees none of them; another token sees none either.
      expect((await (await call(`/${JOURNAL_PROFILE_IDS.wageModelProjects}/costunitgroups`)).json()).totalSize).toBe(0);
      expect((await (await call(`/${profile}/costunitgroups`, { token: `other-${name}` })).json()).totalSize).toBe(0);
    });

    it('refuses a body its schema refuses, a parent that does not exist, and changes nothing then', async () => {
      const token = `refused-${name}`;
      const missingCode = await call(`/${profile}/costunitgroups`, { token, method: 'POST', body: JSON.stringify({ description: 'zonder code' }) });
      expect(missingCode.status).toBe(400);
      const noParent = await call('/00000000-0000-4000-8000-000000000000/costunitgroups', { token, method: 'POST', body: JSON.stringify({ code: 'X' }) });
      expect(noParent.status).toBe(404);
      expect((await (await call(`/${profile}/costunitgroups`, { token })).json()).totalSize).toBe(0);
    });

    it('merges a PATCH into the stored doc and answers the read shape', async () => {
      const token = `patch-${name}`;
      const created = (await (await call(`/${profile}/costunitgroups`, { token, method: 'POST', body: JSON.stringify({ code: 'P1', description: 'Eerst' }) })).json()).content;
      const patched = await call(`/costunitgroups/${created.id}`, { token, method: 'PATCH', body: JSON.stringify({ description: 'Daarna' }) });
      expect(patched.status).toBe(200);
      expect((await patched.json()).content).toEqual({ id: created.id, code: 'P1', description: 'Daarna' });
      const listed = (await (await call(`/${profile}/costunitgroups`, { token })).json())._embedded;
      expect(listed).toEqual([{ id: created.id, code: 'P1', description: 'Daarna' }]);
      expect((await call('/costunitgroups/00000000-0000-4000-8000-000000000000', { token, method: 'PATCH', body: '{}' })).status).toBe(404);
      // The stored doc keeps its parent: what the API never shows stays in the store.
      // A derived collection is not among the typed stored shapes: read it by name.
      const stored = (await sandbox.snapshot({ token })).collections as Record<string, unknown>;
      expect(stored.costUnitGroups).toEqual([expect.objectContaining({ id: created.id, journalProfileId: profile })]);
    });

    it('runs the five-step check on derived activities, granted as the activities of their tag or nearest path', async () => {
      const admin = `${USER_TOKEN_PREFIX}${SEED_USERS.admin}`;
      const readOnly = `${USER_TOKEN_PREFIX}${SEED_USERS.readOnly}`;
      expect((await call(`/${profile}/costunitgroups`, { token: admin, method: 'POST', body: JSON.stringify({ code: 'ADM' }) })).status).toBe(201);
      expect((await call(`/${profile}/costunitgroups`, { token: readOnly })).status).toBe(200);
      const refused = await call(`/${profile}/costunitgroups`, { token: readOnly, method: 'POST', body: JSON.stringify({ code: 'RO' }) });
      expect(refused.status).toBe(403);
      const cost = (await (await call(`/${profile}/costunits`, { token: readOnly })).json())._embedded[0];
      expect((await call(`/costunits/${cost.id}`, { token: readOnly })).status).toBe(200);
    });
  });
}
