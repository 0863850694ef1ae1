// A snapshot import holds nobody up: once its body is in, the server parses it off the event loop
// and checks and stores it in slices, so another client's request that completes after the
// import's body is answered before the import is. Ordering only: how long anything takes is the
// bench's business (tools/bench, the import row). The import stores exactly the docs given.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startProcess, type MockProcess, type RawResponse } from './helpers.js';
import { usePostgres } from './support/postgres.js';

const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
/** The body's size: large enough to be parsed on the worker, and few enough docs to keep the test short. */
const BODY_CHARS = 400 * 1024;

const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

/** The sandbox's seed with employees of one employer added (new ids and numbers) up to BODY_CHARS. */
async function snapshotOfSize(base: string): Promise<{ body: Buffer; collections: Record<string, Array<{ id: string }>> }> {
  const snapshot = (await request(`${base}/__sandbox/snapshot`, { headers: auth(`seed-${randomUUID()}`) })).json();
  const models = snapshot.collections.employees.filter((employee: { employerId: string }) => employee.employerId === EMPLOYER);
  let size = JSON.stringify(snapshot).length;
  for (let i = 0; size < BODY_CHARS; i++) {
    const added = { ...structuredClone(models[i % models.length]), id: randomUUID(), employeeNumber: 300_000 + i };
    snapshot.collections.employees.push(added);
    size += JSON.stringify(added).length + 1;
  }
  return { body: Buffer.from(JSON.stringify(snapshot)), collections: snapshot.collections };
}

/** A request whose body is sent but for its last byte; `complete()` sends that byte. */
function heldBack(url: string, method: string, headers: Record<string, string>, body: Buffer): { complete(): void; answer: Promise<RawResponse> } {
  let req!: http.ClientRequest;
  const answer = new Promise<RawResponse>((resolve, reject) => {
    req = http.request(url, { method, headers: { ...headers, 'content-length': String(body.length) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, body.length - 1));
  return { complete: () => req.end(body.subarray(body.length - 1)), answer };
}

const byId = (docs: Array<{ id: string }>) => [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function importYields(store: string, mock: () => MockProcess): void {
  describe(`${store}: a snapshot import`, () => {
    let snapshot: Awaited<ReturnType<typeof snapshotOfSize>>;
    beforeAll(async () => {
      snapshot = await snapshotOfSize(mock().url);
      // A first, small import loads and compiles what the server makes on first use, which
      // would otherwise let other requests in whatever the import does.
      const seed = (await request(`${mock().url}/__sandbox/snapshot`, { headers: auth(`warm-${randomUUID()}`) })).text;
      const warm = await request(`${mock().url}/__sandbox/snapshot`, { method: 'PUT', headers: { ...auth(`warm-${randomUUID()}`), 'content-type': 'application/json' }, body: seed, timeoutMs: 60_000 });
      expect(warm.status, warm.text).toBe(200);
    });

    for (const mode of ['merge', 'replace']) {
      it(`(${mode}) lets a request completed after its body be answered first, and stores exactly the docs given`, async () => {
        const base = mock().url;
        const importer = `importer-${randomUUID()}`;
        const json = (token: string) => ({ ...auth(token), 'content-type': 'application/json' });
        const imported = heldBack(`${base}/__sandbox/snapshot?mode=${mode}`, 'PUT', json(importer), snapshot.body);
        // Another client's request that needs its body (refused by the control description's check).
        const other = heldBack(`${base}/__sandbox/settings`, 'PUT', json(`other-${randomUUID()}`), Buffer.from('{"unknownFields":"sometimes"}'));
        // Let the server take in both bodies but for their last bytes (a few reads of 64 KiB;
        // each health answer is several turns of its event loop).
        for (let i = 0; i < 20; i++) expect((await request(`${base}/__health`)).status).toBe(200);

        const order: string[] = [];
        imported.complete();
        other.complete();
        const [answer, refused] = await Promise.all([imported.answer.finally(() => order.push('import')), other.answer.finally(() => order.push('other'))]);
        expect(refused.status, refused.text).toBe(400);
        expect(answer.status, answer.text).toBe(200);
        expect(order).toEqual(['other', 'import']);

        const stored = (await request(`${base}/__sandbox/snapshot`, { headers: auth(importer), timeoutMs: 60_000 })).json();
        for (const [name, docs] of Object.entries(snapshot.collections)) expect(byId(stored.collections[name]), name).toEqual(byId(docs));
      });
    }

    it('refuses a large body as a small one is refused, naming the field, and changes nothing', async () => {
      const base = mock().url;
      const importer = `refused-${randomUUID()}`;
      const employees = snapshot.collections.employees!;
      const last = employees.length - 1;
      // A lone surrogate, which PostgreSQL cannot store, in the last doc (written as its JSON escape).
      const body = snapshot.body.toString('utf8').replace(`"id":"${employees[last]!.id}"`, `"id":"${employees[last]!.id}","nickname":"\\ud800"`);
      expect(body.length).toBeGreaterThan(snapshot.body.length);
      const refused = await request(`${base}/__sandbox/snapshot?mode=merge`, { method: 'PUT', headers: { ...auth(importer), 'content-type': 'application/json' }, body, timeoutMs: 60_000 });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json().messages[0]).toMatchObject({ properties: [`collections.employees[${last}].nickname`] });
      const exported = async (token: string) => byId((await request(`${base}/__sandbox/snapshot`, { headers: auth(token) })).json().collections.employees);
      expect(await exported(importer)).toEqual(await exported(`fresh-${randomUUID()}`));
    });
  });
}

describe('memory store', () => {
  let mock: MockProcess | undefined;
  beforeAll(async () => {
    mock = await startProcess(['--port', '0']);
  });
  afterAll(() => mock?.stop());
  importYields('memory', () => mock!);
});

// On PostgreSQL the store's round trips let other requests in before an import answers in any
// case; the case holds what the import itself must keep: the same order, and the same docs.
describe('PostgreSQL store', () => {
  const postgres = usePostgres();
  let mock: MockProcess | undefined;
  beforeAll(async () => {
    mock = await startProcess(['--port', '0', '--database-url', await postgres().database('import_yields')]);
  }, 120_000);
  afterAll(() => mock?.stop());
  importYields('PostgreSQL', () => mock!);
});
