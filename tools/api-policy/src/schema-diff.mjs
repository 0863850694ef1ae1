// Compares two JSON Schemas (OpenAPI 3.1) the way an integrator experiences the change.
// Every schema is first flattened: $ref followed, allOf merged (properties, required,
// constraints), and the nullable idiom `oneOf: [X, {type: 'null'}]` folded into X plus
// null. The walk then goes property by property, into array items, additionalProperties and
// the remaining oneOf/anyOf variants. Cycles through $ref are cut: a pair of references
// already on the way down is not entered again.
//
// The direction matters. In a request the client writes: a new required field breaks it, a
// loosened nullability does not. In a response the client reads: a new field is an
// addition, a field that may now be null is breaking. Constraint changes (length, pattern,
// range, format) are breaking both ways, as the contract's change table says.

// A bundle's references are read the same way by every tool that reads bundles.
import { deref, resolveRef } from '@payroll-api/openapi-bundle';

// Re-exported: they are part of this package's API (src/index.mjs).
export { deref, resolveRef };

const NULL_ONLY = (schema) =>
  schema && typeof schema === 'object' && !schema.$ref && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null'));

const CONSTRAINTS = {
  maxLength: { rule: 'B-LENGTH', merge: Math.min },
  minLength: { rule: 'B-LENGTH', merge: Math.max },
  maxItems: { rule: 'B-LENGTH', merge: Math.min },
  minItems: { rule: 'B-LENGTH', merge: Math.max },
  maxProperties: { rule: 'B-LENGTH', merge: Math.min },
  minProperties: { rule: 'B-LENGTH', merge: Math.max },
  maximum: { rule: 'B-RANGE', merge: Math.min },
  minimum: { rule: 'B-RANGE', merge: Math.max },
  exclusiveMaximum: { rule: 'B-RANGE', merge: Math.min },
  exclusiveMinimum: { rule: 'B-RANGE', merge: Math.max },
  multipleOf: { rule: 'B-RANGE', merge: (a, b) => (a === b ? a : `${a} and ${b}`) },
  pattern: { rule: 'B-PATTERN', merge: (a, b) => (a === b ? a : [a, b].sort().join(' AND ')) },
  format: { rule: 'B-FORMAT', merge: (a, b) => (a === b ? a : [a, b].sort().join(' AND ')) },
};

const MAX_DEPTH = 64;

function emptyShape() {
  return {
    types: null, // null: any type
    enum: null,
    constraints: {},
    properties: new Map(),
    // property -> the component (#/components/schemas/…) that declares it, or null inline
    declaredIn: new Map(),
    defaults: [],
    required: new Set(),
    items: [],
    additional: [],
    variants: [],
    readOnly: false,
    writeOnly: false,
    refs: [],
    cycle: false,
  };
}

function intersectTypes(shape, list) {
  const next = new Set(list);
  if (shape.types === null) {
    shape.types = next;
    return;
  }
  const result = new Set();
  for (const type of shape.types) {
    if (next.has(type)) result.add(type);
    else if (type === 'integer' && next.has('number')) result.add('integer');
    else if (type === 'number' && next.has('integer')) result.add('integer');
  }
  shape.types = result;
}

function intersectEnum(shape, values) {
  if (shape.enum === null) {
    shape.enum = [...values];
    return;
  }
  const keep = new Set(values.map((v) => JSON.stringify(v)));
  shape.enum = shape.enum.filter((v) => keep.has(JSON.stringify(v)));
}

function mergeConstraint(constraints, key, value) {
  if (!(key in constraints)) constraints[key] = value;
  else constraints[key] = CONSTRAINTS[key].merge(constraints[key], value);
}

function mergeShapeInto(shape, inner, withNull) {
  if (inner.types !== null) intersectTypes(shape, withNull ? [...inner.types, 'null'] : [...inner.types]);
  if (inner.enum !== null) intersectEnum(shape, withNull ? [...inner.enum, null] : inner.enum);
  for (const [key, value] of Object.entries(inner.constraints)) mergeConstraint(shape.constraints, key, value);
  for (const [name, list] of inner.properties) shape.properties.set(name, [...(shape.properties.get(name) ?? []), ...list]);
  for (const [name, owner] of inner.declaredIn) shape.declaredIn.set(name, owner);
  shape.defaults.push(...inner.defaults);
  for (const name of inner.required) shape.required.add(name);
  shape.items.push(...inner.items);
  shape.additional.push(...inner.additional);
  shape.variants.push(...inner.variants);
  shape.readOnly ||= inner.readOnly;
  shape.writeOnly ||= inner.writeOnly;
  shape.refs.push(...inner.refs);
  shape.cycle ||= inner.cycle;
}

