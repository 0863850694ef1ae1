import { defineConfig } from 'tsup';

// The library (runConformance, startProxy) and the command line behind the bin. The bundle
// reader is a private workspace package, so it is bundled in; the rest are dependencies.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  noExternal: ['@payroll-api/openapi-bundle'],
  clean: true,
  sourcemap: false,
  target: 'node20',
  shims: true,
});
