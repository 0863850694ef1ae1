// What the collection cache keys on: each collection's generation in a source's state, and
// what a commit records of them.
import type { CollectionSpec } from '@payroll-api/sandbox/engine';
import type { StateRow } from './connection.js';

/**
 * The version of each collection of a source's state, as the collection cache keys it: the
 * generation of the last commit that wrote the collection. A commit of this store records
 * them with its generation (generations_at); when the row's generation is another one (an
 * import, a process that does not record them), every collection counts as written then.
 */
export class CollectionVersions {
  readonly source: string;
  private readonly generations: Record<string, number> | null;

  constructor(private readonly row: StateRow) {
    this.source = row.sandbox;
    this.generations = row.generations_at === row.generation ? row.collection_generations : null;
  }

  generationOf(collection: string): number {
    const recorded = this.generations?.[collection];
    return typeof recorded === 'number' ? recorded : Number(this.row.generation);
  }

  of(collection: string): string {
    return `${this.source}#${this.generationOf(collection)}`;
  }
}

/** What a commit records of its collections (see CollectionVersions). */
export interface CommitGenerations {
  /** The collections it did not write, with their generations. */
  kept: Record<string, number>;
  written: string[];
}

/** A batch's changes per collection: each doc written, by id, as stored (null: removed). */
export type Changes = ReadonlyMap<string, ReadonlyMap<string, string | null>>;

/** The versions a batch began with, when its commit records the collections' generations:
 * not when it materialized the sandbox (its collections are then all as new as its state row). */
export function recordedVersions(batch: { source: string; versions: CollectionVersions | undefined }): CollectionVersions | undefined {
  return batch.versions?.source === batch.source ? batch.versions : undefined;
}

/** The collection generations a batch's commit stores: what it began with, and the commit's
 * own generation for the collections it changed. */
export function generationsAfter(collections: readonly CollectionSpec[], versions: CollectionVersions, changes: Changes): CommitGenerations {
  const kept: Record<string, number> = {};
  for (const { name } of collections) if (!changes.has(name)) kept[name] = versions.generationOf(name);
  return { kept, written: [...changes.keys()] };
}
