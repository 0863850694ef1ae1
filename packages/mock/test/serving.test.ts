// Addresses, the bearer token, resource versions, Prefer and the journal API, against the
// real mock process serving the fixture bundles.
import { describe, expect, it } from 'vitest';
import { EMPLOYER_ID, realBundle } from './fixtures/fixture.js';
import { fixtureMock, headers, request, TOKEN } from './helpers.js';

const mock = fixtureMock();
const providers = () => `${mock().url}/v2/v2/providers`;

describe('addresses', () => {
  it('prints exactly one line on standard output', () => {
    expect(mock().stdout().trim().split('\n')).toEqual([`payroll-mock listening on ${mock().url}`]);
  });

  it('serves payroll at base_url (host + /v2) followed by the /v2 path', async () => {
    const res = await request(providers(), { headers: headers() });
    expect(res.status).toBe(200);
    expect(res.json()._embedded).toHaveLength(1);
  });

  it('does not serve the payroll path without base_url: 404 with no body', async () => {
    const res = await request(`${mock().url}/v2/providers`, { headers: headers() });
    expect(res.status).toBe(404);
    expect(res.body.length).toBe(0);
  });

  it('answers an unknown path with 404 and no body, even without a token', async () => {
    for (const p of ['/', '/v2/v2/nothing', '/journal/nothing', '/v2/v2/providers/', '/v2/v2/providers/employers/x/y/z']) {
      const res = await request(`${mock().url}${p}`);
      expect(res.status, p).toBe(404);
      expect(res.body.length, p).toBe(0);
    }
  });

  it('answers a known path with an undescribed method with 405 and Allow', async () => {
    const res = await request(providers(), { method: 'DELETE', headers: headers() });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  it('prefers a literal segment over a path parameter', async () => {
    const minimized = await request(`${mock().url}/v2/v2/providers/employers/minimized`, { headers: headers() });
    const real = realBundle('payroll');
    const expected = real.paths['/v2/providers/employers/minimized']?.get ? 200 : 404;
    expect(minimized.status).toBe(expected);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await request(providers(), { method: 'HEAD', headers: headers() });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  it('answers a CORS preflight and exposes the contract headers', async () => {
    const pre = await request(providers(), {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization, accept' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(pre.headers['access-control-allow-headers']).toBe('authorization, accept');
    const res = await request(providers(), { headers: { ...headers(), Origin: 'http://localhost:5173' } });
    expect(res.headers['access-control-expose-headers']).toContain('Content-Disposition');
  });

  it('sends an Expires header on every response', async () => {
    const res = await request(providers(), { headers: headers() });
    expect(Date.parse(res.headers.expires ?? '')).not.toBeNaN();
  });
});

describe('bearer token', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['missing', { Accept: 'application/json' }],
    ['empty', { Accept: 'application/json', Authorization: '' }],
    ['not bearer', { Accept: 'application/json', Authorization: 'Basic dXNlcjpwYXNz' }],
    ['without token', { Accept: 'application/json', Authorization: 'Bearer' }],
    ['two words', { Accept: 'application/json', Authorization: 'Bearer abc def' }],
    ['characters outside [\\w-]', { Accept: 'application/json', Authorization: 'Bearer abc.def' }],
  ];
  for (const [name, h] of cases) {
    it(`answers 401 with {message} when the token is ${name}`, async () => {
      const res = await request(providers(), { headers: h });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
      expect(Object.keys(res.json())).toEqual(['message']);
    });
  }

  it('accepts a token of word characters and dashes', async () => {
    const res = await request(providers(), { headers: { Accept: 'application/json', Authorization: 'Bearer eyJhbGci-Oi_JIUzI1' } });
    expect(res.status).toBe(200);
  });
});

describe('resource versions', () => {
  const get = (accept: string) => request(providers(), { headers: headers(accept) });

  it('serves the newest version when none is requested', async () => {
    const res = await get('application/json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;version=2020-06-01');
    expect(res.json().version).toEqual({ resourceVersion: '2020-06-01', obsoleteDate: null });
    expect(res.json()._embedded[0].name).toContain('(2020-06-01)');
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });

  it('serves the newest version dated on or before the requested date', async () => {
    for (const [requested, served] of [
      ['2020-06-01', '2020-06-01'],
      ['2030-01-01', '2020-06-01'],
      ['2020-05-31', '2018-01-01'],
      ['2018-08-01', '2018-01-01'],
      ['2018-01-01', '2018-01-01'],
    ]) {
      const res = await get(`application/json;version=${requested}`);
      expect(res.status, requested).toBe(200);
      expect(res.headers['content-type'], requested).toBe(`application/json;version=${served}`);
      expect(res.json().version.resourceVersion, requested).toBe(served);
    }
  });

  it('reports the obsoleteDate and sends Deprecation and Sunset for a deprecated version', async () => {
    const res = await get('application/json;version=2019-01-01');
    expect(res.json().version).toEqual({ resourceVersion: '2018-01-01', obsoleteDate: '2099-12-31' });
    expect(res.json()._embedded[0].name).not.toContain('(2020-06-01)');
    expect(res.headers.deprecation).toBe(`@${Date.parse('2020-06-01T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Thu, 31 Dec 2099 00:00:00 GMT');
  });

  it('refuses a version whose obsoleteDate has passed: 400 envelope', async () => {
    const res = await get('application/json;version=2017-06-01');
    expect(res.status).toBe(400);
    const body = res.json();
    expect(body.version).toEqual({ resourceVersion: '2020-06-01', obsoleteDate: null });
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]).toMatchObject({ type: 'BrokenBusinessRule', id: null, properties: ['Accept'] });
    expect(body.messages[0].description).toMatch(/2017-01-01.*obsolete since 2018-07-01/);
  });

  it('refuses a date before every served version: 400 envelope', async () => {
    const res = await get('application/json;version=2016-12-31');
    expect(res.status).toBe(400);
    expect(res.json().messages[0]).toMatchObject({ type: 'BrokenBusinessRule', properties: ['Accept'], code: expect.any(Number) });
    expect(res.json().messages[0].description).toMatch(/2016-12-31.*oldest version is 2017-01-01/);
  });

  it('refuses a version that is not a date', async () => {
    for (const bad of ['2018-13-01', '2018-02-30', 'latest', '18-01-01']) {
      const res = await get(`application/json;version=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json().messages[0].properties, bad).toEqual(['Accept']);
    }
  });

  it('versions request bodies by Content-Type the same way', async () => {
    const url = `${mock().url}/v2/v2/providers/${EMPLOYER_ID}/logos`;
    const body = JSON.stringify({ attribute: 'A', name: 'B', data: 'aGVsbG8=', mimeType: 'image/png' });
    const ok = await request(url, { method: 'POST', headers: headers('application/json', { 'Content-Type': 'application/json;version=2019-01-01' }), body });
    expect(ok.status).toBe(201);
    const early = await request(url, { method: 'POST', headers: headers('application/json', { 'Content-Type': 'application/json;version=2010-01-01' }), body });
    expect(early.status).toBe(400);
    expect(early.json().messages[0].properties).toEqual(['Content-Type']);
  });
});

describe('Prefer', () => {
  it('selects an example by name', async () => {
    const url = `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;
    const all = await request(url, { headers: headers() });
    const single = await request(url, { headers: { ...headers(), Prefer: 'example=single' } });
    expect(all.json()._embedded).toHaveLength(2);
    expect(single.json()._embedded).toHaveLength(1);
  });

  it('selects a status code', async () => {
    const employees = `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;
    const notFound = await request(employees, { headers: { ...headers(), Prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    expect(notFound.body.length).toBe(0);
    const bad = await request(providers(), { headers: { ...headers(), Prefer: 'code=400' } });
    expect(bad.status).toBe(400);
    expect(bad.json().messages[0].type).toBe('BrokenBusinessRule');
    const unauthorized = await request(providers(), { headers: { ...headers(), Prefer: 'code=401' } });
    expect(unauthorized.status).toBe(401);
  });

  it('combines code and example, and also takes __code and __example query parameters', async () => {
    const url = `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;
    const both = await request(url, { headers: { ...headers(), Prefer: 'code=200, example=single' } });
    expect(both.json()._embedded).toHaveLength(1);
    const query = await request(`${url}?__example=single`, { headers: headers() });
    expect(query.json()._embedded).toHaveLength(1);
    const code = await request(`${url}?__code=404`, { headers: headers() });
    expect(code.status).toBe(404);
  });

  it('reports an unknown example or status as a 400 naming Prefer', async () => {
    for (const prefer of ['example=nope', 'code=418', 'code=abc', 'dynamic=maybe']) {
      const res = await request(providers(), { headers: { ...headers(), Prefer: prefer } });
      expect(res.status, prefer).toBe(400);
      expect(res.json().messages[0].properties, prefer).toEqual(['Prefer']);
    }
  });

  it('generates a response from the schema with dynamic=true', async () => {
    const url = `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;
    const res = await request(url, { headers: { ...headers(), Prefer: 'dynamic=true' } });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(Array.isArray(body._embedded)).toBe(true);
    expect(body).not.toEqual(expect.objectContaining({ totalSize: 2, _embedded: expect.arrayContaining([expect.objectContaining({ employeeNumber: 1001 })]) }));
  });
});

describe('journal', () => {
  const journal = realBundle('journal');
  const list = Object.entries(journal.paths as Record<string, any>).find(
    ([p, item]) => p.startsWith('/journal/') && item.get && Object.keys(item.get.responses?.['200']?.content ?? {}).includes('text/csv'),
  );
  const url = () => `${mock().url}${list?.[0].replace(/\{[^}]+\}/g, EMPLOYER_ID)}`;

  it('has a list operation under /journal to test with', () => {
    expect(list).toBeDefined();
  });

  it('serves paths beginning with /journal with plain media types, no versioning', async () => {
    const res = await request(url(), { headers: headers('application/json') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.deprecation).toBeUndefined();
    const textJson = await request(url(), { headers: headers('text/json') });
    expect(textJson.status).toBe(200);
    expect(textJson.headers['content-type']).toBe('text/json');
  });

  it('accepts request bodies as application/json, text/json and application/*+json', async () => {
    const post = Object.entries(journal.paths as Record<string, any>).find(([, item]) => item.post?.requestBody);
    expect(post).toBeDefined();
    const [template, item] = post as [string, any];
    const media = item.post.requestBody.content['application/json'];
    const ref = Object.values(media.examples ?? {})[0] as any;
    const example = media.example ?? (ref?.$ref ? journal.components.examples[ref.$ref.split('/').pop()].value : ref?.value);
    const target = `${mock().url}${template.replace(/\{[^}]+\}/g, EMPLOYER_ID)}`;
    for (const type of ['application/json', 'text/json', 'application/vnd.payroll+json']) {
      const res = await request(target, { method: 'POST', headers: headers('application/json', { 'Content-Type': type }), body: JSON.stringify(example) });
      expect(res.status, type).toBe(201);
    }
    const plain = await request(target, { method: 'POST', headers: headers('application/json', { 'Content-Type': 'text/plain' }), body: JSON.stringify(example) });
    expect(plain.status).toBe(400);
    expect(plain.json()).toEqual({ messages: [expect.objectContaining({ type: 'BrokenBusinessRule', properties: ['Content-Type'] })] });
  });

  it('requires the bearer token too', async () => {
    const res = await request(url(), { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(401);
  });

  it('answers an invalid path parameter with a 400 messages body naming it', async () => {
    const res = await request(url().replace(EMPLOYER_ID, 'not-a-uuid'), { headers: headers() });
    expect(res.status).toBe(400);
    const names = res.json().messages.flatMap((m: any) => m.properties);
    expect(names.length).toBe(1);
    expect(list?.[0]).toContain(`{${names[0]}}`);
  });
});

it('keeps serving after all of the above', async () => {
  const res = await request(providers(), { headers: { Authorization: TOKEN, Accept: 'application/json' } });
  expect(res.status).toBe(200);
  expect(mock().child.exitCode).toBeNull();
});
