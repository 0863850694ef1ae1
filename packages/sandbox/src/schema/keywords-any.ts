// Keywords for a value of any type: const, enum and the combinators not, anyOf, oneOf, allOf
// and if/then/else. Combinator branches see the same value (and may coerce it in place).
import { alwaysValid, keywordPath, keywordValue, mergeEvaluated, mergeIfValid, type KeywordCompiler } from './context.js';
import type { Action } from './evaluated.js';
import { messages } from './messages.js';
import { report, resetErrors, runSame, type Check } from './run.js';
import { equal } from './values.js';

const isStructured = (value: unknown) => !!value && typeof value === 'object';

const constKeyword: KeywordCompiler = (cx) => {
  const expected = cx.schema.const;
  const deep = isStructured(expected);
  const path = keywordPath(cx, 'const');
  return (data, _parent, _key, run) => {
    if (deep ? equal(data, expected) : expected === data) return true;
    report(cx, run, 'const', path, { allowedValue: expected }, messages.const());
    return false;
  };
};

const enumKeyword: KeywordCompiler = (cx) => {
  const allowed = keywordValue(cx, 'enum', 'array') as unknown[];
  if (allowed.length === 0) throw new Error('enum must have non-empty array');
  const path = keywordPath(cx, 'enum');
  const scalars = new Set(allowed.filter((value) => !isStructured(value)));
  const structured = allowed.filter(isStructured);
  return (data, _parent, _key, run) => {
    // NaN equals no enum value (=== as ajv compares scalars; a Set alone would match it).
    if (data === data && scalars.has(data)) return true;
    if (isStructured(data) && structured.some((value) => equal(data, value))) return true;
    report(cx, run, 'enum', path, { allowedValues: allowed }, messages.enum());
    return false;
  };
};

const not: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'not', 'object', 'boolean');
  const path = keywordPath(cx, 'not');
  if (alwaysValid(schema))
    return (_data, _parent, _key, run) => {
      report(cx, run, 'not', path, {}, messages.not());
      return false;
    };
  const { check } = cx.scope.child(schema, cx, { keyword: 'not', composite: true, createErrors: false, allErrors: false });
  return (_data, parent, key, run) => {
    const before = run.errors.length;
    if (runSame(check, parent, key, run)) {
      report(cx, run, 'not', path, {}, messages.not());
      return false;
    }
    resetErrors(run, before);
    return true;
  };
};

interface Branch {
  check: Check | undefined;
  merge: Action;
  /** The branches after it are skipped once one passed (only when nothing is left to evaluate). */
  last: boolean;
}

const anyOf: KeywordCompiler = (cx) => {
  const path = keywordPath(cx, 'anyOf');
  const branches: Branch[] = (keywordValue(cx, 'anyOf', 'array') as unknown[]).map((schema, at) => {
    const child = cx.scope.child(schema, cx, { keyword: 'anyOf', at, composite: true });
    const merge = mergeIfValid(cx, child);
    return { check: child.check, merge: merge?.action, last: merge === undefined };
  });
  return (_data, parent, key, run) => {
    const before = run.errors.length;
    let valid = false;
    for (const branch of branches) {
      const passed = runSame(branch.check!, parent, key, run);
      valid ||= passed;
      if (passed) branch.merge?.(run);
      if (valid && branch.last) break;
    }
    if (valid) {
      resetErrors(run, before);
      return true;
    }
    report(cx, run, 'anyOf', path, {}, messages.anyOf(), true);
    return false;
  };
};

const oneOf: KeywordCompiler = (cx) => {
  const path = keywordPath(cx, 'oneOf');
  const branches: Branch[] = (keywordValue(cx, 'oneOf', 'array') as unknown[]).map((schema, at) => {
    if (alwaysValid(schema)) return { check: undefined, merge: undefined, last: false };
    const child = cx.scope.child(schema, cx, { keyword: 'oneOf', at, composite: true });
    return { check: child.check, merge: mergeEvaluated(cx, child, true), last: false };
  });
  return (_data, parent, key, run) => {
    const before = run.errors.length;
    let valid = false;
    let passing: number | [unknown, number] | null = null;
    for (let at = 0; at < branches.length; at++) {
      const branch = branches[at]!;
      const passed = branch.check ? runSame(branch.check, parent, key, run) : true;
      if (passed && valid) {
        valid = false;
        passing = [passing, at];
        break;
      }
      if (passed) {
        valid = true;
        passing = at;
        branch.merge?.(run);
      }
    }
    if (valid) {
      resetErrors(run, before);
      return true;
    }
    report(cx, run, 'oneOf', path, { passingSchemas: passing }, messages.oneOf(), true);
    return false;
  };
};

const allOf: KeywordCompiler = (cx) => {
  const parts = (keywordValue(cx, 'allOf', 'array') as unknown[]).flatMap((schema, at) => {
    if (alwaysValid(schema)) return [];
    const child = cx.scope.child(schema, cx, { keyword: 'allOf', at });
    return [{ check: child.check, merge: mergeEvaluated(cx, child, false) }];
  });
  return (_data, parent, key, run) => {
    for (const part of parts) {
      if (!runSame(part.check, parent, key, run) && !cx.allErrors) return false;
      part.merge?.(run);
    }
    return true;
  };
};

/** if/then/else: `then` applies when the value fits `if`, `else` when not; `if`'s own problems are never reported. */
const ifKeyword: KeywordCompiler = (cx) => {
  const { schema } = cx;
  const applies = (keyword: 'then' | 'else') => schema[keyword] !== undefined && !alwaysValid(schema[keyword]);
  const hasThen = applies('then');
  const hasElse = applies('else');
  if (!hasThen && !hasElse) return undefined;
  const path = keywordPath(cx, 'if');
  const condition = cx.scope.child(keywordValue(cx, 'if', 'object', 'boolean'), cx, { keyword: 'if', composite: true, createErrors: false, allErrors: false });
  const conditionMerge = mergeEvaluated(cx, condition, false);
  const clause = (keyword: 'then' | 'else') => {
    const child = cx.scope.child(schema[keyword], cx, { keyword });
    return { keyword, check: child.check, merge: mergeIfValid(cx, child)?.action };
  };
  const whenTrue = hasThen ? clause('then') : undefined;
  const whenFalse = hasElse ? clause('else') : undefined;
  return (_data, parent, key, run) => {
    const before = run.errors.length;
    const fits = runSame(condition.check, parent, key, run);
    conditionMerge?.(run);
    resetErrors(run, before);
    const applied = fits ? whenTrue : whenFalse;
    if (!applied) return true;
    if (runSame(applied.check, parent, key, run)) {
      applied.merge?.(run);
      return true;
    }
    report(cx, run, 'if', path, { failingKeyword: applied.keyword }, messages.if(applied.keyword), true);
    return false;
  };
};

export const anyKeywords: Record<string, KeywordCompiler> = { const: constKeyword, enum: enumKeyword, not, anyOf, oneOf, allOf, if: ifKeyword };
