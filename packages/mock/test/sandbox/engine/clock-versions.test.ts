// Version negotiation reads the sandbox clock: a resource version whose obsoleteDate has
// passed on the caller's clock is no longer served (400), in that sandbox only. The fixture
// bundle gives the provider resource versions 2020-06-01, 2018-01-01 (obsolete on 2099-12-31)
// and 2017-01-01 (obsolete since 2018-07-01).
import { expect, it } from 'vitest';
import { fixtureMock, freshToken, request } from '../../helpers.js';

const mock = fixtureMock([], 'sandbox');

it('refuses a version once the sandbox clock passes its obsoleteDate, and serves it to other sandboxes', async () => {
  const [token, other] = [freshToken('obsolete'), freshToken('still-served')];
  const get = (t: string) => request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: `Bearer ${t}`, Accept: 'application/json;version=2019-01-01' } });
  const before = await get(token);
  expect(before.status).toBe(200);
  expect(before.json().version).toEqual({ resourceVersion: '2018-01-01', obsoleteDate: '2099-12-31' });
  expect(before.headers.sunset).toBe('Thu, 31 Dec 2099 00:00:00 GMT');

  const set = await request(`${mock().url}/__sandbox/clock`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{"now":"2099-12-30T12:00:00Z"}' });
  expect(set.status).toBe(200);
  expect((await get(token)).status).toBe(200);
  await request(`${mock().url}/__sandbox/clock/advance`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{"days":1}' });
  const after = await get(token);
  expect(after.status).toBe(400);
  expect(after.json().messages[0]).toMatchObject({ type: 'BrokenBusinessRule', properties: ['Accept'] });
  expect(after.json().messages[0].description).toMatch(/2018-01-01.*obsolete since 2099-12-31/);
  // The newest version is still served on that clock, and the old one in other sandboxes.
  const newest = await request(`${mock().url}/v2/v2/providers`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  expect(newest.json().version).toEqual({ resourceVersion: '2020-06-01', obsoleteDate: null });
  expect((await get(other)).status).toBe(200);
});
