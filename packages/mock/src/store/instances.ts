// The processes serving one PostgreSQL database, counted rather than configured: each one
// registers in sandbox_instance and beats every second; those that beat within the last few
// seconds are the count. The rate limit divides by it (see rate-limit.ts): each process lets a
// client through at its share of the limit, so N processes together never pass more than the
// limit, at no cost per request. Counting every request in the database instead would add a
// round trip to each call, the very cost the store is built to avoid.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const SCHEMA = `CREATE TABLE IF NOT EXISTS sandbox_instance (
  id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
)`;

/** One beat: this process is seen now, rows long gone are dropped, the others alive are counted
 * (the count reads the state before this beat's own changes, hence `id <> $1`). */
const BEAT = `WITH seen AS (
  INSERT INTO sandbox_instance (id, seen_at) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET seen_at = now()
), gone AS (
  DELETE FROM sandbox_instance WHERE seen_at < now() - interval '1 hour'
)
SELECT count(*)::int AS others FROM sandbox_instance WHERE id <> $1 AND seen_at > now() - make_interval(secs => $2)`;

const BEAT_MS = 1_000;
/** A process not seen for this long no longer counts (three beats missed). */
const ALIVE_SECONDS = 3.5;

export interface Instances {
  /** The processes serving the database now, this one included (at least 1). */
  count(): number;
  /** Leaves the count at once (the others see it at their next beat) and stops beating. */
  close(): Promise<void>;
}

/** Registers this process with the database at `databaseUrl` and keeps it counted. */
export async function joinInstances(databaseUrl: string, log: (line: string) => void): Promise<Instances> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined);
  const id = randomUUID();
  let count = 1;
  let failing = false;
  const beat = async () => {
    try {
      const { rows } = await pool.query<{ others: number }>(BEAT, [id, ALIVE_SECONDS]);
      count = 1 + (rows[0]?.others ?? 0);
      failing = false;
    } catch (error) {
      // The last count stands while the database cannot be reached (requests get 503 anyway).
      if (!failing) log(`payroll-mock: counting the instances failed, keeping ${count}: ${(error as Error).message}`);
      failing = true;
    }
  };
  try {
    const client = await pool.connect();
    try {
      // Several processes starting at once create the table once.
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('sandbox_instance'))`);
      await client.query(SCHEMA);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  await beat();
  const timer = setInterval(() => void beat(), BEAT_MS);
  timer.unref();
  return {
    count: () => count,
    async close() {
      clearInterval(timer);
      await pool.query('DELETE FROM sandbox_instance WHERE id = $1', [id]).catch(() => undefined);
      await pool.end();
    },
  };
}
