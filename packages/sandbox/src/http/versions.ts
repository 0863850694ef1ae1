// Resource version negotiation (contract section 9): the newest version dated on or before
// the requested date is served, the newest when no date is given; a version whose
// obsoleteDate has passed is no longer served.
import type { Resource, ResourceVersion } from './spec.js';

export type VersionChoice =
  | { ok: true; version: ResourceVersion; deprecatedSince: string | null }
  | { ok: false; reason: string };

/** Today's date (UTC) as yyyy-MM-dd. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function selectVersion(resource: Resource, requested: string | undefined, now: string): VersionChoice {
  const { versions, name } = resource;
  const index = requested === undefined ? 0 : versions.findIndex((v) => v.version <= requested);
  const version = versions[index];
  if (!version) {
    const oldest = versions[versions.length - 1]?.version;
    return {
      ok: false,
      reason: `Resource version ${requested} of ${name} is not served: the oldest version is ${oldest}.`,
    };
  }
  if (version.obsoleteDate !== null && version.obsoleteDate <= now) {
    const newer = versions[index - 1]?.version ?? versions[0]?.version;
    return {
      ok: false,
      reason: `Resource version ${version.version} of ${name} is obsolete since ${version.obsoleteDate} and no longer served${newer && newer !== version.version ? `; request version ${newer} or later` : ''}.`,
    };
  }
  // A version with an obsoleteDate was superseded by the next newer one, on that one's date.
  const deprecatedSince = version.obsoleteDate !== null ? (versions[index - 1]?.version ?? null) : null;
  return { ok: true, version, deprecatedSince };
}

/** Deprecation (RFC 9745) and Sunset (RFC 8594) headers for a version with an obsoleteDate. */
export function deprecationHeaders(version: ResourceVersion, deprecatedSince: string | null): Record<string, string> {
  if (version.obsoleteDate === null) return {};
  const since = Date.parse(`${deprecatedSince ?? version.version}T00:00:00Z`) / 1000;
  return {
    Deprecation: `@${since}`,
    Sunset: new Date(`${version.obsoleteDate}T00:00:00Z`).toUTCString(),
  };
}
