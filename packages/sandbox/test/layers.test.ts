// The layer check of `pnpm lint` (scripts/layers.mjs): the real tree passes, and each kind of
// upward import in a made tree is found.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { layerOrder, layerViolations, relativeSpecifiers } from '../scripts/layers.mjs';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('the layers of the engine', () => {
  it('reads the order from the README, lowest first, and every import of src/ points down it', () => {
    const order = layerOrder(fs.readFileSync(path.join(src, 'README.md'), 'utf8'));
    expect(order[0]).toBe('util');
    expect(order.indexOf('store')).toBeLessThan(order.indexOf('resources'));
    expect(order.indexOf('resources')).toBeLessThan(order.indexOf('engine'));
    expect(order.indexOf('engine')).toBeLessThan(order.indexOf('control'));
    expect(layerViolations(src, order)).toEqual([]);
  });

  it('finds static, re-exported, type-only and dynamic imports, and skips comments', () => {
    const text = "import a from './a.js';\nexport { b } from '../b.js';\nimport type { C } from '../c/c.js';\nconst d = await import('../d.js');\n// import e from '../e.js';\n/* import f from '../f.js'; */\nimport g from 'ajv';";
    expect(relativeSpecifiers(text)).toEqual(['./a.js', '../b.js', '../c/c.js', '../d.js']);
  });

  it('refuses an import from a higher layer, a folder in no layer, and an import of an entry', () => {
    const dir = tree({
      'low/a.ts': "import { b } from '../high/b.js';\nexport const a = 1;",
      'high/b.ts': "import { a } from '../low/a.js';\nexport const b = a;",
      'stray/c.ts': "export const c = 1;",
      'high/d.ts': "import type { E } from '../entry.js';",
      'entry.ts': "export type E = 1; export * from './high/b.js';",
    });
    expect(layerViolations(dir, ['low', 'high']).sort()).toEqual([
      'stray/ is in no layer of the README\'s table',
      'high/d.ts → entry.js (an entry is the top: nothing imports it)',
      'low/a.ts → high/b.js (high/ is above low/)',
    ].sort());
  });
});
