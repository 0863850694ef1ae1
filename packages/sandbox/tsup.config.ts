import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';

// The generated descriptions are JSON files that scripts/dist-finish.mjs copies into dist/: one copy
// for both formats, where ESM imports it as a JSON module and CommonJS requires it, rather than a
// copy inlined into the chunks of each. Every output sits in dist/ itself, so the path stays `./`.
const sharedData: Plugin = {
  name: 'shared-data',
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+\.json$/ }, (args) => (/[\\/]src[\\/]generated$/.test(args.resolveDir) ? { path: args.path, external: true } : undefined));
  },
};

// Four entries: the sandbox (createSandbox), its MSW handlers, the engine a server builds on, and the
// factories of test fixtures. Built for browsers and Node alike; msw stays external (a peer dependency).
export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw.ts', engine: 'src/engine.ts', fixtures: 'src/fixtures.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  // One copy of each shared module (the descriptions, the engine) for both formats: the CommonJS
  // entries split into chunks as the ESM ones do. Minified but for white space: tsup turns the
  // CommonJS chunks into CommonJS after esbuild, and its rewrite of `?.` breaks on `return(…)?.`.
  splitting: true,
  esbuildOptions(options) {
    options.minifyIdentifiers = true;
    options.minifySyntax = true;
    // The target predates import attributes, which esbuild would drop from the import of a JSON
    // module; every runtime of the package's (Node >= 20.19, current browsers) reads them.
    options.supported = { ...options.supported, 'import-attributes': true };
  },
  esbuildPlugins: [sharedData],
  target: 'es2022',
  platform: 'neutral',
  external: ['msw'],
  // The private workspace packages.
  noExternal: ['@payroll-api/openapi-bundle', '@payroll-api/version-changes'],
});
