// The engine runs in browsers and under MSW: nothing under src/ may import a Node built-in or
// Prism, and the browser entries must bundle for a browser without any Node polyfill.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(packageDir, 'src');
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Every module specifier a file imports or re-exports, statically or dynamically. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('the engine is runtime-neutral', () => {
  it('finds the imports of a sample file (the check itself works)', () => {
    expect(specifiers("import fs from 'node:fs';\nexport { a } from \"./a.js\";\nconst p = import('@stoplight/prism-http');")).toEqual(['node:fs', './a.js', '@stoplight/prism-http']);
  });

  for (const file of sources(src)) {
    const name = path.relative(packageDir, file);
    it(`${name} imports no Node built-in and no Prism`, () => {
      const bad = specifiers(fs.readFileSync(file, 'utf8')).filter((s) => builtins.has(s) || s.startsWith('node:') || s.startsWith('@stoplight/'));
      expect(bad).toEqual([]);
    });
  }

  it('bundles the browser entries and the fixtures for a browser with no Node module', async () => {
    const result = await build({
      stdin: { contents: "export * from './src/index.ts'; export * from './src/msw.ts'; export * from './src/fixtures.ts';", resolveDir: packageDir, loader: 'ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      external: ['msw'],
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/require\(["']node:/);
  });
});
