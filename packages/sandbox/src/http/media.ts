// Media type negotiation. The version parameter is left out of matching: which version is
// served is decided by the registry (versions.ts), not by string equality of media types.
import { CSV, XLSX, essence, versionParam } from './spec.js';
import type { MediaContent } from './operation.js';
import { isCalendarDate } from './versions.js';

/** The `version=` a client's Accept or Content-Type asks for. */
export interface RequestedVersion {
  /** The requested date, when it is a calendar date written yyyy-MM-dd. */
  version: string | undefined;
  /** The raw `version=` value when it is present but not such a date. */
  badVersion: string | undefined;
}

export interface MediaRange extends RequestedVersion {
  essence: string;
  q: number;
}

/** The `version=` parameter of one media type sent by a client. */
export function requestedVersion(mediaType: string): RequestedVersion {
  const raw = /;\s*version\s*=\s*"?([^;,"]*)"?/i.exec(mediaType)?.[1]?.trim();
  if (raw === undefined) return { version: undefined, badVersion: undefined };
  return isCalendarDate(raw) ? { version: raw, badVersion: undefined } : { version: undefined, badVersion: raw };
}

/** The ranges of an Accept header, best first; unparseable entries are dropped. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',').slice(0, 32)) {
    const ess = essence(part);
    if (!/^[\w.+*-]+\/[\w.+*-]+$/.test(ess)) continue;
    const q = Number(/;\s*q\s*=\s*([\d.]+)/i.exec(part)?.[1] ?? '1');
    ranges.push({ essence: ess, ...requestedVersion(part), q: Number.isFinite(q) ? q : 0 });
  }
  return ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q);
}

/** Whether a concrete media type matches a pattern that may use `*` (`*\/*`, `type/*`, `application/*+json`). */
export function mediaMatches(pattern: string, concrete: string): boolean {
  if (pattern === concrete || pattern === '*/*') return true;
  const [pType, pSub = ''] = pattern.split('/');
  const [cType, cSub = ''] = concrete.split('/');
  if (pType !== cType && pType !== '*') return false;
  if (pSub === '*') return true;
  if (pSub.startsWith('*+')) return cSub.endsWith(pSub.slice(1));
  return pSub === cSub;
}

export function isJsonMedia(ess: string): boolean {
  return ess === 'application/json' || ess === 'text/json' || ess.endsWith('+json');
}

export type Negotiated =
  | { kind: 'content'; essence: string; candidates: MediaContent[]; range: MediaRange | undefined }
  | { kind: 'export'; format: 'csv' | 'xlsx'; range: MediaRange }
  | { kind: 'none'; range: MediaRange | undefined }
  | { kind: 'unacceptable'; offered: string[] };

const EXPORT_TYPES = new Set([CSV, XLSX]);

export function negotiate(accept: MediaRange[], contents: MediaContent[], exportable: boolean): Negotiated {
  const ranges = accept.length > 0 ? accept : [{ essence: '*/*', version: undefined, badVersion: undefined, q: 1 }];
  const plain = contents.filter((c) => !EXPORT_TYPES.has(essence(c.mediaType)));
  const offered = [...new Set(plain.map((c) => essence(c.mediaType)))];
  if (exportable) offered.push(`${CSV} (export)`, `${XLSX} (export)`);
  for (const range of ranges) {
    if (exportable && (range.essence === CSV || range.essence === XLSX)) {
      return { kind: 'export', format: range.essence === CSV ? 'csv' : 'xlsx', range };
    }
    if (plain.length === 0) {
      if (contents.length === 0) return { kind: 'none', range };
      continue;
    }
    // For wildcards JSON comes first, as it is what every operation of the contract serves.
    const ordered = [...plain].sort((a, b) => Number(isJsonMedia(essence(b.mediaType))) - Number(isJsonMedia(essence(a.mediaType))));
    const match = ordered.find((c) => mediaMatches(range.essence, essence(c.mediaType)));
    if (match) {
      const ess = essence(match.mediaType);
      return { kind: 'content', essence: ess, candidates: plain.filter((c) => essence(c.mediaType) === ess), range };
    }
  }
  return { kind: 'unacceptable', offered };
}

/**
 * Among contents of one media type, the one for `version`: the exact key, else the newest
 * key dated before it, else the first.
 */
export function contentForVersion(candidates: MediaContent[], version: string | undefined): MediaContent | undefined {
  if (version === undefined) return candidates[0];
  let best: MediaContent | undefined;
  let bestVersion = '';
  for (const content of candidates) {
    const v = versionParam(content.mediaType);
    if (v === version) return content;
    if (v !== undefined && v < version && v > bestVersion) {
      best = content;
      bestVersion = v;
    }
  }
  return best ?? candidates[0];
}
