import { defineConfig } from 'tsup';

// The library (runConformance, startProxy) and the command line behind the bin. The bundle
// reader and the version change chain are workspace packages, bundled in; the rest are dependencies.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  noExternal: ['@payroll-api/openapi-bundle', '@payroll-api/version-changes'],
  clean: true,
  sourcemap: false,
  target: 'node20',
  shims: true,
});
