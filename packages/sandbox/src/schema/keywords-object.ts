// Keywords for objects: property counts, required, propertyNames, properties,
// patternProperties, additionalProperties, dependentRequired, dependentSchemas (and the older
// dependencies that holds both) and unevaluatedProperties. A property counts as present when
// its value is not undefined, as ajv reads it.
import { alwaysValid, keywordPath, keywordValue, mergeIfValid, namesOf, patternOf, type Context, type KeywordCompiler } from './context.js';
import { mergeProps, propsInSlot, Slot, type Action } from './evaluated.js';
import { failWhen } from './keywords-scalar.js';
import { messages } from './messages.js';
import { report, runChild, runSame, type Check, type Run, type Step } from './run.js';

const limitProperties =
  (keyword: 'maxProperties' | 'minProperties'): KeywordCompiler =>
  (cx) => {
    const limit = keywordValue(cx, keyword, 'number') as number;
    const fails = keyword === 'maxProperties' ? (data: object) => Object.keys(data).length > limit : (data: object) => Object.keys(data).length < limit;
    return failWhen(cx, keyword, fails, { limit }, messages.propertyCount(keyword, limit));
  };

const required: KeywordCompiler = (cx) => {
  const names = keywordValue(cx, 'required', 'array') as string[];
  if (names.length === 0) return undefined;
  const path = keywordPath(cx, 'required');
  const missing = (run: Run, name: string) => report(cx, run, 'required', path, { missingProperty: name }, messages.required(name));
  if (cx.allErrors)
    return (data, _parent, _key, run) => {
      for (const name of names) if (data[name] === undefined) missing(run, name);
      return true;
    };
  return (data, _parent, _key, run) => {
    const name = names.find((n) => data[n] === undefined);
    if (name === undefined) return true;
    missing(run, name);
    return false;
  };
};

const propertyNames: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'propertyNames', 'object', 'boolean');
  if (alwaysValid(schema)) return undefined;
  const path = keywordPath(cx, 'propertyNames');
  const { check } = cx.scope.child(schema, cx, { keyword: 'propertyNames', composite: true, propertyName: true });
  // The last name's outcome, kept between runs as ajv's flag is (an object without properties reads the previous one).
  const valid = cx.scope.slot().index;
  return (data, _parent, key, run) => {
    for (const name in data) {
      run.propertyName = name;
      const before = run.errors.length;
      // ajv's subschema sees the object as the name's parent, under the object's own key.
      check(name, data, key, run);
      run.data = data;
      run.slots[valid] = run.errors.length === before;
      if (!run.slots[valid]) {
        report(cx, run, 'propertyNames', path, { propertyName: name }, messages.propertyNames(), true);
        if (!cx.allErrors) break;
      }
    }
    return !!run.slots[valid];
  };
};

/**
 * The step of additionalProperties and unevaluatedProperties: each property `covered` leaves out
 * is checked by the keyword's subschema, or refused when the keyword is false (no `check`).
 */
function leftOverProperties(cx: Context, keyword: 'additionalProperties' | 'unevaluatedProperties', check: Check | undefined, covered: (name: string, run: Run) => unknown): Step {
  const path = keywordPath(cx, keyword);
  const param = keyword === 'additionalProperties' ? 'additionalProperty' : 'unevaluatedProperty';
  const message = messages[keyword]();
  return (data, _parent, _key, run) => {
    const before = run.errors.length;
    for (const name in data) {
      if (covered(name, run)) continue;
      if (check) {
        if (!runChild(check, data, name, run) && !cx.allErrors) break;
      } else {
        report(cx, run, keyword, path, { [param]: name }, message);
        if (!cx.allErrors) break;
      }
    }
    return run.errors.length === before;
  };
}

