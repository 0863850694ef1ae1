// A consumer app outside the monorepo, in ESM and CommonJS, against the built package as it is
// published (package.json and dist only): tsc must report every deliberate mistake of
// test/consumer/app.mts, written as esm.mts and as cjs.cts (an unreported one fails as an
// unused expect-error directive), and the compiled apps run against the real mock.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './mock-server.js';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const fixture = path.join(pkg, 'test/consumer');
const require = createRequire(import.meta.url);
let dir: string;
let mock: RunningMock;

function link(name: string, target: string) {
  const at = path.join(dir, 'node_modules', name);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, 'dir');
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(pkg, 'dist/index.js'))) throw new Error('dist/ is missing: build the package first');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-consumer-'));
  // The package as npm publishes it: its `files` (dist, README.md) and package.json.
  const installed = path.join(dir, 'node_modules/@payroll-api/client');
  fs.mkdirSync(installed, { recursive: true });
  for (const file of ['package.json', 'README.md', 'dist']) fs.cpSync(path.join(pkg, file), path.join(installed, file), { recursive: true });
  link('@payroll-api/types', fs.realpathSync(path.join(pkg, 'node_modules/@payroll-api/types')));
  link('openapi-fetch', path.dirname(path.dirname(require.resolve('openapi-fetch'))));
  link('@types/node', fs.realpathSync(path.join(pkg, '../../node_modules/@types/node')));
  fs.copyFileSync(path.join(fixture, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  for (const file of ['esm.mts', 'cjs.cts']) fs.copyFileSync(path.join(fixture, 'app.mts'), path.join(dir, file));
  mock = await startMock();
}, 90_000);

afterAll(async () => {
  await mock?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a consumer app of the packed client', () => {
  it('tsc reports every deliberate mistake, in ESM and in CommonJS', () => {
    const tsc = spawnSync(process.execPath, [path.join(pkg, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    for (const file of ['esm.mts', 'cjs.cts']) {
      const expected = fs.readFileSync(path.join(dir, file), 'utf8').match(/^\s*\/\/ @ts-expect-error /gm) ?? [];
      expect(expected.length, file).toBe(16);
    }
  }, 120_000);

  it.each([['esm.mjs'], ['cjs.cjs']])('%s runs against the mock: calls by activity, paginate, toBody and PUT, journal errors', (file) => {
    // Each format in a sandbox of its own.
    const env = { ...process.env, MOCK_ORIGIN: mock.origin, CONSUMER_TOKEN: `consumer-${path.parse(file).name}` };
    const run = spawnSync(process.execPath, [path.join(dir, 'out', file)], { cwd: dir, encoding: 'utf8', timeout: 60_000, env });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result.employees).toBeGreaterThan(0);
    expect(result).toMatchObject({ put: 200, journalStatus: 404, inUse: false });
  }, 60_000);
});
