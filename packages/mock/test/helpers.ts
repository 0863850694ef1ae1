// Starts the real mock process (the bin) and sends real HTTP requests to it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { fixtureDir } from './fixtures/fixture.js';

export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = path.join(packageDir, 'bin', 'payroll-mock.mjs');
export const READY = /^payroll-mock listening on (http:\/\/127\.0\.0\.1:(\d+))$/;
export const TOKEN = 'Bearer test-token_1';

export interface MockProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export function startProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<MockProcess> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`mock did not start within 90 s\n${out}\n${err}`));
      // Generous: on a loaded machine loading Prism alone takes seconds, and tests start several.
    }, 90_000);
    child.stdout.on('data', () => {
      const line = out.split('\n')[0] ?? '';
      const match = READY.exec(line);
      if (match && out.includes('\n')) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, stdout: () => out, stderr: () => err, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code}\n${out}\n${err}`));
    });
  });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): any;
}

/** A request with full control over headers and body bytes (fetch refuses some of them). */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer; timeoutMs?: number; localAddress?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false, localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`timeout: ${options.method ?? 'GET'} ${url}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Headers of a well-formed call: bearer token and a JSON Accept (optionally with a version). */
export function headers(accept = 'application/json', extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: TOKEN, Accept: accept, ...extra };
}

/**
 * Starts the mock on the fixture bundles before the tests of a file and stops it after them;
 * returns the running process. The contract layer's tests run in examples mode.
 */
export function fixtureMock(args: string[] = [], mode: 'examples' | 'sandbox' = 'examples'): () => MockProcess {
  let mock: MockProcess | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = fixtureDir();
    mock = await startProcess(['--port', '0', '--spec-dir', dir, ...(mode === 'examples' ? ['--examples'] : []), ...args]);
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!mock) throw new Error('the mock has not started');
    return mock;
  };
}

/** Starts the sandbox on the real bundles of @payroll-api/spec for the tests of a file. */
export function sandboxMock(args: string[] = []): () => MockProcess {
  let mock: MockProcess | undefined;
  beforeAll(async () => {
    mock = await startProcess(['--port', '0', ...args]);
  });
  afterAll(async () => {
    await mock?.stop();
  });
  return () => {
    if (!mock) throw new Error('the mock has not started');
    return mock;
  };
}

/** A bearer token no other test uses: its own, fresh sandbox. */
export function freshToken(label = 't'): string {
  return `${label.replace(/[^\w-]/g, '-')}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The built @payroll-api/client, loaded as an integrator's app loads it (build the client first). */
export async function builtClient<Client>(): Promise<Client> {
  const entry = path.resolve(packageDir, '../client/dist/index.js');
  expect(fs.existsSync(entry), `${entry} is missing: build @payroll-api/client first`).toBe(true);
  return (await import(entry)) as Client;
}
