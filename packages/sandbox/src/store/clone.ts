/** A JSON value copied (stored docs are JSON: what a snapshot holds and PostgreSQL stores).
 * Every list answer copies its rows, so this is kept to plain loops. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  // Docs are plain JSON objects: for-in meets only their own keys.
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) copy[key] = item !== null && typeof item === 'object' ? cloneJson(item) : item;
  }
  return copy as T;
}
