// Property-based fuzzing: thousands of random, mostly invalid requests (methods, paths built
// from the described templates and from garbage, query strings, header values, media types,
// bodies of random bytes or JSON). None may get a 5xx, and the process must keep serving.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { payrollFixture, realBundle } from './fixtures/fixture.js';
import { fixtureMock, request, TOKEN } from './helpers.js';

const RUNS = 2500;
const CONCURRENCY = 16;
const mock = fixtureMock();

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const operationsOf = (paths: Record<string, Record<string, unknown>>, prefix: string) =>
  Object.entries(paths).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), template: `${prefix}${p}` })));
const operations = [...operationsOf(payrollFixture().paths, '/v2'), ...operationsOf(realBundle('journal').paths, '')];
const templates = operations.map((o) => o.template);

const segment = fc.oneof(
  fc.uuid(),
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
    id: fc.oneof({ weight: 8, arbitrary: fc.uuid() }, { weight: 1, arbitrary: segment }),
    query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: query }),
    accept: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 3, arbitrary: mediaType }),
    contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: mediaType }),
    authorization: fc.oneof({ weight: 9, arbitrary: fc.constant(TOKEN) }, { weight: 1, arbitrary: authorization }),
    prefer: fc.option(fc.constantFrom('code=404', 'code=400', 'example=single', 'example=nope', 'dynamic=true'), { nil: undefined, freq: 3 }),
    reportInput,
    body,
  })
  .map(({ operation, id, ...rest }) => ({ ...rest, method: operation.method, path: operation.template.replace(/\{[^}]+\}/g, id) }));

const requestArb = fc.oneof({ weight: 3, arbitrary: nearlyValid }, { weight: 1, arbitrary: garbage });

it(`answers ${RUNS} random requests without a 5xx and stays up`, { timeout: 60_000 }, async () => {
  const samples = fc.sample(requestArb, { numRuns: RUNS, seed: 20_261_122 });
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < samples.length) {
      const s = samples[next++] as (typeof samples)[number];
      const h: Record<string, string> = {};
      if (s.accept !== undefined) h.Accept = s.accept;
      if (s.contentType !== undefined) h['Content-Type'] = s.contentType;
      if (s.authorization !== undefined) h.Authorization = s.authorization;
      if (s.prefer !== undefined) h.Prefer = s.prefer;
      if (s.reportInput !== undefined) h['X-ReportInput'] = s.reportInput;
      const withBody = s.body !== undefined && s.method !== 'GET' && s.method !== 'HEAD';
      try {
        const res = await request(`${mock().url}${s.path}${s.query}`, { method: s.method, headers: h, body: withBody ? s.body : undefined });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${res.status} ${s.method} ${s.path}${s.query} ${JSON.stringify(h)} ${res.text.slice(0, 200)}`);
      } catch (error) {
        // The client may refuse to send some generated values; the server must still be alive.
        if (!/Invalid character|Invalid header|ERR_INVALID|ERR_UNESCAPED/.test(String(error))) failures.push(`${s.method} ${s.path}: ${error}`);
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(failures.slice(0, 5)).toEqual([]);
  // The generator reaches every layer: routing, the token, validation and successful responses.
  for (const status of [200, 400, 401, 404]) expect(statuses.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(25);
  console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  expect(Date.now() - started).toBeLessThan(50_000);
  expect(mock().child.exitCode).toBeNull();
  const alive = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: TOKEN, Accept: 'application/json' } });
  expect(alive.status).toBe(200);
});

it('survives malformed HTTP on the socket', async () => {
  const net = await import('node:net');
  const { port } = new URL(mock().url);
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
  const alive = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: TOKEN, Accept: 'application/json' } });
  expect(alive.status).toBe(200);
});
