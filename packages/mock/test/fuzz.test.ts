// Property-based fuzzing: thousands of random, mostly invalid requests (methods, paths built
// from the described templates and from garbage, query strings, header values, media types,
// bodies of random bytes or JSON). None may get a 5xx, and the process must keep serving; in
// examples mode on the fixture bundles, and in sandbox mode on the real ones with the seed's
// ids, where afterwards every stored entity must still read back valid and a refused write
// must have changed nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seedSnapshot } from '#sandbox/seed/index.js';
import { payrollFixture, realBundle } from './fixtures/fixture.js';
import { fixtureMock, freshToken, request, sandboxMock, TOKEN, type MockProcess } from './helpers.js';
import { allOperations, callOperation, responseChecker } from './sandbox/engine/operations.js';

const RUNS = 2500;
const CONCURRENCY = 16;

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const operationsOf = (paths: Record<string, Record<string, unknown>>, prefix: string) =>
  Object.entries(paths).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), template: `${prefix}${p}` })));
const fixtureOperations = [...operationsOf(payrollFixture().paths, '/v2'), ...operationsOf(realBundle('journal').paths, '')];
const realOperations = [...operationsOf(realBundle('payroll').paths, '/v2'), ...operationsOf(realBundle('journal').paths, '')];
// Ids of the seed, so that sandbox requests reach stored entities (and write to them).
const seedIds = Object.values(seedSnapshot().collections).flatMap((docs) => docs.slice(0, 3).map((d) => d.id)).filter((id) => /^[0-9a-f-]{36}$/.test(id));

