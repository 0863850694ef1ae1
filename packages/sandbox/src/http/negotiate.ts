// Stage 3, negotiate: the response's media type and resource version from Accept (contract
// section 9), on the date of the caller's clock, and for a csv/xlsx download its X-ReportInput.
import type { SandboxRequest } from './request.js';
import { message, type VersionInfo } from './errors.js';
import { parseReportInput, type ReportInput } from './export.js';
import { contentForVersion, isJsonMedia, negotiate as negotiateMedia, parseAccept, type Negotiated, type RequestedVersion } from './media.js';
import type { MediaContent } from './operation.js';
import { essence, successContents, type Operation } from './spec.js';
import { selectVersion, type VersionChoice } from './versions.js';
import { badRequest, isOutgoing, type Outgoing } from './outgoing.js';

export type Served = Extract<VersionChoice, { ok: true }>;

export interface Negotiation {
  negotiated: Exclude<Negotiated, { kind: 'unacceptable' }>;
  /** The served resource version; undefined for an unversioned operation. */
  choice: Served | undefined;
  /** The version object envelopes report (null for an unversioned operation). */
  version: VersionInfo | null;
  /** The success content answered (for an export: the JSON content its rows come from). */
  responseContent: MediaContent | undefined;
  /** Set for a csv/xlsx download. */
  report: ReportInput | undefined;
  /** The date versions were chosen on (yyyy-MM-dd). */
  today: string;
}

/**
 * The resource version that the `version=` of a header (Accept or Content-Type) selects:
 * undefined for an operation without versions, or the 400 that says why none is served.
 */
export function versionFor(operation: Operation, header: 'Accept' | 'Content-Type', requested: RequestedVersion | undefined, reported: VersionInfo | null, today: string): Served | undefined | Outgoing {
  if (requested?.badVersion !== undefined) {
    return badRequest(operation, reported, [message(400, `The version in ${header} must be a date (yyyy-MM-dd), not '${requested.badVersion}'.`, [header])]);
  }
  if (!operation.resource) return undefined;
  const choice = selectVersion(operation.resource, requested?.version, today);
  return choice.ok ? choice : badRequest(operation, reported, [message(400, choice.reason, [header])]);
}

export function negotiate(operation: Operation, req: SandboxRequest, today: string): Negotiation | Outgoing {
  const acceptHeader = req.headers.accept;
  const ranges = parseAccept(acceptHeader);
  if (acceptHeader !== undefined && acceptHeader.trim() !== '' && ranges.length === 0) {
    return badRequest(operation, null, [message(400, `Accept holds no media type (e.g. application/json;version=yyyy-MM-dd): '${acceptHeader.slice(0, 100)}'.`, ['Accept'])]);
  }
  const negotiated = negotiateMedia(ranges, successContents(operation.model), operation.exportable);
  if (negotiated.kind === 'unacceptable') {
    return badRequest(operation, null, [
      message(400, `The media type in Accept is not offered by ${operation.operationId}; offered: ${negotiated.offered.join(', ') || 'none'}.`, ['Accept']),
    ]);
  }
  const choice = versionFor(operation, 'Accept', negotiated.range, null, today);
  if (isOutgoing(choice)) return choice;
  const served = choice?.version;
  const version: VersionInfo | null = served ? { resourceVersion: served.version, obsoleteDate: served.obsoleteDate } : null;

  let responseContent: MediaContent | undefined;
  if (negotiated.kind === 'content') {
    responseContent = contentForVersion(negotiated.candidates, served?.version);
  } else if (negotiated.kind === 'export') {
    const jsonContents = successContents(operation.model).filter((c) => isJsonMedia(essence(c.mediaType)));
    responseContent = contentForVersion(jsonContents, served?.version);
  }

  let report: ReportInput | undefined;
  if (negotiated.kind === 'export') {
    const header = req.headers['x-reportinput'];
    const parsed = parseReportInput(Array.isArray(header) ? header[0] : header);
    if (!parsed.ok) return badRequest(operation, version, parsed.messages);
    report = parsed.input;
  }
  return { negotiated, choice, version, responseContent, report, today };
}
