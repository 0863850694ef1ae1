// `payroll-mock --data <dir>` end to end: a write the sandbox answered 2xx is there after the
// process is killed with SIGKILL straight after the answer, and restarted on the same directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startProcess, type MockProcess } from '../../helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-data-http-'));
const running: MockProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<MockProcess> {
  const mock = await startProcess(['--port', '0', '--data', dir]);
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
