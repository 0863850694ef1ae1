// The static server over real HTTP: content types, the 404 page, methods, and every way of
// asking for a file outside the site.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncodings, resolveRequestPath, startServer } from '../src/server.mjs';

let base;
let site;
let server;

/** A raw request: the path is sent exactly as given (fetch would normalise "..", "%2e"). */
function raw(method, rawPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, method, path: rawPath, headers, timeout: 5000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks), body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'payroll-docs-server-'));
  site = path.join(base, 'site');
  mkdirSync(path.join(site, 'assets'), { recursive: true });
  mkdirSync(path.join(site, 'guide'));
  writeFileSync(path.join(base, 'secret.txt'), 'outside the site');
  writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>home</title>');
  writeFileSync(path.join(site, 'guide', 'index.html'), '<!doctype html><title>guide</title>');
  writeFileSync(path.join(site, '404.html'), '<!doctype html><title>not found</title><link href="assets/site.css"><a href="index.html">home</a><a href="https://example.com/x">out</a><a href="#top">top</a>');
  // A hashed asset with its precompressed copies, as the build writes them.
  const script = 'console.log("hashed");'.repeat(100);
  writeFileSync(path.join(site, 'assets', 'app.0123456789.js'), script);
  writeFileSync(path.join(site, 'assets', 'app.0123456789.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(site, 'assets', 'app.0123456789.js.gz'), gzipSync(script));
  writeFileSync(path.join(site, 'assets', 'site.css'), 'body{}');
  writeFileSync(path.join(site, 'assets', 'app.js'), '1;');
  writeFileSync(path.join(site, 'feed.ics'), 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
  writeFileSync(path.join(site, 'spec.json'), '{}');
  writeFileSync(path.join(site, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(site, 'notes.md'), '# notes');
  writeFileSync(path.join(site, '.env'), 'SECRET=1');
  symlinkSync(path.join(base, 'secret.txt'), path.join(site, 'link.txt'));
  server = await startServer({ root: site, port: 0 });
});

afterAll(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('docs server', () => {
  it.each([
    ['/', 'text/html; charset=utf-8', 'home'],
    ['/index.html', 'text/html; charset=utf-8', 'home'],
    ['/guide/', 'text/html; charset=utf-8', 'guide'],
    ['/assets/site.css', 'text/css; charset=utf-8', 'body{}'],
    ['/assets/app.js', 'text/javascript; charset=utf-8', '1;'],
    ['/feed.ics', 'text/calendar; charset=utf-8', 'BEGIN:VCALENDAR'],
    ['/spec.json', 'application/json; charset=utf-8', '{}'],
    ['/icon.svg', 'image/svg+xml', '<svg'],
    ['/notes.md', 'text/markdown; charset=utf-8', '# notes'],
    ['/assets/site.css?v=1#top', 'text/css; charset=utf-8', 'body{}'],
  ])('GET %s is %s', async (file, type, content) => {
    const res = await raw('GET', file);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain(content);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/link.txt',
    '/.env',
    '/index.html%00.css',
    '/%E0%A4%A',
    '//etc/passwd',
    '/missing/deep/page',
  ])('GET %s is the 404 page, never a file outside the site', async (file) => {
    const res = await raw('GET', file);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('not found');
    expect(res.body).not.toContain('outside the site');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await raw('HEAD', '/assets/site.css');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('6');
    expect(head.body).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await raw(method, '/index.html');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  it('resolves only files inside the real site folder', () => {
    expect(resolveRequestPath(site, '/assets/site.css')).toBe(path.join(site, 'assets', 'site.css'));
    expect(resolveRequestPath(site, '/../secret.txt')).toBeNull();
    expect(resolveRequestPath(site, '/link.txt')).toBeNull();
    expect(resolveRequestPath(site, '/assets')).toBeNull();
  });

  it('refuses to start without a built site', async () => {
    await expect(startServer({ root: path.join(base, 'nope'), port: 0 })).rejects.toThrow(/build the site first/);
  });
});

describe('compression and caching', () => {
  const script = 'console.log("hashed");'.repeat(100);

  it('sends the precompressed copy the browser accepts, brotli first', async () => {
    const br = await raw('GET', '/assets/app.0123456789.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.bytes).toString()).toBe(script);
    const gz = await raw('GET', '/assets/app.0123456789.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(script);
    const plain = await raw('GET', '/assets/app.0123456789.js', { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(Number(br.headers['content-length'])).toBeLessThan(script.length / 10);
  });

  it('caches hashed names for a year and revalidates the rest', async () => {
    const hashed = await raw('GET', '/assets/app.0123456789.js');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await raw('GET', '/index.html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(page.headers['last-modified']).getTime()).toBeGreaterThan(0);
    const again = await raw('GET', '/index.html', { 'if-none-match': page.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const since = await raw('GET', '/index.html', { 'if-modified-since': page.headers['last-modified'] });
    expect(since.status).toBe(304);
    const changed = await raw('GET', '/index.html', { 'if-none-match': 'W/"other"' });
    expect(changed.status).toBe(200);
  });

  it('gives the 404 page the way back to the site root from any depth', async () => {
    const top = await raw('GET', '/missing.html');
    expect(top.body).toContain('<a href="index.html">');
    const deep = await raw('GET', '/a/b/missing.html');
    expect(deep.status).toBe(404);
    expect(deep.body).toContain('<link href="../../assets/site.css">');
    expect(deep.body).toContain('<a href="../../index.html">');
    expect(deep.body).toContain('<a href="https://example.com/x">');
    expect(deep.body).toContain('<a href="#top">');
  });

  it('keeps the 404 page bounded whatever the length of the path', async () => {
    const page = await raw('GET', '/missing.html');
    const long = await raw('GET', `/${'a/'.repeat(5_000)}missing.html`);
    expect(long.status).toBe(404);
    expect(long.body.length).toBeLessThanOrEqual(page.body.length * 2);
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect([...acceptedEncodings('gzip;q=0.5, br;q=0, *;q=0')]).toEqual(['gzip']);
    expect([...acceptedEncodings('')]).toEqual([]);
  });
});
