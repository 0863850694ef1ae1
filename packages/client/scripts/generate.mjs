// Generates, from the bundled descriptions at build time, what the client needs of them:
//
// src/generated/operations.ts, the runtime tables, so that the client sends exactly the
// resource versions it was generated for:
//   payrollOperations["GET /v2/…"] = [operationId, resource, flags, versions]
//     flags:    1 = list operation (paged `_embedded`), 2 = offers a csv/xlsx export,
//               4 = takes a JSON request body;
//     versions: the `version=` dates of the operation's media type keys (falling back to the
//               resource's versions in the `x-resource-versions` registry), newest first.
//   journalOperations["GET /journal/…"] = [operationId, flags]
//
// src/generated/bodies.ts, what toBody() keeps of a read shape for each operation's body:
//   bodyShapes[n] = { field: 0 (kept as it is) | m (bodyShapes[m], per item for an array) }:
//     the writable fields of a body schema (readOnly ones left out, so a metadata object
//     {key, value, …} keeps only key);
//   bodyOf[operationId] = n (the newest version's body);
//   bodyOfVersion[operationId][version] = n, for a body served at several resource versions.
//
// src/generated/journal-codes.ts, the type of a journal message's code: every validation code
// the 400 responses of the journal operations name, plus any other string.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deref, isListEnvelope, mediaTypeVersion, operationsOf, resolveRef, successContent } from '@payroll-api/openapi-bundle';

const here = path.dirname(fileURLToPath(import.meta.url));
// `--dist <dir>` reads the bundles from another folder (default: the monorepo's spec/dist).
const distArg = process.argv.indexOf('--dist');
const distDir = distArg > 0 ? path.resolve(process.argv[distArg + 1] ?? '') : path.resolve(here, '../../../spec/dist');
// `--out <dir>` writes the generated files to another folder (default: src/generated).
const outArg = process.argv.indexOf('--out');
const outDir = outArg > 0 ? path.resolve(process.argv[outArg + 1] ?? '') : path.resolve(here, '../src/generated');
const outFile = path.join(outDir, 'operations.ts');
const LIST = 1;
const EXPORT = 2;
const BODY = 4;

function load(api) {
  const file = path.join(distDir, `${api}.json`);
  if (!fs.existsSync(file)) {
    console.error(`client: the bundle ${path.join(distDir, `${api}.json`)} does not exist.`);
    console.error('client: build the descriptions first: pnpm --filter @payroll-api/spec build');
    process.exit(1);
  }
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!doc.paths || typeof doc.paths !== 'object') {
    console.error(`client: spec/dist/${api}.json has no paths.`);
    process.exit(1);
  }
  return doc;
}

/** The operations that have an operationId: [path, method, operation]. */
function* identified(doc) {
  for (const { path: p, method, operation } of operationsOf(doc)) {
    if (operation.operationId) yield [p, method, operation];
  }
}

const jsonBodySchema = (doc, op) =>
  Object.entries(deref(doc, op.requestBody)?.content ?? {}).find(([media]) => /^application\/json/.test(media))?.[1]?.schema;

function flagsOf(doc, op) {
  const content = successContent(doc, op);
  let flags = jsonBodySchema(doc, op) ? BODY : 0;
  for (const [media, body] of Object.entries(content)) {
    if (/^application\/json/.test(media) && isListEnvelope(doc, body?.schema)) flags |= LIST;
    if (/^text\/csv|spreadsheetml/.test(media)) flags |= EXPORT;
  }
  return flags;
}

const sorted = (versions) => [...new Set(versions)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));

const payroll = load('payroll');
const journal = load('journal');
const registry = payroll['x-resource-versions'];
if (!registry || typeof registry.resources !== 'object') {
  console.error('client: spec/dist/payroll.json has no x-resource-versions registry.');
  process.exit(1);
}
const resourceOf = new Map();
for (const [name, resource] of Object.entries(registry.resources)) {
  for (const id of resource.operations ?? []) resourceOf.set(id, name);
}

