import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // The end-to-end scenario bundles the real description twice and the packaging test packs
    // four packages; both run real processes.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
