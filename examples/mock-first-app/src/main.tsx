// The app's entry: start the sandbox in this browser (MSW's service worker hands every call
// under /v2, /journal, /auth/token and /__sandbox to the engine running in this page), then
// render. No server process: `pnpm dev` is all it takes.
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api.js';
import { App } from './App.js';

/** Any token works; each token has its own sandbox, starting from the seed. */
const TOKEN = 'demo-token';

// A chunk of its own (the engine, both descriptions, the seed): the app's code stays apart from it.
const { startBrowserSandbox } = await import('./browser-sandbox.js');
const sandbox = await startBrowserSandbox();
// For the devtools console: sandbox.faults.add([{ operations: ['GetEmployeesByEmployerId'], status: 503, times: 1 }], { token: 'demo-token' })
Object.assign(window, { sandbox });

const payroll = createApiClient(window.location.origin, TOKEN);
createRoot(document.getElementById('root')!).render(<App payroll={payroll} />);
