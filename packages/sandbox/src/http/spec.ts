// Reads a bundled description into operations (dereferenced, see operation.ts) and a route
// table, and reads the resource version registry. Everything a request needs is computed
// here once per load, so that the request path only does lookups.
import { readOperations, type HttpOperation, type HttpResponse, type MediaContent } from './operation.js';

export type ApiName = 'payroll' | 'journal';

/** One served version of a resource, as the registry records it. */
export interface ResourceVersion {
  version: string;
  obsoleteDate: string | null;
}

export interface Resource {
  name: string;
  /** Newest first. */
  versions: ResourceVersion[];
}

export interface Operation {
  api: LoadedApi;
  operationId: string;
  method: string;
  /** The path template as the description writes it, e.g. `/v2/providers/{providerId}`. */
  path: string;
  /** The operation with every $ref resolved: parameters, request body and responses. */
  model: HttpOperation;
  /** The resource whose versions this operation serves; null for an unversioned API. */
  resource: Resource | null;
  /** Whether the operation declares a bearer token requirement (all do unless `security: []`). */
  secured: boolean;
  /** Whether a csv/xlsx export may be requested (X-ReportInput parameter or export media types). */
  exportable: boolean;
  /** Views of the operation narrowed to one request and one response version, built lazily. */
  views: Map<string, HttpOperation>;
}

interface RouteNode {
  literal: Map<string, RouteNode>;
  param: RouteNode | null;
  methods: Map<string, Operation> | null;
}

export interface LoadedApi {
  name: ApiName;
  /** Where the bundle came from (a file, or the descriptions built into the sandbox). */
  file: string;
  /** The bundle as loaded (never mutated): what the sandbox reads shapes and schemas from. */
  doc: Record<string, unknown>;
  /** Path of the first server URL (`/v2` for payroll): requests start with it. */
  basePath: string;
  versioned: boolean;
  operations: Operation[];
  root: RouteNode;
}

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; path: string }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'none' };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export const CSV = 'text/csv';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function emptyNode(): RouteNode {
  return { literal: new Map(), param: null, methods: null };
}

/** The path part of the first server URL, without trailing slash; '' when none. */
function serverBasePath(doc: Record<string, unknown>): string {
  const servers = doc.servers;
  const first = Array.isArray(servers) ? (servers[0] as { url?: unknown } | undefined) : undefined;
  if (!first || typeof first.url !== 'string') return '';
  const url = first.url.replace(/\{[^}]*\}/g, 'x');
  try {
    return new URL(url, 'http://x').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/** Versions per operationId from the bundle's `x-resource-versions`, newest first. */
function readRegistry(doc: Record<string, unknown>): Map<string, Resource> {
  const byOperation = new Map<string, Resource>();
  const registry = doc['x-resource-versions'] as { resources?: Record<string, unknown> } | undefined;
  const resources = registry && typeof registry === 'object' ? registry.resources : undefined;
  if (!resources || typeof resources !== 'object') return byOperation;
  for (const [name, value] of Object.entries(resources)) {
    const entry = value as { operations?: unknown; versions?: unknown };
    if (!Array.isArray(entry.operations) || !Array.isArray(entry.versions)) continue;
    const versions = entry.versions
      .filter((v): v is { version: string; obsoleteDate?: unknown } => typeof v?.version === 'string')
      .map((v) => ({ version: v.version, obsoleteDate: typeof v.obsoleteDate === 'string' ? v.obsoleteDate : null }))
      .sort((a, b) => (a.version < b.version ? 1 : a.version > b.version ? -1 : 0));
    if (versions.length === 0) continue;
    const resource = { name, versions };
    for (const operationId of entry.operations) {
      if (typeof operationId === 'string') byOperation.set(operationId, resource);
    }
  }
  return byOperation;
}

/** The `version=` parameter of a media type string, if any. */
export function versionParam(mediaType: string): string | undefined {
  return /;\s*version\s*=\s*"?(\d{4}-\d{2}-\d{2})"?/i.exec(mediaType)?.[1];
}

/** The media type without parameters, lower case. */
export function essence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The operation's success response: the first 2xx, else a `2XX` range. */
export function successResponse(operation: HttpOperation): HttpResponse | undefined {
  const responses = operation.responses ?? [];
  return responses.find((r) => /^2\d\d$/.test(r.code)) ?? responses.find((r) => /^2XX$/i.test(r.code));
}

export function successContents(operation: HttpOperation): MediaContent[] {
  return successResponse(operation)?.contents ?? [];
}

/**
 * Operations the registry does not (yet) list still get versions: those named by their
 * versioned media type keys, none obsolete.
 */
function versionsFromKeys(operation: HttpOperation, name: string): Resource | null {
  const keys = new Set<string>();
  for (const content of successContents(operation)) {
    const v = versionParam(content.mediaType);
    if (v) keys.add(v);
  }
  for (const content of operation.request?.body?.contents ?? []) {
    const v = versionParam(content.mediaType);
    if (v) keys.add(v);
  }
  if (keys.size === 0) return null;
  return {
    name,
    versions: [...keys].sort().reverse().map((version) => ({ version, obsoleteDate: null })),
  };
}

function insertRoute(root: RouteNode, template: string, method: string, operation: Operation): void {
  let node = root;
  for (const segment of template.split('/').slice(1)) {
    if (/^\{[^}]+\}$/.test(segment)) {
      node.param ??= emptyNode();
      node = node.param;
    } else {
      let next = node.literal.get(segment);
      if (!next) {
        next = emptyNode();
        node.literal.set(segment, next);
      }
      node = next;
    }
  }
  node.methods ??= new Map();
  node.methods.set(method, operation);
}

