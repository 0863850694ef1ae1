import { defineConfig, type Options } from 'tsup';

const common: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  // The builds run at once: neither cleans (the build script empties dist/ first).
  clean: false,
  external: ['openapi-fetch', '@payroll-api/types'],
};

// Two builds, so that the main entry shares no chunk with the form and sandbox entries: the
// cross-chunk imports would cost its size budget bytes. Those entries carry their own copy of
// what they use (isApiError recognises an ApiError of any copy).
export default defineConfig([
  { ...common, entry: { index: 'src/index.ts', body: 'src/body.ts' } },
  { ...common, entry: { sandbox: 'src/sandbox.ts', forms: 'src/forms.ts' } },
]);