function addSchema(doc, shape, schema, seen) {
  if (schema === undefined || schema === null || schema === true) return;
  if (schema === false) {
    intersectTypes(shape, []);
    return;
  }
  if (typeof schema !== 'object') return;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    shape.refs.push(ref);
    if (seen.includes(ref)) shape.cycle = true;
    else addSchema(doc, shape, resolveRef(doc, ref), [...seen, ref]);
  }
  if (schema.type !== undefined) intersectTypes(shape, Array.isArray(schema.type) ? schema.type : [schema.type]);
  if ('const' in schema) intersectEnum(shape, [schema.const]);
  if (Array.isArray(schema.enum)) intersectEnum(shape, schema.enum);
  for (const key of Object.keys(CONSTRAINTS)) {
    if (schema[key] !== undefined) mergeConstraint(shape.constraints, key, schema[key]);
  }
  if (schema.properties && typeof schema.properties === 'object') {
    for (const [name, sub] of Object.entries(schema.properties)) {
      shape.properties.set(name, [...(shape.properties.get(name) ?? []), sub]);
      shape.declaredIn.set(name, componentName(seen.at(-1)));
    }
  }
  if ('default' in schema) shape.defaults.push(schema.default);
  if (Array.isArray(schema.required)) for (const name of schema.required) shape.required.add(name);
  if (schema.items !== undefined) shape.items.push(schema.items);
  if (schema.additionalProperties !== undefined) shape.additional.push(schema.additionalProperties);
  if (schema.readOnly === true) shape.readOnly = true;
  if (schema.writeOnly === true) shape.writeOnly = true;
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf) addSchema(doc, shape, member, seen);
  for (const kind of ['oneOf', 'anyOf']) {
    if (!Array.isArray(schema[kind])) continue;
    const others = schema[kind].filter((variant) => !NULL_ONLY(variant));
    const withNull = others.length < schema[kind].length;
    if (others.length === 1) {
      // The nullable idiom (or a single variant): the variant itself, plus null.
      const inner = emptyShape();
      addSchema(doc, inner, others[0], seen);
      mergeShapeInto(shape, inner, withNull);
    } else {
      shape.variants.push({ kind, list: others, nullable: withNull });
    }
  }
}

/**
 * The flattened view of a schema. `cache` (a WeakMap per document) saves repeated work within
 * one comparison; documents must not change while a cache is in use.
 */
export function flatten(doc, schema, cache = null) {
  if (cache && schema && typeof schema === 'object') {
    const hit = cache.get(schema);
    if (hit) return hit;
  }
  const shape = emptyShape();
  addSchema(doc, shape, schema, []);
  if (cache && schema && typeof schema === 'object') cache.set(schema, shape);
  return shape;
}

function merged(list) {
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : { allOf: list };
}

function mergedAdditional(list) {
  if (list.length === 0) return undefined;
  if (list.some((value) => value === false)) return false;
  const schemas = list.filter((value) => value && typeof value === 'object');
  return schemas.length > 0 ? merged(schemas) : true;
}

function coreTypes(shape) {
  if (shape.types === null) return null;
  return new Set([...shape.types].filter((type) => type !== 'null'));
}

function isNullable(shape) {
  if (shape.types !== null) return shape.types.has('null');
  return shape.variants.some((group) => group.nullable);
}

function sameSet(a, b) {
  if (a === null || b === null) return a === b;
  return a.size === b.size && [...a].every((value) => b.has(value));
}

function typeText(set) {
  if (set === null) return 'any type';
  if (set.size === 0) return 'nothing';
  return [...set].sort().join(' | ');
}

function value(text) {
  return JSON.stringify(text);
}

/** A short signature used to spot a likely rename: the types and format of a property. */
function signature(doc, schema, cache) {
  const shape = flatten(doc, schema, cache);
  return `${typeText(shape.types)}|${shape.constraints.format ?? ''}`;
}

function refName(ref) {
  return ref.split('/').at(-1);
}

const SCHEMA_COMPONENT = '#/components/schemas/';

/** `MessageType` for `#/components/schemas/MessageType`; null for anything else. */
function componentName(ref) {
  return typeof ref === 'string' && ref.startsWith(SCHEMA_COMPONENT) ? ref.slice(SCHEMA_COMPONENT.length) : null;
}

const ANNOTATIONS = new Set(['description', 'title', 'summary', 'example', 'examples', '$comment', 'deprecated']);
const annotationOnly = (key) => ANNOTATIONS.has(key) || key.startsWith('x-');
const isTrivial = (schema) => schema === true || (schema && typeof schema === 'object' && Object.keys(schema).every(annotationOnly));