/** Requests over `operations`, whose path parameters are mostly `ids`. */
function requests(operations: Array<{ method: string; template: string }>, ids: fc.Arbitrary<string>) {
  const templates = operations.map((o) => o.template);
  const segment = fc.oneof(
    ids,
    fc.constantFrom('not-a-uuid', '%00', '%E0%A4%A', '..', '', '%2F', '0', '-1', 'null', '{id}', '%zz'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const path = fc.oneof(
    fc.tuple(fc.constantFrom(...templates), fc.array(segment, { minLength: 6, maxLength: 6 })).map(([t, values]) => {
      let i = 0;
      return t.replace(/\{[^}]+\}/g, () => values[i++ % values.length] as string);
    }),
    fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`),
    fc.constantFrom('/', '/v2', '/v2/v2', '/journal', '//v2//v2/providers', '/v2/v2/providers?'),
  );
  const queryValue = fc.oneof(
    fc.integer().map(String),
    fc.constantFrom('abc', '1e309', '-0', '', '%', '%zz', "name eq 'x'", '-a,b', '9'.repeat(50), 'true'),
    fc.string({ maxLength: 20 }),
  );
  const query = fc
    .array(fc.tuple(fc.constantFrom('pageSize', 'pageNumber', 'filter', 'orderBy', 'includeParent', 'referenceDate', '__code', '__example', '__dynamic', 'x'), queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : ''));
  // Header values: visible ASCII and spaces (what HTTP allows on the wire), occasionally latin1 bytes.
  const headerText = fc.oneof(
    fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,40}$/),
    fc.constantFrom('', ' ', '\t'),
    fc.string({ maxLength: 10 }).map((s) => Buffer.from(s, 'utf8').toString('latin1').replace(/[\x00-\x1f\x7f]/g, '')),
  );
  const mediaType = fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json;version=2018-01-01',
      'application/json;version=2016-01-01',
      'application/json;version=2017-03-01',
      'application/json;version=9999-99-99',
      'application/json;version=',
      'text/csv;version=2021-03-29',
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'text/json',
      'text/plain',
      '*/*',
      'application/*',
      'image/png',
      'application/json, text/csv',
      'multipart/form-data; boundary=--x',
      'application/x-www-form-urlencoded',
      ';',
      '/',
    ),
    headerText,
  );
  const authorization = fc.oneof(fc.constant(TOKEN), fc.constant(TOKEN), fc.constantFrom('Bearer', 'Bearer a b', 'Basic x', ''), headerText);
  const body = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.object({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
    fc.constantFrom('{', '{"attribute": "ABCDEFGHIJKLMNOP"}', 'null', '"x"', '[]', '{"fields": 1}'),
  );
  const reportInput = fc.oneof(
    fc.constant(undefined),
    fc.json({ maxDepth: 2 }),
    headerText,
    fc.constantFrom('{"fields":[{"fieldName":"employeeNumber"}]}', '{"delimiter":";;"}', '{"fields":[{"fieldName":"a.b.c","format":"dd-MM-yyyy"}]}'),
  );
  const method = fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND');

  const garbage = fc.record({
    method,
    path,
    query,
    accept: fc.option(mediaType, { nil: undefined }),
    contentType: fc.option(mediaType, { nil: undefined }),
    authorization: fc.option(authorization, { nil: undefined }),
    prefer: fc.option(fc.oneof(fc.constantFrom('code=404', 'code=200', 'code=999', 'example=single', 'example=nope', 'dynamic=true', 'dynamic=false, code=201'), headerText), { nil: undefined }),
    reportInput,
    body,
  });

  // Mostly well-formed calls of described operations, with one or two things off, so that the
  // requests get past routing and the token into validation, versions, Prism and export.
  const nearlyValid = fc
    .record({
      operation: fc.constantFrom(...operations),
      id: fc.oneof({ weight: 8, arbitrary: ids }, { weight: 1, arbitrary: segment }),
      query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: query }),
      accept: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: mediaType }),
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaType }),
      authorization: fc.oneof({ weight: 9, arbitrary: fc.constant(TOKEN) }, { weight: 1, arbitrary: authorization }),
      prefer: fc.option(fc.constantFrom('code=404', 'code=400', 'example=single', 'example=nope', 'dynamic=true'), { nil: undefined, freq: 3 }),
      reportInput,
      body,
    })
    .map(({ operation, id, ...rest }) => ({ ...rest, method: operation.method, path: operation.template.replace(/\{[^}]+\}/g, id) }));

  return fc.oneof({ weight: 3, arbitrary: nearlyValid }, { weight: 1, arbitrary: garbage });
}

type Sample = ReturnType<typeof requests> extends fc.Arbitrary<infer T> ? T : never;

function headersOf(s: Sample): Record<string, string> {
  const h: Record<string, string> = {};
  if (s.accept !== undefined) h.Accept = s.accept;
  if (s.contentType !== undefined) h['Content-Type'] = s.contentType;
  if (s.authorization !== undefined) h.Authorization = s.authorization;
  if (s.prefer !== undefined) h.Prefer = s.prefer;
  if (s.reportInput !== undefined) h['X-ReportInput'] = s.reportInput;
  return h;
}

const send = (mock: MockProcess, s: Sample, h: Record<string, string | number>) => {
  const withBody = s.body !== undefined && s.method !== 'GET' && s.method !== 'HEAD';
  return request(`${mock.url}${s.path}${s.query}`, { method: s.method, headers: h, body: withBody ? s.body : undefined });
};

// The client may refuse to send some generated values; the server must still be alive.
const refusedByClient = (error: unknown) => /Invalid character|Invalid header|ERR_INVALID|ERR_UNESCAPED/.test(String(error));

/** Sends the samples, 16 at a time; returns the 5xx answers (and failures) and the count per status. */
async function fuzz(mock: MockProcess, samples: Sample[]) {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < samples.length) {
      const s = samples[next++] as Sample;
      const h = headersOf(s);
      try {
        const res = await send(mock, s, h);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${res.status} ${s.method} ${s.path}${s.query} ${JSON.stringify(h)} ${res.text.slice(0, 200)}`);
      } catch (error) {
        if (!refusedByClient(error)) failures.push(`${s.method} ${s.path}: ${error}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { failures, statuses };
}

async function survivesMalformedHttp(mock: MockProcess): Promise<void> {
  const net = await import('node:net');
  const { port } = new URL(mock.url);
  const garbage = ['GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', `GET /v2/v2/providers HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n`, '\x00\x01\x02\x03'];
  for (const data of garbage) {
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(data));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.setTimeout(3_000, () => socket.destroy());
    });
  }
  const alive = await request(`${mock.url}/v2/v2/providers`, { headers: { Authorization: TOKEN, Accept: 'application/json' } });
  expect(alive.status).toBe(200);
}

describe('examples mode', () => {
  const mock = fixtureMock();

  it(`answers ${RUNS} random requests without a 5xx and stays up`, { timeout: 60_000 }, async () => {
    const samples = fc.sample(requests(fixtureOperations, fc.uuid()), { numRuns: RUNS, seed: 20_261_122 });
    const started = Date.now();
    const { failures, statuses } = await fuzz(mock(), samples);
    expect(failures.slice(0, 5)).toEqual([]);
    // The generator reaches every layer: routing, the token, validation and successful responses.
    for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(25);
    console.log(`fuzz statuses (examples): ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(mock().child.exitCode).toBeNull();
    const alive = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: TOKEN, Accept: 'application/json' } });
    expect(alive.status).toBe(200);
  });

  it('survives malformed HTTP on the socket', () => survivesMalformedHttp(mock()));
});

