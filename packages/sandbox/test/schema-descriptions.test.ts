// The sandbox's own descriptions through its validator: every schema it validates with (request
// bodies, parameters, components) compiles, and gives ajv's answer on every example the
// descriptions hold (read from the full bundles: the sandbox's trimmed copies drop examples) and
// on every seeded doc of each collection.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { lenient } from '../src/domain/doc-schemas.js';
import { dereferencer } from '../src/http/operation.js';
import { withoutReadOnly } from '../src/http/request-schema.js';
import { RESOURCE_MODULES } from '../src/resources/index.js';
import { collectionTable } from '../src/responder/responder.js';
import { seedCollectionNames, seedSnapshot } from '../src/seed/index.js';
import { compileSchema } from '../src/schema/compile.js';
import { expectSameAnswers, MODES } from './schema-oracle.js';

type Json = Record<string, unknown>;
const sandbox = await createSandbox();
const specDist = path.join(path.dirname(createRequire(import.meta.url).resolve('@payroll-api/spec/package.json')), 'dist');
const fullBundle = (name: string): Json => JSON.parse(fs.readFileSync(path.join(specDist, `${name}.json`), 'utf8')) as Json;

/** Every `example` and `examples` inside a schema (or media type), with the schema they illustrate. */
function examplesIn(node: unknown, found: { schema: Json; values: unknown[] }[] = []): { schema: Json; values: unknown[] }[] {
  if (Array.isArray(node)) {
    for (const item of node) examplesIn(item, found);
    return found;
  }
  if (!node || typeof node !== 'object') return found;
  const object = node as Json;
  const values: unknown[] = [];
  if ('example' in object) values.push(object.example);
  if (Array.isArray(object.examples)) values.push(...object.examples);
  else if (object.examples && typeof object.examples === 'object') for (const named of Object.values(object.examples as Json)) if (named && typeof named === 'object' && 'value' in named) values.push((named as Json).value);
  const schema = object.schema && typeof object.schema === 'object' && !('type' in object && typeof object.type === 'string') ? (object.schema as Json) : object;
  if (values.length > 0) found.push({ schema, values });
  for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') examplesIn(child, found);
  return found;
}

/** The components that dereference (a recursive one cannot, and no stored doc or request uses one). */
function components(doc: Json): [string, Json][] {
  const resolve = dereferencer(doc);
  return Object.keys(((doc.components as Json | undefined)?.schemas ?? {}) as Json).flatMap((name): [string, Json][] => {
    try {
      return [[name, resolve({ $ref: `#/components/schemas/${name}` }) as Json]];
    } catch {
      return [];
    }
  });
}

describe("the descriptions' schemas with the sandbox's validator", () => {
  for (const api of [...sandbox.apis]) {
    it(`compiles every request schema of ${api.name} and gives ajv's answers on its examples`, () => {
      for (const operation of api.operations) {
        const request = operation.model.request ?? {};
        for (const content of request.body?.contents ?? []) if (content.schema) expect(() => compileSchema(withoutReadOnly(content.schema!), MODES.body)).not.toThrow();
        for (const params of [request.query, request.headers, request.path]) for (const param of params ?? []) if (param.schema) expect(() => compileSchema(param.schema, MODES.params)).not.toThrow();
      }
      let compared = 0;
      const full = fullBundle(api.name);
      const resolve = dereferencer(full);
      for (const item of Object.values(full.paths as Json)) {
        const operations = Object.values(resolve(item) as Json).filter((o): o is Json => !!o && typeof o === 'object' && !Array.isArray(o));
        for (const operation of operations) {
          const media = Object.values(((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>);
          for (const { schema, ...rest } of media) {
            if (!schema) continue;
            const examples = examplesIn(rest).flatMap((e) => e.values);
            expectSameAnswers(withoutReadOnly(schema as Json), [...examples, {}, null, 'text'], MODES.body);
            compared += examples.length;
          }
          for (const param of (operation.parameters ?? []) as Json[]) {
            if (!param.schema) continue;
            const name = String(param.name).toLowerCase();
            const schema = { type: 'object', properties: { [name]: param.schema }, required: param.required ? [name] : [] };
            const examples = examplesIn({ ...param, schema: undefined }).flatMap((e) => e.values);
            expectSameAnswers(schema, [{}, ...[...examples, 'text', '1', 'true', ''].map((value) => ({ [name]: value }))], MODES.params);
            compared += examples.length;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    });

    it(`compiles every component of ${api.name} and gives ajv's answers on every example in the description`, () => {
      for (const [, schema] of components(api.doc)) {
        for (const options of Object.values(MODES)) expect(() => compileSchema(schema, options)).not.toThrow();
      }
      const full = fullBundle(api.name);
      const resolved = dereferencer(full)({ paths: full.paths, components: { schemas: Object.fromEntries(components(full)) } });
      const examples = examplesIn(resolved);
      expect(examples.length).toBeGreaterThan(0);
      for (const { schema, values } of examples) for (const options of Object.values(MODES)) expectSameAnswers(schema, values, options);
    });
  }

  it("gives ajv's answers on the seeded docs of every collection, as stored docs are checked", () => {
    const snapshot = seedSnapshot();
    const collections = collectionTable(RESOURCE_MODULES, seedCollectionNames(), [...sandbox.apis]);
    let checked = 0;
    for (const [name, docs] of Object.entries(snapshot.collections)) {
      const spec = collections.get(name);
      if (!spec?.schema) continue;
      const api = sandbox.apis.find((a) => a.name === spec.schema!.api)!;
      const schema = lenient(dereferencer(api.doc)({ $ref: `#/components/schemas/${spec.schema.component}` }));
      expectSameAnswers(schema, docs, MODES.docs);
      checked += docs.length;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
