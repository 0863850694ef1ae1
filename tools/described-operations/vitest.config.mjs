import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // One copy of the repository, step by step; each step is bounded.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
