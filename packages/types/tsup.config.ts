import { defineConfig } from 'tsup';

// Type-only entry points: the JavaScript files are empty modules, present so that both
// `import` and `require` resolve; the value is in the .d.ts (ESM) and .d.cts (CJS) files.
export default defineConfig({
  entry: { payroll: 'src/payroll.ts', journal: 'src/journal.ts', 'sandbox-control': 'src/sandbox-control.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
});
