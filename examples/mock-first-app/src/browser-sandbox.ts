import { createSandbox, type Sandbox } from '@payroll-api/sandbox';
import { sandboxHandlers } from '@payroll-api/sandbox/msw';
import { setupWorker } from 'msw/browser';

/** The sandbox engine in this page, answering through MSW's worker (the page's origin is the API's host). */
export async function startBrowserSandbox(): Promise<Sandbox> {
  const sandbox = await createSandbox();
  const worker = setupWorker(...sandboxHandlers(sandbox));
  // 'bypass': the app's own files (and Vite's modules) go to the dev server as usual.
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } });
  return sandbox;
}
