// A small static file server for the built site: GET and HEAD only, paths confined to the
// site folder (no traversal, no dot files, no symbolic links out of it), a content type for
// every file the site has, and the site's 404 page for anything else.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

export const DEFAULT_PORT = 4020;
export const DEFAULT_HOST = '127.0.0.1';

export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ics': 'text/calendar; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The pages carry their own policy in a meta element; framing can only be refused by a header.
  'Content-Security-Policy': "frame-ancestors 'none'",
};

/**
 * The file under `root` that a request path names, or null when there is none or the path
 * tries to leave the folder. `root` must be an absolute, real path.
 */
export function resolveRequestPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  // No "..", no hidden files: nothing outside the published pages and assets.
  if (segments.some((segment) => segment === '..' || segment.startsWith('.'))) return null;
  let file = path.join(root, ...segments);
  if (!existsSync(file)) return null;
  if (statSync(file).isDirectory()) {
    file = path.join(file, 'index.html');
    if (!existsSync(file)) return null;
  }
  const real = realpathSync(file);
  if (real !== root && !real.startsWith(root + path.sep)) return null;
  if (!statSync(real).isFile()) return null;
  return real;
}

function send(req, res, status, file, extraHeaders = {}) {
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const size = statSync(file).size;
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': size,
    'Cache-Control': 'no-cache',
    ...extraHeaders,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function plain(res, status, text, extraHeaders = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

/** A request handler serving the folder `root`. */
export function staticHandler(root) {
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new Error(`${root} does not exist: build the site first (pnpm --filter @payroll-api/docs build)`);
  }
  const realRoot = realpathSync(root);
  const notFound = path.join(realRoot, '404.html');
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'Method not allowed: this site answers GET and HEAD only.\n', { Allow: 'GET, HEAD' });
      return;
    }
    let pathname;
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    } catch {
      plain(res, 400, 'Bad request: the address is not valid.\n');
      return;
    }
    const file = resolveRequestPath(realRoot, pathname);
    if (file) send(req, res, 200, file);
    else if (existsSync(notFound)) send(req, res, 404, notFound);
    else plain(res, 404, 'Not found.\n');
  };
}

/**
 * Serves `root` on `host:port` (port 0 picks a free one). Resolves to
 * { server, url, close() } once listening.
 */
export async function startServer({ root, port = DEFAULT_PORT, host = DEFAULT_HOST }) {
  const handler = staticHandler(root);
  const server = createServer((req, res) => {
    try {
      handler(req, res);
    } catch (error) {
      if (!res.headersSent) plain(res, 500, 'Internal error.\n');
      else res.destroy();
      process.emitWarning(`docs server: ${error.message}`);
    }
  });
  // Bounded: a slow or idle client cannot hold a connection open indefinitely.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        url: `http://${shownHost}:${address.port}/`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
