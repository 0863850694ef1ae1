// The floor of the CPU benchmark (cpu.bench.mjs): a bare node:http server that does nothing but
// serialize one page and write it with the sandbox's headers. No routing, no checks, no store.
// With FLOOR_FIXED=1 it writes bytes serialized once (the engine benchmark's transport ceiling).
import fs from 'node:fs';
import http from 'node:http';

const { page, headers } = JSON.parse(fs.readFileSync(process.env.FLOOR_PAGE_FILE, 'utf8'));
const fixed = process.env.FLOOR_FIXED === '1' ? Buffer.from(JSON.stringify(page)) : undefined;
const server = http.createServer((req, res) => {
  const body = fixed ?? JSON.stringify(page);
  res.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`floor at http://127.0.0.1:${server.address().port}`));
process.on('SIGINT', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
