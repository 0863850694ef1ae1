// The six-month window through a whole run: a small in-test server of one resource at two
// versions, which keeps one state in the newest shape. Served through the version change chain,
// an entity written at one version reads back at the other and the window's sequence passes;
// served without it (the body stored as written), the sequence names the field.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { versionChanges } from '@payroll-api/version-changes';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';

const NEW = '2026-12-07';
const OLD = '2021-03-29';
const PERSON = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const person = (place: string) => ({ type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, lastName: { type: 'string' }, [place]: { type: 'string' } } });
const detail = (place: string) => ({
  type: 'object',
  required: ['version', 'messages', 'content'],
  properties: { version: { type: 'object' }, messages: { type: 'array' }, content: person(place) },
});
const versioned = (make: (place: string) => unknown) => ({
  [`application/json;version=${NEW}`]: { schema: make('birthPlace') },
  [`application/json;version=${OLD}`]: { schema: make('placeOfBirth') },
});
const answer = { description: 'ok', headers: { Expires: { schema: { type: 'string' } } }, content: versioned(detail) };
const description = {
  openapi: '3.1.0',
  info: { title: 'People', version: '1' },
  servers: [{ url: 'https://people.example.nl/v2' }],
  paths: {
    '/v2/people/{personId}': {
      parameters: [{ name: 'personId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: { operationId: 'GetPersonByPersonId', responses: { 200: answer } },
      put: { operationId: 'PutPersonByPersonId', requestBody: { required: true, content: versioned(person) }, responses: { 200: answer } },
    },
  },
  'x-resource-versions': {
    resources: { person: { operations: ['GetPersonByPersonId', 'PutPersonByPersonId'], versions: [{ version: NEW, obsoleteDate: null }, { version: OLD, obsoleteDate: '2027-06-07' }] } },
  },
  'x-version-changes': { person: [{ version: NEW, previous: OLD, changes: [{ rename: 'placeOfBirth', to: 'birthPlace' }] }] },
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-window-'));
const spec = path.join(dir, 'people.json');
fs.writeFileSync(spec, JSON.stringify(description));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A server of the one resource; `chained` runs the version change chain, else it stores bodies as written. */
function server(chained: boolean): typeof fetch {
  const chain = versionChanges(description);
  let stored: Record<string, unknown> = { id: PERSON, lastName: 'Jansen', birthPlace: 'Utrecht' };
  const reply = (status: number, version: string | null, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': version ? `application/json;version=${version}` : 'application/json', expires: new Date(0).toUTCString() } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = new Headers(init?.headers);
    const asked = /version=(\d{4}-\d{2}-\d{2})/.exec(headers.get('accept') ?? '')?.[1] ?? NEW;
    const version = [NEW, OLD].find((v) => v <= asked);
    if (!headers.get('authorization')) return new Response(JSON.stringify({ message: 'Authorization has been denied for this request.' }), { status: 401, headers: { 'content-type': 'application/json', expires: new Date(0).toUTCString() } });
    if (!version) return reply(400, null, { messages: [{ type: 'BrokenBusinessRule', description: 'Unsupported version in Accept.', properties: ['Accept'] }] });
    if (url.pathname !== `/v2/v2/people/${PERSON}`) return new Response(null, { status: 404, headers: { expires: new Date(0).toUTCString() } });
    if (init?.method === 'PUT') {
      const written = JSON.parse(String(init.body)) as Record<string, unknown>;
      const { id: _ignored, ...fields } = chained ? chain.upgrade<Record<string, unknown>>('person', version, NEW, written) : written;
      stored = { id: PERSON, ...fields };
    }
    const envelope = { version: { resourceVersion: version, obsoleteDate: version === OLD ? '2027-06-07' : null }, messages: [], content: stored };
    return reply(200, version, chained ? chain.downgrade('person', NEW, version, envelope) : envelope);
  }) as typeof fetch;
}

async function windowCase(chained: boolean) {
  const summary = await runConformance({
    payrollUrl: 'https://people.example.nl/v2',
    payrollSpec: spec,
    token: 'test',
    allowWrites: true,
    params: { personId: PERSON },
    today: '2026-12-10',
    fetch: server(chained),
  });
  const found = summary.cases.find((c) => c.kind === 'sequence' && c.title === `written at ${OLD}, read at ${NEW}, and back`);
  if (!found) throw new Error(`no version window sequence was run: ${summary.cases.map((c) => c.title).join('; ')}`);
  return found;
}

describe('the six-month window in a conformance run', () => {
  it('passes a server that serves both versions from one state through the chain', async () => {
    const result = await windowCase(true);
    expect(result.skipped).toBeUndefined();
    expect(result.findings.map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    expect(result.requests).toBe(5); // read, write at the older version; read, write at the newer; read at the older
  });

  it('fails a server that stores what each version writes as it is, naming the field', async () => {
    const result = await windowCase(false);
    // The run's own writes came first: the value is whatever the window's read at OLD gave.
    expect(result.findings.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`^written at ${OLD}, read at ${NEW}: \`birthPlace\` is missing, the version change record gives ".+"$`))]);
  });
});
