// The seam between the behaviour tests and the sandbox: a transport gives the base URLs (and,
// for an in-process sandbox, the fetch that reaches it), and a way to inject a fault for a
// token. Two transports: the mock over HTTP, and the engine in process under MSW (setupServer).
import { startMock } from '@payroll-api/mock';
import { createSandbox } from '@payroll-api/sandbox';
import { sandboxHandlers } from '@payroll-api/sandbox/msw';
import { setupServer } from 'msw/node';

export interface FaultRule {
  operations: string[];
  status?: number;
  delayMs?: number;
  times?: number;
}

export interface Transport {
  /** The payroll base URL (host followed by /v2). */
  baseUrl: string;
  /** The journal client's base URL (the host: journal paths begin with /journal). */
  journalBaseUrl: string;
  fetch?: typeof fetch;
  /** Adds fault rules to a token's sandbox (the sandbox's /__sandbox/faults). */
  fault(token: string, rules: FaultRule[]): Promise<void>;
  close(): Promise<void>;
}

export type TransportFactory = () => Promise<Transport>;

/** POST /__sandbox/faults under `origin` for a token. */
async function postFaults(origin: string, token: string, rules: FaultRule[]): Promise<void> {
  const response = await fetch(`${origin}/__sandbox/faults`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ faults: rules }) });
  if (response.status !== 201) throw new Error(`the sandbox refused the fault rules: ${response.status} ${await response.text()}`);
}

export const transports: Record<string, TransportFactory> = {
  'payroll-mock over HTTP': async () => {
    const mock = await startMock({ port: 0 });
    return { baseUrl: mock.payrollBaseUrl, journalBaseUrl: mock.url, fault: (token, rules) => postFaults(mock.url, token, rules), close: () => mock.close() };
  },
  'the engine in process under MSW': async () => {
    const origin = 'http://sandbox.query.test';
    const sandbox = await createSandbox();
    const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: origin }));
    server.listen({ onUnhandledRequest: 'error' });
    return {
      baseUrl: `${origin}/v2`,
      journalBaseUrl: origin,
      fault: (token, rules) => postFaults(origin, token, rules),
      async close() {
        server.close();
        await sandbox.close();
      },
    };
  },
};
