// The schema side of `api:version <resource> <date> --rename … --remove … --add … --retype …`:
// for each media type of the new version, the schema files on the way from its schema to a
// changed field are copied (`<Name>V<yyyyMMdd>.yaml`, next to the original), the references
// between the copies are rewired, and the change is made in the copy. The originals, and so
// the older versions, stay untouched.
import fs from 'node:fs';
import path from 'node:path';
import { ENTITY_FIELDS, changeFields, fieldSegments } from '@payroll-api/version-changes';
import YAML from 'yaml';

/** Where the entity sits in an answer: the detail envelope's content, the list's items, or the schema itself. */
const ENTITY_ROOTS = [...ENTITY_FIELDS.map((field) => [field]), []];
const COMBINATIONS = ['allOf', 'oneOf', 'anyOf'];

const getIn = (value, keys) => keys.reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), value);

export function schemaCopies({ root, api, date }) {
  const ownDir = path.join(root, 'spec', api);
  const sources = new Map(); // file -> {text, js}
  const copies = new Map(); // original file -> {file, doc}
  const suffix = `V${date.replaceAll('-', '')}`;

  const source = (file) => {
    if (!sources.has(file)) {
      const text = fs.readFileSync(file, 'utf8');
      sources.set(file, { text, js: YAML.parse(text) });
    }
    return sources.get(file);
  };
  // Shared conventions (spec/common) are never copied: a change is made in the API's own schemas.
  const copiable = (file) => file.startsWith(ownDir + path.sep) && fs.existsSync(file);
  const refTarget = (file, node) => {
    const ref = node?.$ref;
    if (typeof ref !== 'string' || ref.startsWith('#')) return null;
    const target = path.resolve(path.dirname(file), ref.split('#')[0]);
    return copiable(target) ? target : null;
  };

  /**
   * The way to the object schema holding field `segments` (the last one is the property):
   * {hops: [{file, refPath, target}], file, objectPath, found}. `found` is false for a
   * property that is not there yet (an add), whose object was reached.
   */
  const seek = (file, at, segments, hops, seen = new Set()) => {
    const node = getIn(source(file).js, at);
    if (!node || typeof node !== 'object') return null;
    const key = `${file}#${at.join('/')}#${segments.join('.')}`;
    if (seen.has(key)) return null;
    seen.add(key);
    const target = refTarget(file, node);
    if (target) return seek(target, [], segments, [...hops, { file, refPath: [...at, '$ref'], target }], seen);
    const [first, ...rest] = segments;
    if (segments.length === 0) return null;
    if (node.properties && Object.hasOwn(node.properties, first)) {
      if (rest.length === 0) return { hops, file, objectPath: at, found: true };
      return seek(file, [...at, 'properties', first], rest, hops, seen);
    }
    if (node.items) return seek(file, [...at, 'items'], segments, hops, seen);
    // A property found in one part of a composition wins over a place to add it in another.
    let fallback = null;
    for (const combination of COMBINATIONS) {
      for (const [i] of (node[combination] ?? []).entries()) {
        const hit = seek(file, [...at, combination, i], segments, hops, seen);
        if (hit?.found) return hit;
        fallback ??= hit;
      }
    }
    if (!fallback && rest.length === 0 && node.properties && !node.allOf) return { hops, file, objectPath: at, found: false };
    return fallback;
  };

  /** The way to a field from a media type's schema file, through the answer's envelope. */
  const locate = (schemaFile, fieldPath, { adding }) => {
    const segments = fieldSegments(fieldPath);
    for (const prefix of ENTITY_ROOTS) {
      if (prefix.length > 0 && !seek(schemaFile, [], prefix, [])?.found) continue;
      const hit = seek(schemaFile, [], [...prefix, ...segments], []);
      if (hit && (hit.found || adding)) return hit;
      if (prefix.length > 0) return null; // the envelope was found: the field is not in its entity
    }
    return null;
  };

  const copyOf = (file) => {
    if (!copies.has(file)) {
      const target = file.replace(/\.ya?ml$/i, (ext) => `${suffix}${ext}`);
      if (fs.existsSync(target)) throw new Error(`${path.relative(root, target)} already exists`);
      copies.set(file, { file: target, doc: YAML.parseDocument(source(file).text) });
    }
    return copies.get(file);
  };
  const relativeRef = (from, to) => {
    const ref = path.relative(path.dirname(from), to).split(path.sep).join('/');
    return ref.startsWith('.') ? ref : `./${ref}`;
  };

  const applied = new Set();
  /** Makes `change` in the copies reached from `schemaFile`; returns the copy of schemaFile, or null. */
  const apply = (schemaFile, change) => {
    const { kind, before, after } = changeFields(change);
    const hit = locate(schemaFile, before ?? after, { adding: kind === 'add' });
    if (!hit) return null;
    for (const hop of hit.hops) {
      const from = copyOf(hop.file);
      from.doc.setIn(hop.refPath, relativeRef(from.file, copyOf(hop.target).file));
    }
    const copy = copyOf(hit.file);
    const once = `${hit.file}#${hit.objectPath.join('/')}#${JSON.stringify(change)}`;
    if (!applied.has(once)) {
      applied.add(once);
      editObject(copy.doc, hit.objectPath, change, hit.found);
    }
    return copyOf(schemaFile);
  };

  /** The type of a field in the original schemas (for naming a retype's conversion). */
  const typeOf = (schemaFile, fieldPath) => {
    const hit = locate(schemaFile, fieldPath, { adding: false });
    if (!hit) return undefined;
    const property = getIn(source(hit.file).js, [...hit.objectPath, 'properties', fieldSegments(fieldPath).at(-1)]);
    const type = Array.isArray(property?.type) ? property.type.find((t) => t !== 'null') : property?.type;
    return type;
  };

  return {
    locate,
    apply,
    typeOf,
    relativeRef,
    /** {file: text} of every copy. */
    files: () => new Map([...copies.values()].map(({ file, doc }) => [file, doc.toString({ flowCollectionPadding: false })])),
  };
}

