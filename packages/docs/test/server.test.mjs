// The static server over real HTTP: content types, the 404 page, methods, and every way of
// asking for a file outside the site.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRequestPath, startServer } from '../src/server.mjs';

let base;
let site;
let server;

/** A raw request: the path is sent exactly as given (fetch would normalise "..", "%2e"). */
function raw(method, rawPath) {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, method, path: rawPath, timeout: 5000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
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
  writeFileSync(path.join(site, '404.html'), '<!doctype html><title>not found</title>');
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
