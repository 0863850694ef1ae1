// Servers the checker is proven against: the mock in either mode, and a server that injects
// faults into the answers of the examples mock. All listen on 127.0.0.1 with a free port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMock, type RunningMock } from '@payroll-api/mock';

export const WAGE_MODEL_ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
/** The seed's quick-start employer: the description's request examples use its metadata options. */
export const EMPLOYER_ID = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';

export function startExamples(): Promise<RunningMock> {
  return startMock({ port: 0, mode: 'examples', log: () => {} });
}

export function startSandbox(options: { databaseUrl?: string } = {}): Promise<RunningMock> {
  return startMock({ port: 0, mode: 'sandbox', log: () => {}, ...options });
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A fault: which requests it applies to, and how it changes the upstream's answer. */
export interface Fault {
  name: string;
  applies(method: string, path: string, answer: Answer): boolean;
  change(answer: Answer): Answer;
}

export interface FaultyServer {
  url: string;
  close(): Promise<void>;
}

export function jsonOf(answer: Answer): Record<string, unknown> {
  return JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
}

export function withJson(answer: Answer, body: unknown, headers: Record<string, string> = {}): Answer {
  const bytes = Buffer.from(JSON.stringify(body));
  return { ...answer, headers: { ...answer.headers, ...headers, 'content-length': String(bytes.length) }, body: bytes };
}

/** Forwards every request to `upstream` and lets each fault change the answers it applies to. */
export async function startFaulty(upstream: string, faults: Fault[]): Promise<FaultyServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
      const body = Buffer.concat(chunks);
      const response = await fetch(new URL(req.url ?? '/', upstream), { method: req.method, headers, body: body.length > 0 ? new Uint8Array(body) : undefined });
      let answer: Answer = { status: response.status, headers: {}, body: Buffer.from(await response.arrayBuffer()) };
      response.headers.forEach((value, name) => {
        if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive') answer.headers[name] = value;
      });
      const path = new URL(req.url ?? '/', upstream).pathname;
      for (const fault of faults) if (fault.applies(req.method ?? 'GET', path, answer)) answer = fault.change(answer);
      answer.headers['content-length'] = String(answer.body.length);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