const additionalProperties: KeywordCompiler = (cx) => {
  const schema = cx.schema.additionalProperties;
  cx.props = true;
  if (alwaysValid(schema)) return undefined;
  const declared = cx.schema.properties;
  const names = namesOf(declared);
  const patterns = namesOf(cx.schema.patternProperties).map(patternOf);
  const nameSet = new Set(names);
  const isNamed = names.length > 8 ? (name: string) => Object.prototype.hasOwnProperty.call(declared, name) : (name: string) => nameSet.has(name);
  const check = schema === false ? undefined : cx.scope.child(schema, cx, { keyword: 'additionalProperties' }).check;
  return leftOverProperties(cx, 'additionalProperties', check, (name) => isNamed(name) || patterns.some((pattern) => pattern.test(name)));
};

const properties: KeywordCompiler = (cx) => {
  const map = keywordValue(cx, 'properties', 'object');
  const names = namesOf(map);
  let merge: Action;
  if (names.length > 0 && cx.props !== true) {
    const merged = mergeProps(cx.scope, Object.fromEntries(names.map((name) => [name, true as const])), cx.props, false);
    cx.props = merged.value;
    merge = merged.action;
  }
  const checkedNames = names.filter((name) => !alwaysValid(map[name]));
  const checks = checkedNames.map((name) => cx.scope.child(map[name], cx, { keyword: 'properties', at: name }).check);
  if (checks.length === 0) return merge && ((_data, _parent, _key, run) => (merge(run), true));
  const { allErrors } = cx;
  return (data, _parent, _key, run) => {
    merge?.(run);
    for (let i = 0; i < checks.length; i++) {
      const name = checkedNames[i]!;
      if (data[name] !== undefined && !runChild(checks[i]!, data, name, run) && !allErrors) return false;
    }
    return true;
  };
};

/** Marks a property evaluated in a slot, as ajv's generated code does (nothing when the slot
 * holds `true`). A slot that holds nothing yet starts its set here, where ajv's code throws. */
function markEvaluated(run: Run, slot: number, name: string): void {
  const props = run.slots[slot];
  if (props === undefined || props === null) run.slots[slot] = { [name]: true };
  else if (typeof props === 'object') (props as Record<string, true>)[name] = true;
}

const patternProperties: KeywordCompiler = (cx) => {
  const map = keywordValue(cx, 'patternProperties', 'object');
  const sources = namesOf(map);
  const always = sources.filter((source) => alwaysValid(map[source]));
  if (sources.length === 0 || (always.length === sources.length && cx.props === true)) return undefined;
  let toSlot: Action;
  if (cx.props !== true && !(cx.props instanceof Slot)) {
    const inSlot = propsInSlot(cx.scope, cx.props);
    cx.props = inSlot.value;
    toSlot = inSlot.action;
  }
  const evaluated = cx.props instanceof Slot ? cx.props.index : undefined;
  const entries = sources.map((source) => ({
    regExp: patternOf(source),
    check: always.includes(source) ? undefined : cx.scope.child(map[source], cx, { keyword: 'patternProperties', at: source }).check,
  }));
  return (data, _parent, _key, run) => {
    toSlot?.(run);
    for (const { regExp, check } of entries) {
      let valid = true;
      for (const name in data) {
        if (!regExp.test(name)) continue;
        if (check) valid = runChild(check, data, name, run);
        if (evaluated !== undefined) markEvaluated(run, evaluated, name);
        else if (check && !cx.allErrors && !valid) break;
      }
      if (!cx.allErrors && !valid) return false;
    }
    return true;
  };
};