function nullable(property) {
  if (!property || typeof property !== 'object') return false;
  if (Array.isArray(property.type) && property.type.includes('null')) return true;
  return (property.oneOf ?? []).some((part) => part?.type === 'null');
}

/** Makes one change in a copied schema document, at the object schema that holds the field. */
function editObject(doc, objectPath, change, found) {
  const { kind, before, after } = changeFields(change);
  const name = fieldSegments(before ?? after).at(-1);
  const propertiesPath = [...objectPath, 'properties'];
  const requiredPath = [...objectPath, 'required'];
  const required = doc.getIn(requiredPath);
  const requiredList = required?.toJSON?.() ?? [];
  const setRequired = (list) => {
    if (list.length === 0) doc.deleteIn(requiredPath);
    else doc.setIn(requiredPath, doc.createNode(list, { flow: true }));
  };
  switch (kind) {
    case 'rename': {
      const pair = doc.getIn(propertiesPath, true).items.find((p) => String(p.key?.value ?? p.key) === name);
      pair.key = doc.createNode(change.to);
      if (requiredList.includes(name)) setRequired(requiredList.map((r) => (r === name ? change.to : r)));
      break;
    }
    case 'remove':
      doc.deleteIn([...propertiesPath, name]);
      if (requiredList.includes(name)) setRequired(requiredList.filter((r) => r !== name));
      break;
    case 'add': {
      if (found) throw new Error(`--add ${after}: the field already exists`);
      const schema = { type: change.type, description: `Added in this resource version.` };
      if (change.default !== undefined) schema.description += ` A write at an older version gets ${JSON.stringify(change.default)}.`;
      doc.setIn([...propertiesPath, name], doc.createNode(schema));
      if (change.default !== undefined && !requiredList.includes(name)) setRequired([...requiredList, name]);
      break;
    }
    case 'retype': {
      const old = doc.getIn([...propertiesPath, name])?.toJSON?.() ?? {};
      const schema = { type: nullable(old) ? [change.type, 'null'] : change.type };
      if (old.description) schema.description = old.description;
      if (old.readOnly) schema.readOnly = true;
      doc.setIn([...propertiesPath, name], doc.createNode(schema));
      break;
    }
    default:
      break; // revalue and note are written by hand, with the schema change they explain
  }
}
