// Every `ts` block of README.md typechecks and runs against a freshly started mock (and a
// local token endpoint), so the examples stay true.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from './mock-server.js';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const dir = path.join(pkg, '.readme-examples');
const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

let mock: RunningMock;
let tokens: Server;
let files: string[] = [];

beforeAll(async () => {
  mock = await startMock();
  let n = 0;
  tokens = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(req.url === '/oauth/token' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: `readme-${n}`, token_type: 'bearer', expires_in: 3600, refresh_token: `refresh-${n}` }));
    });
  });
  await new Promise<void>((resolve) => tokens.listen(0, '127.0.0.1', resolve));
  const tokenOrigin = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  files = blocks.map((code, i) => {
    const file = path.join(dir, `example-${i + 1}.ts`);
    const adapted = code
      .replaceAll("'@payroll-api/client'", "'../src/index.js'")
      .replaceAll('http://127.0.0.1:4010', mock.origin)
      .replaceAll('http://127.0.0.1:4011', tokenOrigin);
    fs.writeFileSync(file, `${adapted}\nexport {};\n`);
    return file;
  });
}, 90_000);

afterAll(async () => {
  await mock?.stop();
  await new Promise((resolve) => tokens?.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('README examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
  });

  it('typecheck', () => {
    const config = path.join(dir, 'tsconfig.json');
    fs.writeFileSync(config, JSON.stringify({ extends: '../tsconfig.json', include: ['./*.ts'], compilerOptions: { noEmit: true } }));
    const tsc = spawnSync(process.execPath, [path.join(pkg, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8', timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it('run against the mock', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (const file of files) {
        await expect(import(pathToFileURL(file).href), path.basename(file)).resolves.toBeDefined();
      }
      expect(log).toHaveBeenCalled();
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  }, 60_000);
});
