// The Node adapter's body reader: a request read only after its client went away (it waited for
// its sandbox's turn) answers as aborted instead of waiting for events that never come.
import http from 'node:http';
import net from 'node:net';
import { expect, it } from 'vitest';
import { fromNodeRequest } from '../src/node-request.js';

it('reads a body whose client closed before it was read as aborted', async () => {
  const server = http.createServer();
  const arrived = new Promise<http.IncomingMessage>((resolve) => {
    server.once('request', (req: http.IncomingMessage) => resolve(req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"half":');
    const req = await arrived;
    const closed = new Promise((resolve) => req.once('close', resolve));
    socket.destroy();
    await closed;
    const read = await Promise.race([fromNodeRequest(req).readBody(1_000), new Promise((resolve) => setTimeout(() => resolve('waits forever'), 2_000))]);
    expect(read).toEqual({ kind: 'aborted' });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
