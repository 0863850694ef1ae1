// Merging docs by id: what a snapshot merge does to each collection, and how the fixtures add a
// made doc (in place when its id is there, else at the end).

/** The docs of a collection with `given` merged in by id: a doc whose id is stored replaces it (in its place), a new one is added at the end. */
export function mergeById<T extends { id: string }>(stored: readonly T[], given: readonly T[]): T[] {
  const byId = new Map(given.map((doc) => [doc.id, doc]));
  const kept = stored.map((doc) => byId.get(doc.id) ?? doc);
  const storedIds = new Set(stored.map((doc) => doc.id));
  return [...kept, ...given.filter((doc) => !storedIds.has(doc.id))];
}
