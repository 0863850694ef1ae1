// Custom export of a list as csv or xlsx: the export media type in Accept (the client adds the
// resource version) and the X-ReportInput header. Uses only fetch-standard APIs, so it runs in
// Node and in browsers alike.
import type { Client } from 'openapi-fetch';
import { ApiError } from './errors.js';
import { FIELD_RE, type FieldPath } from './filter.js';
import type { ListInit, ListItemAt } from './paginate.js';
import type { ActivityInit, ActivityOperation, ActivityParams, ActivityPath, GetActivitiesAt } from './types.js';

export type ExportFormat = 'csv' | 'xlsx';
export const EXPORT_MEDIA: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Paths whose GET offers a csv export. */
export type ExportPaths<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: { responses: { 200: { content: infer C } } } }
    ? Extract<keyof C, `text/csv${string}`> extends never
      ? never
      : P
    : never;
}[keyof Paths] &
  string;

/** The X-ReportInput header, with field names typed by the list item. */
export interface ReportInput<Item = unknown> {
  /** The columns, in order. */
  fields: { fieldName: FieldPath<Item>; reportColumnName?: string; format?: string }[];
  fileNameWithoutExtension?: string;
  /** Column delimiter of a csv export (default comma). */
  delimiter?: string;
  /** Decimal separator (default point). */
  decimalSeparator?: string;
}

export interface ExportResult {
  bytes: Uint8Array;
  /** From Content-Disposition, when the answer names the file. */
  fileName: string | undefined;
  contentType: string;
}

/** The file name of a Content-Disposition value (`filename*` preferred over `filename`). */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!.trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!.trim();
}

/** The header value: JSON with non-ASCII escaped, as header values must be Latin-1. */
export function reportInputHeader(report: ReportInput<unknown>): string {
  if (!report || !Array.isArray(report.fields) || report.fields.length === 0) {
    throw new TypeError('export: report.fields must list at least one field');
  }
  for (const field of report.fields) {
    if (typeof field?.fieldName !== 'string' || !FIELD_RE.test(field.fieldName)) {
      throw new TypeError(`export: invalid fieldName ${JSON.stringify(field?.fieldName)}`);
    }
  }
  for (const key of ['delimiter', 'decimalSeparator'] as const) {
    const value = report[key];
    if (value !== undefined && (typeof value !== 'string' || value.length !== 1)) {
      throw new TypeError(`export: ${key} must be a single character`);
    }
  }
  const name = report.fileNameWithoutExtension;
  if (name !== undefined && (typeof name !== 'string' || name === '' || /[\\/"]/.test(name))) {
    throw new TypeError('export: fileNameWithoutExtension must be a non-empty name without / \\ or "');
  }
  return JSON.stringify(report).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Activities whose GET offers a csv export. */
export type ExportActivities<Paths> = GetActivitiesAt<Paths, ExportPaths<Paths>>;

type ExportByActivity<Paths, N, Op = ActivityOperation<Paths, N>> = {
  format: ExportFormat;
  report: ReportInput<ListItemAt<Paths, ActivityPath<N> & keyof Paths>>;
} & ({} extends ActivityParams<Op> ? { params?: ActivityParams<Op> } : { params: ActivityParams<Op> }) &
  Omit<ActivityInit<Op>, 'parseAs'>;

/** The options of exportList: `params` as for GET by a path, flat as for a call by an activity. */
export type ExportOptions<Paths, Target> = Target extends `/${string}`
  ? { format: ExportFormat; report: ReportInput<ListItemAt<Paths, Target & keyof Paths>> } & Omit<ListInit<Paths, Target & keyof Paths>, 'parseAs'>
  : ExportByActivity<Paths, Target>;

/**
 * Downloads a list as a csv or xlsx file, named by its path (`params` as for GET) or by its
 * activity (`params` flat, as for a call by activity name). A non-2xx answer throws its ApiError.
 */
export async function exportList<Paths extends {}, Target extends ExportPaths<Paths> | ExportActivities<Paths>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  client: Client<Paths, any>,
  target: Target,
  options: ExportOptions<Paths, Target>,
): Promise<ExportResult> {
  const { format, report, headers, params, ...init } = options as { format: ExportFormat; report: ReportInput<unknown>; headers?: HeadersInit; params?: unknown };
  const media = EXPORT_MEDIA[format];
  if (!media) throw new TypeError(`export: format must be csv or xlsx, got ${JSON.stringify(format)}`);
  const merged = new Headers(headers);
  merged.set('Accept', media);
  merged.set('X-ReportInput', reportInputHeader(report));
  const calls = client as unknown as Record<string, (a: unknown, b: unknown) => Promise<{ data?: ArrayBuffer; error?: unknown; response: Response }>>;
  const sent = { ...init, headers: merged, parseAs: 'arrayBuffer' };
  const result = target.startsWith('/') ? await calls.GET!(target, { ...sent, params }) : await calls[target]!(params, sent);
  const error = ApiError.from(result);
  if (error) throw error;
  return {
    bytes: new Uint8Array(result.data ?? new ArrayBuffer(0)),
    fileName: fileNameOf(result.response.headers.get('content-disposition')),
    contentType: result.response.headers.get('content-type') ?? media,
  };
}
