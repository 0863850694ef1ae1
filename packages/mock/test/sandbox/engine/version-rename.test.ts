// The sandbox never serves the wrong version, over memory and PostgreSQL: after a rename
// shipped as a new resource version (the employee's last name, under the name it has at the
// newest served version, renamed), filter and orderBy
// take each version's own names and a renamed field behaves as its old name did at the old
// version; an older version's name in a body at the new version is an unknown field, dropped or
// refused before the body is taken to the stored shape, and reported truthfully; and once the
// older version has left the description, the sandbox refuses to start rather than answer the
// old shape under the new label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { CODE_VERSIONS } from '#sandbox/engine/version-window.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { usePostgres } from '../../support/postgres.js';
import { renamedBundle, writeBundle } from '../../support/renamed-bundle.js';

const RENAME = { resource: 'employee', field: 'personalDetails.lastName' };
const { bundle, previous: OLD, version: NEW, from: FROM, to: TO } = renamedBundle(RENAME);
/** The field's last segment at each version (personalDetails.<name>). */
const [fromName, toName] = [FROM, TO].map((field) => field.split('.').at(-1)!) as [string, string];
const LIST = `/v2/providers/employers/${SEED_IDS.employer}/employees`;
const DETAIL = (id: string) => `/v2/providers/employers/employees/${id}`;

const postgres = usePostgres();
const written = writeBundle(bundle);
afterAll(() => written.remove());

const stores = [
  { name: 'memory', databaseUrl: async () => undefined },
  { name: 'PostgreSQL', databaseUrl: () => postgres().database('version_rename') },
];

