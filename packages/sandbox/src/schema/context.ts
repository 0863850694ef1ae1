// The compile context of one schema location, and the keyword groups in ajv's order: keywords
// for any value first, then those for numbers, strings, arrays and objects, each group run only
// for a value of its type.
import { mergeItems, mergeProps, sequence, type Action, type EvaluatedItems, type EvaluatedProps, type SlotSource } from './evaluated.js';
import type { Check, Reporter, Step } from './run.js';
import { schemaSegment } from './run.js';

export type Schema = Record<string, any>;

/** How a subschema is applied: where it sits and whether its problems are collected (composite) or seen at all. */
export interface ChildPlacement {
  keyword: string;
  /** The subschema's key under the keyword (a property name, an index). */
  at?: string | number;
  composite?: boolean;
  createErrors?: boolean;
  allErrors?: boolean;
  /** Applied to the property names of an object (propertyNames). */
  propertyName?: boolean;
}

/** A compiled subschema and what it evaluated (for the unevaluated* keywords). */
export interface Child {
  check: Check;
  props: EvaluatedProps;
  items: EvaluatedItems;
}

export interface Scope extends SlotSource {
  coerceTypes: boolean;
  child(schema: unknown, parent: Context, placement: ChildPlacement): Child;
}

export interface Context extends Reporter {
  scope: Scope;
  schema: Schema;
  /** The schemaPath of this location (`#/properties/a`). */
  path: string;
  /** What the keywords compiled so far have evaluated. */
  props: EvaluatedProps;
  items: EvaluatedItems;
}

/** Compiles one keyword of a schema; undefined: the keyword checks nothing here. `type`: the group's type. */
export type KeywordCompiler = (cx: Context, type: string | undefined) => Step | undefined;

/** The keywords of each group, in order, as ajv registers them (some only modify others, or are refused). */
export const GROUPS: { type: string | undefined; keywords: string[] }[] = [
  { type: undefined, keywords: ['$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', '$comment', 'id', '$ref', 'type', 'nullable', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else'] },
  { type: 'number', keywords: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'] },
  { type: 'string', keywords: ['maxLength', 'minLength', 'pattern', 'format', 'formatMaximum', 'formatMinimum', 'formatExclusiveMaximum', 'formatExclusiveMinimum'] },
  { type: 'array', keywords: ['maxItems', 'minItems', 'prefixItems', 'items', 'contains', 'uniqueItems', 'maxContains', 'minContains', 'unevaluatedItems'] },
  {
    type: 'object',
    keywords: ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'dependencies', 'properties', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties'],
  },
];

/** Keywords that make a schema more than an annotation. */
export const RULE_KEYWORDS = new Set(GROUPS.flatMap((group) => group.keywords));

/** Keywords a schema may not use here: references (the schemas are dereferenced first) and ajv-formats' format comparisons. */
export const REFUSED = new Set(['$ref', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', 'id', 'formatMaximum', 'formatMinimum', 'formatExclusiveMaximum', 'formatExclusiveMinimum']);

export const usesGroup = (schema: Schema, keywords: string[]): boolean => keywords.some((keyword) => schema[keyword] !== undefined);

/** A schema that accepts everything: true, {}, or only annotations. */
export function alwaysValid(schema: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  for (const key in schema as Schema) if (RULE_KEYWORDS.has(key)) return false;
  return true;
}

/** The schemaPath of a keyword of this location, or of a subschema under it. */
export const keywordPath = (cx: Context, keyword: string, at?: string | number): string => `${cx.path}/${keyword}${at === undefined ? '' : `/${schemaSegment(at)}`}`;

/** Property names of a keyword's map (ajv never looks at `__proto__`). */
export const namesOf = (map: unknown): string[] => (map && typeof map === 'object' ? Object.keys(map).filter((name) => name !== '__proto__') : []);

/** A regular expression of a schema (Unicode, as ajv compiles them), one per source. */
const patterns = new Map<string, RegExp>();
export function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) patterns.set(source, (pattern = new RegExp(source, 'u')));
  return pattern;
}

/** The keyword's value, checked against the JSON types it may have (as ajv refuses a schema otherwise). */
export function keywordValue(cx: Context, keyword: string, ...types: ('number' | 'string' | 'boolean' | 'object' | 'array')[]): any {
  const value = cx.schema[keyword];
  const fits = types.some((type) => (type === 'array' ? Array.isArray(value) : type === 'object' ? !!value && typeof value === 'object' && !Array.isArray(value) : typeof value === type));
  if (!fits) throw new Error(`${keyword} value must be ${types.length === 1 ? JSON.stringify(types[0]) : JSON.stringify(types)}`);
  return value;
}

/**
 * Merges what a subschema evaluated into this location's (ajv's mergeEvaluated); the action, if
 * any, is what the merge does while validating. `toSlot`: the merge is made only when the
 * subschema passed, so its result lives in a slot.
 */
export function mergeEvaluated(cx: Context, child: Child, toSlot: boolean): Action {
  let action: Action;
  if (cx.props !== true && child.props !== undefined) {
    const merged = mergeProps(cx.scope, child.props, cx.props, toSlot);
    cx.props = merged.value;
    action = merged.action;
  }
  if (cx.items !== true && child.items !== undefined) {
    const merged = mergeItems(cx.scope, child.items, cx.items, toSlot);
    cx.items = merged.value;
    action = sequence(action, merged.action);
  }
  return action;
}

/**
 * The merge of a subschema that counts only when it passed (anyOf, if's then/else,
 * dependentSchemas); undefined when everything is already evaluated (ajv then merges nothing).
 */
export function mergeIfValid(cx: Context, child: Child): { action: Action } | undefined {
  if (cx.props === true && cx.items === true) return undefined;
  return { action: mergeEvaluated(cx, child, true) };
}
