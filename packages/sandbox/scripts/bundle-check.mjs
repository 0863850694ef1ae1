// Bundles each built entry of dist/ as an app does (esbuild, for the browser and for Node, ESM
// and CommonJS) and fails on any warning: a bundler that warns about the package (an import it
// drops, a missing export) is a build that prints warnings for every user. `pnpm lint` runs it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const entries = [
  { file: 'index.js', platform: 'browser' },
  { file: 'msw.js', platform: 'browser' },
  { file: 'fixtures.js', platform: 'browser' },
  { file: 'engine.js', platform: 'node' },
  { file: 'index.cjs', platform: 'node' },
  { file: 'engine.cjs', platform: 'node' },
];

const problems = [];
for (const { file, platform } of entries) {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(`./dist/${file}`)};`, resolveDir: packageDir, loader: 'js' },
    bundle: true,
    write: false,
    platform,
    format: 'esm',
    external: ['msw', 'msw/*'],
    logLevel: 'silent',
  });
  for (const warning of result.warnings) problems.push(`${file} (${platform}): ${warning.text}${warning.location ? ` at ${warning.location.file}:${warning.location.line}` : ''}`);
}
if (problems.length > 0) {
  console.error(`Bundling the built entries as an app does warns:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`bundle-check: ${entries.length} entries bundle without a warning`);
