// Where things are in the repository. The tool runs from tools/api-policy (turbo runs package
// scripts there), so the repository root is found by walking up to pnpm-workspace.yaml.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const APIS = ['payroll', 'journal'];

/** The nearest directory at or above `from` that holds pnpm-workspace.yaml. */
export function findRepoRoot(from = PACKAGE_DIR) {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml at or above ${from}: pass --root <repository>`);
    dir = parent;
  }
}

export function bundlePath(root, api) {
  return path.join(root, 'spec', 'dist', `${api}.json`);
}

export function baselinePath(root, api) {
  return path.join(root, 'tools', 'api-policy', 'baseline', `${api}.json`);
}

export function registryPath(root, api) {
  return path.join(root, 'spec', api, 'resource-versions.yaml');
}

/** Reads a bundle (JSON; YAML also accepted) with a clear error. */
export async function readBundle(file) {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  const text = fs.readFileSync(file, 'utf8');
  try {
    if (/\.ya?ml$/i.test(file)) {
      const { default: YAML } = await import('yaml');
      return YAML.parse(text);
    }
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not a readable bundle: ${error.message}`);
  }
}

export function relative(root, file) {
  const rel = path.relative(root, file);
  return rel.startsWith('..') ? file : rel.split(path.sep).join('/');
}
