// Keywords for arrays: item counts, prefixItems and items, contains with minContains and
// maxContains, uniqueItems and unevaluatedItems.
import { alwaysValid, keywordPath, keywordValue, type KeywordCompiler } from './context.js';
import { mergeItems, Slot, type Action } from './evaluated.js';
import { failWhen } from './keywords-scalar.js';
import { messages } from './messages.js';
import { report, resetErrors, runChild, type Run } from './run.js';
import { schemaTypes, typeTest } from './types.js';
import { equal } from './values.js';

const limitItems =
  (keyword: 'maxItems' | 'minItems'): KeywordCompiler =>
  (cx) => {
    const limit = keywordValue(cx, keyword, 'number') as number;
    const fails = keyword === 'maxItems' ? (data: unknown[]) => data.length > limit : (data: unknown[]) => data.length < limit;
    return failWhen(cx, keyword, fails, { limit }, messages.itemCount(keyword, limit));
  };

const prefixItems: KeywordCompiler = (cx) => {
  const schemas = keywordValue(cx, 'prefixItems', 'array') as unknown[];
  let merge: Action;
  if (schemas.length > 0 && cx.items !== true) {
    const merged = mergeItems(cx.scope, schemas.length, cx.items, false);
    cx.items = merged.value;
    merge = merged.action;
  }
  // One validity flag for all positions, kept between runs as ajv's is: past the array's end
  // the previous position's outcome decides whether the keywords after it run.
  const valid = cx.scope.slot().index;
  const positions = schemas.flatMap((schema, at) => (alwaysValid(schema) ? [] : [{ at, check: cx.scope.child(schema, cx, { keyword: 'prefixItems', at }).check }]));
  return (data, _parent, _key, run) => {
    merge?.(run);
    for (const { at, check } of positions) {
      if (data.length > at) run.slots[valid] = runChild(check, data, at, run);
      if (!cx.allErrors && !run.slots[valid]) return false;
    }
    return true;
  };
};

const items: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'items', 'object', 'boolean');
  cx.items = true;
  if (alwaysValid(schema)) return undefined;
  const prefix = cx.schema.prefixItems;
  const from = prefix ? (prefix as unknown[]).length : 0;
  if (prefix && schema === false) return failWhen(cx, 'items', (data: unknown[]) => !(data.length <= from), { limit: from }, messages.tooManyItems(from));
  const { check } = cx.scope.child(schema, cx, { keyword: 'items' });
  return (data, _parent, _key, run) => {
    let valid = true;
    for (let at = from; at < data.length; at++) {
      valid = runChild(check, data, at, run);
      if (!valid && !cx.allErrors) break;
    }
    return valid;
  };
};

const contains: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'contains', 'object', 'boolean');
  const { minContains, maxContains } = cx.schema;
  const min: number = minContains === undefined ? 1 : minContains;
  const max: number | undefined = maxContains;
  const params = () => (max === undefined ? { minContains: min } : { minContains: min, maxContains: max });
  const path = keywordPath(cx, 'contains');
  const fail = (run: Run) => report(cx, run, 'contains', path, params(), messages.contains(min, max));
  if (max === undefined && min === 0) return undefined;
  if (max !== undefined && min > max)
    return (_data, _parent, _key, run) => {
      fail(run);
      return false;
    };
  if (alwaysValid(schema))
    return (data, _parent, _key, run) => {
      if (data.length >= min && (max === undefined || data.length <= max)) return true;
      fail(run);
      return false;
    };
  cx.items = true;
  const { check } = cx.scope.child(schema, cx, { keyword: 'contains', composite: true });
  // ajv's flag for "one match is enough" is kept between runs: an empty array reads the last outcome.
  const found = cx.scope.slot().index;
  /** Counts matching items, stopping once the outcome is known; `valid` is the outcome so far. */
  const countMatches = (data: unknown[], run: Run, valid: boolean): boolean => {
    let count = 0;
    for (let at = 0; at < data.length; at++) {
      if (!runChild(check, data, at, run)) continue;
      count++;
      if (max === undefined) {
        if (count >= min) return true;
      } else {
        if (count > max) return false;
        if (min === 1 || count >= min) valid = true;
      }
    }
    return valid;
  };
  return (data, _parent, _key, run) => {
    const before = run.errors.length;
    let valid: boolean;
    if (max === undefined && min === 1) {
      for (let at = 0; at < data.length; at++) if ((run.slots[found] = runChild(check, data, at, run))) break;
      valid = !!run.slots[found];
    } else if (min === 0) valid = data.length > 0 ? countMatches(data, run, true) : true;
    else valid = countMatches(data, run, false);
    if (valid) {
      resetErrors(run, before);
      return true;
    }
    fail(run);
    return false;
  };
};

