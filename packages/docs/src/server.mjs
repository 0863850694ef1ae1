// A small static file server for the built site: GET and HEAD only, paths confined to the
// site folder (no traversal, no dot files, no symbolic links out of it), a content type for
// every file the site has, and the site's 404 page for anything else. It sends the build's
// precompressed .br/.gz copies when the browser accepts them, caches hashed asset names for a
// year and everything else with validators (ETag, Last-Modified, 304), as a static host
// configured for dist/ would.
import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
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

// Asset names carrying a content hash (see build.mjs): their content never changes.
const HASHED_NAME = /\.[0-9a-f]{10}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Everything else may change with the next build: the browser revalidates (a 304 is cheap).
const REVALIDATE = 'no-cache';

/** The encodings a request accepts (q=0 refused), from Accept-Encoding. */
export function acceptedEncodings(header = '') {
  const accepted = new Set();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted;
}

/** The file to send for `file`: its .br or .gz copy when accepted and present. */
function encodedVariant(req, file) {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
    if ((accepted.has(encoding) || accepted.has('*')) && existsSync(file + suffix)) return { body: file + suffix, encoding };
  }
  return { body: file, encoding: null };
}

function validators(stat, encoding) {
  // Weak: the same content may be sent in several encodings.
  return { etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`, lastModified: new Date(Math.floor(stat.mtimeMs / 1000) * 1000) };
}

function notModified(req, etag, lastModified) {
  const match = req.headers['if-none-match'];
  if (match) return match.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

function send(req, res, status, file, extraHeaders = {}) {
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const { body, encoding } = encodedVariant(req, file);
  const stat = statSync(body);
  const { etag, lastModified } = validators(stat, encoding);
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': status === 200 && HASHED_NAME.test(file) ? IMMUTABLE : REVALIDATE,
    Vary: 'Accept-Encoding',
    ...(status === 200 ? { ETag: etag, 'Last-Modified': lastModified.toUTCString() } : {}),
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
    ...extraHeaders,
  };
  if (status === 200 && notModified(req, etag, lastModified)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'Content-Length': stat.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(body);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** The deepest path whose 404 page links back (deeper ones get a short text): the page's size
 * does not grow with the path a client makes up. */
const MAX_LINKED_DEPTH = 32;

/**
 * The 404 page for a request at any depth: its links are relative to the site root, so they
 * get the way back to it ("../" per folder of the request path).
 */
function sendNotFound(req, res, file, pathname) {
  const depth = Math.max(0, pathname.split('/').length - 2);
  if (depth > MAX_LINKED_DEPTH) {
    plain(res, 404, 'Not found.\n', { 'Cache-Control': REVALIDATE });
    return;
  }
  const up = '../'.repeat(depth);
  const html = readFileSync(file, 'utf8').replace(/\b(href|src|data-index)="(?![a-z]+:|\/|#)([^"]*)"/g, `$1="${up}$2"`);
  res.writeHead(404, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), 'Cache-Control': REVALIDATE });
  res.end(req.method === 'HEAD' ? undefined : html);
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
    else if (existsSync(notFound)) sendNotFound(req, res, notFound, pathname);
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
