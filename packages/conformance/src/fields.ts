// The fields a stateful sequence writes, reads back and orders on, found in the description at
// the version each request is sent at, so that a renamed field is written under the name its
// version gives it (and a server answering another version's name is caught reading it back).
import { applicableSchemas } from '@payroll-api/openapi-bundle';
import { chainOf, changeFields } from '@payroll-api/version-changes';
import { isJson, type ApiDescription, type JsonSchema, type OperationSpec } from './description.js';
import { bodyContent } from './plan/requests.js';

type Json = Record<string, unknown>;

const MAX_DEPTH = 4;

/** The properties a schema declares here (through $ref, allOf, oneOf/anyOf), first declaration first. */
function propertiesOf(doc: unknown, schema: unknown): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const parts = applicableSchemas(doc, schema, undefined);
  const required = new Set(parts.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : [])));
  const seen = new Map<string, JsonSchema[]>();
  for (const part of parts) {
    for (const [name, sub] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>)) seen.set(name, [...(seen.get(name) ?? []), sub]);
  }
  return [...seen.entries()].map(([name, schemas]) => ({ name, schema: { allOf: schemas }, required: required.has(name) }));
}

/** Whether a (composed) schema is free text: a string without format, pattern, enum or const; null allowed. */
function isFreeText(doc: unknown, schema: unknown): { text: boolean; readOnly: boolean } {
  const parts = applicableSchemas(doc, schema, undefined);
  const types = new Set(parts.flatMap((p) => (Array.isArray(p.type) ? p.type : p.type ? [p.type] : [])));
  const constrained = parts.some((p) => p.format !== undefined || p.pattern !== undefined || p.enum !== undefined || p.const !== undefined || (typeof p.maxLength === 'number' && p.maxLength < 25));
  return { text: types.has('string') && [...types].every((t) => t === 'string' || t === 'null') && !constrained, readOnly: parts.some((p) => p.readOnly === true) };
}

export interface TextField {
  /** Dotted path from the entity. */
  path: string;
  /** Every object on the way, and the field itself, is required where it is declared. */
  required: boolean;
}

/** The free-text fields of an entity schema nested in objects (never through arrays), in declaration order. */
export function textFields(doc: unknown, schema: unknown, options: { writing: boolean }): TextField[] {
  const out: TextField[] = [];
  const walk = (node: unknown, prefix: string, required: boolean, depth: number) => {
    if (depth > MAX_DEPTH) return;
    for (const property of propertiesOf(doc, node)) {
      const path = prefix ? `${prefix}.${property.name}` : property.name;
      const text = isFreeText(doc, property.schema);
      if (options.writing && text.readOnly) continue;
      if (text.text) out.push({ path, required: required && property.required });
      else if (applicableSchemas(doc, property.schema, undefined).some((p) => p.properties)) walk(property.schema, path, required && property.required, depth + 1);
    }
  };
  walk(schema, '', true, 0);
  return out;
}

/** The entity of an answer schema: the `content` of a detail envelope, the items of a list's `_embedded`, else the schema. */
export function entitySchema(doc: unknown, schema: unknown): unknown[] {
  const parts = applicableSchemas(doc, schema, undefined);
  const content = parts.map((p) => (p.properties as Json | undefined)?.content).filter(Boolean);
  if (content.length > 0) return content;
  const embedded = parts.map((p) => (p.properties as Json | undefined)?._embedded).filter(Boolean);
  if (embedded.length > 0) return embedded.flatMap((e) => applicableSchemas(doc, e, undefined)).map((p) => p.items).filter((items) => items && typeof items === 'object' && Object.keys(items).length > 0);
  return [schema];
}

/** The JSON schema of an operation's success answer at `version`. */
function answerSchema(operation: OperationSpec, version: string | null): JsonSchema | undefined {
  const success = operation.responses.find((r) => /^2/.test(r.status));
  const json = (success?.contents ?? []).filter((c) => isJson(c.essence));
  return (json.find((c) => c.version === version) ?? json.find((c) => c.version === null))?.schema;
}

const answerFields = (api: ApiDescription, operation: OperationSpec, version: string | null) => {
  const schema = answerSchema(operation, version);
  return schema ? entitySchema(api.doc, schema).flatMap((entity) => textFields(api.doc, entity, { writing: false })) : [];
};

/** The fields the change record gives a new name (or adds) at `version` of the operation's resource: where a mix-up of versions shows. */
function changedAt(api: ApiDescription, operation: OperationSpec, version: string | null): Set<string> {
  const chain = chainOf(api.doc);
  const resource = operation.resource?.name;
  if (!chain || !resource || !version) return new Set();
  const step = chain.steps(resource).find((s) => s.version === version);
  return new Set((step?.changes ?? []).map((change) => changeFields(change).after).filter((f): f is string => typeof f === 'string').map((f) => f.replace(/\[\]/g, '')));
}

/**
 * A nested free-text field that `write` takes and `read` answers at the versions they are sent
 * at, preferring one the version change record renamed or added at the write's version (where a
 * server answering another version's shape shows), then a required one.
 */
export function nestedTextField(api: ApiDescription, write: OperationSpec, read: OperationSpec, versionOf: (operationId: string) => string | null): string | undefined {
  const body = bodyContent(write, versionOf(write.operationId))?.schema;
  if (!body) return undefined;
  const readable = new Set(answerFields(api, read, versionOf(read.operationId)).map((f) => f.path));
  const changed = changedAt(api, write, versionOf(write.operationId));
  const candidates = textFields(api.doc, body, { writing: true }).filter((f) => f.path.includes('.') && readable.has(f.path));
  const rank = (f: TextField) => (changed.has(f.path) ? 0 : f.required ? 1 : 2);
  return candidates.map((f, index) => ({ f, index })).sort((a, b) => rank(a.f) - rank(b.f) || a.index - b.index)[0]?.f.path;
}

/** The nested free-text field a list is ordered on: of its items at the version it is sent at, a required one first. */
export function listOrderField(api: ApiDescription, list: OperationSpec, versionOf: (operationId: string) => string | null): string | undefined {
  const nested = answerFields(api, list, versionOf(list.operationId)).filter((f) => f.path.includes('.'));
  return (nested.find((f) => f.required) ?? nested[0])?.path;
}

/** A copy of `body` with `value` at the dotted `path` (objects made on the way). */
export function withValueAt(body: Json, path: string, value: unknown): Json {
  const [first, ...rest] = path.split('.') as [string, ...string[]];
  if (rest.length === 0) return { ...body, [first]: value };
  const inner = body[first];
  return { ...body, [first]: withValueAt(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Json) : {}, rest.join('.'), value) };
}
