import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The sandbox tests reach into the engine's modules (the seed's ids, the store, the filter);
    // the package exports only its public entries.
    // The engine entry resolves to the same source, so that its classes (UniqueViolation) are one.
    alias: [
      { find: /^#sandbox\/(.*)\.js$/, replacement: fileURLToPath(new URL('../sandbox/src/$1.ts', import.meta.url)) },
      { find: /^@payroll-api\/sandbox\/engine$/, replacement: fileURLToPath(new URL('../sandbox/src/engine.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Every test file starts its own mock process; a few at a time keep a small machine responsive.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
