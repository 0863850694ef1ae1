// Writes of one sandbox queue in this process and commit together (group commit).
import type pg from 'pg';
import type { ForeseenRead, Tx } from '@payroll-api/sandbox/engine';
import type { CommitGenerations } from './collection-versions.js';

/** Commits a write transaction; one that wrote stamps updated_at, renews the generation, records
 * the generations of the collections (see CollectionVersions) and stores the meta in the
 * COMMIT's round trip, and answers its new generation. The stamp is a statement prepared per
 * connection (re-planned as text, it was the costliest part of a commit for PostgreSQL), sent
 * with the COMMIT in one socket write. */
export async function commitWrites(client: pg.PoolClient, sandbox: string, writes: { wrote: boolean; metaChanged: boolean; meta: Record<string, unknown>; generations: CommitGenerations | undefined }): Promise<string | undefined> {
  if (!writes.wrote && !writes.metaChanged) {
    await client.query('COMMIT');
    return undefined;
  }
  const { generations, metaChanged } = writes;
  const values: unknown[] = [sandbox];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  const recorded = generations
    ? `collection_generations = ${parameter(JSON.stringify(generations.kept))}::jsonb || (SELECT coalesce(jsonb_object_agg(c, next.n), '{}') FROM jsonb_array_elements_text(${parameter(JSON.stringify(generations.written))}::jsonb) AS c), generations_at = next.n`
    : 'collection_generations = NULL, generations_at = NULL';
  const meta = metaChanged ? `, meta = ${parameter(JSON.stringify(writes.meta))}::jsonb` : '';
  const stamped = client.query<{ generation: string }>({
    name: `sandbox_commit${generations ? '_generations' : ''}${metaChanged ? '_meta' : ''}`,
    text: `UPDATE sandbox_state SET updated_at = now(), generation = next.n, ${recorded}${meta} FROM (SELECT nextval('sandbox_generation') AS n) AS next WHERE sandbox = $1 RETURNING next.n AS generation`,
    values,
  });
  // A stamp that fails leaves the transaction undone: the COMMIT behind it then rolls it back.
  const [updated] = await Promise.all([stamped, client.query('COMMIT')]);
  return updated.rows[0]?.generation;
}

/** Writers of one sandbox in one batch at most (each after the first writing one holds a savepoint). */
const MAX_BATCH = 32;

export interface Writer {
  fn: (tx: Tx) => Promise<unknown>;
  /** What it will read first (sent with its transaction's opening when it opens one). */
  reads: readonly ForeseenRead[] | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Write transactions of this process on one sandbox, one after another: a writer waits here, not
 * holding a connection while it waits for the sandbox's lock. The writers that arrive while a
 * batch runs make the next batch (group commit: one lock, one state, one COMMIT for them all).
 */
export class WriteBatches {
  private readonly queues = new Map<string, Writer[]>();
  private readonly drained: Array<() => void> = [];

  constructor(private readonly execute: (sandbox: string, batch: Writer[]) => Promise<void>) {}

  run<T>(sandbox: string, fn: (tx: Tx) => Promise<T>, reads?: readonly ForeseenRead[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const writer: Writer = { fn, reads, resolve: resolve as (value: unknown) => void, reject };
      const queue = this.queues.get(sandbox);
      if (queue) queue.push(writer);
      else {
        const started = [writer];
        this.queues.set(sandbox, started);
        void this.drain(sandbox, started);
      }
    });
  }

  /** Resolves once no writer of this process is queued or running. */
  idle(): Promise<void> {
    return this.queues.size === 0 ? Promise.resolve() : new Promise((resolve) => this.drained.push(resolve));
  }

  private async drain(sandbox: string, queue: Writer[]): Promise<void> {
    while (queue.length > 0) await this.execute(sandbox, queue.splice(0, MAX_BATCH));
    this.queues.delete(sandbox);
    if (this.queues.size === 0) for (const resolve of this.drained.splice(0)) resolve();
  }
}
