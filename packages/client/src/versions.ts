// Resource versions: which `version=` a payroll request carries.

/**
 * The version to send for an operation whose served versions are `versions` (newest first).
 * Without a date: the newest, the one this package was generated for. With a date: the newest
 * version dated on or before it, as the API itself resolves dates.
 */
export function pickVersion(versions: readonly string[], date: string | undefined, operation: string): string {
  if (date === undefined) return versions[0]!;
  const picked = versions.find((v) => v <= date);
  if (picked === undefined) {
    throw new RangeError(
      `resourceVersionDate ${date} predates every version of ${operation} (oldest ${versions.at(-1)})`,
    );
  }
  return picked;
}

/** The `version=` parameter of a media type. */
export const VERSION_PARAMETER = /;\s*version=([^;\s]+)/;

/** Adds `;version=<version>` to a media type that has none. */
export function withVersion(media: string, version: string): string {
  return VERSION_PARAMETER.test(media) ? media : `${media};version=${version}`;
}
