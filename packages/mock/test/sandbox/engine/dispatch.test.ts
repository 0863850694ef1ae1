// How the engine turns what a handler does into answers, with resource modules of the test's
// own on the real descriptions: 404 without body, 403 and 400 envelopes, a UniqueViolation as
// a 400 naming the fields, a refusal after a write keeping nothing of it, a handler that throws
// as a 500 envelope (the process keeps serving), and an operation without handler.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { message } from '#sandbox/http/errors.js';
import { startMock, type RunningMock } from '../../../src/server.js';
import { SandboxError, type ResourceModule } from '#sandbox/domain/context.js';
import { freshToken, request } from '../../helpers.js';

const THINGS = 'engineTestThings';
const id = (tail: string) => `00000000-0000-4000-8000-${tail.padStart(12, '0')}`;

const things: ResourceModule = {
  collections: [{ name: THINGS, unique: [{ name: 'code-per-employer', fields: ['employerId', 'code'] }] }],
  handlers: {
    async GetEmployerByEmployerId(ctx) {
      const which = ctx.params.employerId;
      if (which === id('404')) throw new SandboxError(404);
      if (which === id('403')) throw new SandboxError(403, [message(403, 'The user has no right to this employer.', [])]);
      if (which === id('500')) throw new Error('a handler bug');
      return { kind: 'detail', content: { id: which, companyName: 'Test B.V.' } };
    },
    async DeleteEmployerLogoByEmployerId(ctx) {
      const which = ctx.params.employerId as string;
      await ctx.tx.insert(THINGS, { id: ctx.newId(), employerId: id('1'), code: 'A' });
      if (which === id('400')) throw new SandboxError(400, [message(400, 'Refused after a write.', ['code'])]);
      if (which === id('999')) await ctx.tx.insert(THINGS, { id: ctx.newId(), employerId: id('1'), code: 'A' });
      return { kind: 'detail', content: {} };
    },
    // The description shows no body for this PUT (a contract gap); the handler gets the bytes.
    async PutConceptEmployeeByConceptEmployeeId(ctx) {
      return { kind: 'detail', content: { received: Buffer.isBuffer(ctx.body) ? ctx.body.toString('utf8') : null } };
    },
    async GetEmployersByUserId(ctx) {
      return { kind: 'list', page: await ctx.list(THINGS, { fields: new Map([['code', { path: ['code'], type: 'string' }]]) }) };
    },
  },
};

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, resources: [things], log: () => undefined });
}, 60_000);
afterAll(() => mock?.close());

const call = (token: string, method: string, path: string) =>
  request(`${mock.payrollBaseUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
const employer = (tail: string) => `/v2/providers/employers/${id(tail)}`;

it('answers a SandboxError(404) with 404 and no body, and a 403 with its envelope', async () => {
  const token = freshToken('dispatch');
  const notFound = await call(token, 'GET', employer('404'));
  expect(notFound.status).toBe(404);
  expect(notFound.body.length).toBe(0);
  const forbidden = await call(token, 'GET', employer('403'));
  expect(forbidden.status).toBe(403);
  expect(forbidden.json()).toEqual({ version: { resourceVersion: expect.any(String), obsoleteDate: null }, messages: [expect.objectContaining({ description: 'The user has no right to this employer.' })] });
  const ok = await call(token, 'GET', employer('1'));
  expect(ok.json()).toMatchObject({ messages: [], content: { id: id('1') }, version: { resourceVersion: expect.any(String) } });
});

it('keeps nothing of a request that is refused after it wrote', async () => {
  const token = freshToken('rollback');
  const refused = await call(token, 'DELETE', `${employer('400')}/logo`);
  expect(refused.status).toBe(400);
  expect(refused.json().messages[0]).toMatchObject({ description: 'Refused after a write.', properties: ['code'] });
  expect((await call(token, 'GET', '/v2/providers/employers')).json().totalSize).toBe(0);
  expect((await call(token, 'DELETE', `${employer('2')}/logo`)).status).toBe(200);
  expect((await call(token, 'GET', '/v2/providers/employers')).json().totalSize).toBe(1);
});

it('answers a UniqueViolation with a 400 BrokenBusinessRule naming the field, keeping nothing', async () => {
  const token = freshToken('unique');
  const res = await call(token, 'DELETE', `${employer('999')}/logo`);
  expect(res.status).toBe(400);
  expect(res.json().messages).toEqual([expect.objectContaining({ type: 'BrokenBusinessRule', properties: ['code'] })]);
  expect((await call(token, 'GET', '/v2/providers/employers')).json().totalSize).toBe(0);
});

it('answers a handler that throws with a 500 envelope and keeps serving; an operation no module claims answers from state', async () => {
  const token = freshToken('bug');
  const bug = await call(token, 'GET', employer('500'));
  expect(bug.status).toBe(500);
  expect(bug.json().messages[0].type).toBe('Exception');
  // No module here claims GetProvidersByUser: its behaviour is derived from its description.
  const derived = await call(token, 'GET', '/v2/providers');
  expect(derived.status).toBe(200);
  expect(derived.json()._embedded.length).toBeGreaterThan(0);
  expect((await call(token, 'GET', employer('1'))).status).toBe(200);
});

it('hands a handler the bytes of a body its description does not show', async () => {
  const url = `${mock.payrollBaseUrl}/v2/providers/employers/conceptemployees/${id('7')}`;
  const headers = { Authorization: `Bearer ${freshToken('undescribed')}`, Accept: 'application/json', 'Content-Type': 'application/json' };
  const ok = await request(url, { method: 'PUT', headers, body: '{"uniqueName":"Sanne"}' });
  expect(ok.json().content).toEqual({ received: '{"uniqueName":"Sanne"}' });
});
