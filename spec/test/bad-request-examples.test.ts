// A 400 example is about its own operation: every field its messages name in `properties` is
// one of the operation's parameters or a field of its request body (a dotted path for a
// nested field). A shared example about some other operation's field misleads the reader.
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf, type OpenApiDocument } from './support/bundles.js';

/** Whether a dotted path names a field of the schema (through $ref, allOf/oneOf/anyOf and array items). */
function hasField(doc: OpenApiDocument, schema: unknown, segments: string[], seen = new Set<unknown>()): boolean {
  if (segments.length === 0) return true;
  const node = deref(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  const visited = new Set(seen).add(node);
  const [head, ...rest] = segments;
  if (node.properties?.[head!] && hasField(doc, node.properties[head!], rest, visited)) return true;
  if (node.items && hasField(doc, node.items, segments, visited)) return true;
  return [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])].some((part: unknown) => hasField(doc, part, segments, visited));
}

for (const api of ['payroll', 'journal'] as const) {
  describe(`${api} 400 examples`, () => {
    const doc = loadBundle(api);
    const cases = operationsOf(doc).flatMap(({ pathItem, operation }) => {
      const response = deref(doc, operation.responses?.['400']);
      const media = response?.content?.['application/json'];
      if (!media) return [];
      const examples = [media.example, ...Object.values<any>(media.examples ?? {}).map((e) => deref(doc, e).value)].filter(Boolean);
      return [{ operation, pathItem, examples }];
    });

    it('has an example on every operation with a JSON 400', () => {
      expect(cases.length).toBeGreaterThan(10);
      for (const { operation, examples } of cases) expect(examples.length, operation.operationId).toBeGreaterThan(0);
    });

    it.each(cases.map((c) => [c.operation.operationId, c] as const))('%s: its 400 example names only its own parameters and body fields', (_id, c) => {
      const parameters = [...(c.pathItem.parameters ?? []), ...(c.operation.parameters ?? [])].map((p: any) => deref(doc, p).name);
      const body = deref(doc, c.operation.requestBody);
      const bodySchemas = Object.values<any>(body?.content ?? {}).map((m) => m.schema);
      const named = c.examples.flatMap((example: any) => (example.messages ?? []).flatMap((m: any) => m.properties ?? []));
      expect(named.length, 'the example names the field it is about').toBeGreaterThan(0);
      for (const field of named) {
        const own = parameters.includes(field) || bodySchemas.some((schema) => hasField(doc, schema, String(field).split('.')));
        expect(own, `${field} is neither a parameter nor a body field of ${c.operation.operationId}`).toBe(true);
      }
    });
  });
}
