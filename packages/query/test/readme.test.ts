// The README's invalidation table is the one the build derives from the description.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { deriveTables, invalidationMarkdown, README_TABLE } from '../scripts/derive.mjs';
import { bundle } from './sandbox-writes.js';

it('README.md shows the invalidation table derived from the description', () => {
  const readme = fs.readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  const [start, end] = README_TABLE;
  const shown = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end)).trim();
  expect(readme.indexOf(start)).toBeGreaterThan(0);
  expect(shown).toBe(invalidationMarkdown(deriveTables(bundle('payroll'), bundle('journal'))));
  expect(shown).toContain('| payroll | `PutEmployeeByEmployeeId` |');
});
