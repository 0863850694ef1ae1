// Every `readOnly: true` that sits beside a `$ref` in a request body of the bundles (OpenAPI 3.1
// allows siblings of $ref) is left out by toBody, as a readOnly on the schema itself is.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deref, mediaTypeVersion, operationsOf } from '@payroll-api/openapi-bundle';
import { toBody } from '../src/body.js';

type Node = Record<string, unknown> & { $ref?: string; readOnly?: boolean };
const bundle = (api: string) => JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../../spec/dist/${api}.json`, import.meta.url)), 'utf8'));

/** The property paths (names, '[]' for array items) of a schema whose declaration is a $ref with readOnly: true beside it. */
function readOnlyBesideRef(doc: unknown, schema: unknown): string[][] {
  const found: string[][] = [];
  const walk = (node: unknown, path: string[], seen: Set<unknown>) => {
    const s = deref(doc, node) as Node | undefined;
    if (!s || typeof s !== 'object' || seen.has(s) || path.length > 12) return;
    const inner = new Set(seen).add(s);
    for (const part of [...((s.allOf ?? []) as unknown[]), ...((s.oneOf ?? []) as unknown[]), ...((s.anyOf ?? []) as unknown[])]) walk(part, path, inner);
    if (s.items) walk(s.items, [...path, '[]'], inner);
    for (const [name, declaration] of Object.entries((s.properties ?? {}) as Record<string, Node>)) {
      if (typeof declaration.$ref === 'string' && declaration.readOnly === true) found.push([...path, name]);
      else walk(declaration, [...path, name], inner);
    }
  };
  walk(schema, [], new Set());
  return found;
}

/** A read shape holding a value at the path. */
const readAt = (path: string[], value: unknown): unknown => (path.length === 0 ? value : path[0] === '[]' ? [readAt(path.slice(1), value)] : { [path[0]!]: readAt(path.slice(1), value) });
/** What the body holds at the path (undefined when a part is absent). */
const valueAt = (body: unknown, path: string[]): unknown =>
  path.reduce<unknown>((at, part) => (at == null ? undefined : part === '[]' ? (at as unknown[])[0] : (at as Record<string, unknown>)[part]), body);

const cases = ['payroll', 'journal'].flatMap((api) => {
  const doc = bundle(api);
  return [...operationsOf(doc)].flatMap(({ operation }) =>
    Object.entries((deref(doc, operation.requestBody)?.content ?? {}) as Record<string, { schema?: unknown }>)
      .filter(([media]) => /json/.test(media))
      .flatMap(([media, { schema }]) => readOnlyBesideRef(doc, schema).map((path) => [operation.operationId as string, mediaTypeVersion(media), path] as const)),
  );
});

describe('toBody and readOnly beside a $ref', () => {
  it('finds such fields in the bundles, statusEmployeeSelfService of an employee among them', () => {
    expect(cases.some(([id, , path]) => id === 'PutEmployeeByEmployeeId' && path.join('.') === 'statusEmployeeSelfService')).toBe(true);
  });

  it.each(cases.map(([id, version, path]) => [id, version ?? 'unversioned', path.join('.'), version, path] as const))('%s (%s) leaves out %s', (id, _shown, _dotted, version, path) => {
    const read = readAt(path, { key: 1, value: 'read-only' });
    const body = version ? toBody(id as never, read as never, version as never) : toBody(id as never, read as never);
    expect(valueAt(body, path)).toBeUndefined();
  });

  it('leaves statusEmployeeSelfService out of a read employee written back', () => {
    const employee = { personalDetails: { firstName: 'Anna', lastName: 'Visser' }, exclusionFromAbsenceStatus: false, statusEmployeeSelfService: { key: 1, value: 'HasAccessToClient' } };
    // Pinned: the employee read at 2021-03-29 is written back at that version.
    const body = toBody('PutEmployeeByEmployeeId', employee as never, '2021-03-29');
    expect(body).not.toHaveProperty('statusEmployeeSelfService');
    expect(body).toMatchObject({ personalDetails: { firstName: 'Anna', lastName: 'Visser' }, exclusionFromAbsenceStatus: false });
  });
});
