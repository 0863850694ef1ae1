// Generates src/generated/operations.ts: the runtime tables the client needs, read from the
// bundled descriptions at build time, so that the client sends exactly the resource versions
// it was generated for.
//
//   payrollOperations["GET /v2/…"] = [operationId, resource, flags, versions]
//     flags:    1 = list operation (paged `_embedded`), 2 = offers a csv/xlsx export;
//     versions: the `version=` dates of the operation's media type keys (falling back to the
//               resource's versions in the `x-resource-versions` registry), newest first.
//   journalOperations["GET /journal/…"] = [operationId, flags]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// `--dist <dir>` reads the bundles from another folder (default: the monorepo's spec/dist).
const distArg = process.argv.indexOf('--dist');
const distDir = distArg > 0 ? path.resolve(process.argv[distArg + 1] ?? '') : path.resolve(here, '../../../spec/dist');
const outFile = path.resolve(here, '../src/generated/operations.ts');
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LIST = 1;
const EXPORT = 2;

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

/** Resolves a local `#/components/…` reference (the bundle keeps them). */
function deref(doc, node, seen = 0) {
  if (node && typeof node === 'object' && typeof node.$ref === 'string' && seen < 20) {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(doc, target, seen + 1);
  }
  return node;
}

/** Whether a schema (through allOf and refs) declares `_embedded`: a list envelope. */
function isList(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (!s || typeof s !== 'object' || depth > 10) return false;
  if (s.properties && '_embedded' in s.properties) return true;
  return (s.allOf ?? []).some((part) => isList(doc, part, depth + 1));
}

function* operationsOf(doc) {
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const m of methods) {
      const op = item?.[m];
      if (op && typeof op === 'object' && op.operationId) yield [p, m, op];
    }
  }
}

function successContent(doc, op) {
  const content = {};
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue;
    Object.assign(content, deref(doc, response)?.content ?? {});
  }
  return content;
}

function flagsOf(doc, op) {
  const content = successContent(doc, op);
  let flags = 0;
  for (const [media, body] of Object.entries(content)) {
    if (/^application\/json/.test(media) && isList(doc, body?.schema)) flags |= LIST;
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
for (const [p, m, op] of operationsOf(payroll)) {
  const resource = resourceOf.get(op.operationId);
  if (!resource) {
    problems.push(`${op.operationId} is in no resource of the registry`);
    continue;
  }
  const keys = [
    ...Object.keys(successContent(payroll, op)),
    ...Object.keys(deref(payroll, op.requestBody)?.content ?? {}),
  ];
  const fromMedia = keys.map((k) => /;\s*version=(\d{4}-\d{2}-\d{2})/.exec(k)?.[1]).filter(Boolean);
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
for (const [p, m, op] of operationsOf(journal)) {
  journalTable[`${m.toUpperCase()} ${p}`] = [op.operationId, flagsOf(journal, op)];
}

const table = (t) => `{\n${Object.entries(t).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n')}\n}`;
const text = `// Generated by scripts/generate.mjs from spec/dist/payroll.json and spec/dist/journal.json. Do not edit.
/** Payroll operations: "METHOD /path" -> [operationId, resource, flags (1 list, 2 export), versions newest first]. */
export const payrollOperations = ${table(payrollTable)} as const;

/** Journal operations: "METHOD /path" -> [operationId, flags (1 list, 2 export)]. */
export const journalOperations = ${table(journalTable)} as const;
`;
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, text);
console.log(`client: src/generated/operations.ts (${Object.keys(payrollTable).length} payroll, ${Object.keys(journalTable).length} journal operations)`);