describe('sandbox mode', () => {
  const mock = sandboxMock();
  const ids = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...seedIds) }, { weight: 1, arbitrary: fc.uuid() });
  const token = TOKEN.replace(/^Bearer /, '');
  const operations = allOperations();
  const check = responseChecker();

  /** What reading every entity back (every GET of both descriptions) finds wrong, per operation. */
  async function readBack(t: string): Promise<Map<string, string>> {
    const problems = new Map<string, string>();
    for (const call of operations.filter((c) => c.method === 'get')) {
      const outcome = await callOperation(call, mock().url, t);
      if ('skipped' in outcome) continue;
      const found = outcome.res.status >= 500 ? [`${outcome.res.status}`] : outcome.res.status < 300 ? check(call, outcome.res) : [];
      if (found.length > 0) problems.set(call.operationId, found.join('; '));
    }
    return problems;
  }

  it(`answers ${RUNS} random requests without a 5xx, stays up, and every entity still reads back valid`, { timeout: 120_000 }, async () => {
    const samples = fc.sample(requests(realOperations, ids), { numRuns: RUNS, seed: 20_261_123 });
    const { failures, statuses } = await fuzz(mock(), samples);
    expect(failures.slice(0, 5)).toEqual([]);
    for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(25);
    console.log(`fuzz statuses (sandbox): ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(mock().child.exitCode).toBeNull();
    // The fuzzed sandbox reads back no worse than a pristine one: writes stored nothing invalid.
    const pristine = await readBack(freshToken('pristine'));
    const fuzzed = await readBack(token);
    const introduced = [...fuzzed].filter(([operationId]) => !pristine.has(operationId)).map(([id, problem]) => `${id}: ${problem}`);
    expect(introduced).toEqual([]);
    // Every stored doc still validates against its collection's schema and unique rules: the
    // snapshot import checks exactly that, so the fuzzed state must import into a fresh sandbox.
    const exported = await request(`${mock().url}/__sandbox/snapshot`, { headers: { Authorization: TOKEN } });
    const imported = await request(`${mock().url}/__sandbox/snapshot`, { method: 'PUT', headers: { Authorization: `Bearer ${freshToken('reimport')}`, 'Content-Type': 'application/json' }, body: exported.body });
    expect(imported.status, imported.text.slice(0, 2000)).toBe(200);
  });

  it('leaves no partial state behind a refused write: one request is one transaction', { timeout: 120_000 }, async () => {
    const writes = fc.sample(requests(realOperations.filter((o) => o.method !== 'GET'), ids), { numRuns: 400, seed: 20_261_124 });
    const own = freshToken('atomic');
    /** The sandbox's snapshot as exported (over a megabyte: the seed is whole). */
    const state = async () => (await request(`${mock().url}/__sandbox/snapshot`, { headers: { Authorization: `Bearer ${own}` } })).text;
    /** The snapshot's docs as id -> JSON text, per collection. */
    const docsOf = (snapshot: string) => {
      const collections = (JSON.parse(snapshot) as { collections: Record<string, Array<{ id: string }>> }).collections;
      const docs = new Map<string, string>();
      for (const [name, list] of Object.entries(collections)) for (const doc of list) docs.set(`${name}/${doc.id}`, JSON.stringify(doc));
      return docs;
    };
    // The export is deterministic, so an unchanged text is an unchanged sandbox; only a text
    // that differs is parsed and compared doc by doc (a reordering or a meta change is no change).
    const changes = (before: string, after: string) => {
      if (before === after) return [];
      const [a, b] = [docsOf(before), docsOf(after)];
      return [...new Set([...a.keys(), ...b.keys()])].filter((key) => a.get(key) !== b.get(key)).map((key) => `${key} ${a.has(key) ? (b.has(key) ? 'changed' : 'removed') : 'added'}`);
    };
    let refused = 0;
    const recent: string[] = [];
    let before = await state();
    for (const s of writes) {
      const h: Record<string, string | number> = { ...headersOf(s), Authorization: `Bearer ${own}` };
      // Node sends a DELETE's body without Content-Length: the server would read it as a second,
      // malformed request and answer that with 400 while the DELETE itself succeeds.
      if (s.body !== undefined && s.method !== 'GET' && s.method !== 'HEAD') h['Content-Length'] = Buffer.byteLength(s.body);
      let status: number;
      try {
        const res = await send(mock(), s, h);
        status = res.status;
        recent.push(`${status} ${s.method} ${s.path} ${res.text.slice(0, 150)}`);
      } catch (error) {
        if (refusedByClient(error)) continue;
        throw error;
      }
      const after = await state();
      if (status >= 400) {
        refused++;
        expect(changes(before, after), `${status} ${s.method} ${s.path} changed the sandbox (${JSON.stringify(h)} ${String(s.body).slice(0, 200)} ${s.query}) after ${recent.slice(-4).join(' | ')}`).toEqual([]);
      }
      before = after;
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('survives malformed HTTP on the socket', () => survivesMalformedHttp(mock()));
});
