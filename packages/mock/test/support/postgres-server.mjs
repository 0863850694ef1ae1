// Starts and stops a throwaway PostgreSQL server (plain JavaScript, so that the benchmarks in
// tools/bench use it as the tests do through postgres.ts): a copy of an initdb'd template in a
// temporary directory, pg_ctl on a free port with a unix socket in that directory, trust
// authentication. PostgreSQL refuses to run as root, so as root the server runs as the
// `postgres` user. Missing binaries are an error that says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARY_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/15/bin'];

function findBinaries() {
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
function run(binDir, program, args) {
  const file = path.join(binDir, program);
  const [command, commandArgs] = asRoot() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', cwd: os.tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${program} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/**
 * @param {{ durable?: boolean }} [options] durable: keep fsync on (benchmarks); tests run without it.
 * @returns {Promise<{ url: string, port: number, socketDir: string, stop(): void }>}
 */
/** A temporary directory the server's user owns. */
function serverDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (asRoot()) {
    let uid;
    let gid;
    try {
      uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    } catch {
      throw new Error('Running as root, PostgreSQL runs as the user postgres, which does not exist (Debian creates it with the postgresql package).');
    }
    fs.chownSync(dir, uid, gid);
  }
  return dir;
}

const INITDB_ARGS = ['-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'];

/**
 * A freshly initdb'd data directory, made once per PostgreSQL installation (and user) and kept
 * in the temporary directory: initdb costs seconds, a copy of its result a fraction of that,
 * and every server starts from the same empty cluster either way. Made aside and renamed into
 * place, so that a reader never sees a half-made one, whichever process made it.
 */
function templateDataDir(binDir) {
  const version = run(binDir, 'pg_ctl', ['--version']).trim();
  const key = `${version} ${binDir} ${INITDB_ARGS.join(' ')} ${process.getuid?.() ?? ''}`;
  let hash = 0;
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  const template = path.join(os.tmpdir(), `payroll-pg-template-${hash.toString(16)}`);
  if (fs.existsSync(path.join(template, 'data', 'PG_VERSION'))) return path.join(template, 'data');
  const making = serverDir('payroll-pg-template-making-');
  run(binDir, 'initdb', ['-D', path.join(making, 'data'), ...INITDB_ARGS]);
  try {
    fs.renameSync(making, template);
  } catch {
    // Another process put its template in place first: use that one.
    fs.rmSync(making, { recursive: true, force: true });
  }
  return path.join(template, 'data');
}

export async function startPostgresServer(options = {}) {
  const binDir = findBinaries();
  const dir = serverDir('payroll-pg-');
  const data = path.join(dir, 'data');
  // cp -a keeps the owner and the 0700 mode PostgreSQL insists on.
  const copy = spawnSync('cp', ['-a', templateDataDir(binDir), data], { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`copying the template data directory failed: ${copy.error?.message ?? copy.stderr}`);
  const speed = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`;
    try {
      run(binDir, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', settings, '-w', '-t', '30', 'start']);
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
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    socketDir: dir,
    stop,
    // An outage: the server goes away (fast shutdown: open connections are cut) and comes back
    // on the same port with the same data.
    halt: () => run(binDir, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: () => run(binDir, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', settings, '-w', '-t', '30', 'start']),
  };
}
