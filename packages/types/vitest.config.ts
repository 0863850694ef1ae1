import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The type tests (test/**/*.test-d.ts) are compiled by the package's typecheck script, whose
    // tsconfig.json includes them: one compiler run, not a second one here.
    // The generator tests spawn the real generator, which takes seconds on a busy machine.
    testTimeout: 30_000,
  },
});
