// Bundles each API description into dist/<api>.json and dist/<api>.yaml. Redocly resolves
// the split files; this script then attaches the resource version registry, so that every
// consumer (types, client, mock, docs, policy checker) reads one file per API.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(specDir, 'dist');
const redocly = path.join(specDir, 'node_modules', '.bin', 'redocly');
const apis = ['payroll', 'journal'];

fs.mkdirSync(distDir, { recursive: true });

function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

let failed = false;
for (const api of apis) {
  const root = path.join(specDir, api, 'openapi.yaml');
  if (!fs.existsSync(root)) {
    console.error(`bundle: ${api}/openapi.yaml does not exist`);
    failed = true;
    continue;
  }
  const tmp = path.join(distDir, `.${api}.${process.pid}.json`);
  const run = spawnSync(redocly, ['bundle', api, '--output', tmp, '--ext', 'json'], {
    cwd: specDir,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    console.error(run.stdout, run.stderr);
    console.error(`bundle: redocly could not bundle ${api}`);
    failed = true;
    continue;
  }
  const doc = JSON.parse(fs.readFileSync(tmp, 'utf8'));
  fs.rmSync(tmp);
  const registry = path.join(specDir, api, 'resource-versions.yaml');
  if (fs.existsSync(registry)) {
    doc['x-resource-versions'] = YAML.parse(fs.readFileSync(registry, 'utf8'));
  }
  writeAtomically(path.join(distDir, `${api}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  writeAtomically(path.join(distDir, `${api}.yaml`), YAML.stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  const size = fs.statSync(path.join(distDir, `${api}.json`)).size;
  console.log(`bundle: dist/${api}.json and dist/${api}.yaml (${(size / 1024).toFixed(1)} KiB)`);
}
process.exit(failed ? 1 : 0);
