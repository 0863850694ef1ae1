// Bundles each API description into dist/<api>.json and dist/<api>.yaml. Redocly resolves
// the split files; this script then attaches the resource version registry, so that every
// consumer (types, client, mock, docs, policy checker) reads one file per API, gives each
// resource an Accept parameter whose examples are that resource's versions, and marks each
// versioned media type with the basis of its version.
//
//   node scripts/bundle.mjs [--watch] [--spec-dir <dir>]
//
// --watch rebundles whenever a source file changes, so that a running mock (which reloads
// dist/) picks up edits to the description without a restart. --spec-dir bundles another
// copy of this folder (tests use it to work on a scratch copy).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { deref, mediaTypeVersion, operationsOf } from '@payroll-api/openapi-bundle';
import { RECORD_KEY, recordFromRegistry, recordProblems } from '@payroll-api/version-changes';

const ownDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: { watch: { type: 'boolean', default: false }, 'spec-dir': { type: 'string' } },
});
const specDir = path.resolve(options['spec-dir'] ?? ownDir);
const distDir = path.join(specDir, 'dist');
const redocly = path.join(ownDir, 'node_modules', '.bin', 'redocly');
const apis = ['payroll', 'journal', 'sandbox-control'];
const sourceDirs = ['common', ...apis];

function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

const SHARED_ACCEPT = '#/components/parameters/Accept';

/**
 * The shared Accept parameter (common/parameters/Accept.yaml) says how the header works; an
 * example of it can only name a version the operation serves, and that depends on the
 * operation's resource. So every resource of the registry gets its own copy,
 * `Accept<Resource>`, whose examples are the resource's versions, newest first, and the
 * resource's operations reference that copy. The house rule media-type-example-served checks
 * the result.
 */
function acceptPerResource(doc, registry) {
  const shared = doc.components?.parameters?.Accept;
  if (!shared) return;
  const resourceOf = new Map();
  for (const [name, resource] of Object.entries(registry.resources ?? {})) {
    for (const operationId of resource.operations ?? []) resourceOf.set(operationId, name);
  }
  let sharedStillUsed = false;
  for (const { operation } of operationsOf(doc)) {
    const parameters = operation.parameters ?? [];
    const index = parameters.findIndex((parameter) => parameter.$ref === SHARED_ACCEPT);
    if (index === -1) continue;
    const resource = resourceOf.get(operation.operationId);
    if (!resource) {
      sharedStillUsed = true;
      continue;
    }
    const componentName = `Accept${resource[0].toUpperCase()}${resource.slice(1)}`;
    if (!doc.components.parameters[componentName]) {
      const versions = registry.resources[resource].versions.map((entry) => entry.version);
      const mediaTypes = versions.map((version) => `application/json;version=${version}`);
      const { example: _unused, examples: _unusedToo, ...rest } = shared;
      doc.components.parameters[componentName] = {
        ...rest,
        description: `${shared.description}\n\nServed versions of the \`${resource}\` resource: ${versions.join(', ')}. A request body is sent with the same version in \`Content-Type\` (\`${mediaTypes[0]}\`).`,
        examples: Object.fromEntries(
          versions.map((version, i) => [
            version,
            { summary: `Resource version ${version}${i === 0 ? ' (newest)' : ''}`, value: mediaTypes[i] },
          ]),
        ),
      };
    }
    parameters[index] = { $ref: `#/components/parameters/${componentName}` };
  }
  if (!sharedStillUsed) delete doc.components.parameters.Accept;
}

/**
 * Every versioned media type of an operation says where its version comes from, read from the
 * registry: `x-version-basis: contract` where the contract names the version for the
 * operation, `inferred` where the contract names it for other operations of the resource only
 * (`inferredFor`), `baseline` where the contract names no version for the resource. The last
 * two carry an `x-contract-gap` sentence saying so.
 */
function markVersionBasis(doc, registry) {
  const entryOf = new Map();
  for (const [name, resource] of Object.entries(registry.resources ?? {})) {
    for (const operationId of resource.operations ?? []) entryOf.set(operationId, { name, versions: resource.versions ?? [] });
  }
  for (const { operation } of operationsOf(doc)) {
    const resource = entryOf.get(operation.operationId);
    if (!resource) continue;
    const owners = [operation.requestBody, ...Object.values(operation.responses ?? {})].filter((owner) => owner?.content);
    for (const owner of owners) {
      for (const [mediaType, media] of Object.entries(owner.content)) {
        const version = mediaTypeVersion(mediaType);
        const entry = resource.versions.find((v) => v.version === version);
        if (!entry) continue;
        const basis = entry.inferredFor?.includes(operation.operationId) ? 'inferred' : entry.basis;
        media['x-version-basis'] = basis;
        if (basis === 'baseline') {
          media['x-contract-gap'] = `The contract names no resource version for ${resource.name}; ${version} is this description's baseline, not a version the contract gives.`;
        } else if (basis === 'inferred') {
          media['x-contract-gap'] = `The contract names ${version} for other operations of ${resource.name} only; that ${operation.operationId} serves it is inferred.`;
        }
      }
    }
  }
}

