// The page of the browser transport: the sandbox engine in the page, served through MSW's
// service worker (setupWorker), and a function the test calls to send one request with the
// page's own fetch. Bundled by esbuild when the transport starts.
import { setupWorker } from 'msw/browser';
import { createSandbox } from '@payroll-api/sandbox';
import { sandboxHandlers } from '@payroll-api/sandbox/msw';
import type { WireRequest, WireResponse } from './wire.js';

declare global {
  interface Window {
    sandboxReady: Promise<{ workerStartedMs: number; firstAnswerMs: number }>;
    send(request: WireRequest): Promise<WireResponse>;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

window.send = async (request) => {
  try {
    const res = await fetch(request.path, { method: request.method, headers: request.headers, body: request.body });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => (headers[name] = value));
    return { status: res.status, headers, base64: toBase64(new Uint8Array(await res.arrayBuffer())) };
  } catch {
    return { networkError: true };
  }
};

window.sandboxReady = (async () => {
  const started = performance.now();
  const worker = setupWorker(...sandboxHandlers(createSandbox(), { baseUrl: location.origin }));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const workerStartedMs = performance.now() - started;
  const first = await fetch('/__health');
  if (!first.ok) throw new Error(`the sandbox in the page answered ${first.status}`);
  return { workerStartedMs, firstAnswerMs: performance.now() - started };
})();
