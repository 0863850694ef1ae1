// `payroll-mock --data <dir>` end to end: a write the sandbox answered 2xx is there after the
// process is killed with SIGKILL straight after the answer, and restarted on the same directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startProcess, type MockProcess } from '../../helpers.js';
import { ORG_IDS } from '#sandbox/seed/organisation.js';

const PROVIDER = ORG_IDS.provider;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-data-http-'));
// One process per data directory: the team test has its own.
const teamDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-data-teams-'));
const running: MockProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(teamDir, { recursive: true, force: true });
});

async function start(at = dir): Promise<MockProcess> {
  const mock = await startProcess(['--port', '0', '--data', at]);
  running.push(mock);
  return mock;
}

const headers = { authorization: 'Bearer kept-token', 'content-type': 'application/json' };

it('keeps every write answered 2xx across kill -9 and a restart', async () => {
  const first = await start();
  const days: number[] = [];
  // Writes in flight when the process dies; only those answered count.
  const writes = Array.from({ length: 20 }, (_, n) =>
    fetch(`${first.url}/__sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ days: 1 }) }).then(
      (response) => {
        if (response.ok) days.push(n);
        return response.text();
      },
      () => undefined,
    ),
  );
  await writes[4];
  first.child.kill('SIGKILL');
  await Promise.all(writes);
  const answered = days.length;
  expect(answered).toBeGreaterThanOrEqual(1);

  const second = await start();
  const clock = await (await fetch(`${second.url}/__sandbox/clock`, { headers })).json();
  // Each answered advance moved the clock a day; an unanswered one may or may not have landed.
  expect(clock.offsetMs).toBeGreaterThanOrEqual(answered * 86_400_000);
  expect(clock.offsetMs).toBeLessThanOrEqual(20 * 86_400_000);
  expect(clock.offsetMs % 86_400_000).toBe(0);
  const sandboxes = await (await fetch(`${second.url}/__sandbox/sandboxes`, { headers })).json();
  expect(sandboxes.sandboxes).toHaveLength(1);
}, 60_000);

it('keeps a new employer hidden across a restart until it is in the team and five minutes have passed (§2.4)', async () => {
  const token = { authorization: 'Bearer team-token', accept: 'application/json' };
  const first = await start(teamDir);
  const created = await fetch(`${first.url}/v2/v2/providers/${PROVIDER}/employers`, {
    method: 'POST',
    headers: { ...token, 'content-type': 'application/json' },
    body: JSON.stringify({ companyName: 'Zeilmakerij Harlingen B.V.', legalForm: { key: 1 }, address: { street: 'Noorderhaven', houseNumber: 1, postalCode: '8861 AJ', city: 'Harlingen', country: { key: 1 } } }),
  });
  expect(created.status).toBe(201);
  const employerId = ((await created.json()) as { content: { id: string } }).content.id;
  const detail = (mock: MockProcess) => fetch(`${mock.url}/v2/v2/providers/employers/${employerId}`, { headers: token });
  expect((await detail(first)).status).toBe(403);
  const added = await fetch(`${first.url}/__sandbox/authorization/teams/${employerId}`, { method: 'PUT', headers: token });
  expect(added.status).toBe(200);
  await first.stop();

  const second = await start(teamDir);
  const refused = await detail(second);
  expect(refused.status).toBe(403);
  expect(refused.headers.get('x-sandbox-authorization')).toBe('step=5; reason=employer-not-visible-yet');
  await fetch(`${second.url}/__sandbox/clock/advance`, { method: 'POST', headers: { ...token, 'content-type': 'application/json' }, body: JSON.stringify({ minutes: 5 }) });
  expect((await detail(second)).status).toBe(200);
}, 60_000);
