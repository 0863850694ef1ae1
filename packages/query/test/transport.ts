// The seam between the behaviour tests and the sandbox: a transport gives the base URLs (and,
// for an in-process sandbox, the fetch that reaches it). Today: the mock over HTTP.
import { startMock } from '@payroll-api/mock';

export interface Transport {
  /** The payroll base URL (host followed by /v2). */
  baseUrl: string;
  /** The journal client's base URL (the host: journal paths begin with /journal). */
  journalBaseUrl: string;
  fetch?: typeof fetch;
  close(): Promise<void>;
}

export type TransportFactory = () => Promise<Transport>;

export const transports: Record<string, TransportFactory> = {
  'payroll-mock over HTTP': async () => {
    const mock = await startMock({ port: 0 });
    return { baseUrl: mock.payrollBaseUrl, journalBaseUrl: mock.url, close: () => mock.close() };
  },
};
