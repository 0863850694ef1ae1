import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', body: 'src/body.ts', sandbox: 'src/sandbox.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  external: ['openapi-fetch', '@payroll-api/types'],

});