function findNode(node: RouteNode, segments: string[], index: number): RouteNode | null {
  if (index === segments.length) return node.methods ? node : null;
  const segment = segments[index] as string;
  const literal = node.literal.get(segment);
  if (literal) {
    const found = findNode(literal, segments, index + 1);
    if (found) return found;
  }
  if (node.param && segment !== '') return findNode(node.param, segments, index + 1);
  return null;
}

export function matchRoute(api: LoadedApi, pathname: string, method: string): RouteMatch {
  if (api.basePath && !pathname.startsWith(`${api.basePath}/`)) return { kind: 'none' };
  const path = pathname.slice(api.basePath.length);
  const node = findNode(api.root, path.split('/').slice(1), 0);
  if (!node?.methods) return { kind: 'none' };
  const operation = node.methods.get(method) ?? (method === 'head' ? node.methods.get('get') : undefined);
  if (operation) return { kind: 'operation', operation, path };
  return { kind: 'method-not-allowed', allow: [...node.methods.keys()].map((m) => m.toUpperCase()) };
}

function declaresNoSecurity(raw: Record<string, unknown> | undefined): boolean {
  return Array.isArray(raw?.security) && (raw.security as unknown[]).length === 0;
}

/** Reads a parsed bundle; `file` only names it in messages. */
export function loadApi(name: ApiName, doc: Record<string, unknown>, file = `${name} description`): LoadedApi {
  if (typeof doc.openapi !== 'string') throw new Error(`${file} is not an OpenAPI document`);
  const registry = readRegistry(doc);
  const versioned = registry.size > 0;
  const rawPaths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const api: LoadedApi = {
    name,
    file,
    doc,
    basePath: serverBasePath(doc),
    versioned,
    operations: [],
    root: emptyNode(),
  };
  for (const model of readOperations(doc)) {
    const method = model.method;
    if (!METHODS.includes(method)) continue;
    const raw = rawPaths[model.path]?.[method];
    const operationId = model.iid ?? `${method.toUpperCase()} ${model.path}`;
    const contents = successContents(model);
    const exportable =
      (model.request?.headers ?? []).some((h) => h.name.toLowerCase() === 'x-reportinput') ||
      contents.some((c) => [CSV, XLSX].includes(essence(c.mediaType)));
    const resource = versioned
      ? (registry.get(operationId) ?? versionsFromKeys(model, operationId))
      : null;
    const operation: Operation = {
      api,
      operationId,
      method,
      path: model.path,
      model,
      resource,
      // The contract requires a bearer token on every call; only an explicit `security: []` lifts it.
      secured: !declaresNoSecurity(raw),
      exportable,
      views: new Map(),
    };
    api.operations.push(operation);
    insertRoute(api.root, model.path, method, operation);
  }
  return api;
}
