// ajv 8 (Ajv2020 with ajv-formats), configured as the sandbox used it, as the oracle the
// sandbox's own validator (src/schema/) is compared with: same validity, same problems, same
// coerced data. Also the tests' own check of answers against the descriptions.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { compileSchema } from '../src/schema/compile.js';
import type { ValidatorOptions } from '../src/schema/run.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The option sets the sandbox validates with: request parameters, request bodies, stored docs. */
export const MODES: Record<'params' | 'body' | 'docs', ValidatorOptions> = {
  params: { allErrors: true, coerceTypes: true },
  body: { allErrors: true, coerceTypes: false },
  docs: { allErrors: false, coerceTypes: false },
};

/** An ajv instance with the options the sandbox used for the mode. */
export function oracle(options: ValidatorOptions): Ajv2020 {
  const ajv = options.allErrors
    ? new Ajv2020({ allErrors: true, allowUnionTypes: true, allowMatchingProperties: true, strict: false, validateSchema: false, meta: false, coerceTypes: options.coerceTypes, logger: false })
    : new Ajv2020({ strict: false, allErrors: false, validateFormats: true, validateSchema: false, meta: false, coerceTypes: options.coerceTypes, logger: false });
  return addFormats(ajv);
}

type Outcome = { threw: string } | { valid: boolean; errors: unknown; data: unknown };

function outcome(validate: ((data: unknown) => boolean) & { errors?: unknown }, data: unknown): Outcome {
  const copy = structuredClone(data);
  try {
    const valid = validate(copy);
    return { valid, errors: validate.errors ?? null, data: copy };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

const oracles = new Map<ValidatorOptions, Ajv2020>();

/** Compiles the schema with both and checks every value gets the same answer; the number of values compared. */
export function expectSameAnswers(schema: unknown, values: unknown[], options: ValidatorOptions): void {
  let ajv = oracles.get(options);
  if (!ajv) oracles.set(options, (ajv = oracle(options)));
  let theirs: ReturnType<Ajv2020['compile']> | undefined;
  let theirCompileError: unknown;
  try {
    theirs = ajv.compile(structuredClone(schema) as object);
  } catch (error) {
    theirCompileError = error;
  }
  if (theirCompileError !== undefined) {
    expect(() => compileSchema(schema, options), `ajv refuses ${JSON.stringify(schema)}`).toThrow();
    return;
  }
  const ours = compileSchema(schema, options);
  for (const value of values) {
    const expected = outcome(theirs!, value);
    const actual = outcome(ours, value);
    const what = `${JSON.stringify(schema)} on ${JSON.stringify(value)} (${JSON.stringify(options)})`;
    // Where ajv's generated code throws (a few corners of propertyNames and unevaluatedProperties),
    // the validator still answers: a request is refused or let through, never a crash.
    if ('threw' in expected) expect(actual, what).not.toHaveProperty('threw');
    else expect(actual, what).toEqual(expected);
  }
}

/** An ajv for checking answers against a whole description by `$ref` (the tests' own oracle). */
export function createAjv(): Ajv2020 {
  return oracle(MODES.docs);
}
