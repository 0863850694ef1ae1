// The real mock process for the docs tests, started in its default (sandbox) mode on a free
// port, and the sandbox's reset.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Starts `payroll-mock --port 0`; resolves to { child, origin, stop() } once it listens. */
export function startMock(args = []) {
  const bin = path.join(path.dirname(require.resolve('@payroll-api/mock/package.json')), 'bin/payroll-mock.mjs');
  const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the mock did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({
          child,
          origin: match[1],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (${code}):\n${output}`));
    });
  });
}

/** POST /__sandbox/reset for `token`: the token's sandbox is the seed again. */
export async function resetSandbox(origin, token) {
  const response = await fetch(`${origin}/__sandbox/reset`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`POST /__sandbox/reset answered ${response.status}: ${await response.text()}`);
}

/** The operator token the tests give a hosted mock. */
export const OPERATOR_TOKEN = 'docs-tests-operator-token-0123456789';

/** Starts `payroll-mock --hosted` (sandboxes in memory), as an operator runs a shared sandbox. */
export function startHostedMock(args = []) {
  return startMock(['--hosted', '--operator-token', OPERATOR_TOKEN, ...args]);
}

/** A client made by the operator endpoint: { client_id, client_secret }. */
export async function createHostedClient(origin, name) {
  const response = await fetch(`${origin}/__operator/clients`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`POST /__operator/clients answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** An access token of a hosted mock for `username` (password grant with the client's credentials). */
export async function hostedToken(origin, client, username, password = username) {
  const response = await fetch(`${origin}/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password, client_Id: client.client_id, client_secret: client.client_secret }),
  });
  if (!response.ok) throw new Error(`POST /auth/token answered ${response.status}: ${await response.text()}`);
  return (await response.json()).access_token;
}