const payrollTable = {};
const problems = [];
for (const [p, m, op] of identified(payroll)) {
  const resource = resourceOf.get(op.operationId);
  if (!resource) {
    problems.push(`${op.operationId} is in no resource of the registry`);
    continue;
  }
  const keys = [
    ...Object.keys(successContent(payroll, op)),
    ...Object.keys(deref(payroll, op.requestBody)?.content ?? {}),
  ];
  const fromMedia = keys.map(mediaTypeVersion).filter(Boolean);
  const fromRegistry = (registry.resources[resource].versions ?? []).map((v) => v.version);
  const versions = sorted(fromMedia.length > 0 ? fromMedia : fromRegistry);
  if (versions.length === 0) {
    problems.push(`${op.operationId} has no resource version`);
    continue;
  }
  payrollTable[`${m.toUpperCase()} ${p}`] = [op.operationId, resource, flagsOf(payroll, op), versions];
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`client: ${problem}`);
  process.exit(1);
}

const journalTable = {};
for (const [p, m, op] of identified(journal)) {
  journalTable[`${m.toUpperCase()} ${p}`] = [op.operationId, flagsOf(journal, op)];
}

// Body shapes: the writable fields of each JSON request body schema, through $ref, allOf,
// oneOf/anyOf (the fields of every branch) and array items; identical shapes are stored once.
const shapes = [null];
const shapeIndex = new Map();
const bodyOf = {};

/** The declarations of each property of the schemas (and of their allOf/oneOf/anyOf parts), and their array items. */
function collect(doc, schemas, seen = new Set()) {
  const props = new Map();
  const items = [];
  const visit = (node) => {
    const s = deref(doc, node);
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) visit(part);
    if (s.items) items.push(s.items);
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (!props.has(name)) props.set(name, []);
      props.get(name).push(prop);
    }
  };
  for (const schema of schemas) visit(schema);
  return { props, items };
}

/** Whether a declaration is readOnly: on the node itself or on any schema its $ref chain passes (OpenAPI 3.1 allows `readOnly` beside a `$ref`). */
function declaredReadOnly(doc, node, seen = new Set()) {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (node.readOnly === true) return true;
  return typeof node.$ref === 'string' && declaredReadOnly(doc, resolveRef(doc, node.$ref), seen);
}
const isReadOnly = (doc, declarations) => declarations.some((d) => declaredReadOnly(doc, d));

/** 0 when a value is sent as it is, else the index of its shape in `shapes`. */
function shapeOf(doc, schemas, depth = 0) {
  if (depth > 20) throw new Error('client: body schemas nest deeper than 20 levels');
  const { props, items } = collect(doc, schemas);
  if (props.size === 0) return items.length > 0 ? shapeOf(doc, items, depth + 1) : 0;
  const shape = {};
  for (const [name, declarations] of props) {
    if (!isReadOnly(doc, declarations)) shape[name] = shapeOf(doc, declarations, depth + 1);
  }
  const key = JSON.stringify(shape);
  if (!shapeIndex.has(key)) shapeIndex.set(key, shapes.push(shape) - 1);
  return shapeIndex.get(key);
}

/**
 * The journal's validation codes: every string a 400 response allows for a message's `code`
 * (an enum, a const, or the known values of an open field: `anyOf: [{enum}, {type: string}]`,
 * `x-extensible-enum`), and whether a code may be an integer too.
 */