/** The bad-request responses shared by operations with different parameters and bodies. */
const GENERIC_BAD_REQUESTS = { payroll: ['BadRequest'], journal: ['JournalBadRequestList', 'JournalBadRequestDetail'] };

/** The writable fields of a body schema, breadth first, as dotted paths with their schemas
 * (through $ref, allOf and the nullable oneOf; two levels deep). */
function writableFields(doc, schema, prefix = '', depth = 0, seen = new Set()) {
  const node = deref(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node) || depth > 2) return [];
  seen.add(node);
  const own = Object.entries(node.properties ?? {})
    .map(([name, property]) => ({ path: `${prefix}${name}`, schema: deref(doc, property), required: (node.required ?? []).includes(name) }))
    .filter((field) => !field.schema.readOnly);
  const parts = [...(node.allOf ?? []), ...(node.oneOf ?? []).filter((part) => deref(doc, part)?.type !== 'null')];
  const composed = parts.flatMap((part) => writableFields(doc, part, prefix, depth, seen));
  const nested = own.flatMap((field) => writableFields(doc, field.schema, `${field.path}.`, depth + 1, seen));
  return [...own, ...composed, ...nested];
}

/** The first field of a body schema a 400 can be about, with what breaks it: a length limit,
 * then a range, then a required field, then any writable field. */
function bodyFieldProblem(doc, schema) {
  const fields = writableFields(doc, schema);
  const limited = fields.find((f) => f.schema.maxLength !== undefined);
  if (limited) return { field: limited.path, problem: `may not be longer than ${limited.schema.maxLength} characters` };
  const ranged = fields.find((f) => f.schema.maximum !== undefined || f.schema.minimum !== undefined);
  if (ranged) {
    const { minimum, maximum } = ranged.schema;
    const problem = maximum === undefined ? `must be at least ${minimum}` : `must lie between ${minimum ?? 0} and ${maximum}`;
    return { field: ranged.path, problem };
  }
  const required = fields.find((f) => f.required);
  if (required) return { field: required.path, problem: 'is required' };
  return fields.length > 0 ? { field: fields[0].path, problem: 'has a value that cannot be processed' } : null;
}

/** A bad-request message about the operation's own body field, filter or path parameter. */
function ownBadRequestMessage(doc, pathItem, operation) {
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(doc, p));
  const body = deref(doc, operation.requestBody);
  const bodySchema = Object.values(body?.content ?? {})[0]?.schema;
  const fromBody = bodySchema && bodyFieldProblem(doc, bodySchema);
  if (fromBody) {
    return { description: `The field ${fromBody.field} ${fromBody.problem}.`, properties: [fromBody.field] };
  }
  if (parameters.some((p) => p.in === 'query' && p.name === 'filter')) {
    return { description: "Unknown field 'salary' in filter: it is not a field of this list that can be filtered or ordered on.", properties: ['filter'] };
  }
  const id = parameters.filter((p) => p.in === 'path').at(-1);
  if (id) return { description: `The value '8a1d4e6b-2c57' is not a valid ${id.name}.`, properties: [id.name] };
  return null;
}

/**
 * A 400 example is about its own operation. The generic bad-request responses carry no
 * example in the sources; each operation that uses one gets its own copy,
 * `components.responses.<OperationId>BadRequest`, whose example is the hand-written
 * `<api>/components/examples/<OperationId>BadRequest.yaml` when there is one, else a message
 * about the operation's own body field, filter or path parameter. Responses of a group of
 * operations sharing a body (the journal's validation code groups) keep their own examples.
 */