/** Properties that must be present with another (dependentRequired, and the arrays of dependencies). */
function propertyDependencies(cx: Context, keyword: string, map: Record<string, string[]>): Step | undefined {
  const rules: { property: string; deps: string[] }[] = [];
  for (const property in map) if (map[property]!.length > 0) rules.push({ property, deps: map[property]! });
  if (rules.length === 0) return undefined;
  const path = keywordPath(cx, keyword);
  const missing = (run: Run, property: string, deps: string[], dep: string) =>
    report(cx, run, keyword, path, { property, missingProperty: dep, depsCount: deps.length, deps: deps.join(', ') }, messages.dependentRequired(property, deps));
  return (data, _parent, _key, run) => {
    for (const { property, deps } of rules) {
      if (data[property] === undefined) continue;
      if (cx.allErrors) {
        for (const dep of deps) if (data[dep] === undefined) missing(run, property, deps, dep);
        continue;
      }
      const dep = deps.find((d) => data[d] === undefined);
      if (dep !== undefined) {
        missing(run, property, deps, dep);
        return false;
      }
    }
    return true;
  };
}

/** Subschemas that apply to the object when a property is present (dependentSchemas, and the schemas of dependencies). */
function schemaDependencies(cx: Context, keyword: string, map: Record<string, unknown>): Step | undefined {
  const rules: { property: string; check: Check; merge: Action }[] = [];
  for (const property in map) {
    if (alwaysValid(map[property])) continue;
    const child = cx.scope.child(map[property], cx, { keyword, at: property });
    rules.push({ property, check: child.check, merge: mergeIfValid(cx, child)?.action });
  }
  if (rules.length === 0) return undefined;
  return (data, parent, key, run) => {
    for (const { property, check, merge } of rules) {
      if (data[property] === undefined) continue;
      const passed = runSame(check, parent, key, run);
      if (passed) merge?.(run);
      else if (!cx.allErrors) return false;
    }
    return true;
  };
}

const dependentRequired: KeywordCompiler = (cx) => propertyDependencies(cx, 'dependentRequired', keywordValue(cx, 'dependentRequired', 'object'));
const dependentSchemas: KeywordCompiler = (cx) => schemaDependencies(cx, 'dependentSchemas', keywordValue(cx, 'dependentSchemas', 'object'));

const dependencies: KeywordCompiler = (cx) => {
  const map = keywordValue(cx, 'dependencies', 'object');
  const names: Record<string, string[]> = {};
  const schemas: Record<string, unknown> = {};
  for (const property in map) {
    if (property === '__proto__') continue;
    if (Array.isArray(map[property])) names[property] = map[property];
    else schemas[property] = map[property];
  }
  const steps = [propertyDependencies(cx, 'dependencies', names), schemaDependencies(cx, 'dependencies', schemas)].filter((step): step is Step => step !== undefined);
  return (data, parent, key, run) => {
    for (const step of steps) if (!step(data, parent, key, run) && !cx.allErrors) return false;
    return true;
  };
};

const unevaluatedProperties: KeywordCompiler = (cx) => {
  const schema = keywordValue(cx, 'unevaluatedProperties', 'boolean', 'object');
  const evaluated = cx.props;
  cx.props = true;
  if (evaluated === true) return undefined;
  const check = schema === false || alwaysValid(schema) ? undefined : cx.scope.child(schema, cx, { keyword: 'unevaluatedProperties' }).check;
  if (schema !== false && !check) return undefined;
  if (evaluated instanceof Slot) {
    const slot = evaluated.index;
    // The slot holds what the run evaluated: true for every property, else their names.
    return leftOverProperties(cx, 'unevaluatedProperties', check, (name, run) => {
      const props = run.slots[slot] as Record<string, unknown> | true | undefined;
      return props === true || props?.[name];
    });
  }
  const known = new Set(evaluated === undefined ? [] : Object.keys(evaluated));
  return leftOverProperties(cx, 'unevaluatedProperties', check, (name) => known.has(name));
};

export const objectKeywords: Record<string, KeywordCompiler> = {
  maxProperties: limitProperties('maxProperties'),
  minProperties: limitProperties('minProperties'),
  required,
  propertyNames,
  additionalProperties,
  dependencies,
  properties,
  patternProperties,
  dependentRequired,
  dependentSchemas,
  unevaluatedProperties,
};
