// Every example in both descriptions validates against the schema it illustrates, and every
// example of a versioned media type reports that version in `version.resourceVersion`.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf, versionOf, type OpenApiDocument } from './support/bundles.js';

interface ExampleCase {
  name: string;
  pointer: string;
  mediaType: string;
  value: unknown;
}

function escapePointer(segment: string) {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function exampleCases(doc: OpenApiDocument): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const collect = (where: string, pointer: string, content: Record<string, any> | undefined) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      if (!media.schema) continue;
      const schemaPointer = `${pointer}/${escapePointer(mediaType)}/schema`;
      if (media.example !== undefined) {
        cases.push({ name: `${where} ${mediaType} example`, pointer: schemaPointer, mediaType, value: media.example });
      }
      for (const [key, example] of Object.entries(media.examples ?? {})) {
        const resolved = deref(doc, example);
        if (resolved?.value !== undefined) {
          cases.push({ name: `${where} ${mediaType} examples.${key}`, pointer: schemaPointer, mediaType, value: resolved.value });
        }
      }
    }
  };
  for (const { path, method, operation } of operationsOf(doc)) {
    const base = `#/paths/${escapePointer(path)}/${method}`;
    const id = operation.operationId ?? `${method} ${path}`;
    if (operation.requestBody) {
      const body = deref(doc, operation.requestBody);
      const pointer = operation.requestBody.$ref ? `${operation.requestBody.$ref}/content` : `${base}/requestBody/content`;
      collect(`${id} request`, pointer, body.content);
    }
    for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
      const resolved = deref(doc, response);
      const pointer = response.$ref ? `${response.$ref}/content` : `${base}/responses/${status}/content`;
      collect(`${id} ${status}`, pointer, resolved.content);
    }
  }
  return cases;
}

function validatorFor(doc: OpenApiDocument) {
  // strict: false because OpenAPI adds keywords (example, discriminator, x-*) that JSON Schema does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'bundle.json');
  return (pointer: string, value: unknown) => {
    const validate = ajv.getSchema(`bundle.json${pointer}`) ?? ajv.compile({ $ref: `bundle.json${pointer}` });
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}

for (const api of ['payroll', 'journal', 'sandbox-control'] as const) {
  describe(`${api} examples`, () => {
    const doc = loadBundle(api);
    const cases = exampleCases(doc);
    const validate = validatorFor(doc);

    it('has examples to check', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.each(cases.map((c) => [c.name, c] as const))('%s validates against its schema', (_name, c) => {
      expect(validate(c.pointer, c.value)).toEqual([]);
    });

    const versioned = cases.filter((c) => versionOf(c.mediaType) && (c.value as any)?.version);
    it.each(versioned.map((c) => [c.name, c] as const))('%s reports the version of its media type', (_name, c) => {
      expect((c.value as any).version.resourceVersion).toBe(versionOf(c.mediaType));
    });
  });
}
