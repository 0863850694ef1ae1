// The command line: exit codes, reports, read-only by default, the request budget, and the
// refusal to send anywhere it was not pointed at.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '@payroll-api/mock';
import { main } from '../src/cli.js';
import { Requester } from '../src/http.js';
import { startExamples, startFaulty, WAGE_MODEL_ID, type FaultyServer } from './support/servers.js';

const bin = fileURLToPath(new URL('../bin/payroll-conformance.mjs', import.meta.url));
let mock: RunningMock;
let recorder: FaultyServer;
let recorderUrl: string;
const methods: string[] = [];

beforeAll(async () => {
  mock = await startExamples();
  // Counts the methods that reach the mock, changing nothing.
  recorder = await startFaulty(mock.url, [
    {
      name: 'count',
      applies: (method) => {
        methods.push(method);
        return false;
      },
      change: (answer) => answer,
    },
  ]);
  recorderUrl = recorder.url;
});
afterAll(async () => {
  await recorder?.close();
  await mock?.close();
});

class Sink {
  text = '';
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new Sink();
  const err = new Sink();
  const code = await main(args, out as never, err as never);
  return { code, out: out.text, err: err.text };
}

test('read-only by default: only GETs are sent, and the reports are written', async () => {
  methods.length = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const result = await run(['run', '--payroll-url', `${recorderUrl}/v2`, '--journal-url', recorderUrl, '--token', 't1', '--stateless', '--param', `wageModelId=${WAGE_MODEL_ID}`, '--report-dir', dir, '--quiet']);
  expect(result.code, result.out + result.err).toBe(0);
  expect(methods.length).toBeGreaterThan(50);
  expect(new Set(methods)).toEqual(new Set(['GET']));
  expect(result.out).toMatch(/PASSED: \d+ cases, 0 failing/);
  expect(result.out).toMatch(/\(read-only\)/);
  const markdown = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
  expect(markdown).toMatch(/^# Conformance report/);
  expect(markdown).toMatch(/writes are not sent without --allow-writes/);
  const junit = fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<testsuites name="payroll-conformance" tests="\d+" failures="0"/);
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
  expect(json.readOnly).toBe(true);
  expect(json.failures).toBe(0);
});

test('the request budget stops the run, with a non-zero exit', async () => {
  methods.length = 0;
  const result = await run(['run', '--payroll-url', `${recorderUrl}/v2`, '--token', 't2', '--stateless', '--max-requests', '7', '--quiet']);
  expect(methods.length).toBe(7);
  expect(result.code).toBe(1);
  expect(result.out).toMatch(/Stopped early: the request budget of 7 requests is used up/);
});

test('the rate limit spaces requests', async () => {
  const started = Date.now();
  const result = await run(['run', '--payroll-url', `${recorderUrl}/v2`, '--token', 't3', '--stateless', '--max-requests', '6', '--rps', '20', '--quiet']);
  expect(result.code).toBe(1);
  // Six requests at 20 per second take at least five intervals of 50 ms.
  expect(Date.now() - started).toBeGreaterThanOrEqual(240);
});

test('requests go only to the origins given', async () => {
  const requester = new Requester({ origins: [recorderUrl], maxRequests: 10, rps: 0, timeoutMs: 1000 });
  methods.length = 0;
  await expect(requester.send({ method: 'GET', url: `${mock.url}/v2/v2/providers`, headers: {} })).rejects.toThrow(/refusing to send to http:\/\/127\.0\.0\.1:\d+/);
  expect(requester.count).toBe(0);
});

test('bad usage exits 2 with the reason', async () => {
  expect((await run(['run', '--token', 'x'])).err).toMatch(/give --payroll-url or --journal-url/);
  const noToken = await run(['run', '--payroll-url', 'http://127.0.0.1:1/v2']);
  expect(noToken.code).toBe(2);
  expect(noToken.err).toMatch(/give --token/);
  const bad = await run(['run', '--payroll-url', 'ftp://x', '--token', 'x']);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/--payroll-url must be an http\(s\) URL/);
  expect((await run(['frobnicate'])).code).toBe(2);
  expect((await run(['run', '--allow-writes', '--read-only', '--payroll-url', 'http://127.0.0.1:1/v2', '--token', 'x'])).code).toBe(2);
});

test('the bin runs from a shell and prints its usage', () => {
  const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/payroll-conformance run --payroll-url/);
});
