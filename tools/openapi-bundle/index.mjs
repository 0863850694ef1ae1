// Reading a bundled description (spec/dist/*.json): a bundle holds only local references, so
// following one is a JSON pointer walk. The build scripts, tests and tools that read bundles
// share these, so that a dangling or circular reference fails the same clear way everywhere.

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function unescapeSegment(segment) {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The node a local `$ref` (#/…) points at; throws a clear error when it does not resolve. */
export function resolveRef(doc, ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#')) {
    throw new Error(`cannot resolve $ref ${JSON.stringify(ref)}: a bundle holds only local references (#/…)`);
  }
  let node = doc;
  const body = ref.slice(1);
  for (const segment of body === '' ? [] : body.split('/').slice(1)) {
    const key = unescapeSegment(segment);
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`cannot resolve $ref ${ref}: ${JSON.stringify(key)} does not exist`);
    }
    node = node[key];
  }
  return node;
}

/** Follows a chain of `$ref`s to the node it ends at; other nodes (and undefined) come back as they are. */
export function deref(doc, node) {
  const seen = [];
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    if (seen.includes(current.$ref)) throw new Error(`circular $ref ${current.$ref}`);
    seen.push(current.$ref);
    current = resolveRef(doc, current.$ref);
  }
  return current;
}

/** The `version=yyyy-MM-dd` parameter of a media type key (`application/json;version=2021-03-29`), or null. */
export function mediaTypeVersion(mediaType) {
  return /;\s*version=(\d{4}-\d{2}-\d{2})\s*(;|$)/i.exec(String(mediaType))?.[1] ?? null;
}

/** Every operation of a bundle, in path order then method order: {path, method, pathItem, operation}. */
export function* operationsOf(doc) {
  for (const [path, rawItem] of Object.entries(doc?.paths ?? {})) {
    const pathItem = deref(doc, rawItem) ?? {};
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation && typeof operation === 'object') yield { path, method, pathItem, operation };
    }
  }
}

/** The content (media type -> media object) of every 2xx response of an operation, merged. */
export function successContent(doc, operation) {
  const content = {};
  for (const [status, response] of Object.entries(operation?.responses ?? {})) {
    if (/^2\d\d$/.test(status)) Object.assign(content, deref(doc, response)?.content ?? {});
  }
  return content;
}

/** Whether a schema (through allOf and $refs) declares `_embedded`: the contract's list envelope. */
export function isListEnvelope(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 10) return false;
  if (s.properties && '_embedded' in s.properties) return true;
  return (s.allOf ?? []).some((part) => isListEnvelope(doc, part, depth + 1));
}

const COMPOSITIONS = ['oneOf', 'anyOf'];

/** The JSON Schema type of a value. */
function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value;
}

/** Whether a schema's own `type` (through $refs) allows the value's type; no type allows any. */
function mayBe(doc, schema, value) {
  const type = deref(doc, schema)?.type;
  if (type === undefined) return true;
  const allowed = Array.isArray(type) ? type : [type];
  const actual = typeOf(value);
  return allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
}

/**
 * The schemas that apply to `value` at one place: the schema itself, what its `$ref`s point at
 * (a 3.1 `$ref` may sit next to other keywords) and every `allOf` part; of a `oneOf`/`anyOf`
 * the branches `matches` accepts, or all of them when it accepts none (or is not given).
 */
export function applicableSchemas(doc, schema, value, matches) {
  const out = [];
  const visit = (node) => {
    if (!node || typeof node !== 'object' || Array.isArray(node) || out.includes(node)) return;
    out.push(node);
    if (typeof node.$ref === 'string') visit(resolveRef(doc, node.$ref));
    for (const part of Array.isArray(node.allOf) ? node.allOf : []) visit(part);
    for (const key of COMPOSITIONS) {
      const branches = Array.isArray(node[key]) ? node[key] : [];
      // A branch whose type cannot be the value's is out without asking the (slower) validator.
      const possible = branches.filter((branch) => mayBe(doc, branch, value));
      const candidates = possible.length > 0 ? possible : branches;
      const chosen = matches && candidates.length > 1 ? candidates.filter((branch) => matches(branch, value)) : [];
      for (const branch of chosen.length > 0 ? chosen : candidates) visit(branch);
    }
  };
  visit(schema);
  return out;
}

const isOpen = (keyword) => keyword !== undefined && keyword !== false;

/**
 * The properties of `value` that `schema` does not name, as dotted paths (`[]` for the items of
 * an array, each path once): walked through `$ref`, `allOf`, `oneOf`/`anyOf` (the branches
 * `matches` accepts), `properties`, `patternProperties`, array `items` and `prefixItems`, and
 * nested objects. An object whose schemas name no property at all is free-form, and one whose
 * schema allows more (`additionalProperties` or `unevaluatedProperties` other than false) names
 * every property: neither is reported.
 */
export function undeclaredProperties(doc, schema, value, { matches } = {}) {
  const found = new Set();
  const walk = (schemas, node, path) => {
    if (node === null || typeof node !== 'object') return;
    // Once each: several schemas may reach the same part, and copies would multiply level by level.
    const parts = [...new Set(schemas.flatMap((s) => applicableSchemas(doc, s, node, matches)))];
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        const itemSchemas = parts.flatMap((p) => [p.prefixItems?.[index], p.items].filter((s) => s && typeof s === 'object'));
        walk(itemSchemas, item, `${path}[]`);
      });
      return;
    }
    const declaring = parts.filter((p) => p.properties || p.patternProperties || isOpen(p.additionalProperties) || isOpen(p.unevaluatedProperties));
    if (declaring.length === 0) return;
    for (const [name, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${name}` : name;
      const named = declaring.flatMap((p) => [
        p.properties && Object.hasOwn(p.properties, name) ? p.properties[name] : undefined,
        ...Object.entries(p.patternProperties ?? {}).filter(([pattern]) => new RegExp(pattern, 'u').test(name)).map(([, s]) => s),
      ]).filter((s) => s !== undefined);
      const open = declaring.filter((p) => isOpen(p.additionalProperties) || isOpen(p.unevaluatedProperties));
      if (named.length === 0 && open.length === 0) {
        found.add(childPath);
        continue;
      }
      const extra = named.length > 0 ? [] : open.flatMap((p) => [p.additionalProperties, p.unevaluatedProperties].filter((s) => s && typeof s === 'object'));
      walk([...named, ...extra].filter((s) => typeof s === 'object'), child, childPath);
    }
  };
  walk([schema], value, '');
  return [...found];
}