function badRequestPerOperation(doc, api, registry) {
  const generic = GENERIC_BAD_REQUESTS[api] ?? [];
  const newestVersion = new Map();
  for (const resource of Object.values(registry?.resources ?? {})) {
    for (const operationId of resource.operations ?? []) newestVersion.set(operationId, resource.versions?.[0]?.version);
  }
  const stillUsed = new Set();
  for (const { pathItem, operation } of operationsOf(doc)) {
    const ref = operation.responses?.['400']?.$ref ?? '';
    const sharedName = ref.replace('#/components/responses/', '');
    if (!generic.includes(sharedName)) continue;
    const name = `${operation.operationId}BadRequest`;
    const file = path.join(specDir, api, 'components', 'examples', `${name}.yaml`);
    let example;
    if (fs.existsSync(file)) {
      example = YAML.parse(fs.readFileSync(file, 'utf8'));
    } else {
      const message = ownBadRequestMessage(doc, pathItem, operation);
      if (!message) {
        stillUsed.add(sharedName);
        continue;
      }
      const version = newestVersion.get(operation.operationId);
      example = {
        summary: `A bad request to ${operation.operationId}`,
        value: {
          ...(version ? { version: { resourceVersion: version, obsoleteDate: null } } : {}),
          messages: [{ type: 'BrokenBusinessRule', description: message.description, id: null, properties: message.properties }],
        },
      };
    }
    const shared = doc.components.responses[sharedName];
    const json = shared.content['application/json'];
    const { examples: _shared, example: _sharedToo, ...media } = json;
    doc.components.examples ??= {};
    doc.components.examples[name] = example;
    doc.components.responses[name] = {
      ...shared,
      content: { ...shared.content, 'application/json': { ...media, examples: { [operation.operationId]: { $ref: `#/components/examples/${name}` } } } },
    };
    operation.responses['400'] = { $ref: `#/components/responses/${name}` };
  }
  for (const sharedName of generic) {
    if (!stillUsed.has(sharedName)) delete doc.components.responses?.[sharedName];
  }
}

/**
 * The version changes written on the registry's version entries (`changes`, from the version
 * below) become one record at the root, `x-version-changes`, which the sandbox, conformance,
 * docs and policy checker read through @payroll-api/version-changes; the registry in the bundle
 * keeps the versions and dates only.
 */
function versionChangeRecord(doc, api) {
  const registry = doc['x-resource-versions'];
  const record = recordFromRegistry(registry);
  const problems = recordProblems(record);
  if (problems.length > 0) {
    console.error(`bundle: ${api}/resource-versions.yaml: the version changes are not valid:\n  ${problems.join('\n  ')}`);
    return false;
  }
  for (const resource of Object.values(registry.resources ?? {})) {
    for (const entry of resource.versions ?? []) delete entry.changes;
  }
  if (Object.keys(record).length > 0) doc[RECORD_KEY] = record;
  return true;
}

function bundle(api) {
  const root = path.join(specDir, api, 'openapi.yaml');
  if (!fs.existsSync(root)) {
    console.error(`bundle: ${api}/openapi.yaml does not exist`);
    return false;
  }
  const tmp = path.join(distDir, `.${api}.${process.pid}.json`);
  const run = spawnSync(redocly, ['bundle', root, '--output', tmp, '--ext', 'json'], {
    cwd: specDir,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    console.error(run.stdout, run.stderr);
    console.error(`bundle: redocly could not bundle ${api}`);
    fs.rmSync(tmp, { force: true });
    return false;
  }
  const doc = JSON.parse(fs.readFileSync(tmp, 'utf8'));
  fs.rmSync(tmp);
  const registry = path.join(specDir, api, 'resource-versions.yaml');
  if (fs.existsSync(registry)) {
    doc['x-resource-versions'] = YAML.parse(fs.readFileSync(registry, 'utf8'));
    if (!versionChangeRecord(doc, api)) return false;
    acceptPerResource(doc, doc['x-resource-versions']);
    markVersionBasis(doc, doc['x-resource-versions']);
  }
  badRequestPerOperation(doc, api, doc['x-resource-versions']);
  writeAtomically(path.join(distDir, `${api}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  writeAtomically(path.join(distDir, `${api}.yaml`), YAML.stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  const size = fs.statSync(path.join(distDir, `${api}.json`)).size;
  console.log(`bundle: dist/${api}.json and dist/${api}.yaml (${(size / 1024).toFixed(1)} KiB)`);
  return true;
}

function bundleAll() {
  fs.mkdirSync(distDir, { recursive: true });
  return apis.map(bundle).every(Boolean);
}

const ok = bundleAll();
if (!options.watch) process.exit(ok ? 0 : 1);

// Editors save in bursts (temp file, rename, chmod): wait for the burst to settle.
let timer;
const rebundle = () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!bundleAll()) console.error('bundle: kept the previous bundles; fix the description and save again');
  }, 150);
};
for (const dir of sourceDirs) {
  fs.watch(path.join(specDir, dir), { recursive: true }, rebundle);
}
console.log(`bundle: watching ${sourceDirs.join(', ')} for changes`);
