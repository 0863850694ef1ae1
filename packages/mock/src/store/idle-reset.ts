// PostgreSQL: removes a sandbox found idle by the sweep only if it still is, under the sandbox's
// write lock, so that a write racing the sweep from any instance wins and instances sweeping at
// once remove each sandbox once.
import type pg from 'pg';

/** Deletes the sandbox's state and docs if it was last written before `cutoff`; whether it did. */
export async function removeIfIdle(client: pg.PoolClient, sandbox: string, cutoff: Date): Promise<boolean> {
  const removed = await client.query('DELETE FROM sandbox_state WHERE sandbox = $1 AND updated_at < $2', [sandbox, cutoff]);
  if (removed.rowCount === 0) return false;
  await client.query('DELETE FROM sandbox_doc WHERE sandbox = $1', [sandbox]);
  return true;
}