function journalCodes(doc) {
  const codes = new Set();
  let integer = false;
  const seen = new Set();
  const walk = (node, inCode) => {
    const s = deref(doc, node);
    if (!s || typeof s !== 'object' || seen.has(`${inCode}`) && seen.has(s)) return;
    if (seen.has(s) && !inCode) return;
    seen.add(s);
    if (inCode) {
      for (const value of [...(s.enum ?? []), ...(s['x-extensible-enum'] ?? []), ...('const' in s ? [s.const] : [])]) {
        if (typeof value === 'string') codes.add(value);
      }
      if ([s.type].flat().includes('integer')) integer = true;
    }
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) walk(part, inCode);
    if (s.items) walk(s.items, inCode);
    for (const [name, prop] of Object.entries(s.properties ?? {})) walk(prop, inCode || name === 'code');
  };
  for (const { operation } of operationsOf(doc)) {
    for (const body of Object.values(deref(doc, operation.responses?.['400'])?.content ?? {})) walk(body?.schema, false);
  }
  return { codes: [...codes].sort(), integer };
}

// A body served at several resource versions has a shape per version, for toBody(…, version).
const bodyOfVersion = {};
for (const [doc] of [[payroll], [journal]]) {
  for (const [, , op] of identified(doc)) {
    const schema = jsonBodySchema(doc, op);
    if (schema) bodyOf[op.operationId] = shapeOf(doc, [schema]);
    const versioned = Object.entries(deref(doc, op.requestBody)?.content ?? {}).filter(([media, body]) => /^application\/json/.test(media) && mediaTypeVersion(media) && body?.schema);
    if (versioned.length > 1) bodyOfVersion[op.operationId] = Object.fromEntries(versioned.map(([media, body]) => [mediaTypeVersion(media), shapeOf(doc, [body.schema])]));
  }
}

const { codes, integer } = journalCodes(journal);
if (codes.length === 0) {
  console.error('client: the journal 400 responses name no validation code (messages[].code)');
  process.exit(1);
}

const table = (t) => `{\n${Object.entries(t).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n')}\n}`;
const text = `// Generated by scripts/generate.mjs from spec/dist/payroll.json and spec/dist/journal.json. Do not edit.
/** Payroll operations: "METHOD /path" -> [operationId, resource, flags (1 list, 2 export), versions newest first]. */
export const payrollOperations = ${table(payrollTable)} as const;

/** Journal operations: "METHOD /path" -> [operationId, flags (1 list, 2 export)]. */
export const journalOperations = ${table(journalTable)} as const;
`;
const bodies = `// Generated by scripts/generate.mjs from spec/dist/payroll.json and spec/dist/journal.json. Do not edit.
/** The writable fields of body schemas: field -> 0 (sent as it is) or the index of its own shape. */
export const bodyShapes: readonly (Readonly<Record<string, number>> | null)[] = ${JSON.stringify(shapes)};

/** operationId -> the index of its JSON body's shape in bodyShapes. */
export const bodyOf: Readonly<Record<string, number>> = ${JSON.stringify(bodyOf)};

/** operationId -> version -> the index of its body's shape, for bodies served at several versions. */
export const bodyOfVersion: Readonly<Record<string, Readonly<Record<string, number>>>> = ${JSON.stringify(bodyOfVersion)};
`;
const codeType = `// Generated by scripts/generate.mjs from spec/dist/journal.json. Do not edit.
/** The validation codes the journal API's 400 responses name. */
export type KnownJournalCode =
${codes.map((c) => `  | ${JSON.stringify(c)}`).join('\n')};

/** A journal message's code: a known validation code, any other string${integer ? ', or an integer' : ''}. */
export type JournalMessageCode = KnownJournalCode | (string & {})${integer ? ' | number' : ''};
`;
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, text);
fs.writeFileSync(path.join(path.dirname(outFile), 'bodies.ts'), bodies);
fs.writeFileSync(path.join(path.dirname(outFile), 'journal-codes.ts'), codeType);
console.log(
  `client: src/generated/{operations,bodies,journal-codes}.ts (${Object.keys(payrollTable).length} payroll, ` +
    `${Object.keys(journalTable).length} journal operations, ${shapes.length - 1} body shapes, ${codes.length} journal codes)`,
);
