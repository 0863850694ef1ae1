// What the benchmarks that drive servers share: starting a server process and waiting for its
// address, autocannon at 32 connections, the floor server (floor-server.mjs), and the median of
// their rounds.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts a server script; `base` resolves with its URL once it prints one ("listening on" or "floor at"); `pid` is its process. */
export function startServer(args, env = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const base = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /(?:listening on|floor at) (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    const script = path.basename(args.find((arg) => arg.endsWith('.mjs')) ?? args[0]);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGINT');
    });
  return { base, stop, pid: child.pid };
}

/** The median of a few figures (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Requests/s at 32 connections for `duration` seconds; any non-2xx answer or error fails. */
export const requestsPerSecond = (url, headers, duration, requests) =>
  new Promise((resolve, reject) =>
    autocannon({ url, headers, connections: 32, duration, ...(requests ? { requests } : {}) }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx + result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result.requests.average);
    }),
  );

/** The headers of an answer that a server writes itself. */
export const answerHeaders = (res) => Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)));

/** A bare node:http server answering `page` with `headers`: serialized on every request, or
 * (`fixed`) bytes serialized once. */
export async function startFloorServer(page, headers, { fixed = false } = {}) {
  const file = path.join(os.tmpdir(), `payroll-bench-floor-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify({ page, headers }));
  const server = startServer([path.join(here, 'floor-server.mjs')], { FLOOR_PAGE_FILE: file, FLOOR_FIXED: fixed ? '1' : '0' });
  await server.base;
  return { ...server, stop: async () => { await server.stop(); fs.rmSync(file, { force: true }); } };
}
