// A Node IncomingMessage as the pipeline reads it (see SandboxRequest): no copy of the
// headers, and the body read on demand with the size limit applied while it streams.
import type http from 'node:http';
import type { BodyRead, SandboxRequest } from '@payroll-api/sandbox/engine';

function readBody(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
    return Promise.resolve({ kind: 'empty' });
  }
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ kind: 'too-large' });
  // Closed before it was read (the client went away while the request waited): no event follows.
  if (req.destroyed) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(size === 0 ? { kind: 'empty' } : { kind: 'body', bytes: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => finish({ kind: 'aborted' }));
  });
}

/** The server's own cap on a body, whatever a handler would take: the bytes and the setting. */
export interface BodyCap {
  limit: number;
  setting: string;
}

export function fromNodeRequest(req: http.IncomingMessage, cap?: BodyCap): SandboxRequest {
  let read: Promise<BodyRead> | undefined;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    url: req.url ?? '/',
    headers: req.headers as Record<string, string | undefined>,
    readBody(limit) {
      if (!cap || limit < cap.limit) read ??= readBody(req, limit);
      else read ??= readBody(req, cap.limit).then((result) => (result.kind === 'too-large' ? { ...result, limit: cap.limit, setting: cap.setting } : result));
      return read;
    },
  };
}
