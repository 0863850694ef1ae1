// A real PostgreSQL server for a test file (postgres-server.mjs starts and stops it), with a
// database of its own per name. Missing binaries fail the test with what to install: never a skip.
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresServer } from './postgres-server.mjs';

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A url for a database of its own, created on first use. */
  database(name: string): Promise<string>;
  stop(): void;
  /** Stops the server (an outage), keeping its data and port. */
  halt(): void;
  /** Starts a halted server again. */
  resume(): void;
}

export async function startPostgres(): Promise<TestPostgres> {
  const server = await startPostgresServer();
  const created = new Set<string>();
  return {
    ...server,
    async database(name: string) {
      if (!/^\w+$/.test(name)) throw new Error(`database name ${name}: letters, digits and _ only`);
      if (!created.has(name)) {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name}"`);
        } finally {
          await client.end();
        }
        created.add(name);
      }
      return server.url.replace(/\/postgres$/, `/${name}`);
    },
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
