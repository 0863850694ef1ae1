// --max-upload-bytes on every store (memory, --data, PostgreSQL), through the real process: an
// upload that would take a sandbox beyond the limit is refused (400 naming the limit) and
// stores nothing (photos and logos alike); replacing an upload counts the new bytes instead of the old; a snapshot
// beyond the limit is refused too. The seed's own uploads (photos, logos) are under 300 kB.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { startProcess, type MockProcess } from './helpers.js';
import { usePostgres } from './support/postgres.js';
import { newEmployee } from './support/new-employee.js';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { snapshotBytes } from '../src/store/stored-bytes.js';

const LIMIT = 1_000_000;
const server = usePostgres();
const running: MockProcess[] = [];
const directories: string[] = [];
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  for (const dir of directories) fs.rmSync(dir, { recursive: true, force: true });
});

const STORES: Record<string, () => Promise<string[]>> = {
  memory: async () => [],
  '--data': async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-limit-'));
    directories.push(dir);
    return ['--data', dir];
  },
  PostgreSQL: async () => ['--database-url', await server().database('upload_limit')],
};

describe.each(Object.keys(STORES))('--max-upload-bytes (%s)', (store) => {
  it('refuses an upload beyond the limit, naming it, and stores none of it', async () => {
    const mock = await startProcess(['--port', '0', '--max-upload-bytes', String(LIMIT), ...(await STORES[store]!())]);
    running.push(mock);
    const headers = { authorization: `Bearer upload-limit-${store}`, accept: 'application/json', 'content-type': 'application/json' };
    const base = `${mock.url}/v2/v2/providers/employers`;
    const list = await (await fetch(`${base}/${SEED_IDS.employer}/employees?pageSize=2&orderBy=employeeNumber`, { headers })).json();
    const [first, second] = list._embedded.map((employee: { id: string }) => employee.id) as [string, string];
    const upload = (employeeId: string, bytes: number) =>
      fetch(`${base}/employees/${employeeId}/photo`, { method: 'POST', headers, body: JSON.stringify({ data: randomBytes(bytes).toString('base64'), mimeType: 'image/png' }) });
    const photoBytes = async (employeeId: string) => {
      const answer = await fetch(`${base}/employees/${employeeId}/photo`, { headers: { ...headers, accept: '*/*' } });
      return answer.status === 200 ? (await answer.arrayBuffer()).byteLength : answer.status;
    };

    expect((await upload(first, 500_000)).status).toBe(201);
    const refused = await upload(second, 400_000);
    expect(refused.status).toBe(400);
    expect((await refused.json()).messages[0].description).toMatch(/at most 1000000 bytes of uploaded files \(the limit --max-upload-bytes\); it would hold 1\d{6}\b/);
    expect(await photoBytes(first)).toBe(500_000);
    expect(await photoBytes(second)).not.toBe(400_000);

    // Replacing the first photo counts its new bytes, not both: then the second fits.
    expect((await upload(first, 200_000)).status).toBe(201);
    expect((await upload(second, 400_000)).status).toBe(201);
    expect([await photoBytes(first), await photoBytes(second)]).toEqual([200_000, 400_000]);

    // Logos are uploads too: the employer's and the provider's.
    const image = (bytes: number) => JSON.stringify({ data: randomBytes(bytes).toString('base64'), mimeType: 'image/png', attribute: 'limit', name: 'limit' });
    const employerLogo = await fetch(`${base}/${SEED_IDS.employer}/logo`, { method: 'POST', headers, body: image(500_000) });
    expect(employerLogo.status).toBe(400);
    expect((await employerLogo.json()).messages[0].description).toMatch(/the limit --max-upload-bytes/);
    const providerLogo = await fetch(`${mock.url}/v2/v2/providers/${SEED_IDS.provider}/logos`, { method: 'POST', headers, body: image(500_000) });
    expect(providerLogo.status).toBe(400);
    expect((await providerLogo.json()).messages[0].description).toMatch(/the limit --max-upload-bytes/);

    // A snapshot holding more than the limit is refused as a whole.
    const snapshot = await (await fetch(`${mock.url}/__sandbox/snapshot`, { headers })).json();
    snapshot.collections.employeePhotos.find((photo: { id: string }) => photo.id === first).data = randomBytes(LIMIT).toString('base64');
    const put = await fetch(`${mock.url}/__sandbox/snapshot`, { method: 'PUT', headers, body: JSON.stringify(snapshot) });
    expect(put.status).toBe(400);
    expect((await put.json()).messages[0].description).toMatch(/the limit --max-upload-bytes/);
    expect(await photoBytes(first)).toBe(200_000);
  }, 120_000);
});

