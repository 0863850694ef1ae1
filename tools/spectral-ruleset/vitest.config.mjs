import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // Each test loads the ruleset and runs Spectral; on a busy machine that exceeds vitest's 5 s default.
    testTimeout: 30_000,
  },
});