describe.each(stores)('a renamed field on the $name store', ({ name, databaseUrl }) => {
  let mock: RunningMock;
  const token = `version-rename-${name}`;
  beforeAll(async () => {
    mock = await startMock({ port: 0, mode: 'sandbox', payrollSpec: written.payrollSpec, journalSpec: written.journalSpec, databaseUrl: await databaseUrl(), log: () => undefined });
    await fetch(`${mock.url}/__sandbox/reset`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  }, 90_000);
  afterAll(async () => {
    await mock?.close();
  });

  const call = async (method: string, path: string, version: string, body?: unknown) => {
    const media = `application/json;version=${version}`;
    const res = await fetch(`${mock.payrollBaseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: media, ...(body === undefined ? {} : { 'Content-Type': media }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const list = (version: string, query: string) => call('GET', `${LIST}?pageSize=250&${query}`, version);
  const lastNames = (answer: { body: { _embedded: Array<{ personalDetails: Record<string, string> }> } }, field: string) => answer.body._embedded.map((e) => String(e.personalDetails[field]));

  /** A last name the seed gives more than one employee of the employer, and how many. */
  async function sharedLastName(): Promise<[string, number]> {
    const all = await list(OLD, '');
    const counts = new Map<string, number>();
    for (const name of lastNames(all, fromName)) counts.set(name, (counts.get(name) ?? 0) + 1);
    const shared = [...counts].find(([, count]) => count > 1);
    expect(shared, 'the seed has two employees with one last name').toBeDefined();
    return shared!;
  }

  it('filters on each version\'s own name, with the same answer', async () => {
    const [lastName, count] = await sharedLastName();
    const older = await list(OLD, `filter=${encodeURIComponent(`${FROM} eq '${lastName}'`)}`);
    expect(older.body.totalSize).toBe(count);
    const newer = await list(NEW, `filter=${encodeURIComponent(`${TO} eq '${lastName}'`)}`);
    expect(newer.status).toBe(200);
    expect(newer.body.totalSize).toBe(count);
    expect(lastNames(newer, toName)).toEqual(Array(count).fill(lastName));
    expect(newer.body._embedded.map((e: { id: string }) => e.id)).toEqual(older.body._embedded.map((e: { id: string }) => e.id));
    // lk, and a combination with another field, too.
    const part = lastName.slice(1, 4);
    const likeOld = await list(OLD, `filter=${encodeURIComponent(`${FROM} lk '${part}' and employeeNumber gt 0`)}`);
    const likeNew = await list(NEW, `filter=${encodeURIComponent(`${TO} lk '${part}' and employeeNumber gt 0`)}`);
    expect(likeNew.body.totalSize).toBeGreaterThan(0);
    expect(likeNew.body.totalSize).toBe(likeOld.body.totalSize);
  });

  it('orders on each version\'s own name, with the same order', async () => {
    for (const direction of ['', '-']) {
      const older = await list(OLD, `orderBy=${direction}${FROM}`);
      const newer = await list(NEW, `orderBy=${direction}${TO}`);
      expect(newer.status).toBe(200);
      const names = lastNames(newer, toName);
      expect(names).toEqual(lastNames(older, fromName));
      const sorted = [...names].sort((a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
      expect(names).toEqual(direction ? sorted.reverse() : sorted);
    }
  });

  it('refuses the other version\'s name as an unknown field', async () => {
    for (const [version, field] of [[NEW, FROM], [OLD, TO]] as const) {
      for (const query of [`filter=${encodeURIComponent(`${field} eq 'Dijk'`)}`, `orderBy=${field}`]) {
        const answer = await list(version, query);
        expect(answer.status, `${query} at ${version}`).toBe(400);
        expect(answer.body.messages[0].description).toContain(`Unknown field '${field}'`);
      }
    }
  });

  it('drops an older version\'s name in a body at the new version, and says so truthfully', async () => {
    const id = (await list(OLD, '')).body._embedded[0].id as string;
    const before = (await call('GET', DETAIL(id), NEW)).body.content;
    const { id: _id, ...body } = before;
    const settings = (unknownFields: string) =>
      fetch(`${mock.url}/__sandbox/settings`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ unknownFields }) });
    try {
      expect((await settings('warn')).status).toBe(200);
      const put = await call('PUT', DETAIL(id), NEW, { ...body, personalDetails: { ...body.personalDetails, [fromName]: 'Verkeerd' } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.messages).toEqual([expect.objectContaining({ type: 'Warning', properties: [FROM] })]);
      expect(put.body.content.personalDetails[toName]).toBe(before.personalDetails[toName]);
      // Ignored, as the warning says: at both versions the name is the one written before.
      expect((await call('GET', DETAIL(id), NEW)).body.content.personalDetails[toName]).toBe(before.personalDetails[toName]);
      expect((await call('GET', DETAIL(id), OLD)).body.content.personalDetails[fromName]).toBe(before.personalDetails[toName]);
      expect((await settings('reject')).status).toBe(200);
      const refused = await call('PUT', DETAIL(id), NEW, { ...body, personalDetails: { ...body.personalDetails, [fromName]: 'Verkeerd' } });
      expect(refused.status).toBe(400);
      expect(refused.body.messages.map((m: { properties: string[] }) => m.properties)).toEqual([[FROM]]);
      // The new name at the new version is written, and read at the old version under the old name.
      const renamed = await call('PUT', DETAIL(id), NEW, { ...body, personalDetails: { ...body.personalDetails, [toName]: 'Goedhart' } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect((await call('GET', DETAIL(id), OLD)).body.content.personalDetails[fromName]).toBe('Goedhart');
    } finally {
      await settings('ignore');
    }
  });
});

describe('once the older version has left the description', () => {
  it('refuses to start, naming the version the code is written at and the one described', async () => {
    const removed = writeBundle(renamedBundle({ ...RENAME, removeOld: true }).bundle);
    try {
      const started = startMock({ port: 0, mode: 'sandbox', payrollSpec: removed.payrollSpec, journalSpec: removed.journalSpec, log: () => undefined });
      await expect(started).rejects.toThrow(new RegExp(`employee handlers are written at version ${CODE_VERSIONS.employee}, but the description serves employee at ${NEW}`));
    } finally {
      removed.remove();
    }
  });

  it('refuses to start when the description serves two versions with no change recorded between them', async () => {
    const { bundle: unrecordedBundle } = renamedBundle(RENAME);
    delete unrecordedBundle['x-version-changes'].employee;
    const unrecorded = writeBundle(unrecordedBundle);
    try {
      const started = startMock({ port: 0, mode: 'sandbox', payrollSpec: unrecorded.payrollSpec, journalSpec: unrecorded.journalSpec, log: () => undefined });
      await expect(started).rejects.toThrow(new RegExp(`employee at ${NEW} too, but records no chain of version changes`));
    } finally {
      unrecorded.remove();
    }
  });
});