const uniqueItems: KeywordCompiler = (cx) => {
  if (!keywordValue(cx, 'uniqueItems', 'boolean')) return undefined;
  const path = keywordPath(cx, 'uniqueItems');
  const itemSchema = cx.schema.items;
  const itemTypes = itemSchema ? schemaTypes(typeof itemSchema === 'object' ? itemSchema : {}) : [];
  const duplicate = (run: Run, i: number, j: number) => report(cx, run, 'uniqueItems', path, { i, j }, messages.uniqueItems(i, j));
  if (itemTypes.length > 0 && !itemTypes.some((type) => type === 'object' || type === 'array')) {
    // Scalar items: one pass keyed by value, ignoring items of another type (their own schema reports them).
    const tagStrings = itemTypes.length > 1;
    const ofItemType = typeTest(itemTypes);
    return (data, _parent, _key, run) => {
      const seen: Record<string, unknown> = {};
      for (let i = data.length; i-- > 0; ) {
        let item = data[i];
        if (!ofItemType(item)) continue;
        if (tagStrings && typeof item === 'string') item += '_';
        const earlier = seen[item];
        if (typeof earlier === 'number') {
          duplicate(run, i, earlier);
          return false;
        }
        seen[item] = i;
      }
      return true;
    };
  }
  return (data, _parent, _key, run) => {
    for (let i = data.length; i-- > 0; )
      for (let j = i; j-- > 0; )
        if (equal(data[i], data[j])) {
          duplicate(run, i, j);
          return false;
        }
    return true;
  };
};

const unevaluatedItems: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'unevaluatedItems', 'boolean', 'object');
  const evaluated = cx.items || 0;
  if (evaluated === true) return undefined;
  // What was evaluated, as ajv compares it (a slot may hold `true`, which compares as 1).
  const evaluatedIn = evaluated instanceof Slot ? (run: Run): any => run.slots[evaluated.index] : (): any => evaluated;
  const path = keywordPath(cx, 'unevaluatedItems');
  let step: ReturnType<KeywordCompiler>;
  if (schema === false)
    step = (data, _parent, _key, run) => {
      const limit = evaluatedIn(run);
      if (!(data.length > limit)) return true;
      report(cx, run, 'unevaluatedItems', path, { limit }, messages.tooManyItems(limit));
      return false;
    };
  else if (!alwaysValid(schema)) {
    const { check } = cx.scope.child(schema, cx, { keyword: 'unevaluatedItems' });
    step = (data, _parent, _key, run) => {
      const from = evaluatedIn(run);
      let valid = data.length <= from;
      if (!valid)
        for (let at = from; at < data.length; at++) {
          valid = runChild(check, data, at, run);
          if (!valid && !cx.allErrors) break;
        }
      return valid;
    };
  }
  cx.items = true;
  return step;
};

export const arrayKeywords: Record<string, KeywordCompiler> = {
  maxItems: limitItems('maxItems'),
  minItems: limitItems('minItems'),
  prefixItems,
  items,
  contains,
  uniqueItems,
  unevaluatedItems,
};
