// The tables this store keeps, the rows of a snapshot, and the SQL text it writes literally.
import type pg from 'pg';
import type { Doc, Snapshot } from '@payroll-api/sandbox/engine';

/** First key of every advisory lock this store takes (the second is the sandbox's hash). */
export const LOCK_SPACE = 0x5a4e4442;
export const SCHEMA_LOCK = 0;
export const FORMAT = 'payroll-sandbox/1';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS sandbox_state (
  sandbox text PRIMARY KEY,
  meta jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz
);
-- A sandbox state's generation: new from one sequence on every change of the row (a commit that
-- wrote, an import, a first write), never reused, so that a process can tell whether what it
-- read before is still what the database holds (the answer cache, Tx.version).
CREATE SEQUENCE IF NOT EXISTS sandbox_generation;
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS generation bigint NOT NULL DEFAULT nextval('sandbox_generation');
-- Per collection, the generation of the last commit that wrote it (see CollectionVersions),
-- valid while generations_at is the row's generation.
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS collection_generations jsonb;
ALTER TABLE sandbox_state ADD COLUMN IF NOT EXISTS generations_at bigint;
CREATE TABLE IF NOT EXISTS sandbox_doc (
  sandbox text NOT NULL,
  collection text NOT NULL,
  id text NOT NULL,
  doc jsonb NOT NULL,
  PRIMARY KEY (sandbox, collection, id)
);
-- The sandboxes of one client (ids sharing a prefix) found as a range, whatever the collation.
CREATE INDEX IF NOT EXISTS sandbox_state_in_order ON sandbox_state (sandbox COLLATE "C");
`;

/** A sandbox's lock ($1 LOCK_SPACE, $2 the sandbox), held to the end of the transaction. */
export const LOCK_SQL = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';

/** Serializes write transactions on one sandbox across every process sharing the database. */
export async function lockSandbox(client: pg.PoolClient, sandbox: string): Promise<void> {
  await client.query(LOCK_SQL, [LOCK_SPACE, sandbox]);
}

/** A name that may be written into SQL text as a literal (a collection's, in the text of a list
 * or an index); others go as parameters. */
export const PLAIN_ID = /^[\w:.@+-]{1,200}$/;

export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Docs in an import from which on the planner's statistics are refreshed with it. */
export const ANALYZE_AFTER = 5_000;

/** A write's docs as PostgreSQL stores them: the text it answers for a read of them. */
export const RETURNING_DOC = 'RETURNING doc::text AS doc';

export function insertedDocs(snapshot: Snapshot): number {
  return Object.values(snapshot.collections).reduce((total, docs) => total + docs.length, 0);
}

export async function insertDocs(client: pg.PoolClient, sandbox: string, collections: Record<string, Doc[]>): Promise<void> {
  const rows = Object.entries(collections).flatMap(([collection, docs]) => docs.map((doc) => ({ collection, doc })));
  // In batches: one parameter holds a batch as JSON (a 10,000-doc snapshot is a few statements).
  for (let start = 0; start < rows.length; start += 2000) {
    await client.query(
      `INSERT INTO sandbox_doc (sandbox, collection, id, doc)
       SELECT $1, row.collection, row.doc ->> 'id', row.doc FROM jsonb_to_recordset($2::jsonb) AS row(collection text, doc jsonb)`,
      [sandbox, JSON.stringify(rows.slice(start, start + 2000))],
    );
  }
}
