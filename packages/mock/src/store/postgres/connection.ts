// Connections and the protocol: which failures mean the database cannot be reached, queries
// corked into one socket write, and a transaction's opening with its state in one round trip.
import pg from 'pg';
import { StoreUnavailable, isStoreUnavailable } from '@payroll-api/sandbox/engine';
import { LOCK_SPACE, LOCK_SQL } from './schema.js';

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

/** Round trips to the database so far: each query sent while no other query of its connection
 * is awaiting its answer starts one; a query sent while one is out rides on it. */
export interface RoundTrips {
  count: number;
}

/**
 * The pool's connections pipeline (node-postgres sends a query without waiting for the answer
 * of the one before), so the queries a transaction makes together cost one round trip. Those
 * made in one tick leave in one socket write: a parameterized query is five messages (parse,
 * bind, describe, execute, sync), and every socket write wakes a PostgreSQL backend.
 */
export function pipelineQueries(client: pg.PoolClient, roundTrips: RoundTrips): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  const corks = typeof stream?.cork === 'function' && typeof stream.uncork === 'function';
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let out = 0;
  const answered = () => {
    out--;
  };
  client.query = ((...args: unknown[]) => {
    if (out++ === 0) roundTrips.count++;
    if (corks) {
      stream!.cork!();
      process.nextTick(() => stream!.uncork!());
    }
    const result = query(...args) as Promise<unknown> | undefined;
    // A query given a callback answers no promise (none is made here): counted as answered.
    if (result) result.then(answered, answered);
    else answered();
    return result;
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
 * that its state is read after every earlier writer committed (each statement has its own
 * snapshot). One round trip: the lock and the state are statements prepared per connection,
 * sent behind BEGIN in one socket write (as text they were planned anew every time).
 * `alongside` sends queries right behind the state's: they ride on its round trip.
 */
export async function openTransaction(client: pg.PoolClient, sandbox: string, seed: string, write: boolean, commitFirst: boolean, alongside?: () => void): Promise<StateRow[]> {
  const begun = client.query(`${commitFirst ? 'COMMIT;' : ''}${write ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'}`);
  const locked = write ? client.query({ name: 'sandbox_lock', text: LOCK_SQL, values: [LOCK_SPACE, sandbox] }) : undefined;
  const state = client.query<StateRow>({ name: 'sandbox_state', text: `SELECT ${STATE_COLUMNS} FROM sandbox_state WHERE sandbox IN ($1, $2)`, values: [sandbox, seed] });
  alongside?.();
  const [, , { rows }] = await Promise.all([begun, locked, state]);
  return rows;
}
