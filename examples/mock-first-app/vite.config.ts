import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const WORKER = 'mockServiceWorker.js';

/**
 * MSW's worker script, served by the dev server and written into the build from the installed
 * msw, so it always matches the msw version the page runs (MSW warns on a mismatch) and is
 * never a copy kept in git.
 */
function mswWorker(): Plugin {
  const script = () => readFileSync(createRequire(import.meta.url).resolve(`msw/${WORKER}`), 'utf8');
  return {
    name: 'msw-worker',
    configureServer(server) {
      server.middlewares.use(`/${WORKER}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(script());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WORKER, source: script() });
    },
  };
}

export default defineConfig({
  plugins: [react(), mswWorker()],
  // The sandbox chunk (engine, descriptions, seed, ajv) is about 1 MB minified, 300 kB gzipped.
  build: { target: 'es2022', chunkSizeWarningLimit: 1200 },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
