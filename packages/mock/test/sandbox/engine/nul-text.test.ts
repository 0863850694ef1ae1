// A text value holding U+0000 is refused with a 400 naming the field, in memory and in
// PostgreSQL alike (PostgreSQL cannot store it), and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/server.js';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { freshToken, request } from '../../helpers.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();

describe.each(['memory', 'postgres'] as const)('in %s', (store) => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, log: () => undefined, ...(store === 'postgres' ? { databaseUrl: await postgres().database('nul_text') } : {}) });
  }, 60_000);
  afterAll(() => mock?.close());

  it('refuses a NUL character in a field and keeps the employer as it was', async () => {
    const token = freshToken('nul');
    const url = `${mock.payrollBaseUrl}/v2/providers/employers/${SEED_IDS.employer}`;
    const accept = { Authorization: `Bearer ${token}`, Accept: 'application/json;version=2018-01-01' };
    const before = (await request(url, { headers: accept })).json();
    const { id: _id, employerNumber: _number, ...editable } = before.content;
    const body = JSON.stringify({ ...editable, sbi: null, legalForm: null, branch: null, companyName: 'Bakkerij\u0000 De Korenaar' });
    const refused = await request(url, { method: 'PUT', headers: { ...accept, 'Content-Type': 'application/json;version=2018-01-01' }, body });
    expect(refused.status).toBe(400);
    expect(refused.json().messages).toEqual([expect.objectContaining({ type: 'BrokenBusinessRule', properties: ['companyName'] })]);
    expect((await request(url, { headers: accept })).json()).toEqual(before);
  });
});
