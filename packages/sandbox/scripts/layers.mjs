// The engine's layers point one way: a file may import from its own folder and from folders
// below its own in the order that packages/sandbox/src/README.md states (its "Layers" table,
// lowest first), never from a folder above. The entries at the top of src/ may import anything,
// and nothing imports them. `pnpm lint` runs this; it exits non-zero on any upward import.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The folders of the README's layer table, lowest layer first. */
export function layerOrder(readmeText) {
  const section = readmeText.split(/^## /m).find((part) => part.startsWith('Layers'));
  if (!section) throw new Error('the README has no "## Layers" section');
  const folders = [...section.matchAll(/^\|\s*\d+\s*\|\s*`([\w-]+)\/`\s*\|/gm)].map((m) => m[1]);
  if (folders.length === 0) throw new Error('the "## Layers" table names no folder');
  return folders;
}

function sources(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sources(path.join(dir, entry.name)) : /\.[cm]?ts$/.test(entry.name) ? [path.join(dir, entry.name)] : []));
}

/** The relative module specifiers a file imports or re-exports, statically or dynamically. */
export function relativeSpecifiers(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
}

/**
 * Every import that breaks the order, as "file → target (why)". A folder missing from the order
 * is a finding too, so that a new folder is placed before it is used.
 */
export function layerViolations(srcDir, order) {
  const rank = new Map(order.map((folder, index) => [folder, index]));
  const problems = [];
  for (const folder of fs.readdirSync(srcDir, { withFileTypes: true })) {
    if (folder.isDirectory() && !rank.has(folder.name)) problems.push(`${folder.name}/ is in no layer of the README's table`);
  }
  for (const file of sources(srcDir)) {
    const from = path.relative(srcDir, file).split(path.sep);
    const fromFolder = from.length > 1 ? from[0] : null;
    for (const specifier of relativeSpecifiers(fs.readFileSync(file, 'utf8'))) {
      const target = path.relative(srcDir, path.resolve(path.dirname(file), specifier)).split(path.sep);
      if (target[0] === '..') continue;
      const name = `${from.join('/')} → ${target.join('/')}`;
      if (target.length === 1) {
        if (fromFolder !== null) problems.push(`${name} (an entry is the top: nothing imports it)`);
        continue;
      }
      const toFolder = target[0];
      if (fromFolder === null || fromFolder === toFolder) continue;
      if (!rank.has(fromFolder) || !rank.has(toFolder)) continue;
      if (rank.get(toFolder) > rank.get(fromFolder)) problems.push(`${name} (${toFolder}/ is above ${fromFolder}/)`);
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const order = layerOrder(fs.readFileSync(path.join(src, 'README.md'), 'utf8'));
  const problems = layerViolations(src, order);
  if (problems.length > 0) {
    console.error(`Imports that point up the layers of src/README.md (${order.join(' → ')}):`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`layers: every import of src/ points down ${order.join(' → ')}`);
}
