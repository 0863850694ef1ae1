// A Node IncomingMessage as the pipeline reads it (see SandboxRequest): no copy of the
// headers, and the body read on demand with the size limit applied while it streams.
import type http from 'node:http';
import type { BodyRead, SandboxRequest } from '@payroll-api/sandbox/engine';

/** Bytes the body's buffer starts with (see readBody). */
const FIRST_BUFFER = 64 * 1024;

function readBody(req: http.IncomingMessage, limit: number, shared = false): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
    return Promise.resolve({ kind: 'empty' });
  }
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ kind: 'too-large' });
  // Closed before it was read (the client went away while the request waited): no event follows.
  if (req.destroyed) return Promise.resolve({ kind: 'aborted' });
  // The chunks are copied into one buffer as they arrive: joining them at the end would copy a
  // body of tens of megabytes in one go, holding every other request up. The buffer starts small
  // (a declared length is not memory to hold before its bytes come), then takes the declared
  // length at once, or doubles up to the limit without one. A body a worker parses is read into
  // shared memory, so that the worker reads it without a copy (json-thread.ts).
  const length = Number(declared);
  const known = declared !== undefined && Number.isSafeInteger(length) && length > 0;
  const expected = known ? Math.min(length, limit) : limit;
  const allocate = shared ? (size: number) => Buffer.from(new SharedArrayBuffer(size)) : (size: number) => Buffer.allocUnsafe(size);
  let buffer = allocate(Math.min(expected, FIRST_BUFFER));
  return new Promise((resolve) => {
    let size = 0;
    let done = false;
    const finish = (result: BodyRead) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      const at = size;
      size += chunk.length;
      if (size > limit) return finish({ kind: 'too-large' });
      if (size > buffer.length) {
        const grown = allocate(Math.max(size, known ? expected : Math.min(buffer.length * 2, expected)));
        buffer.copy(grown, 0, 0, at);
        buffer = grown;
      }
      chunk.copy(buffer, at);
    };
    req.on('data', onData);
    req.once('end', () => finish(size === 0 ? { kind: 'empty' } : { kind: 'body', bytes: buffer.subarray(0, size) }));
    req.once('error', () => finish({ kind: 'aborted' }));
    req.once('close', () => finish({ kind: 'aborted' }));
  });
}

/** The server's own cap on a body, whatever a handler would take: the bytes and the setting;
 * and for the bodies under it, the server's own JSON parse (SandboxRequest.parseJson). */
export interface BodyCap {
  limit: number;
  setting: string;
  parseJson?: SandboxRequest['parseJson'];
}

export function fromNodeRequest(req: http.IncomingMessage, cap?: BodyCap): SandboxRequest {
  let read: Promise<BodyRead> | undefined;
  const shared = cap?.parseJson !== undefined;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    url: req.url ?? '/',
    headers: req.headers as Record<string, string | undefined>,
    ...(cap?.parseJson ? { parseJson: cap.parseJson } : {}),
    readBody(limit) {
      if (!cap || limit < cap.limit) read ??= readBody(req, limit, shared);
      else read ??= readBody(req, cap.limit, shared).then((result) => (result.kind === 'too-large' ? { ...result, limit: cap.limit, setting: cap.setting } : result));
      return read;
    },
  };
}
