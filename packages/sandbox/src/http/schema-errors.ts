// What the validator reports, turned into the problems an integrator can act on. It reports (allErrors)
// each branch of a failed anyOf/oneOf and then the combinator itself ("must match a schema in
// anyOf"), so that a body one field short of a conditional rule got three messages, two of
// them about branches it never meant to take. Here each failed combinator keeps only the branch
// that fits the value best, and its errors carry that branch's rule (its `x-rule`, in the
// contract's words); a value that fits no branch by type gets one message naming the types.
// Formats and types are said in words (`yyyy-MM-dd`, "a string or null").
import type { SchemaError } from '../schema/compile.js';

type Json = Record<string, unknown>;

/** The extension by which a combinator branch states its rule (kept when the bundles are trimmed). */
export const RULE_EXTENSION = 'x-rule';

/** A validation problem with the rule of the combinator branch it came from, when that branch states one. */
export interface SchemaProblem {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
  rule?: string;
}

/** At most this many problems are reported for one request (a large array of bad items would otherwise answer thousands). */
export const MAX_PROBLEMS = 50;

/** How each format the descriptions use is written. */
const FORMAT_WORDS: Record<string, string> = {
  date: 'a date written yyyy-MM-dd (e.g. 2026-12-31)',
  'date-time': 'a date and time written yyyy-MM-ddTHH:mm:ss with a time zone (e.g. 2026-12-31T09:30:00Z or 2026-12-31T09:30:00+01:00)',
  time: 'a time written HH:mm:ss with a time zone (e.g. 09:30:00Z)',
  uuid: 'a uuid written as 32 hexadecimal digits in groups of 8-4-4-4-12 (e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6)',
  email: 'an e-mail address (name@domain.tld)',
  int32: 'a whole number from -2147483648 to 2147483647',
  int64: 'a whole number from -9223372036854775808 to 9223372036854775807',
};

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typesOf(params: Record<string, unknown>): string[] {
  const type = params.type;
  if (Array.isArray(type)) return type.map(String);
  return typeof type === 'string' ? type.split(',') : [];
}

/** "a string or null", "an object, an array or null". */
export function typeWords(types: string[]): string {
  const words = [...new Set(types)].map((t) => TYPE_WORDS[t] ?? t);
  return words.length <= 1 ? (words[0] ?? 'another type') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** The message of one error in words (the validator's own for the keywords it already says well). */
function wordsOf(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'format') {
    const format = String(params.format);
    return `must be ${FORMAT_WORDS[format] ?? `written in the format ${format}`}`;
  }
  if (error.keyword === 'type') return `must be ${typeWords(typesOf(params))}`;
  return error.message ?? '';
}

/** The schema node at a schemaPath (`#/properties/a/anyOf/0`). */
function nodeAt(root: unknown, schemaPath: string): unknown {
  return schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), root);
}

interface Entry {
  error: SchemaError;
  /** Where the validator reported it (what replaces a combinator takes the combinator's place). */
  position: number;
  rule?: string;
}

/**
 * How badly a branch's errors say the value is not of that branch: its type differs at the top;
 * values sent that it refuses; errors in all; and, between equals, the branch whose errors lie
 * deeper (inside what the client did send) fits better.
 */
function misfit(errors: Entry[], instancePath: string, branchPath: string): number[] {
  const typeAtTop = errors.some((e) => e.error.instancePath === instancePath && e.error.schemaPath === `${branchPath}/type`) ? 1 : 0;
  const refusedValues = errors.filter((e) => e.error.keyword !== 'required' && e.error.keyword !== 'dependentRequired').length;
  const depth = errors.reduce((sum, e) => sum + e.error.instancePath.split('/').length, 0);
  return [typeAtTop, refusedValues, errors.length, -depth];
}

const lessThan = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/**
 * The problems of one validation: each failed anyOf/oneOf reduced to its best-fitting branch
 * (innermost first, so that nested combinators are reduced before the ones around them), never
 * the combinator's own message; `if` errors dropped (their `then` errors say it); bounded.
 */
export function schemaProblems(errors: SchemaError[], schema: unknown): SchemaProblem[] {
  let entries: Entry[] = errors.map((error, position) => ({ error, position }));
  const combinators = entries.filter((e) => e.error.keyword === 'anyOf' || e.error.keyword === 'oneOf').sort((a, b) => b.error.schemaPath.length - a.error.schemaPath.length);
  for (const combinator of combinators) {
    const { schemaPath, instancePath } = combinator.error;
    const prefix = `${schemaPath}/`;
    const branchOf = (e: Entry) => (e.error.schemaPath.startsWith(prefix) ? Number(e.error.schemaPath.slice(prefix.length).split('/')[0]) : -1);
    const branches = nodeAt(schema, schemaPath);
    const count = Array.isArray(branches) ? branches.length : 0;
    const groups = Array.from({ length: count }, (_, i) => entries.filter((e) => branchOf(e) === i));
    const outside = entries.filter((e) => e !== combinator && branchOf(e) < 0);
    const passing = (combinator.error.params as { passingSchemas?: number[] | null }).passingSchemas;
    const { position } = combinator;
    let kept: Entry[];
    if (combinator.error.keyword === 'oneOf' && Array.isArray(passing)) {
      // More than one branch fits: the value is ambiguous, which the branches' own rules say best.
      const rules = passing.map((i) => ((branches as Json[])[i]?.[RULE_EXTENSION] as string | undefined) ?? `form ${i + 1}`);
      kept = [{ error: { ...combinator.error, keyword: 'ambiguous', message: `fits more than one of its allowed forms (${rules.join('; ')}); send a value that fits exactly one` }, position }];
    } else if (count > 0 && groups.every((g, i) => g.some((e) => e.error.instancePath === instancePath && e.error.schemaPath === `${prefix}${i}/type`))) {
      // The value's type fits no branch: one message with every type the branches take.
      const types = groups.flatMap((g, i) => g.filter((e) => e.error.schemaPath === `${prefix}${i}/type`).flatMap((e) => typesOf(e.error.params as Json)));
      kept = [{ error: { ...combinator.error, keyword: 'type', params: { type: [...new Set(types)] }, message: '' }, position }];
    } else if (count > 0) {
      // A value whose type the schema around the combinator refuses as well is wrong whichever
      // branch is meant: it tells no branch from another, and is reported once, by that schema.
      const refusedOutside = new Set(outside.filter((e) => e.error.keyword === 'type').map((e) => e.error.instancePath));
      const own = groups.map((g) => g.filter((e) => !refusedOutside.has(e.error.instancePath)));
      let best = 0;
      for (let i = 1; i < count; i++) if (lessThan(misfit(own[i]!, instancePath, `${prefix}${i}`), misfit(own[best]!, instancePath, `${prefix}${best}`))) best = i;
      const rule = (branches as Json[])[best]?.[RULE_EXTENSION];
      kept = own[best]!.map((e) => (typeof rule === 'string' && e.rule === undefined ? { ...e, rule } : e));
    } else {
      kept = [];
    }
    entries = [...outside, ...kept].sort((a, b) => a.position - b.position);
  }
  const problems = entries
    .filter((e) => e.error.keyword !== 'if')
    .map((e) => {
      const problem: SchemaProblem = { instancePath: e.error.instancePath, keyword: e.error.keyword, params: e.error.params as Json, message: wordsOf(e.error) };
      if (e.rule) problem.rule = e.rule;
      return problem;
    });
  // One message per field and problem: a type error repeated by two allOf parts is one problem.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.instancePath}\n${p.keyword}\n${p.message}\n${JSON.stringify(p.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
