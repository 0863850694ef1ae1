// Finishes tsup's output in dist/ (run after tsup by `build`):
// - esbuild's code splitting can make an entry import, for order alone, a chunk of CommonJS
//   interop helpers that a bundled CommonJS dependency uses (`import "./chunk-….js"`, `require("./chunk-….cjs")`).
//   The package declares `"sideEffects": false`, which holds for every module here, so a bundler
//   drops that import and warns that it did (esbuild: ignored-bare-import). Nothing in a chunk
//   runs on import, so the import is dead: dropped here.
// - White space is minified here rather than by tsup: tsup turns the CommonJS chunks into
//   CommonJS after esbuild, and its rewrite of `?.` breaks on minified `return(…)?.`.
// - The generated JSON (the trimmed descriptions) is copied in: the chunks of both formats load
//   this one copy (tsup.config.ts keeps it out of them).
// `pnpm lint` bundles the entries as an app does and fails on any warning (bundle-check.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(packageDir, 'dist');
const generated = path.join(packageDir, 'src', 'generated');
const BARE = /(?:^|(?<=[;}\n]))\s*(?:import\s*["']\.\/chunk-[\w-]+\.js["']|require\(\s*["']\.\/chunk-[\w-]+\.cjs["']\s*\))\s*;?/g;

let dropped = 0;
let before = 0;
let after = 0;
for (const file of fs.readdirSync(dist).filter((name) => /\.c?js$/.test(name))) {
  const full = path.join(dist, file);
  const text = fs.readFileSync(full, 'utf8');
  const kept = text.replace(BARE, () => {
    dropped += 1;
    return '';
  });
  const { code } = await transform(kept, { minifyWhitespace: true, format: file.endsWith('.cjs') ? 'cjs' : 'esm', target: 'es2022', supported: { 'import-attributes': true }, charset: 'utf8' });
  before += Buffer.byteLength(text);
  after += Buffer.byteLength(code);
  fs.writeFileSync(full, code);
}
const data = fs.readdirSync(generated).filter((name) => name.endsWith('.json'));
for (const file of data) fs.copyFileSync(path.join(generated, file), path.join(dist, file));
console.log(`dist: ${data.join(', ')} shared by both formats; dropped ${dropped} import(s) made for order alone; ${before} → ${after} bytes of JavaScript`);
