// Compiles a JSON Schema (2020-12, as OpenAPI 3.1 uses it) once into a tree of closures: no code
// is generated, so validation runs under a Content-Security-Policy without `unsafe-eval`. The
// answers are ajv 8's (Ajv2020 with ajv-formats, strict off): the same validity, the same
// problems in the same order with the same messages, and with coerceTypes the same values
// coerced in place. Schemas must be dereferenced first: `$ref` and `$dynamicRef` are refused.
import { GROUPS, REFUSED, RULE_KEYWORDS, usesGroup, type Child, type ChildPlacement, type Context, type KeywordCompiler, type Schema, type Scope } from './context.js';
import { Slot } from './evaluated.js';
import { anyKeywords } from './keywords-any.js';
import { arrayKeywords } from './keywords-array.js';
import { objectKeywords } from './keywords-object.js';
import { scalarKeywords } from './keywords-scalar.js';
import { messages } from './messages.js';
import { FIRST_PROBLEM, report, schemaSegment, type Check, type Run, type Step, type Validator, type ValidatorOptions } from './run.js';
import { coerce, coercibleTypes, schemaTypes, typeTest } from './types.js';

export type { SchemaError, Validator, ValidatorOptions } from './run.js';

const KEYWORDS: Record<string, KeywordCompiler> = { ...anyKeywords, ...scalarKeywords, ...arrayKeywords, ...objectKeywords };

const returnData: Check = (data) => data;

interface Group {
  /** Whether the value is of the group's type (undefined: every value is). */
  fits: ((data: unknown) => boolean) | undefined;
  steps: Step[];
  /** The schema's one type is this group's and was not checked up front: a value of another type is reported here. */
  typeErrorHere: boolean;
}

function compileFalse(cx: Context): Check {
  const path = `${cx.path}/false schema`;
  return (data, _parent, _key, run) => {
    report(cx, run, 'false schema', path, {}, messages.falseSchema());
    return data;
  };
}

/** One schema location: the type check (with coercion) up front, then its keyword groups. */
function compileSchemaObject(cx: Context): Check {
  const { schema } = cx;
  for (const keyword in schema) if (REFUSED.has(keyword)) throw new Error(`the keyword ${keyword} at ${cx.path} is not supported: dereference the schema first`);
  const types = schemaTypes(schema);
  const coerceTo = cx.scope.coerceTypes ? coercibleTypes(types) : [];
  const groupOf = (type: string) => GROUPS.find((group) => group.type === type);
  const ownGroup = types.length === 1 ? groupOf(types[0]!) : undefined;
  const checkUpFront = types.length > 0 && !(coerceTo.length === 0 && types.length === 1 && ownGroup !== undefined && usesGroup(schema, ownGroup.keywords));
  const typePath = `${cx.path}/type`;
  const typeError = (run: Run) => report(cx, run, 'type', typePath, { type: schema.type }, messages.type(schema.type));
  const groups: Group[] = [];
  for (const group of GROUPS) {
    if (!usesGroup(schema, group.keywords)) continue;
    const steps: Step[] = [];
    for (const keyword of group.keywords) {
      const compiler = KEYWORDS[keyword];
      if (compiler && schema[keyword] !== undefined) {
        const step = compiler(cx, group.type);
        if (step) steps.push(step);
      }
    }
    groups.push({ fits: group.type === undefined ? undefined : typeTest([group.type]), steps, typeErrorHere: !checkUpFront && types.length === 1 && types[0] === group.type });
  }
  const { allErrors } = cx;
  const nameIsKey = cx.propertyName;
  const ofType = typeTest(types);
  return (data, parent, key, run) => {
    const before = run.errors.length;
    if (checkUpFront && !ofType(data)) {
      const coerced = coerceTo.length > 0 ? coerce(coerceTo, data) : undefined;
      if (coerced === undefined) typeError(run);
      else {
        data = coerced;
        // A property name is checked as coerced but stays the name it is (ajv throws here).
        if (parent !== undefined && !nameIsKey) parent[key] = coerced;
      }
    }
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      if (group.fits === undefined || group.fits(data)) {
        const { steps } = group;
        for (let s = 0; s < steps.length; s++) {
          run.data = data;
          const goOn = steps[s]!(data, parent, key, run);
          data = run.data;
          if (!goOn && !allErrors) break;
        }
      } else if (group.typeErrorHere) typeError(run);
      if (!allErrors && run.errors.length !== before) break;
    }
    return data;
  };
}

function compileAt(schema: unknown, cx: Context): Check {
  if (schema === false) return compileFalse(cx);
  if (schema === true) return returnData;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new Error(`the schema at ${cx.path} must be an object or a boolean`);
  for (const keyword in schema) if (RULE_KEYWORDS.has(keyword)) return compileSchemaObject(cx);
  return returnData;
}

function newScope(coerceTypes: boolean): Scope & { slots: number } {
  const scope = {
    coerceTypes,
    slots: 0,
    slot: () => new Slot(scope.slots++),
    child(schema: unknown, parent: Context, placement: ChildPlacement): Child {
      const cx: Context = {
        scope,
        schema: schema as Schema,
        path: `${parent.path}/${placement.keyword}${placement.at === undefined ? '' : `/${schemaSegment(placement.at)}`}`,
        allErrors: placement.allErrors ?? parent.allErrors,
        composite: placement.composite ?? parent.composite,
        createErrors: placement.createErrors ?? parent.createErrors,
        propertyName: placement.propertyName ?? parent.propertyName,
        props: undefined,
        items: undefined,
      };
      const check = compileAt(schema, cx);
      return { check, props: cx.props, items: cx.items };
    },
  };
  return scope;
}

/**
 * A validator of `schema`, compiled now (a schema it cannot use is an Error here, not at
 * validation). Each call sets `errors` (null when valid); with coerceTypes the data's
 * properties and items are coerced in place.
 */
export function compileSchema(schema: unknown, options: ValidatorOptions): Validator {
  const scope = newScope(options.coerceTypes);
  const root: Context = { scope, schema: schema as Schema, path: '#', allErrors: options.allErrors, composite: false, createErrors: true, propertyName: false, props: undefined, items: undefined };
  const check = compileAt(schema, root);
  // One Run per validator, reset for each call: a valid value costs no allocation.
  const run: Run = { errors: [], slots: new Array(scope.slots), path: [], data: undefined, propertyName: undefined };
  const validate = ((data: unknown): boolean => {
    if (run.errors.length > 0) run.errors.length = 0;
    if (run.slots.length > 0) run.slots.fill(undefined);
    if (run.path.length > 0) run.path.length = 0;
    try {
      check(data, undefined, undefined, run);
    } catch (error) {
      if (error !== FIRST_PROBLEM) throw error;
    }
    const valid = run.errors.length === 0;
    validate.errors = valid ? null : run.errors.slice();
    return valid;
  }) as Validator;
  validate.errors = null;
  return validate;
}
