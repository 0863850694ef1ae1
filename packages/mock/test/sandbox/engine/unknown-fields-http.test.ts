// The sandbox's unknownFields setting over HTTP: body fields the operation's schema does not
// declare are dropped (default), dropped with a Warning naming them, or refused with a 400.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { PEOPLE_IDS } from '#sandbox/seed/people.js';
import { unknownFields } from '#sandbox/http/unknown-fields.js';
import { api, BASE, type Api } from '../people/harness.js';

let running: RunningMock;
let client: Api;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
  client = api({ url: running.url, token: 'unknown-fields' });
});
afterAll(async () => {
  await running?.close();
});
beforeEach(async () => {
  await client.reset();
});

const email = `${BASE}/employees/${PEOPLE_IDS.employee}/email`;
const settings = (body?: unknown) =>
  fetch(`${running.url}/__sandbox/settings`, {
    method: body === undefined ? 'GET' : 'PUT',
    headers: { Authorization: 'Bearer unknown-fields', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
/** The stored e-mail address (no operation reads it back). */
const emailOf = async () => Object.values(await client.state()).flat().find((doc) => doc.id === PEOPLE_IDS.employee && 'emailAddress' in doc)?.emailAddress;
const patch = (body: unknown) => client.patch(email, body, { version: '2018-12-31' });

it('ignores unknown fields by default: 200 without messages', async () => {
  expect(await (await settings()).json()).toEqual({ unknownFields: 'ignore' });
  const answer = await patch({ emailAddress: 'anouk@example.nl', nickname: 'Noek' });
  expect(answer.status).toBe(200);
  expect(answer.body.messages).toEqual([]);
  expect(await emailOf()).toBe('anouk@example.nl');
});

it('warns: the change is made, and a Warning names each unknown field', async () => {
  expect((await settings({ unknownFields: 'warn' })).status).toBe(200);
  const answer = await patch({ emailAddress: 'anouk.warn@example.nl', nickname: 'Noek', extra: { a: 1 } });
  expect(answer.status).toBe(200);
  expect(answer.body.messages).toEqual([expect.objectContaining({ type: 'Warning', properties: ['nickname', 'extra'], description: expect.stringMatching(/nickname, extra/) })]);
  expect(await emailOf()).toBe('anouk.warn@example.nl');
});

it('rejects: a 400 naming each unknown field, nothing changed', async () => {
  const before = await emailOf();
  expect(await (await settings({ unknownFields: 'reject' })).json()).toEqual({ unknownFields: 'reject' });
  const answer = await patch({ emailAddress: 'anouk.reject@example.nl', nickname: 'Noek' });
  expect(answer.status).toBe(400);
  expect(answer.body.messages.map((m: { properties: string[] }) => m.properties)).toEqual([['nickname']]);
  expect(await emailOf()).toBe(before);
  // A body with only known fields is unaffected.
  expect((await patch({ emailAddress: 'anouk.ok@example.nl' })).status).toBe(200);
});

it('refuses a bad setting naming it, and reset goes back to ignore', async () => {
  const bad = await settings({ unknownFields: 'loud' });
  expect(bad.status).toBe(400);
  expect((await bad.json()).messages[0].properties).toEqual(['unknownFields']);
  expect((await settings({ other: 1 })).status).toBe(400);
  await settings({ unknownFields: 'reject' });
  await client.reset();
  expect(await (await settings()).json()).toEqual({ unknownFields: 'ignore' });
});

it('finds unknown fields at every depth, through allOf and array items, and not where further fields are allowed', () => {
  const schema = {
    allOf: [{ properties: { name: { type: 'string' } } }, { properties: { address: { properties: { city: { type: 'string' } } }, items: { type: 'array', items: { properties: { key: {} } } }, free: { additionalProperties: true, properties: { a: {} } } } }],
  };
  expect(unknownFields(schema, { name: 'x', extra: 1, address: { city: 'y', zip: 'z' }, items: [{ key: 1 }, { key: 2, value: 3 }], free: { anything: 1 } })).toEqual(['extra', 'address.zip', 'items[1].value']);
  expect(unknownFields(schema, { name: 'x' })).toEqual([]);
});
