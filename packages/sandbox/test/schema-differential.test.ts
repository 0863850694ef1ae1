// The sandbox's validator against ajv on generated schemas and values: every keyword it
// supports, nested, with type unions, formats, and values that fit or nearly fit (strings that
// read as numbers, booleans or dates, for coercion). Same validity, the same problems in the same
// order, the same data after coercion, in each of the sandbox's three modes.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expectSameAnswers, MODES } from './schema-oracle.js';

const NAMES = ['a', 'b', 'c', 'd'];
const KEYS = [...NAMES, 'ab', 'ba', 'cd', '5', 'x/y', 'e~f', 'true'];
const PATTERNS = ['^a', 'b$', '^[cd]', '\\d', '^.$'];
const FORMATS = ['date', 'time', 'date-time', 'uuid', 'email', 'uri', 'int32', 'int64', 'float', 'byte', 'binary', 'password', 'regex', 'hostname', 'ipv4', 'ipv6', 'duration', 'iso-time', 'uri-reference', 'url', 'unknown-format'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];
const STRINGS = ['', ' ', 'a', 'ab', 'ba', 'abc', 'd', '1', '5', '1.5', '-2', '1e3', '0x10', 'Infinity', 'true', 'false', 'null', '0', '2024-02-29', '2023-02-29', '12:30:00Z', '23:59:60Z', '2024-01-01T10:00:00Z', '2024-01-01 10:00:00+01:00', '3fa85f64-5717-4562-b3fc-2c963f66afa6', 'x@y.nl', 'http://a.b/c', 'a b', '127.0.0.1', '::1', 'P1D', 'QUJD', '[', '😀😀', 'é'];
const NUMBERS = [0, 1, -1, 1.5, 2, 3, 4, 10, -0.5, 2147483648, 0.1];

const scalar = fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...NUMBERS), fc.boolean(), fc.constant(null));
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 3 }, scalar, scalar, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4, noNullPrototype: true })),
}));

const smallNumber = fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constantFrom(1.5, 0.5));
const count = fc.integer({ min: 0, max: 3 });
const names = fc.subarray(NAMES, { minLength: 1 });

function schemaOf(depth: number): fc.Arbitrary<unknown> {
  const sub: fc.Arbitrary<unknown> = depth === 0 ? fc.oneof(fc.boolean(), fc.record({ type: fc.constantFrom(...TYPES) }), fc.constant({})) : schemaOf(depth - 1);
  const subs = fc.array(sub, { minLength: 1, maxLength: 3 });
  const entry = fc.oneof(
    fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom(...TYPES), fc.subarray(TYPES, { minLength: 1, maxLength: 3 }))),
    fc.tuple(fc.constant('enum'), fc.array(value, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('const'), value),
    fc.tuple(fc.constant('format'), fc.constantFrom(...FORMATS)),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), smallNumber),
    fc.tuple(fc.constant('multipleOf'), fc.constantFrom(1, 2, 0.5, 3)),
    fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'), count),
    fc.tuple(fc.constant('pattern'), fc.constantFrom(...PATTERNS)),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constant('required'), names),
    fc.tuple(fc.constant('properties'), fc.dictionary(fc.constantFrom(...NAMES), sub, { minKeys: 1, maxKeys: 3, noNullPrototype: true })),
    fc.tuple(fc.constant('patternProperties'), fc.dictionary(fc.constantFrom(...PATTERNS), sub, { minKeys: 1, maxKeys: 2, noNullPrototype: true })),
    fc.tuple(fc.constantFrom('additionalProperties', 'propertyNames', 'items', 'contains', 'unevaluatedItems', 'unevaluatedProperties', 'not', 'if', 'then', 'else'), sub),
    fc.tuple(fc.constantFrom('allOf', 'anyOf', 'oneOf', 'prefixItems'), subs),
    fc.tuple(fc.constant('dependentRequired'), fc.dictionary(fc.constantFrom(...NAMES), fc.subarray(NAMES), { minKeys: 1, maxKeys: 2, noNullPrototype: true })),
    fc.tuple(fc.constant('dependentSchemas'), fc.dictionary(fc.constantFrom(...NAMES), sub, { minKeys: 1, maxKeys: 2, noNullPrototype: true })),
    fc.tuple(fc.constant('dependencies'), fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(fc.subarray(NAMES), sub), { minKeys: 1, maxKeys: 2, noNullPrototype: true })),
    fc.tuple(fc.constantFrom('description', 'readOnly', 'default', 'examples', 'x-rule', '$comment'), fc.constantFrom('text', true, 1)),
  );
  return fc.oneof({ weight: 1, arbitrary: fc.boolean() }, { weight: 12, arbitrary: fc.array(entry, { minLength: 1, maxLength: depth === 0 ? 3 : 4 }).map((entries) => Object.fromEntries(entries)) });
}

const cases = fc.record({ schema: schemaOf(2), values: fc.array(value, { minLength: 6, maxLength: 12 }) });

describe('the validator against ajv on generated schemas', () => {
  for (const [mode, options] of Object.entries(MODES)) {
    it(`gives ajv's answers (${mode}: allErrors ${options.allErrors}, coerceTypes ${options.coerceTypes})`, () => {
      fc.assert(
        fc.property(cases, ({ schema, values }) => expectSameAnswers(schema, values, options)),
        { numRuns: 1500 },
      );
    });
  }
});
