// The sandbox's validator: it runs where code generation is forbidden (a Content-Security-Policy
// without `unsafe-eval`), refuses what it cannot check, and says each keyword's problem in ajv's
// words with ajv's params (cases the generated schemas of schema-differential.test.ts rarely reach).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSchema } from '../src/schema/compile.js';
import { expectSameAnswers, MODES } from './schema-oracle.js';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The problems of a value, every one reported, as request bodies are checked. */
function problemsOf(schema: unknown, data: unknown) {
  const validate = compileSchema(schema, MODES.body);
  validate(data);
  return validate.errors;
}

describe('the validator without code generation', () => {
  const { Function: originalFunction, eval: originalEval } = globalThis;
  afterEach(() => {
    globalThis.Function = originalFunction;
    globalThis.eval = originalEval;
  });

  it('compiles and validates with Function and eval unavailable, as under a strict Content-Security-Policy', () => {
    const refused = () => {
      throw new EvalError('Refused to evaluate a string as JavaScript: unsafe-eval is not allowed');
    };
    globalThis.Function = refused as unknown as FunctionConstructor;
    globalThis.eval = refused;
    const schema = {
      type: 'object',
      required: ['id', 'hours'],
      properties: { id: { type: 'string', format: 'uuid' }, hours: { type: 'number', minimum: 0, multipleOf: 0.5 }, tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, uniqueItems: true } },
      anyOf: [{ required: ['tags'] }, { properties: { hours: { maximum: 40 } } }],
      unevaluatedProperties: false,
    };
    for (const options of Object.values(MODES)) {
      const validate = compileSchema(schema, options);
      expect(validate({ id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', hours: 8, tags: ['a'] })).toBe(true);
      expect(validate({ id: 'x', hours: '8', tags: ['a', 'a'], extra: 1 })).toBe(false);
    }
    const params = compileSchema({ type: 'object', properties: { pageSize: { type: 'integer', minimum: 1 } } }, MODES.params);
    const query = { pageSize: '25' };
    expect(params(query)).toBe(true);
    expect(query.pageSize).toBe(25);
  });

  it('holds no code generation in its sources', () => {
    for (const file of fs.readdirSync(path.join(packageDir, 'src/schema'))) {
      const text = fs.readFileSync(path.join(packageDir, 'src/schema', file), 'utf8');
      expect(text, file).not.toMatch(/new Function|\beval\(|Function\(/);
    }
  });

  it.skipIf(!fs.existsSync(path.join(packageDir, 'dist')))('leaves no code generation and no ajv in the built package', () => {
    for (const file of fs.readdirSync(path.join(packageDir, 'dist')).filter((name) => /\.c?js$/.test(name))) {
      const text = fs.readFileSync(path.join(packageDir, 'dist', file), 'utf8');
      expect(text, file).not.toContain('new Function(');
      expect(text, file).not.toContain('ajv');
    }
  });
});

describe('what the validator refuses to compile', () => {
  it('refuses references, which the sandbox resolves before compiling', () => {
    expect(() => compileSchema({ properties: { a: { $ref: '#/components/schemas/A' } } }, MODES.body)).toThrow(/\$ref at #\/properties\/a is not supported: dereference the schema first/);
    expect(() => compileSchema({ $dynamicRef: '#node' }, MODES.body)).toThrow(/\$dynamicRef/);
  });

  it('refuses what ajv refuses: an empty enum, an unknown type', () => {
    expect(() => compileSchema({ enum: [] }, MODES.body)).toThrow('enum must have non-empty array');
    expect(() => compileSchema({ type: 'text' }, MODES.body)).toThrow(/type must be JSONType/);
  });
});

describe("each keyword's message and params", () => {
  it('uniqueItems names the duplicate pair, scalar items by value and others by deep equality', () => {
    expect(problemsOf({ uniqueItems: true }, [{ a: 1 }, 2, { a: 1 }])).toEqual([
      { instancePath: '', schemaPath: '#/uniqueItems', keyword: 'uniqueItems', params: { i: 2, j: 0 }, message: 'must NOT have duplicate items (items ## 0 and 2 are identical)' },
    ]);
    expect(problemsOf({ items: { type: 'string' }, uniqueItems: true }, ['a', 'b', 'a'])).toEqual([
      { instancePath: '', schemaPath: '#/uniqueItems', keyword: 'uniqueItems', params: { i: 0, j: 2 }, message: 'must NOT have duplicate items (items ## 2 and 0 are identical)' },
    ]);
  });

  it('dependentRequired names the property and what it needs, once per missing one', () => {
    expect(problemsOf({ dependentRequired: { iban: ['bic', 'holder'] } }, { iban: 'NL01' })).toEqual([
      { instancePath: '', schemaPath: '#/dependentRequired', keyword: 'dependentRequired', params: { property: 'iban', missingProperty: 'bic', depsCount: 2, deps: 'bic, holder' }, message: 'must have properties bic, holder when property iban is present' },
      { instancePath: '', schemaPath: '#/dependentRequired', keyword: 'dependentRequired', params: { property: 'iban', missingProperty: 'holder', depsCount: 2, deps: 'bic, holder' }, message: 'must have properties bic, holder when property iban is present' },
    ]);
  });

  it('oneOf says which branches passed when more than one did, and null when none did', () => {
    const schema = { oneOf: [{ type: 'number' }, { type: 'integer' }, { minimum: 0 }] };
    expect(problemsOf(schema, 3)).toEqual([{ instancePath: '', schemaPath: '#/oneOf', keyword: 'oneOf', params: { passingSchemas: [0, 1] }, message: 'must match exactly one schema in oneOf' }]);
    expect(problemsOf({ oneOf: [{ type: 'string' }, { type: 'boolean' }] }, 1)?.at(-1)).toEqual({ instancePath: '', schemaPath: '#/oneOf', keyword: 'oneOf', params: { passingSchemas: null }, message: 'must match exactly one schema in oneOf' });
  });

  it('contains states its bounds, if/then/else the clause that failed, propertyNames the name', () => {
    expect(problemsOf({ contains: { const: 1 }, minContains: 2, maxContains: 3 }, [1])?.at(-1)).toEqual({ instancePath: '', schemaPath: '#/contains', keyword: 'contains', params: { minContains: 2, maxContains: 3 }, message: 'must contain at least 2 and no more than 3 valid item(s)' });
    expect(problemsOf({ if: { type: 'string' }, then: { minLength: 2 }, else: { minimum: 5 } }, 1)?.at(-1)).toEqual({ instancePath: '', schemaPath: '#/if', keyword: 'if', params: { failingKeyword: 'else' }, message: 'must match "else" schema' });
    expect(problemsOf({ propertyNames: { maxLength: 2 } }, { abc: 1 })).toEqual([
      { instancePath: '', schemaPath: '#/propertyNames/maxLength', keyword: 'maxLength', params: { limit: 2 }, message: 'must NOT have more than 2 characters', propertyName: 'abc' },
      { instancePath: '', schemaPath: '#/propertyNames', keyword: 'propertyNames', params: { propertyName: 'abc' }, message: 'property name must be valid' },
    ]);
  });

  it('unevaluated properties and items, additional properties and false schemas', () => {
    expect(problemsOf({ allOf: [{ properties: { a: true } }], unevaluatedProperties: false }, { a: 1, b: 2 })).toEqual([
      { instancePath: '', schemaPath: '#/unevaluatedProperties', keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'b' }, message: 'must NOT have unevaluated properties' },
    ]);
    expect(problemsOf({ prefixItems: [true], unevaluatedItems: false }, [1, 2])).toEqual([{ instancePath: '', schemaPath: '#/unevaluatedItems', keyword: 'unevaluatedItems', params: { limit: 1 }, message: 'must NOT have more than 1 items' }]);
    expect(problemsOf({ properties: { a: true }, additionalProperties: false }, { a: 1, 'x/y': 2 })).toEqual([
      { instancePath: '', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', params: { additionalProperty: 'x/y' }, message: 'must NOT have additional properties' },
    ]);
    expect(problemsOf({ properties: { 'x/y': false } }, { 'x/y': 1 })).toEqual([{ instancePath: '/x~1y', schemaPath: '#/properties/x~1y/false schema', keyword: 'false schema', params: {}, message: 'boolean schema is false' }]);
  });

  it('counts string lengths in code points and checks patterns as Unicode', () => {
    expect(problemsOf({ maxLength: 2, pattern: '^.{2}$' }, '😀😀')).toBeNull();
    expect(problemsOf({ minLength: 3 }, '😀😀')).toEqual([{ instancePath: '', schemaPath: '#/minLength', keyword: 'minLength', params: { limit: 3 }, message: 'must NOT have fewer than 3 characters' }]);
  });

  it('gives the first problem only when not every problem is asked for, even past a failed combinator', () => {
    const schema = { required: ['a', 'b'], properties: { c: { anyOf: [{ type: 'string' }, { type: 'number' }] } } };
    for (const value of [{}, { a: 1, b: 2, c: true }, { a: 1 }]) expectSameAnswers(schema, [value], MODES.docs);
  });

  it('checks every format ajv-formats checks, as it does', () => {
    const samples = ['2024-02-29', '2023-02-29', '23:59:60Z', '12:00:00', '2024-01-01T00:00:00+01:00', '2024-01-01t00:00:00z', 'P1Y2M', 'PT', 'https://example.nl/a?b#c', '/relative', 'mailto:a@b.nl', 'x@y', 'a.b-c.nl', '-bad-.nl', '192.168.0.256', '10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '[a-', '^\\d+$', 'QUJD', 'QUJ', '3FA85F64-5717-4562-B3FC-2C963F66AFA6', 'urn:uuid:3fa85f64-5717-4562-b3fc-2c963f66afa6', '/a~1b', '0#', '{+var}', 'http://localhost'];
    const formats = ['date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float', 'double', 'password', 'binary'];
    for (const format of formats) expectSameAnswers({ format }, [...samples, 2147483648, -2147483648, 1.5, 7], MODES.body);
  });
});

describe('where ajv throws, the validator answers', () => {
  it('checks a property name as coerced, and leaves the object as it was', () => {
    const validate = compileSchema({ type: 'object', propertyNames: { type: 'number' } }, MODES.params);
    const fitting = { '5': 1, '1.5': 2 };
    expect(validate(fitting)).toBe(true);
    expect(fitting).toEqual({ '5': 1, '1.5': 2 });
    const data = { '5': 1, a: 2 };
    expect(validate(data)).toBe(false);
    expect(validate.errors?.map((e) => [e.keyword, e.params])).toEqual([
      ['type', { type: 'number' }],
      ['propertyNames', { propertyName: 'a' }],
    ]);
    expect(data).toEqual({ '5': 1, a: 2 });
  });

  it('reckons properties evaluated by a combinator that has nothing evaluated of its own yet', () => {
    const schema = { patternProperties: { '^b': true }, oneOf: [{ unevaluatedProperties: false }], unevaluatedProperties: false };
    for (const options of Object.values(MODES)) {
      const validate = compileSchema(schema, options);
      expect(validate({ a: 'x', b: 2 }), JSON.stringify(options)).toBe(false);
      expect(validate({}), JSON.stringify(options)).toBe(true);
      expect(validate({ b: 2 }), JSON.stringify(options)).toBe(false);
    }
    expect(problemsOf(schema, { a: 'x', b: 2 })?.map((e) => [e.instancePath, e.keyword, e.params])).toEqual([
      ['', 'unevaluatedProperties', { unevaluatedProperty: 'a' }],
      ['', 'unevaluatedProperties', { unevaluatedProperty: 'b' }],
      ['', 'oneOf', { passingSchemas: null }],
      ['', 'unevaluatedProperties', { unevaluatedProperty: 'a' }],
    ]);
  });
});
