// A real PostgreSQL server for a test file: initdb into a temporary directory, started with
// pg_ctl on a free port (and a unix socket in that directory), trust authentication, stopped
// and removed afterwards. PostgreSQL refuses to run as root, so as root the server runs as the
// `postgres` user. Missing binaries fail the test with what to install: never a skip.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const BINARY_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/15/bin'];

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A url for a database of its own, created on first use. */
  database(name: string): Promise<string>;
  stop(): void;
}

function findBinaries(): string {
  // Debian installs its server under /usr/lib/postgresql/<major>/bin, off PATH.
  const debian = fs.existsSync('/usr/lib/postgresql')
    ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((major) => `/usr/lib/postgresql/${major}/bin`)
    : [];
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...BINARY_DIRS, ...debian];
  for (const dir of dirs) {
    if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH, in ${BINARY_DIRS.join(' or ')}. ` +
      'Install PostgreSQL 15 (Debian: apt-get install postgresql) to run these tests.',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
function run(binDir: string, program: string, args: string[]): string {
  const file = path.join(binDir, program);
  const [command, commandArgs] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', cwd: os.tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${program} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

export async function startPostgres(): Promise<TestPostgres> {
  const binDir = findBinaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-pg-'));
  if (process.getuid?.() === 0) {
    let ids: string;
    try {
      ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim() + ':' + execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    } catch {
      throw new Error('Running as root, the tests run PostgreSQL as the user postgres, which does not exist (Debian creates it with the postgresql package).');
    }
    const [uid, gid] = ids.split(':').map(Number) as [number, number];
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  run(binDir, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    try {
      run(binDir, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
      break;
    } catch (error) {
      // Another process may have taken the port in between; try another.
      if (attempt >= 3) throw error;
    }
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try {
      run(binDir, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  process.on('exit', stop);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const created = new Set<string>();
  return {
    url,
    port,
    async database(name: string) {
      if (!/^\w+$/.test(name)) throw new Error(`database name ${name}: letters, digits and _ only`);
      if (!created.has(name)) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name}"`);
        } finally {
          await client.end();
        }
        created.add(name);
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
  };
}

/** Starts a server before the file's tests and stops it after them. */
export function usePostgres(): () => TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  return () => {
    if (!server) throw new Error('The PostgreSQL server is not started (usePostgres runs in beforeAll).');
    return server;
  };
}
