// No page points at a repository that does not exist: the READMEs and guides of the repository,
// the packages' homepage, bugs and repository fields, and the built site link to github.com/payroll-api/
// payroll-api nowhere (the docs site renders READMEs' sections, so their links are its links).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const MISSING = /https?:\/\/github\.com\/payroll-api\/payroll-api\b/;
const tracked = (pattern) => execFileSync('git', ['ls-files', '-z', pattern], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const htmlFiles = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? htmlFiles(path.join(dir, entry.name)) : /\.html$/.test(entry.name) ? [path.join(dir, entry.name)] : []));

/** The links of a text: markdown targets, href and src attributes. */
const linksOf = (text) => [...text.matchAll(/\]\(\s*<?([^)\s>]+)/g), ...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]);

describe('links to github.com/payroll-api/payroll-api', () => {
  it('no markdown file of the repository has one', () => {
    const found = tracked('*.md').flatMap((file) => linksOf(readFileSync(path.join(root, file), 'utf8')).filter((link) => MISSING.test(link)).map((link) => `${file}: ${link}`));
    expect(found).toEqual([]);
  });

  it('no package names it as its homepage, bug tracker or repository', () => {
    const found = tracked('*package.json').flatMap((file) => {
      const manifest = JSON.parse(readFileSync(path.join(root, file), 'utf8'));
      return ['homepage', 'bugs', 'repository'].filter((field) => MISSING.test(JSON.stringify(manifest[field] ?? ''))).map((field) => `${file}: ${field}`);
    });
    expect(found).toEqual([]);
  });

  it.skipIf(!existsSync(dist))('no page of the built site has one', () => {
    const found = htmlFiles(dist).flatMap((file) => linksOf(readFileSync(file, 'utf8')).filter((link) => MISSING.test(link)).map((link) => `${path.relative(dist, file)}: ${link}`));
    expect(found).toEqual([]);
  });

  it('finds such a link where there is one', () => {
    expect(linksOf('see [the client](https://github.com/payroll-api/payroll-api/blob/main/packages/client/README.md)').filter((link) => MISSING.test(link))).toHaveLength(1);
    expect(linksOf('<a href="https://github.com/payroll-api/payroll-api/tree/main/spec">spec</a>').filter((link) => MISSING.test(link))).toHaveLength(1);
  });
});