// --max-sandbox-bytes counts every byte a sandbox stores (documents, meta, uploads, as JSON); the
// same running total on PostgreSQL is tested with two instances in hosted-abuse.test.ts.
const HEADROOM = 400_000;
describe.each(['memory', '--data'])('--max-sandbox-bytes (%s)', (store) => {
  it('refuses documents, meta and uploads beyond the limit, naming it, and stores none of them', async () => {
    const limit = snapshotBytes(seedSnapshot()) + HEADROOM;
    const mock = await startProcess(['--port', '0', '--max-sandbox-bytes', String(limit), ...(await STORES[store]!())]);
    running.push(mock);
    const headers = { authorization: `Bearer sandbox-bytes-${store}`, accept: 'application/json', 'content-type': 'application/json' };
    const base = `${mock.url}/v2/v2/providers/employers`;
    const employees = `${base}/${SEED_IDS.employer}/employees`;
    const list = await (await fetch(`${employees}?pageSize=2&orderBy=employeeNumber`, { headers })).json();
    const [first, second] = list._embedded.map((employee: { id: string }) => employee.id) as [string, string];
    const upload = (employeeId: string, bytes: number) =>
      fetch(`${base}/employees/${employeeId}/photo`, { method: 'POST', headers, body: JSON.stringify({ data: randomBytes(bytes).toString('base64'), mimeType: 'image/png' }) });
    const refusedByLimit = async (answer: Response) => {
      expect(answer.status).toBe(400);
      expect((await answer.json()).messages[0].description).toMatch(new RegExp(`at most ${limit} bytes \\(the limit --max-sandbox-bytes`));
    };
    const snapshotWith = async (padding: number) => {
      const snapshot = await (await fetch(`${mock.url}/__sandbox/snapshot`, { headers })).json();
      return fetch(`${mock.url}/__sandbox/snapshot`, { method: 'PUT', headers, body: JSON.stringify({ ...snapshot, meta: { ...snapshot.meta, pad: 'x'.repeat(padding) } }) });
    };
    const total = async () => (await (await fetch(`${employees}?pageSize=1`, { headers })).json()).totalSize as number;

    // Uploads: base64 in the stored document.
    expect((await upload(first, 200_000)).status).toBe(201);
    await refusedByLimit(await upload(second, 150_000));
    const photo = await fetch(`${base}/employees/${second}/photo`, { headers: { ...headers, accept: '*/*' } });
    expect(photo.status === 200 ? (await photo.arrayBuffer()).byteLength : 0).not.toBe(150_000);

    // Meta: a snapshot's meta counts, and leaves no room for a new employee's documents.
    expect((await fetch(`${mock.url}/__sandbox/reset`, { method: 'POST', headers })).status).toBe(200);
    expect((await snapshotWith(HEADROOM - 1_000)).status).toBe(200);
    const exported = await (await fetch(`${mock.url}/__sandbox/snapshot`, { headers })).json();
    expect(Object.keys(exported.meta)).toEqual(['pad']);
    const before = await total();
    await refusedByLimit(await fetch(employees, { method: 'POST', headers: { ...headers, 'content-type': 'application/json;version=2018-01-01' }, body: JSON.stringify(newEmployee(80_001, 1)) }));
    expect(await total()).toBe(before);
    await refusedByLimit(await snapshotWith(HEADROOM + 1_000));
    // Room made again (a smaller meta), the same employee is stored.
    expect((await snapshotWith(10)).status).toBe(200);
    expect((await fetch(employees, { method: 'POST', headers: { ...headers, 'content-type': 'application/json;version=2018-01-01' }, body: JSON.stringify(newEmployee(80_001, 1)) })).status).toBe(201);
  }, 120_000);
});