/**
 * The component a schema stands for: `{$ref: X}` (annotations aside), or an allOf whose only
 * member that says anything is one. A change found there is a change of that component.
 */
function identity(schema) {
  if (!schema || typeof schema !== 'object') return null;
  const keys = Object.keys(schema).filter((key) => !annotationOnly(key));
  if (keys.length === 1 && keys[0] === '$ref') return componentName(schema.$ref);
  if (keys.length === 1 && keys[0] === 'allOf' && Array.isArray(schema.allOf)) {
    const members = schema.allOf.filter((member) => !isTrivial(member));
    return members.length === 1 ? identity(members[0]) : null;
  }
  return null;
}

function variantId(variant, index) {
  return variant && typeof variant === 'object' && typeof variant.$ref === 'string' ? refName(variant.$ref) : String(index);
}

/** A cache for compareSchemas calls over the same pair of documents. */
export function newCache() {
  return { base: new WeakMap(), head: new WeakMap() };
}

/**
 * Walks two schemas and calls `emit` for every difference:
 * emit({ruleId, kind, pointer, element, message, before, after, schema, schemaPointer}).
 * `schema` is the component the difference is in (null when inline in the operation) and
 * `schemaPointer` the place inside it, so that a change to a shared schema is one change
 * however many operations reach it. `direction` is 'request' or 'response'.
 */
