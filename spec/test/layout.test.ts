// Every description keeps the layout a newcomer relies on: one file per path, named after the
// path; an operation index in the folder's README that finds any operation's file from its
// activity name; and component names that Redocly did not have to rename.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadBundle, operationsOf, specDir } from './support/bundles.js';

const apiPrefix = { payroll: /^\/v2\//, journal: /^\/journal\//, 'sandbox-control': /^\/(__sandbox\/)?/ } as const;

for (const api of ['payroll', 'journal', 'sandbox-control'] as const) {
  describe(`${api} layout`, () => {
    const doc = loadBundle(api);
    const root = YAML.parse(fs.readFileSync(path.join(specDir, api, 'openapi.yaml'), 'utf8'));
    const readme = fs.readFileSync(path.join(specDir, api, 'README.md'), 'utf8');

    it('keeps every path in its own file, named after the path', () => {
      for (const p of Object.keys(doc.paths)) {
        expect(root.paths[p]?.$ref, p).toBe(`./paths/${p.replace(apiPrefix[api], '').replaceAll('/', '_')}.yaml`);
      }
    });

    it('lists every operation with its file and method in the README index', () => {
      for (const { operation, path: p, method } of operationsOf(doc)) {
        const file = root.paths[p].$ref.replace('./', '');
        expect(readme, operation.operationId).toContain(`| ${operation.operationId} | \`${file}\` | ${method.toUpperCase()} |`);
      }
    });

    it('names no component twice (Redocly suffixes clashing file names with -2)', () => {
      for (const [kind, entries] of Object.entries(doc.components ?? {})) {
        for (const name of Object.keys(entries)) expect(name, `${kind}/${name}`).not.toMatch(/-\d+$/);
      }
    });
  });
}
