import { defineConfig } from 'tsup';

// Two entries: the library (startMock, createMock) and the command line behind the bin.
// Prism and exceljs stay external: they are dependencies, loaded from node_modules.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: false,
  target: 'node20',
  shims: true,
});
