// The library API from the built package: ESM and CommonJS entries, startMock and close.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir } from './fixtures/fixture.js';
import { headers, packageDir, request } from './helpers.js';

type Api = typeof import('../src/index.js');
let dir: string;
let esm: Api;

beforeAll(async () => {
  dir = fixtureDir();
  esm = (await import(`${packageDir}/dist/index.js`)) as Api;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('startMock', () => {
  it('starts on a free port, reports its addresses and closes', async () => {
    const running = await esm.startMock({ port: 0, specDir: dir, mode: 'examples', log: () => undefined });
    const url = running.url;
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(running.payrollBaseUrl).toBe(`${running.url}/v2`);
      expect(running.journalBaseUrl).toBe(running.url);
      const res = await request(`${running.payrollBaseUrl}/v2/providers`, { headers: headers() });
      expect(res.status).toBe(200);
      const ops = running.mock.operations();
      expect(ops).toContainEqual({ api: 'payroll', operationId: 'GetProvidersByUser', method: 'GET', path: '/v2/providers' });
      expect(ops.some((o) => o.api === 'journal' && o.path.startsWith('/journal/'))).toBe(true);
    } finally {
      await running.close();
    }
    // Closed: the port no longer answers.
    await expect(request(`${url}/v2/v2/providers`, { headers: headers() })).rejects.toThrow();
  });

  it('serves dynamic responses with { dynamic: true }', async () => {
    const running = await esm.startMock({ port: 0, specDir: dir, dynamic: true, log: () => undefined });
    try {
      const res = await request(`${running.payrollBaseUrl}/v2/providers`, { headers: headers() });
      expect(res.json()._embedded?.[0]?.name).not.toBe('Administratiekantoor Van der Berg B.V. (2020-06-01)');
    } finally {
      await running.close();
    }
  });

  it('rejects when no description can be loaded', async () => {
    await expect(esm.startMock({ port: 0, specDir: `${dir}/missing`, log: () => undefined })).rejects.toThrow(/no API description/);
  });

  it('offers createMock for use inside another server', async () => {
    const mock = esm.createMock({ specDir: dir, mode: 'examples', log: () => undefined });
    await mock.reload();
    const server = http.createServer((req, res) => void mock.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const res = await request(`http://127.0.0.1:${port}/v2/v2/providers`, { headers: headers() });
      expect(res.status).toBe(200);
    } finally {
      mock.dispose();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

it('loads through require() as CommonJS', async () => {
  const require = createRequire(import.meta.url);
  const cjs = require(`${packageDir}/dist/index.cjs`) as Api;
  expect(typeof cjs.startMock).toBe('function');
  const running = await cjs.startMock({ port: 0, specDir: dir, mode: 'examples', log: () => undefined });
  try {
    expect((await request(`${running.url}/v2/v2/providers`, { headers: headers() })).status).toBe(200);
  } finally {
    await running.close();
  }
});
