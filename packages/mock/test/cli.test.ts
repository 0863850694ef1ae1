// The bin: ports (--port, PORT, 0), the ready line, dynamic mode, --watch, bad arguments.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPLOYER_ID, fixtureDir, payrollFixture } from './fixtures/fixture.js';
import { bin, headers, request, startProcess, type MockProcess } from './helpers.js';

let dir: string;
const running: MockProcess[] = [];

beforeAll(() => {
  dir = fixtureDir();
});
afterAll(async () => {
  await Promise.all(running.map((m) => m.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<MockProcess> {
  const mock = await startProcess(args, env);
  running.push(mock);
  return mock;
}

/** Runs the bin to its end (asynchronously: the tests of a block run side by side). */
function runBin(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    // Generous: on a loaded CI machine a start (reading both bundles) can take tens of seconds.
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

// The blocks start their own processes and do not depend on each other: run them side by side.
describe.concurrent('ports', () => {
  it('listens on --port and prints the one ready line', async () => {
    const port = await freePort();
    const mock = await start(['--port', String(port), '--spec-dir', dir]);
    expect(mock.url).toBe(`http://127.0.0.1:${port}`);
    expect(mock.stdout()).toBe(`payroll-mock listening on http://127.0.0.1:${port}\n`);
  });

  it('takes the port from PORT, and --port wins over it', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const fromEnv = await start(['--spec-dir', dir], { PORT: String(a) });
    expect(fromEnv.url).toBe(`http://127.0.0.1:${a}`);
    await fromEnv.stop();
    const fromFlag = await start(['--port', String(b), '--spec-dir', dir], { PORT: String(a) });
    expect(fromFlag.url).toBe(`http://127.0.0.1:${b}`);
  });

  it('exits with a clear message when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    const run = await runBin(['--port', String(port), '--spec-dir', dir]);
    blocker.close();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`port ${port} is already in use`);
  });

  it('refuses bad arguments with exit code 2 and usage', async () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--nope'],
      ['--max-body', '0'],
      // Sandbox options: not with --examples, one store only, a postgres URL, a lifetime of at least a second.
      ['--examples', '--data', 'x'],
      ['--data', 'x', '--database-url', 'postgres://u@127.0.0.1/db'],
      ['--database-url', 'mysql://u@127.0.0.1/db'],
      ['--token-lifetime', '0'],
      // A hosted sandbox needs an operator token of some length; a time to live is a duration.
      ['--hosted'],
      ['--operator-token', 'short'],
      ['--examples', '--hosted', '--operator-token', 'operator-token-0123456789'],
      ['--sandbox-ttl', '30'],
      ['--sandbox-ttl', '0d'],
      // The answer cache is MiB of memory, a sandbox option.
      ['--answer-cache', 'lots'],
      ['--answer-cache', '-1'],
      ['--examples', '--answer-cache', '8'],
      // The collection cache keeps what PostgreSQL holds: it needs a database.
      ['--collection-cache', '16'],
      ['--database-url', 'postgres://u@127.0.0.1/db', '--collection-cache', 'lots'],
    ]) {
      const run = await runBin([...args, '--spec-dir', dir]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
    }
  });

  it('prints help', async () => {
    const run = await runBin(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('--dynamic');
    for (const option of ['--examples', '--data', '--database-url', '--token-lifetime', '--hosted', '--operator-token', '--sandbox-ttl', '--answer-cache', '--collection-cache']) expect(run.stdout).toContain(option);
  });

  it('exits 1 when no bundle can be loaded', async () => {
    const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
    const run = await runBin(['--port', '0', '--spec-dir', empty]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no API description could be loaded');
  });
});

describe.concurrent('dynamic mode', () => {
  const url = (mock: MockProcess) => `${mock.url}/v2/v2/providers/employers/${EMPLOYER_ID}/employees`;

  for (const [name, args, env] of [
    ['--dynamic', ['--dynamic'], {}],
    ['PAYROLL_MOCK_DYNAMIC=true', ['--examples'], { PAYROLL_MOCK_DYNAMIC: 'true' }],
  ] as const) {
    it(`generates data from the schemas with ${name}; Prefer dynamic=false returns the example`, async () => {
      const mock = await start(['--port', '0', '--spec-dir', dir, ...args], env);
      const generated = (await request(url(mock), { headers: headers() })).json();
      expect(Array.isArray(generated._embedded)).toBe(true);
      expect(generated.totalSize).not.toBe(2);
      const example = (await request(url(mock), { headers: { ...headers(), Prefer: 'dynamic=false' } })).json();
      expect(example.totalSize).toBe(2);
      expect(example._embedded[0].employeeNumber).toBe(1001);
      // The contract rules hold in dynamic mode too: the version object, the error envelope.
      const versioned = await request(`${mock.url}/v2/v2/providers`, { headers: headers('application/json;version=2019-01-01') });
      expect(versioned.json().version).toEqual({ resourceVersion: '2018-01-01', obsoleteDate: '2099-12-31' });
      const bad = await request(`${url(mock)}?pageSize=x`, { headers: headers() });
      expect(bad.status).toBe(400);
      expect(bad.json().messages[0].properties).toEqual(['pageSize']);
    });
  }
});

describe.concurrent('--watch', () => {
  it('serves a changed bundle without a restart', async () => {
    const watched = fs.mkdtempSync(path.join(dir, 'watch-'));
    const doc = payrollFixture();
    const added = '/v2/providers/{providerId}/watchtest';
    fs.writeFileSync(path.join(watched, 'payroll.json'), JSON.stringify(doc));
    const mock = await start(['--port', '0', '--spec-dir', watched, '--watch', '--examples']);
    const url = `${mock.url}/v2${added.replace('{providerId}', EMPLOYER_ID)}`;
    expect((await request(url, { headers: headers() })).status).toBe(404);

    doc.paths[added] = {
      get: {
        operationId: 'GetWatchTest',
        responses: { '200': { description: 'ok', content: { 'application/json': { examples: { default: { value: { hello: 'watch' } } } } } } },
      },
    };
    // The way the bundle script writes: a temporary file renamed over the bundle.
    const tmp = path.join(watched, '.payroll.tmp.json');
    fs.writeFileSync(tmp, JSON.stringify(doc));
    fs.renameSync(tmp, path.join(watched, 'payroll.json'));

    const deadline = Date.now() + 10_000;
    let status = 404;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await request(url, { headers: headers() })).status;
    }
    expect(status).toBe(200);
    expect((await request(url, { headers: headers() })).json()).toEqual({ hello: 'watch' });
    expect(mock.stderr()).toContain('reloaded payroll');
  });

  it('keeps serving the previous bundle when the new one is broken', async () => {
    const watched = fs.mkdtempSync(path.join(dir, 'broken-'));
    fs.writeFileSync(path.join(watched, 'payroll.json'), JSON.stringify(payrollFixture()));
    const mock = await start(['--port', '0', '--spec-dir', watched, '--watch', '--examples']);
    fs.writeFileSync(path.join(watched, 'payroll.json'), '{"openapi": "3.1.0", "paths": {');
    const deadline = Date.now() + 10_000;
    while (!mock.stderr().includes('could not load') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(mock.stderr()).toContain('serving the previous version');
    expect((await request(`${mock.url}/v2/v2/providers`, { headers: headers() })).status).toBe(200);
  });
});
