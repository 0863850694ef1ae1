// Connections and the protocol: which failures mean the database cannot be reached, queries
// corked into one socket write, and a transaction's opening with its state in one round trip.
import pg from 'pg';
import { StoreUnavailable, isStoreUnavailable } from '@payroll-api/sandbox/engine';
import { LOCK_SPACE, PLAIN_ID, lockSandbox, quoteLiteral } from './schema.js';

/** Node's socket errors and PostgreSQL's connection exceptions (class 08), shutdown and start-up
 * states (57P01-57P03) and full connection slots: the database cannot be reached now. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed/;

/** The StoreUnavailable a failure to reach the database stands for, or the error as it is. */
export function unreachable(error: unknown): unknown {
  if (isStoreUnavailable(error)) return error;
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const text = typeof e?.message === 'string' ? e.message : '';
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || UNREACHABLE_MESSAGES.test(text)) return new StoreUnavailable(`PostgreSQL cannot be reached (${code || text})`);
  return error;
}

/**
 * node-postgres writes a parameterized query as five messages (parse, bind, describe, execute,
 * sync), one socket write each; corked, they leave in one write. A query is written
 * synchronously when the connection is idle (else when it gets its turn, as before).
 */
export function corkQueries(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    stream.cork!();
    try {
      return query(...args);
    } finally {
      stream.uncork!();
    }
  }) as typeof client.query;
}

/** How long an idle connection keeps its last read's transaction open at most (see openReads). */
export const OPEN_READ_MS = 50;

export interface StateRow {
  sandbox: string;
  meta: Record<string, unknown>;
  /** bigint, as text. */
  generation: string;
  collection_generations: Record<string, number> | null;
  /** bigint, as text. */
  generations_at: string | null;
}

export const STATE_COLUMNS = 'sandbox, meta, generation, collection_generations, generations_at';

/**
 * Begins the transaction and reads the state of the sandbox and of the seed (whether the
 * sandbox is materialized, and the meta it reads). A write first takes the sandbox's lock, so
 * that its state is read after every earlier writer committed. For plain ids this is one round
 * trip: a simple query of several statements, each with its own snapshot.
 */
export async function openTransaction(client: pg.PoolClient, sandbox: string, seed: string, write: boolean, commitFirst: boolean): Promise<StateRow[]> {
  const begin = `${commitFirst ? 'COMMIT;' : ''}${write ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'}`;
  const stateSql = (a: string, b: string) => `SELECT ${STATE_COLUMNS} FROM sandbox_state WHERE sandbox IN (${a}, ${b})`;
  if (PLAIN_ID.test(sandbox) && PLAIN_ID.test(seed)) {
    const lock = write ? `SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${quoteLiteral(sandbox)}));` : '';
    const results = (await client.query(`${begin};${lock}${stateSql(quoteLiteral(sandbox), quoteLiteral(seed))}`)) as unknown as pg.QueryResult<StateRow>[];
    return results[results.length - 1]!.rows;
  }
  await client.query(begin);
  if (write) await lockSandbox(client, sandbox);
  return (await client.query<StateRow>(stateSql('$1', '$2'), [sandbox, seed])).rows;
}
