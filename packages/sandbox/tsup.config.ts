import { defineConfig } from 'tsup';

// Three entries: the sandbox (createSandbox), its MSW handlers, and the engine a server builds
// on. Built for browsers and Node alike; msw stays external (a peer dependency).
export default defineConfig({
  entry: { index: 'src/index.ts', msw: 'src/msw.ts', engine: 'src/engine.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  external: ['msw'],
  // A private workspace package, and ajv (bundled: one file loads several times faster than
  // ajv's many modules, which is most of a cold start in Node).
  noExternal: ['@payroll-api/version-changes', 'ajv', 'ajv-formats'],
});
