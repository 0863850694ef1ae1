// The operation model the stages read: each operation of a bundle with its parameters,
// request body and responses, every $ref resolved (one shared object per referenced
// component, so a schema used by fifty operations is compiled and stored once).
export interface MediaContent {
  mediaType: string;
  schema?: Record<string, unknown>;
}

export interface HttpParam {
  name: string;
  required?: boolean;
  schema?: Record<string, unknown>;
  style?: string;
  explode?: boolean;
}

export interface HttpResponse {
  code: string;
  contents?: MediaContent[];
  headers?: HttpParam[];
}

export interface HttpOperation {
  /** The operationId (the activity name). */
  iid?: string;
  method: string;
  path: string;
  request?: {
    body?: { required?: boolean; contents?: MediaContent[] };
    headers?: HttpParam[];
    query?: HttpParam[];
    path?: HttpParam[];
    cookie?: HttpParam[];
  };
  responses: HttpResponse[];
}

/** One validation problem: where (`['query', 'pageSize']`, `['body', 'a', '0']`), the keyword and the message. */
export interface Violation {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
  /** The rule the value broke, in the description's words (a conditional branch's description). */
  rule?: string;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Resolves local $refs (`#/components/...`) of `doc`, memoized per reference. */
export function dereferencer(doc: Json): (value: unknown) => unknown {
  const done = new Map<string, unknown>();
  const pointer = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc);
  const resolving = new Set<string>();
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const node = value as Json;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      const ref = node.$ref;
      let target = done.get(ref);
      if (target === undefined) {
        if (resolving.has(ref)) throw new Error(`the description refers to ${ref} inside itself; recursive schemas are not supported`);
        resolving.add(ref);
        target = walk(pointer(ref));
        resolving.delete(ref);
        if (target === undefined) throw new Error(`the description refers to ${ref}, which it does not define`);
        done.set(ref, target);
      }
      const siblings = Object.keys(node).filter((k) => k !== '$ref' && k !== 'description' && k !== 'summary');
      if (siblings.length === 0 || !target || typeof target !== 'object') return target;
      const merged: Json = { ...(target as Json) };
      for (const key of siblings) merged[key] = walk(node[key]);
      return merged;
    }
    const out: Json = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    return out;
  };
  return walk;
}

function contentsOf(content: unknown): MediaContent[] {
  if (!content || typeof content !== 'object') return [];
  return Object.entries(content as Record<string, Json>).map(([mediaType, media]) => {
    const entry: MediaContent = { mediaType };
    if (media?.schema && typeof media.schema === 'object') entry.schema = media.schema as Json;
    return entry;
  });
}

function paramOf(raw: Json): HttpParam {
  const param: HttpParam = { name: String(raw.name) };
  if (raw.required === true) param.required = true;
  if (raw.schema && typeof raw.schema === 'object') param.schema = raw.schema as Json;
  if (typeof raw.style === 'string') param.style = raw.style;
  if (typeof raw.explode === 'boolean') param.explode = raw.explode;
  return param;
}

/** Every operation of a bundle, dereferenced, in the order of its paths. */
export function readOperations(doc: Json): HttpOperation[] {
  const deref = dereferencer(doc);
  const operations: HttpOperation[] = [];
  for (const [path, rawItem] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const item = deref(rawItem) as Json;
    const shared = Array.isArray(item.parameters) ? (item.parameters as Json[]) : [];
    for (const method of METHODS) {
      const raw = item[method] as Json | undefined;
      if (!raw || typeof raw !== 'object') continue;
      const params = new Map<string, Json>();
      for (const p of [...shared, ...(Array.isArray(raw.parameters) ? (raw.parameters as Json[]) : [])]) params.set(`${p.in}:${p.name}`, p);
      const request: NonNullable<HttpOperation['request']> = {};
      for (const p of params.values()) {
        const where = ({ query: 'query', header: 'headers', path: 'path', cookie: 'cookie' } as const)[p.in as 'query' | 'header' | 'path' | 'cookie'];
        if (!where) continue;
        (request[where] ??= []).push(paramOf(p));
      }
      const body = raw.requestBody as Json | undefined;
      if (body && typeof body === 'object') request.body = { required: body.required === true, contents: contentsOf(body.content) };
      const responses: HttpResponse[] = Object.entries((raw.responses ?? {}) as Record<string, Json>).map(([code, response]) => {
        const out: HttpResponse = { code, contents: contentsOf(response?.content) };
        const headers = response?.headers as Record<string, Json> | undefined;
        if (headers) out.headers = Object.entries(headers).map(([name, h]) => paramOf({ ...h, name }));
        return out;
      });
      const operation: HttpOperation = { method, path, request, responses };
      if (typeof raw.operationId === 'string') operation.iid = raw.operationId;
      operations.push(operation);
    }
  }
  return operations;
}
