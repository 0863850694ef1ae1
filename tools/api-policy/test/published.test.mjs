// The published packages are listed in several places; each must be the workspace's own list
// (every package that is not private), so that none is left out of a release, a dry run's
// build or the docs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_PACKAGES } from '../src/policy.mjs';
import { workspacePackages } from '../src/release.mjs';
import { findRepoRoot } from '../src/repo.mjs';

const repo = findRepoRoot();
const published = workspacePackages(repo)
  .filter((p) => !p.manifest.private)
  .map((p) => p.name)
  .sort();
const read = (file) => fs.readFileSync(path.join(repo, file), 'utf8');
const fullName = (name) => (name.startsWith('@') ? name : `@payroll-api/${name}`);

/** The backticked package names in the parenthesis that follows `anchor` in a document. */
function listedAfter(file, anchor) {
  const text = read(file);
  const at = text.indexOf(anchor);
  if (at === -1) throw new Error(`${file} no longer says "${anchor}"`);
  const open = text.indexOf('(', at);
  const list = text.slice(open, text.indexOf(')', open));
  return [...list.matchAll(/`([^`]+)`/g)].map((m) => fullName(m[1])).sort();
}

describe('the published packages', () => {
  it('are the non-private workspace packages: PUBLISHED_PACKAGES and the changesets fixed group', () => {
    expect([...PUBLISHED_PACKAGES].sort()).toEqual(published);
    expect([...JSON.parse(read('.changeset/config.json')).fixed[0]].sort()).toEqual(published);
  });

  it('are each built before release:dry packs them (and before the packaging test)', () => {
    const { tasks } = JSON.parse(read('turbo.json'));
    for (const task of ['release:dry', '@payroll-api/api-policy#test']) {
      expect(tasks[task].dependsOn, task).toEqual(expect.arrayContaining(published.map((name) => `${name}#build`)));
    }
  });

  it.each([
    ['README.md', 'that is not `private` (today'],
    ['tools/api-policy/README.md', '| P-CHANGESET |'],
    ['.changeset/README.md', 'Every change to a published package'],
  ])('are the list %s gives', (file, anchor) => {
    expect(listedAfter(file, anchor)).toEqual(published);
  });
});
