// Errors in the contract's shapes: 400 envelopes naming the offending field, never Prism's
// 422 problem+json; 413 for oversized bodies; the process survives whatever it is sent.
import { describe, expect, it } from 'vitest';
import { EMPLOYER_ID } from './fixtures/fixture.js';
import { fixtureMock, headers, request, type RawResponse } from './helpers.js';

const mock = fixtureMock(['--max-body', '65536']);
const logos = () => `${mock().url}/v2/v2/providers/${EMPLOYER_ID}/logos`;
const employees = () => `${mock().url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;
const valid = { attribute: 'LOONSTROOK', name: 'Logo', data: 'aGVsbG8=', mimeType: 'image/png' };

function post(body: string | Buffer, contentType: string | null = 'application/json'): Promise<RawResponse> {
  const h: Record<string, string> = headers();
  if (contentType !== null) h['Content-Type'] = contentType;
  return request(logos(), { method: 'POST', headers: h, body });
}

/** The contract's error envelope: version + BrokenBusinessRule messages; returns the properties named. */
function expectEnvelope(res: RawResponse, status = 400): string[] {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['content-type']).not.toContain('problem');
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['messages', 'version']);
  expect(body.version).toEqual({ resourceVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), obsoleteDate: null });
  expect(body.messages.length).toBeGreaterThan(0);
  for (const m of body.messages) {
    expect(m).toEqual({ code: expect.any(Number), id: null, type: 'BrokenBusinessRule', description: expect.any(String), properties: expect.any(Array) });
  }
  return body.messages.flatMap((m: { properties: string[] }) => m.properties);
}

describe('invalid body', () => {
  it('accepts a valid body (201)', async () => {
    const res = await post(JSON.stringify(valid));
    expect(res.status).toBe(201);
    expect(res.json().content.attribute).toBe('LOONSTROOK');
  });

  it('names a field that breaks maxLength', async () => {
    const res = await post(JSON.stringify({ ...valid, attribute: 'ABCDEFGHIJK' }));
    expect(expectEnvelope(res)).toEqual(['attribute']);
    expect(res.json().messages[0].description).toMatch(/attribute.*10 characters/);
  });

  it('names every missing required field', async () => {
    const res = await post(JSON.stringify({ attribute: 'A' }));
    expect(expectEnvelope(res).sort()).toEqual(['data', 'mimeType', 'name']);
  });

  it('names nested fields with a dotted path', async () => {
    const res = await post(JSON.stringify({ ...valid, placement: { corner: 'middle' } }));
    expect(expectEnvelope(res).sort()).toEqual(['placement.corner', 'placement.page']);
  });

  it('names a field of the wrong type', async () => {
    const res = await post(JSON.stringify({ ...valid, name: 42 }));
    expect(expectEnvelope(res)).toEqual(['name']);
  });

  it('rejects a body of the wrong JSON type', async () => {
    for (const body of ['[]', '"text"', '42', 'null', 'true']) {
      const res = await post(body);
      expect(expectEnvelope(res), body).toContain('body');
    }
  });

  it('requires the body', async () => {
    expect(expectEnvelope(await post(''))).toEqual(['body']);
  });

  it('answers malformed JSON with 400', async () => {
    for (const body of ['{', '{"attribute": }', "{'a': 1}", '{"a": 1} trailing', '\u0000']) {
      const res = await post(body);
      expect(expectEnvelope(res), body).toEqual(['body']);
      expect(res.json().messages[0].description).toMatch(/not valid JSON/);
    }
  });

  it('answers a binary body with 400', async () => {
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x81, 0xc3, 0x28, 0x7b]);
    expect(expectEnvelope(await post(binary))).toEqual(['body']);
    expect(expectEnvelope(await post(binary, 'application/octet-stream'))).toEqual(['Content-Type']);
  });

  it('answers a missing or unsupported Content-Type with 400', async () => {
    expect(expectEnvelope(await post(JSON.stringify(valid), null))).toEqual(['Content-Type']);
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'garbage', ';;;', 'application/json;version=abc']) {
      expect(expectEnvelope(await post(JSON.stringify(valid), type)), type).toEqual(['Content-Type']);
    }
  });
});

describe('invalid parameters and headers', () => {
  it('names an invalid query parameter with its spelling in the description', async () => {
    const res = await request(`${employees()}?pageSize=abc&pageNumber=0`, { headers: headers() });
    expect(expectEnvelope(res).sort()).toEqual(['pageNumber', 'pageSize']);
  });

  it('names a query parameter that breaks its pattern', async () => {
    const res = await request(`${employees()}?orderBy=${encodeURIComponent('name;drop')}`, { headers: headers() });
    expect(expectEnvelope(res)).toEqual(['orderBy']);
  });

  it('names an invalid path parameter', async () => {
    const res = await request(`${mock().url}/v2/v2/providers/employers/not-a-uuid/employees`, { headers: headers() });
    expect(expectEnvelope(res)).toEqual(['employerId']);
  });

  it('names a missing Accept header', async () => {
    const res = await request(employees(), { headers: { Authorization: 'Bearer x' } });
    expect(expectEnvelope(res)).toEqual(['Accept']);
  });

  it('names an Accept the operation does not offer', async () => {
    for (const accept of ['image/png', 'text/html;version=2021-03-29', 'nonsense']) {
      expect(expectEnvelope(await request(employees(), { headers: headers(accept) })), accept).toEqual(['Accept']);
    }
  });

  it('serves a list of media ranges, as HTTP clients such as axios send by default', async () => {
    const res = await request(employees(), { headers: headers('application/json, text/plain, */*') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json;\s*version=2021-03-29/);
  });

  it('names an Accept whose version is not a date', async () => {
    for (const accept of ['application/json;version=2021-13-45', 'application/json;version=latest']) {
      expect(expectEnvelope(await request(employees(), { headers: headers(accept) })), accept).toEqual(['Accept']);
    }
  });
});

describe('oversized bodies', () => {
  it('refuses a body over the limit with 413 and the envelope', async () => {
    const big = JSON.stringify({ ...valid, data: 'A'.repeat(70_000) });
    const res = await post(big);
    expect(res.status).toBe(413);
    expect(res.json().messages[0]).toMatchObject({ properties: ['body'], description: expect.stringMatching(/65536 bytes/) });
  });

  it('refuses a chunked body over the limit with 413', async () => {
    const res = await request(logos(), {
      method: 'POST',
      headers: { ...headers(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: Buffer.alloc(200_000, 0x41),
    });
    expect(res.status).toBe(413);
  });

  it('keeps serving afterwards', async () => {
    const res = await post(JSON.stringify(valid));
    expect(res.status).toBe(201);
  });
});

describe('never Prism problem+json', () => {
  it('answers odd but well-formed requests without 422 or 5xx', async () => {
    const attempts: Array<Promise<RawResponse>> = [
      request(`${employees()}?pageSize=${'9'.repeat(400)}`, { headers: headers() }),
      request(`${employees()}?pageSize=-1e309&filter=${'%'.repeat(50)}`, { headers: headers() }),
      request(`${employees()}?%zz=%zz&pageNumber=1&pageNumber=2`, { headers: headers() }),
      request(`${mock().url}/v2/v2/providers/employers/%E0%A4%A/employees`, { headers: headers() }),
      request(employees(), { headers: { ...headers(), Prefer: 'code=500' } }),
      request(employees(), { headers: headers('*/*;version=2099-99-99') }),
      request(employees(), { headers: headers('application/json;version=') }),
      request(logos(), { method: 'POST', headers: { ...headers(), 'Content-Type': 'application/json; charset=latin1' }, body: '{}' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).not.toBe(422);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type'] ?? '').not.toContain('problem+json');
    }
  });
});
