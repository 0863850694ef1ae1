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
import { mediaTypeVersion, operationsOf } from '@payroll-api/openapi-bundle';

const ownDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: { watch: { type: 'boolean', default: false }, 'spec-dir': { type: 'string' } },
});
const specDir = path.resolve(options['spec-dir'] ?? ownDir);
const distDir = path.join(specDir, 'dist');
const redocly = path.join(ownDir, 'node_modules', '.bin', 'redocly');
const apis = ['payroll', 'journal'];
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
    acceptPerResource(doc, doc['x-resource-versions']);
    markVersionBasis(doc, doc['x-resource-versions']);
  }
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
