// The contract's envelopes (2.1) around a handler's reply. Which envelope fields an answer
// carries follows the operation's response schema: the payroll envelopes carry the version
// object, the journal's results only what their schemas declare.
import type { Message, VersionInfo } from '../http/errors.js';
import type { ListPage } from '../domain/context.js';
import { totalPages } from './paging.js';
import { declaredProperties } from '../http/schema-walk.js';

const declared = new WeakMap<object, Set<string>>();

function fieldsOf(schema: Record<string, unknown> | undefined): Set<string> | undefined {
  if (!schema) return undefined;
  let names = declared.get(schema);
  if (!names) {
    names = declaredProperties(schema);
    declared.set(schema, names);
  }
  return names.size > 0 ? names : undefined;
}

/** Keeps the fields the schema declares (all of them when it declares none); every answer is shaped, so it copies only when it drops one. */
function shaped(body: Record<string, unknown>, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const names = fieldsOf(schema);
  if (!names) return body;
  let kept: Record<string, unknown> | undefined;
  for (const key in body) {
    if (names.has(key)) {
      if (kept) kept[key] = body[key];
    } else if (!kept) {
      kept = {};
      for (const before in body) {
        if (before === key) break;
        kept[before] = body[before];
      }
    }
  }
  return kept ?? body;
}

function versionField(version: VersionInfo | null): Record<string, unknown> {
  return version ? { version: { ...version } } : {};
}

export function detailEnvelope(content: unknown, messages: Message[], version: VersionInfo | null, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  return shaped({ ...versionField(version), messages, content }, schema);
}

export function listEnvelope(page: ListPage, messages: Message[], version: VersionInfo | null, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  return shaped(
    {
      totalSize: page.totalSize,
      pageSize: page.pageSize,
      totalPages: totalPages(page.totalSize, page.pageSize),
      currentPage: page.pageNumber,
      ...versionField(version),
      messages,
      _embedded: page.items,
    },
    schema,
  );
}
