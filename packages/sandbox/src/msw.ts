// @payroll-api/sandbox/msw: MSW request handlers that answer from the sandbox engine in the
// page, the service worker's client or the test process (setupWorker, setupServer).
//
//   const sandbox = await createSandbox();
//   const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: 'http://localhost:4010' }));
//
// baseUrl lays the APIs out as payroll-mock does (payroll under /v2, journal under /journal,
// control endpoints under /__sandbox, OAuth at /auth/token), so switching between the server
// and MSW changes no URL. payrollBaseUrl and journalBaseUrl place either API elsewhere.
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { Sandbox } from './index.js';

export interface SandboxHandlersOptions {
  /** The root the layout hangs from, e.g. http://localhost:4010 (default: the page's origin in a browser, else http://localhost). */
  baseUrl?: string;
  /** The payroll API's base URL (host followed by /v2, as the client takes it). Default: `${baseUrl}/v2`. */
  payrollBaseUrl?: string;
  /** The journal API's base URL. Default: `${baseUrl}/journal`. */
  journalBaseUrl?: string;
}

const trailing = (url: string) => url.replace(/\/+$/, '');

function defaultRoot(): string {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== 'null' ? location.origin : 'http://localhost';
}

/** The path the engine routes for a request URL, or undefined when the URL is not the sandbox's. */
export function enginePath(url: URL, roots: { root: string; payroll: string; journal: string }): string | undefined {
  const href = `${url.origin}${url.pathname}`;
  if (href.startsWith(`${roots.payroll}/`)) return `/v2${href.slice(roots.payroll.length)}`;
  if (href.startsWith(`${roots.journal}/`)) return `/journal${href.slice(roots.journal.length)}`;
  if (href.startsWith(`${roots.root}/`) && /^\/(__sandbox|__health|auth\/token)(\/|$)/.test(href.slice(roots.root.length))) return href.slice(roots.root.length);
  return undefined;
}

/** One handler for every method under the sandbox's URLs; other requests fall through to your other handlers. */
export function sandboxHandlers(sandbox: Sandbox | Promise<Sandbox>, options: SandboxHandlersOptions = {}): HttpHandler[] {
  const root = trailing(new URL(options.baseUrl ?? defaultRoot(), defaultRoot()).href);
  const roots = {
    root,
    payroll: trailing(options.payrollBaseUrl ?? `${root}/v2`),
    journal: trailing(options.journalBaseUrl ?? `${root}/journal`),
  };
  const origins = [...new Set([roots.root, roots.payroll, roots.journal].map((u) => new URL(u).origin))];
  const handle = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const path = enginePath(url, roots);
    if (path === undefined) return undefined;
    const engine = await sandbox;
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
    const routed = new Request(`http://sandbox.internal${path}${url.search}`, { method, headers: request.headers, body });
    try {
      return await engine.fetch(routed);
    } catch (error) {
      if (error instanceof TypeError && /network error injected/.test(error.message)) return HttpResponse.error();
      throw error;
    }
  };
  return origins.map((origin) => http.all(`${origin}/*`, handle));
}

