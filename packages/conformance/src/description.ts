// The descriptions as the checker reads them: every operation with its parameters, bodies,
// responses and the resource versions it serves (the payroll bundle's x-resource-versions).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deref, mediaTypeVersion, operationsOf } from '@payroll-api/openapi-bundle';

export type ApiName = 'payroll' | 'journal';
export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface Content {
  mediaType: string;
  /** The media type without parameters, lower-cased. */
  essence: string;
  /** The version= parameter, or null. */
  version: string | null;
  schema: JsonSchema | undefined;
  examples: unknown[];
}

export interface ResponseSpec {
  /** '200', '4XX', 'default', ... */
  status: string;
  contents: Content[];
  headers: string[];
  /** The contract does not show this response's body (x-contract-gap): a body is not judged. */
  bodyNotShown: boolean;
}

export interface ServedVersion {
  version: string;
  obsoleteDate: string | null;
}

export interface OperationSpec {
  api: ApiName;
  operationId: string;
  method: string;
  /** The path template as the description writes it. */
  path: string;
  parameters: Parameter[];
  body: { required: boolean; contents: Content[] } | undefined;
  responses: ResponseSpec[];
  /** The resource this operation's versions belong to (payroll), newest version first. */
  resource: { name: string; versions: ServedVersion[] } | undefined;
  /** A list operation: its success schema is the list envelope (`_embedded`). */
  isList: boolean;
  secured: boolean;
}

export interface ApiDescription {
  name: ApiName;
  doc: Record<string, unknown>;
  /** The path of the first server URL ('/v2' for payroll, '' for the journal). */
  basePath: string;
  operations: OperationSpec[];
}

export function essenceOf(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

export const isJson = (essence: string): boolean => essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json');

function contents(doc: unknown, node: Record<string, unknown> | undefined): Content[] {
  const content = (node?.content ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(content).map(([mediaType, media]) => {
    const examples: unknown[] = [];
    if (media.example !== undefined) examples.push(media.example);
    for (const example of Object.values((media.examples ?? {}) as Record<string, unknown>)) {
      const value = deref<Record<string, unknown>>(doc, example)?.value;
      if (value !== undefined) examples.push(value);
    }
    return { mediaType, essence: essenceOf(mediaType), version: mediaTypeVersion(mediaType), schema: media.schema as JsonSchema | undefined, examples };
  });
}

function serverBasePath(doc: Record<string, unknown>): string {
  const first = (doc.servers as Array<{ url?: string }> | undefined)?.[0];
  if (!first?.url) return '';
  try {
    return new URL(first.url.replace(/\{[^}]*\}/g, 'x'), 'http://x').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/** The versions of each operation, from the registry the payroll bundle carries. */
function registry(doc: Record<string, unknown>): Map<string, { name: string; versions: ServedVersion[] }> {
  const byOperation = new Map<string, { name: string; versions: ServedVersion[] }>();
  const resources = ((doc['x-resource-versions'] as Record<string, unknown> | undefined)?.resources ?? {}) as Record<
    string,
    { operations?: string[]; versions?: ServedVersion[] }
  >;
  for (const [name, resource] of Object.entries(resources)) {
    const versions = [...(resource.versions ?? [])].map((v) => ({ version: v.version, obsoleteDate: v.obsoleteDate ?? null }));
    versions.sort((a, b) => (a.version < b.version ? 1 : -1));
    for (const operationId of resource.operations ?? []) byOperation.set(operationId, { name, versions });
  }
  return byOperation;
}

export function describeApi(name: ApiName, doc: Record<string, unknown>): ApiDescription {
  const versions = registry(doc);
  const operations: OperationSpec[] = [];
  for (const entry of operationsOf(doc as never)) {
    const op = entry.operation;
    const params = new Map<string, Parameter>();
    for (const raw of [...((entry.pathItem.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]) {
      const p = deref<Record<string, unknown>>(doc, raw);
      if (!p?.name) continue;
      params.set(`${p.in}:${p.name}`, {
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: p.required === true,
        schema: deref<JsonSchema>(doc, p.schema) ?? {},
        example: p.example ?? (p.examples ? deref<Record<string, unknown>>(doc, Object.values(p.examples as object)[0])?.value : undefined),
      });
    }
    const bodyNode = deref<Record<string, unknown>>(doc, op.requestBody);
    const responses: ResponseSpec[] = Object.entries((op.responses ?? {}) as Record<string, unknown>).map(([status, raw]) => {
      const response = deref<Record<string, unknown>>(doc, raw) ?? {};
      const described = contents(doc, response);
      return { status, contents: described, headers: Object.keys((response.headers ?? {}) as object), bodyNotShown: described.length === 0 && typeof response['x-contract-gap'] === 'string' };
    });
    const success = responses.find((r) => /^2/.test(r.status));
    const successSchema = success?.contents.find((c) => isJson(c.essence))?.schema;
    const operationId = String(op.operationId);
    operations.push({
      api: name,
      operationId,
      method: entry.method,
      path: entry.path,
      parameters: [...params.values()],
      body: bodyNode ? { required: bodyNode.required === true, contents: contents(doc, bodyNode) } : undefined,
      responses,
      resource: versions.get(operationId),
      isList: hasEmbedded(doc, successSchema),
      secured: !(Array.isArray(op.security) && op.security.length === 0),
    });
  }
  return { name, doc, basePath: serverBasePath(doc), operations };
}

/** Whether a schema (through $refs and allOf) declares `_embedded`. */
function hasEmbedded(doc: unknown, schema: unknown, seen = new Set<unknown>()): boolean {
  const node = deref<Record<string, unknown>>(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (node.properties && typeof node.properties === 'object' && '_embedded' in (node.properties as object)) return true;
  return ['allOf', 'anyOf', 'oneOf'].some((k) => Array.isArray(node[k]) && (node[k] as unknown[]).some((s) => hasEmbedded(doc, s, seen)));
}

/** The versions of an operation still served on `today` (obsoleteDate not reached). */
export function servedVersions(operation: OperationSpec, today: string): ServedVersion[] {
  return (operation.resource?.versions ?? []).filter((v) => v.obsoleteDate === null || v.obsoleteDate > today);
}

/** The response spec that describes `status` (exact, then 4XX/5XX, then default). */
export function responseFor(operation: OperationSpec, status: number): ResponseSpec | undefined {
  const exact = operation.responses.find((r) => r.status === String(status));
  if (exact) return exact;
  const range = operation.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`);
  return range ?? operation.responses.find((r) => r.status === 'default');
}

/** The bundles of @payroll-api/spec, or the files given. */
export function loadDescriptions(files: { payroll?: string; journal?: string } = {}): ApiDescription[] {
  const require = createRequire(import.meta.url);
  let specDir: string | undefined;
  const fileFor = (name: ApiName): string => {
    const given = files[name];
    if (given) return given;
    specDir ??= path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist');
    return path.join(specDir, `${name}.json`);
  };
  return (['payroll', 'journal'] as const).map((name) => {
    const file = fileFor(name);
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`cannot read the ${name} description ${file}: ${(error as Error).message}`);
    }
    return describeApi(name, doc);
  });
}
