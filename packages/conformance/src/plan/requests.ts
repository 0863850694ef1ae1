// Building a request for one operation at one resource version: the address (the API's URL
// followed by the description's path, so payroll keeps its double /v2), the bearer token, the
// versioned Accept and Content-Type, and a body from the description's examples.
import { isJson, type ApiDescription, type Content, type OperationSpec } from '../description.js';
import type { OutgoingRequest } from '../http.js';

export interface Target {
  api: ApiDescription;
  /** What the description's paths are appended to. */
  url: string;
}

export interface RequestParts {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The version to send in Accept (and Content-Type); null for none. */
  version: string | null;
  /** The Accept header to send instead of the versioned JSON one. */
  accept?: string;
  body?: unknown;
  /** Leave the Authorization header out. */
  anonymous?: boolean;
  token?: string;
}

export function urlOf(target: Target, operation: OperationSpec, params: Record<string, string>, query: Record<string, string> = {}): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
  const search = new URLSearchParams(query).toString();
  return `${target.url.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}

/** The JSON media type of the request body at `version` (the unversioned one when none matches). */
export function bodyContent(operation: OperationSpec, version: string | null): Content | undefined {
  const json = operation.body?.contents.filter((c) => isJson(c.essence)) ?? [];
  return json.find((c) => c.version === version) ?? json.find((c) => c.version === null) ?? json[0];
}

/** The Accept to send: JSON at `version`, or, for an operation that answers no JSON (a photo), its own media types. */
export function acceptFor(operation: OperationSpec, version: string | null): string {
  const withVersion = (mediaType: string) => (version && operation.resource ? `${mediaType};version=${version}` : mediaType);
  const success = operation.responses.find((r) => /^2/.test(r.status));
  const types = [...new Set((success?.contents ?? []).map((c) => c.essence))];
  if (types.length === 0 || types.some(isJson)) return withVersion('application/json');
  return types.map(withVersion).join(', ');
}

export function buildRequest(target: Target, operation: OperationSpec, parts: RequestParts): OutgoingRequest {
  const headers: Record<string, string> = { Accept: parts.accept ?? acceptFor(operation, parts.version), ...parts.headers };
  if (!parts.anonymous && parts.token) headers.Authorization = `Bearer ${parts.token}`;
  let body: string | undefined;
  if (parts.body !== undefined) {
    const content = bodyContent(operation, parts.version);
    headers['Content-Type'] = content?.version ? `application/json;version=${content.version}` : 'application/json';
    body = JSON.stringify(parts.body);
  }
  return { method: operation.method.toUpperCase(), url: urlOf(target, operation, parts.params ?? {}, parts.query), headers, body };
}

/** The first example of the request body at `version`, deep-copied. */
export function bodyExample(operation: OperationSpec, version: string | null): unknown {
  const example = bodyContent(operation, version)?.examples[0];
  return example === undefined ? undefined : structuredClone(example);
}
