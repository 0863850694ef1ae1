// Runs every write of an API once in the in-process sandbox and reads every GET before and
// after it: which queries' answers the write changed. Each write runs in a sandbox of its own
// (a token of its own, from the seed); the "before" answers come from an untouched token.
// Ids come from the seed's snapshot; the GETs are read with the ids the write touched (the ids
// of every stored doc it added, changed or removed, and their relations), so a change to an
// entity shows wherever it is embedded.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deref, operationsOf, type OperationEntry } from '@payroll-api/openapi-bundle';
import type { Sandbox, Snapshot } from '@payroll-api/sandbox';
import type { Api, Ids } from '../src/index.js';

export const bundle = (api: Api) => JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../../spec/dist/${api}.json`, import.meta.url)), 'utf8'));

const ORIGIN = 'http://sandbox.invalidation.test';
const PREFIX: Record<Api, string> = { payroll: '/v2', journal: '' };
const BEFORE = 'invalidation-before';
/** At most this many id combinations read per GET after a write. */
const MAX_COMBINATIONS = 24;

export interface Query {
  activity: string;
  ids: Ids;
}
export interface WriteRun {
  activity: string;
  params: Ids;
  status: number;
  /** What the write answered (parsed). */
  data: unknown;
  /** The GET queries whose status or body differ after the write. */
  changed: Query[];
  /** How many GET queries were read after the write. */
  read: number;
}

const paramsOf = (path: string) => path.match(/[^{}]+(?=})/g) ?? [];
const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '');
const lower = (word: string) => word.charAt(0).toLowerCase() + word.slice(1);

/**
 * The path parameter names a stored doc's `id` may fill: the collection's singular name with
 * `Id` (employees → employeeId), without the API's prefix (journalCostCenters → costCenterId),
 * and its last word (providerLogos → logoId).
 */
function idNames(collection: string): string[] {
  const words = singular(collection).split(/(?=[A-Z])/);
  return [...new Set(words.map((_, i) => `${lower(words.slice(i).join(''))}Id`))];
}

/** Every id of some docs by the parameter names it may fill: each doc's id and its `…Id` relations. */
function idsOf(collections: Record<string, unknown[]>): Map<string, string[]> {
  const found = new Map<string, Set<string>>();
  const add = (name: string, value: unknown) => {
    if (typeof value !== 'string' || !value) return;
    if (!found.has(name)) found.set(name, new Set());
    found.get(name)!.add(value);
  };
  for (const [collection, docs] of Object.entries(collections))
    for (const doc of docs as Array<Record<string, unknown>>) {
      for (const name of idNames(collection)) add(name, doc.id);
      for (const [key, value] of Object.entries(doc)) if (/Id$/.test(key)) add(key, value);
    }
  return new Map([...found].map(([name, values]) => [name, [...values]]));
}

/** The docs of `after` that are new, changed or gone against `before`, by collection (both versions of a changed doc). */
function changedDocs(beforeState: Snapshot, afterState: Snapshot): Record<string, unknown[]> {
  const before = beforeState as { collections: Record<string, unknown[]> };
  const after = afterState as { collections: Record<string, unknown[]> };
  const out: Record<string, unknown[]> = {};
  const names = new Set([...Object.keys(before.collections), ...Object.keys(after.collections)]);
  for (const name of names) {
    const key = (doc: unknown) => JSON.stringify((doc as { id?: unknown }).id ?? doc);
    const was = new Map(((before.collections[name] ?? []) as unknown[]).map((d) => [key(d), JSON.stringify(d)]));
    const now = new Map(((after.collections[name] ?? []) as unknown[]).map((d) => [key(d), JSON.stringify(d)]));
    const docs: unknown[] = [];
    for (const [id, doc] of now) if (was.get(id) !== doc) docs.push(JSON.parse(doc), ...(was.has(id) ? [JSON.parse(was.get(id)!)] : []));
    for (const [id, doc] of was) if (!now.has(id)) docs.push(JSON.parse(doc));
    if (docs.length) out[name] = docs;
  }
  return out;
}

function combinations(names: string[], values: (name: string) => string[]): Ids[] {
  let out: Ids[] = [{}];
  for (const name of names) out = out.flatMap((ids) => values(name).map((value) => ({ ...ids, [name]: value })));
  return out.slice(0, MAX_COMBINATIONS);
}

const fill = (path: string, ids: Ids) => path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? ''));

/** The first JSON media type of a write's body and its example (without one, the write sends what the GET at its path answers). */
function bodyOf(doc: unknown, op: OperationEntry): { media: string; example: unknown } | undefined {
  const content = deref(doc, op.operation.requestBody)?.content as Record<string, { example?: unknown; examples?: Record<string, unknown> }> | undefined;
  // A PUT whose body the description does not show (the contract: "not shown") takes what its GET answers.
  if (!content) return op.method === 'put' ? { media: 'application/json', example: undefined } : undefined;
  const [media, entry] = Object.entries(content).find(([m]) => /json/.test(m))!;
  const named = entry.examples && Object.values(entry.examples)[0];
  const example = entry.example ?? (named ? deref(doc, named)?.value : undefined);
  return { media, example };
}

export async function runWrites(sandbox: Sandbox, api: Api): Promise<WriteRun[]> {
  const doc = bundle(api);
  const ops = [...operationsOf(doc)].filter((o) => o.operation.operationId);
  const gets = ops.filter((o) => o.method === 'get');
  const seed = await sandbox.snapshot({ token: BEFORE });
  const seedIds = idsOf(seed.collections as Record<string, unknown[]>);

  const call = async (token: string, method: string, path: string, ids: Ids, body?: { media: string; value: unknown }) => {
    const response = await sandbox.fetch(`${ORIGIN}${PREFIX[api]}${fill(path, ids)}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': body.media } : {}) },
      body: body ? JSON.stringify(body.value) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };
  const answers = new Map<string, string>();
  const read = async (token: string, get: OperationEntry, ids: Ids) => {
    const { status, text } = await call(token, 'get', get.path, ids);
    return `${status} ${text}`;
  };
  const before = async (get: OperationEntry, ids: Ids) => {
    const key = `${get.operation.operationId} ${JSON.stringify(ids)}`;
    if (!answers.has(key)) answers.set(key, await read(BEFORE, get, ids));
    return answers.get(key)!;
  };

  const runs: WriteRun[] = [];
  for (const op of ops.filter((o) => o.method !== 'get')) {
    const activity = op.operation.operationId as string;
    const token = `invalidation-${activity}`;
    const body = bodyOf(doc, op);
    let status = 0;
    let params: Ids = {};
    let data: unknown;
    // The first seed ids the write takes (a refused write changes nothing, so trying is safe).
    for (const ids of combinations(paramsOf(op.path), (name) => seedIds.get(name) ?? ['unknown'])) {
      let value = body?.example;
      if (body && value === undefined) {
        const answer = await call(token, 'get', op.path, ids);
        if (answer.status !== 200) continue;
        value = JSON.parse(answer.text).content;
      }
      const answer = await call(token, op.method, op.path, ids, body && { media: body.media, value });
      ({ status } = answer);
      data = answer.text ? JSON.parse(answer.text) : undefined;
      params = ids;
      if (status < 300) break;
    }
    const touched = idsOf(changedDocs(seed, await sandbox.snapshot({ token })));
    for (const [name, values] of Object.entries(params)) touched.set(name, [...new Set([values, ...(touched.get(name) ?? [])])]);
    const changed: Query[] = [];
    let count = 0;
    for (const get of gets) {
      const names = paramsOf(get.path);
      for (const ids of combinations(names, (name) => [...new Set([...(touched.get(name) ?? []), ...(seedIds.get(name) ?? ['unknown']).slice(0, 1)])])) {
        count++;
        if ((await read(token, get, ids)) !== (await before(get, ids))) changed.push({ activity: get.operation.operationId as string, ids });
      }
    }
    runs.push({ activity, params, status, data, changed, read: count });
  }
  return runs;
}
