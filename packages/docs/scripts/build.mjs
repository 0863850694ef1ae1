#!/usr/bin/env node
// Builds the documentation site into dist/ and prints each page's weight (as built, and as
// sent with brotli).
import { buildSite } from '../src/build.mjs';

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

try {
  const result = await buildSite();
  const width = Math.max(...result.pages.map((p) => p.page.length));
  const lines = [`docs: built ${result.pages.length} pages in ${result.milliseconds} ms (registry as of ${result.stamp})`];
  for (const page of result.pages) {
    lines.push(`  ${page.page.padEnd(width)}  html ${kb(page.htmlBytes).padStart(10)}  + assets ${kb(page.assetBytes).padStart(10)}  = ${kb(page.totalBytes).padStart(10)}  (brotli ${kb(page.brotliBytes).padStart(9)})`);
  }
  lines.push(
    `  changelog: ${result.pendingChangesets} pending changeset(s), ${result.releasedPackages.length} package(s) released; calendar: ${result.calendarEntries} resource version(s); rules: ${Object.entries(result.rules).map(([api, list]) => `${api} ${list.length}`).join(', ')}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  process.stderr.write(`docs: ${error.message}\n`);
  process.exit(1);
}