export function compareSchemas({ baseDoc, headDoc, base, head, direction, emit, pointer = '', element = '(body)', cache = newCache() }) {
  const bCache = cache.base;
  const hCache = cache.head;
  const inside = (owner, segment) => ({ schema: owner.schema, at: `${owner.at}/${segment}` });
  const walk = (b0, h0, at, name, stack, depth, owner) => {
    if (depth > MAX_DEPTH) return;
    const b = flatten(baseDoc, b0, bCache);
    const h = flatten(headDoc, h0, hCache);
    if (b.refs.length > 0 || h.refs.length > 0) {
      const key = `${b.refs.join(',')}|${h.refs.join(',')}`;
      if (stack.has(key)) return;
      stack = new Set(stack).add(key);
    }
    const own = identity(h0) ?? identity(b0);
    const node = own ? { schema: own, at: '' } : owner;
    const say = (ruleId, kind, message, before, after, where = at, what = name, from = node) =>
      emit({ ruleId, kind, pointer: where || '/', element: what, message, before, after, schema: from.schema, schemaPointer: from.schema ? from.at || '/' : null });

    // A documented default: a client that leaves the value out gets it.
    const bDefault = b.defaults.at(-1);
    const hDefault = h.defaults.at(-1);
    if (JSON.stringify(bDefault) !== JSON.stringify(hDefault)) {
      const change =
        bDefault === undefined ? `default ${value(hDefault)} added` : hDefault === undefined ? `default ${value(bDefault)} removed` : `default changed from ${value(bDefault)} to ${value(hDefault)}`;
      say('NB-DEFAULT', 'default-changed', `\`${name}\`: ${change}`, bDefault ?? null, hDefault ?? null);
    }

    // Types and nullability.
    const bCore = coreTypes(b);
    const hCore = coreTypes(h);
    if (!sameSet(bCore, hCore)) {
      say('B-TYPE', 'type-changed', `\`${name}\` changed type from ${typeText(bCore)} to ${typeText(hCore)}`, typeText(bCore), typeText(hCore));
    } else {
      const bNull = isNullable(b);
      const hNull = isNullable(h);
      if (bNull !== hNull && !(bCore === null && b.variants.length === 0 && h.variants.length === 0)) {
        if (hNull) {
          if (direction === 'request') say('NB-COMPATIBLE', 'null-accepted', `\`${name}\` now also accepts null`, false, true);
          else say('B-TYPE', 'null-possible', `\`${name}\` may now be null`, false, true);
        } else if (direction === 'request') {
          say('B-TYPE', 'null-refused', `\`${name}\` no longer accepts null`, true, false);
        } else {
          say('NB-COMPATIBLE', 'null-never', `\`${name}\` is no longer null`, true, false);
        }
      }
    }

    // Constraints: length, pattern, range, format. Any change breaks one side or the other.
    for (const key of Object.keys(CONSTRAINTS)) {
      const before = b.constraints[key];
      const after = h.constraints[key];
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      const change =
        before === undefined ? `${key} ${value(after)} added` : after === undefined ? `${key} ${value(before)} removed` : `${key} changed from ${value(before)} to ${value(after)}`;
      say(CONSTRAINTS[key].rule, `${key}-changed`, `\`${name}\`: ${change}`, before ?? null, after ?? null);
    }

    // Allowed values.
    if (b.enum !== null || h.enum !== null) {
      const bValues = b.enum === null ? null : new Set(b.enum.map((v) => JSON.stringify(v)));
      const hValues = h.enum === null ? null : new Set(h.enum.map((v) => JSON.stringify(v)));
      const removed = bValues === null ? [] : [...bValues].filter((v) => hValues !== null && !hValues.has(v));
      const added = hValues === null ? [] : [...hValues].filter((v) => bValues !== null && !bValues.has(v));
      if (bValues === null && hValues !== null) {
        say('B-ENUM', 'enum-introduced', `\`${name}\` is now limited to ${[...hValues].join(', ')}`, null, h.enum);
      } else if (bValues !== null && hValues === null) {
        if (direction === 'request') say('NB-COMPATIBLE', 'enum-lifted', `\`${name}\` is no longer limited to ${[...bValues].join(', ')}`, b.enum, null);
        else say('B-ENUM', 'enum-lifted', `\`${name}\` may now hold values other than ${[...bValues].join(', ')}`, b.enum, null);
      }
      if (removed.length > 0) say('B-ENUM', 'enum-narrowed', `\`${name}\` no longer allows ${removed.join(', ')}`, b.enum, h.enum);
      if (added.length > 0) {
        if (direction === 'request') say('NB-COMPATIBLE', 'enum-widened', `\`${name}\` now also accepts ${added.join(', ')}`, b.enum, h.enum);
        else say('B-ENUM', 'enum-widened', `\`${name}\` may now be ${added.join(', ')}`, b.enum, h.enum);
      }
    }

    // Properties.
    if (b.properties.size > 0 || h.properties.size > 0) {
      const hidden = (doc, schema) => {
        const shape = flatten(doc, schema, doc === baseDoc ? bCache : hCache);
        return direction === 'request' ? shape.readOnly : shape.writeOnly;
      };
      const visible = (doc, shape) => {
        const out = new Map();
        for (const [prop, list] of shape.properties) {
          const schema = merged(list);
          if (!hidden(doc, schema)) out.set(prop, schema);
        }
        return out;
      };
      const bProps = visible(baseDoc, b);
      const hProps = visible(headDoc, h);
      const child = (prop) => `${at}/${prop}`;
      // A property is in the component that declares it (an envelope's `messages`, say).
      const ownerOf = (prop) => {
        const declared = h.declaredIn.get(prop) ?? b.declaredIn.get(prop) ?? null;
        return declared && declared !== node.schema ? { schema: declared, at: `/${prop}` } : inside(node, prop);
      };
      const removed = [...bProps.keys()].filter((prop) => !hProps.has(prop));
      const added = [...hProps.keys()].filter((prop) => !bProps.has(prop));

      // A likely rename: one property gone, exactly one new one of the same type and format.
      const renamed = new Map();
      const gone = removed.filter((prop) => !h.properties.has(prop));
      const fresh = added.filter((prop) => !b.properties.has(prop));
      for (const prop of gone) {
        const sig = signature(baseDoc, bProps.get(prop), bCache);
        const candidates = fresh.filter((other) => signature(headDoc, hProps.get(other), hCache) === sig);
        const rivals = gone.filter((other) => signature(baseDoc, bProps.get(other), bCache) === sig);
        if (candidates.length === 1 && rivals.length === 1 && ![...renamed.values()].includes(candidates[0])) {
          renamed.set(prop, candidates[0]);
        }
      }
      for (const [from, to] of renamed) {
        say('B-NAME', 'property-renamed', `\`${from}\` was removed and \`${to}\` of the same type added: likely renamed from \`${from}\` to \`${to}\``, from, to, child(from), from, ownerOf(from));
      }
      const renamedTo = new Set(renamed.values());

      for (const prop of removed) {
        if (renamed.has(prop)) continue;
        if (h.properties.has(prop)) {
          const which = direction === 'request' ? 'read-only' : 'write-only';
          say('B-REMOVAL', `property-became-${which}`, `\`${prop}\` became ${which}: ${direction === 'request' ? 'a request can no longer set it' : 'a response no longer carries it'}`, prop, null, child(prop), prop, ownerOf(prop));
        } else {
          say('B-REMOVAL', 'property-removed', `\`${prop}\` was removed`, prop, null, child(prop), prop, ownerOf(prop));
        }
      }
      for (const prop of added) {
        if (renamedTo.has(prop)) continue;
        if (direction === 'request' && h.required.has(prop)) {
          say('B-REQUIRED', 'required-property-added', `new required \`${prop}\`: a request without it is refused`, null, prop, child(prop), prop, ownerOf(prop));
        } else {
          say('NB-FIELD', 'property-added', `new ${direction === 'request' ? 'optional ' : ''}\`${prop}\``, null, prop, child(prop), prop, ownerOf(prop));
        }
      }
      for (const [prop, bSchema] of bProps) {
        if (!hProps.has(prop)) continue;
        const wasRequired = b.required.has(prop);
        const isRequired = h.required.has(prop);
        if (!wasRequired && isRequired) {
          if (direction === 'request') say('B-REQUIRED', 'property-now-required', `\`${prop}\` is now required in the request`, false, true, child(prop), prop, ownerOf(prop));
          else say('NB-COMPATIBLE', 'property-now-always-present', `\`${prop}\` is now always present`, false, true, child(prop), prop, ownerOf(prop));
        } else if (wasRequired && !isRequired) {
          if (direction === 'request') say('NB-COMPATIBLE', 'property-now-optional', `\`${prop}\` is now optional in the request`, true, false, child(prop), prop, ownerOf(prop));
          else say('B-REMOVAL', 'property-now-optional', `\`${prop}\` may now be absent from the response`, true, false, child(prop), prop, ownerOf(prop));
        }
        walk(bSchema, hProps.get(prop), child(prop), prop, stack, depth + 1, ownerOf(prop));
      }
    }

    // Array items.
    if (b.items.length > 0 || h.items.length > 0) {
      walk(merged(b.items) ?? {}, merged(h.items) ?? {}, `${at}/[]`, `${name}[]`, stack, depth + 1, inside(node, '[]'));
    }

    // additionalProperties.
    const bAdd = mergedAdditional(b.additional);
    const hAdd = mergedAdditional(h.additional);
    const closed = (v) => v === false;
    if (!closed(bAdd) && closed(hAdd) && (b.types === null || b.types.has('object'))) {
      if (direction === 'request') say('B-REMOVAL', 'additional-properties-closed', `\`${name}\` no longer accepts properties other than the listed ones`, true, false);
      else say('NB-COMPATIBLE', 'additional-properties-closed', `\`${name}\` no longer carries properties other than the listed ones`, true, false);
    } else if (closed(bAdd) && !closed(hAdd) && hAdd !== undefined) {
      if (direction === 'request') say('NB-COMPATIBLE', 'additional-properties-opened', `\`${name}\` now accepts further properties`, false, true);
      else say('NB-FIELD', 'additional-properties-opened', `\`${name}\` may now carry further properties`, false, true);
    } else if (bAdd && typeof bAdd === 'object' && hAdd && typeof hAdd === 'object') {
      walk(bAdd, hAdd, `${at}/*`, `${name}.*`, stack, depth + 1, inside(node, '*'));
    }

    // oneOf / anyOf with several non-null variants: matched by referenced schema name, else position.
    const groups = Math.max(b.variants.length, h.variants.length);
    for (let g = 0; g < groups; g += 1) {
      const bGroup = b.variants[g] ?? { kind: h.variants[g].kind, list: [] };
      const hGroup = h.variants[g] ?? { kind: bGroup.kind, list: [] };
      const bIds = new Map(bGroup.list.map((v, i) => [variantId(v, i), v]));
      const hIds = new Map(hGroup.list.map((v, i) => [variantId(v, i), v]));
      for (const [id, variant] of bIds) {
        const where = `${at}/${bGroup.kind}/${id}`;
        const variantOwner = inside(node, `${bGroup.kind}/${id}`);
        if (!hIds.has(id)) say('B-TYPE', 'variant-removed', `\`${name}\` no longer ${direction === 'request' ? 'accepts' : 'returns'} the ${id} variant`, id, null, where, name, variantOwner);
        else walk(variant, hIds.get(id), where, name, stack, depth + 1, variantOwner);
      }
      for (const id of hIds.keys()) {
        if (bIds.has(id)) continue;
        const where = `${at}/${hGroup.kind}/${id}`;
        const variantOwner = inside(node, `${hGroup.kind}/${id}`);
        if (direction === 'request') say('NB-COMPATIBLE', 'variant-added', `\`${name}\` now also accepts the ${id} variant`, null, id, where, name, variantOwner);
        else say('B-TYPE', 'variant-added', `\`${name}\` may now be the ${id} variant`, null, id, where, name, variantOwner);
      }
    }
  };
  walk(base, head, pointer, element, new Set(), 0, { schema: null, at: '' });
}
