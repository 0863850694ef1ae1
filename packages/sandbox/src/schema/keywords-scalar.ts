// Keywords for numbers (limits, multipleOf, number formats) and strings (lengths in code
// points, pattern, string formats).
import { keywordPath, keywordValue, patternOf, type Context, type KeywordCompiler } from './context.js';
import { FORMATS } from './formats.js';
import { messages } from './messages.js';
import { report, type Step } from './run.js';
import { codePoints } from './values.js';

/** A step that reports the keyword's problem when `fails` holds for the value. */
export function failWhen(cx: Context, keyword: string, fails: (data: any) => boolean, params: Record<string, unknown>, message: string): Step {
  const path = keywordPath(cx, keyword);
  return (data, _parent, _key, run) => {
    if (!fails(data)) return true;
    report(cx, run, keyword, path, { ...params }, message);
    return false;
  };
}

const limitNumber =
  (keyword: 'maximum' | 'minimum' | 'exclusiveMaximum' | 'exclusiveMinimum'): KeywordCompiler =>
  (cx) => {
    const limit = keywordValue(cx, keyword, 'number') as number;
    const fails = {
      maximum: (data: number) => data > limit || isNaN(data),
      minimum: (data: number) => data < limit || isNaN(data),
      exclusiveMaximum: (data: number) => data >= limit || isNaN(data),
      exclusiveMinimum: (data: number) => data <= limit || isNaN(data),
    }[keyword];
    return failWhen(cx, keyword, fails, { comparison: messages.comparison(keyword), limit }, messages.limitNumber(keyword, limit));
  };

const multipleOf: KeywordCompiler = (cx) => {
  const of = keywordValue(cx, 'multipleOf', 'number') as number;
  // As ajv: the quotient must be what parseInt reads back from it (1e21 and beyond are not).
  const fails = (data: number) => {
    const quotient = data / of;
    return of === 0 || quotient !== parseInt(quotient as unknown as string);
  };
  return failWhen(cx, 'multipleOf', fails, { multipleOf: of }, messages.multipleOf(of));
};

const limitLength =
  (keyword: 'maxLength' | 'minLength'): KeywordCompiler =>
  (cx) => {
    const limit = keywordValue(cx, keyword, 'number') as number;
    const fails = keyword === 'maxLength' ? (data: string) => codePoints(data) > limit : (data: string) => codePoints(data) < limit;
    return failWhen(cx, keyword, fails, { limit }, messages.length(keyword, limit));
  };

const pattern: KeywordCompiler = (cx) => {
  const source = keywordValue(cx, 'pattern', 'string') as string;
  const regExp = patternOf(source);
  return failWhen(cx, 'pattern', (data: string) => !regExp.test(data), { pattern: source }, messages.pattern(source));
};

/** A format applies in the group of its type (int32 to numbers, date to strings); an unknown one checks nothing. */
const format: KeywordCompiler = (cx, type) => {
  const name = keywordValue(cx, 'format', 'string') as string;
  const known = FORMATS[name];
  if (!known || known === true || known.type !== type) return undefined;
  return failWhen(cx, 'format', (data) => !known.test(data), { format: name }, messages.format(name));
};

export const scalarKeywords: Record<string, KeywordCompiler> = {
  maximum: limitNumber('maximum'),
  minimum: limitNumber('minimum'),
  exclusiveMaximum: limitNumber('exclusiveMaximum'),
  exclusiveMinimum: limitNumber('exclusiveMinimum'),
  multipleOf,
  maxLength: limitLength('maxLength'),
  minLength: limitLength('minLength'),
  pattern,
  format,
};
