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

/** A JSON value frozen at every depth, in place: a stored doc handed out without a copy, so that
 * a change made to it by mistake throws rather than changing the store. */
export function freezeJson<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) freezeJson(value[i]);
  else for (const key in value) freezeJson((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
