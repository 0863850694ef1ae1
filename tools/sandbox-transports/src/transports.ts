// The three ways to reach the sandbox engine, behind one interface: payroll-mock over HTTP,
// MSW in Node (setupServer around fetch) and MSW in a real Chromium page (setupWorker). Each
// transport starts its own engine from the seed.
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import type { WireRequest, WireResponse } from './wire.js';

export interface Transport {
  name: TransportName;
  send(request: WireRequest): Promise<WireResponse>;
  close(): Promise<void>;
}

export type TransportName = 'http' | 'msw-node' | 'msw-browser';
export const TRANSPORTS: TransportName[] = ['http', 'msw-node', 'msw-browser'];

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

async function fetchWire(url: string, request: WireRequest): Promise<WireResponse> {
  try {
    const res = await fetch(url, { method: request.method, headers: request.headers, body: request.body });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    return { status: res.status, headers, base64: Buffer.from(await res.arrayBuffer()).toString('base64') };
  } catch {
    return { networkError: true };
  }
}

async function httpTransport(): Promise<Transport> {
  const { startMock } = await import('@payroll-api/mock');
  const running = await startMock({ port: 0, log: () => undefined });
  return { name: 'http', send: (r) => fetchWire(`${running.url}${r.path}`, r), close: () => running.close() };
}

async function mswNodeTransport(): Promise<Transport> {
  const [{ setupServer }, { createSandbox }, { sandboxHandlers }] = await Promise.all([import('msw/node'), import('@payroll-api/sandbox'), import('@payroll-api/sandbox/msw')]);
  const base = 'http://sandbox.msw.test';
  const sandbox = await createSandbox({ log: () => undefined });
  const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: base }));
  server.listen({ onUnhandledRequest: 'bypass' });
  return {
    name: 'msw-node',
    send: (r) => fetchWire(`${base}${r.path}`, r),
    async close() {
      server.close();
      await sandbox.close();
    },
  };
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: 30_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** The page's files: index.html, the bundled engine with MSW, and MSW's worker script. */
export async function pageFiles(): Promise<Map<string, { type: string; body: string | Buffer }>> {
  const bundled = await build({
    entryPoints: [path.join(here, 'page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const worker = fs.readFileSync(path.join(path.dirname(require.resolve('msw/package.json')), 'lib', 'mockServiceWorker.js'));
  return new Map<string, { type: string; body: string | Buffer }>([
    ['/', { type: 'text/html; charset=utf-8', body: '<!doctype html><meta charset="utf-8"><title>sandbox</title><script type="module" src="/page.js"></script>' }],
    ['/page.js', { type: 'text/javascript; charset=utf-8', body: bundled.outputFiles[0]!.text }],
    ['/mockServiceWorker.js', { type: 'text/javascript; charset=utf-8', body: worker }],
  ]);
}

/** A static server for the page's files on loopback; everything else is a 404 (the worker answers the API). */
export async function serveFiles(files: Map<string, { type: string; body: string | Buffer }>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const file = files.get((req.url ?? '/').split('?')[0]!);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function mswBrowserTransport(): Promise<Transport> {
  const site = await serveFiles(await pageFiles());
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${site.origin}/`);
  await page.evaluate(() => window.sandboxReady);
  return {
    name: 'msw-browser',
    send: (r) => page.evaluate((request) => window.send(request), r),
    async close() {
      await browser.close();
      await site.close();
    },
  };
}

export function startTransport(name: TransportName): Promise<Transport> {
  return name === 'http' ? httpTransport() : name === 'msw-node' ? mswNodeTransport() : mswBrowserTransport();
}
