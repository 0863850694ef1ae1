import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The type tests (test/**/*.test-d.ts) are compiled by the package's typecheck script, whose
    // tsconfig.json includes them: one compiler run, not a second one here.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
