// The API changelog: what changed in the descriptions at each release, as `api:check`
// classifies it. `release` archives the released bundles (releases/<version>/<api>.json and
// release.json); each release is compared with the one before it, and the working
// descriptions with the baseline (the last release) are the upcoming changes.
import fs from 'node:fs';
import path from 'node:path';
import { REGISTRY_KEY } from './diff.mjs';
import { newMigrationNotes } from './migrations.mjs';
import { checkApi } from './policy.mjs';
import { APIS, baselinePath, bundlePath, relative } from './repo.mjs';

export function releasesDir(root) {
  return path.join(root, 'tools', 'api-policy', 'releases');
}

/** Archives the baseline as release `version` of `date`; returns the written files. */
export function archiveRelease({ root, version, date, apis = APIS }) {
  const dir = path.join(releasesDir(root), version);
  fs.mkdirSync(dir, { recursive: true });
  const written = [];
  for (const api of apis) {
    const source = baselinePath(root, api);
    if (!fs.existsSync(source)) continue;
    fs.copyFileSync(source, path.join(dir, `${api}.json`));
    written.push(relative(root, path.join(dir, `${api}.json`)));
  }
  fs.writeFileSync(path.join(dir, 'release.json'), `${JSON.stringify({ version, date }, null, 2)}\n`);
  written.push(relative(root, path.join(dir, 'release.json')));
  return written;
}

/** The released version of the fixed group (read from the first published package's manifest). */
export function releasedVersion(root) {
  const manifest = path.join(root, 'spec', 'package.json');
  return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
}

/** The archived releases, oldest first: [{version, date, dir}]. */
export function apiReleases(root) {
  const dir = releasesDir(root);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'release.json')))
    .map((name) => {
      const meta = JSON.parse(fs.readFileSync(path.join(dir, name, 'release.json'), 'utf8'));
      return { version: meta.version ?? name, date: meta.date ?? null, dir: path.join(dir, name) };
    })
    .sort((a, b) => String(a.date).localeCompare(String(b.date)) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/**
 * The archived releases of one API, oldest first: [{version, date, file, registry}]
 * (`registry`: the released x-resource-versions). The last one is what integrators have.
 */
export function apiReleaseHistory(root, api) {
  return apiReleases(root)
    .map((release) => ({ ...release, file: path.join(release.dir, `${api}.json`) }))
    .filter((release) => fs.existsSync(release.file))
    .map((release) => ({ ...release, registry: readJson(release.file)?.[REGISTRY_KEY] ?? null }));
}

// The changelog's groups, by the change table's rule ids.
export const CHANGELOG_GROUPS = [
  { id: 'new-version', title: 'New resource versions', test: (f) => f.ruleId === 'NB-VERSION' },
  { id: 'deprecation', title: 'Deprecations and removals', test: (f) => f.ruleId === 'NB-DEPRECATION' || f.severity === 'breaking' },
  { id: 'non-breaking', title: 'Non-breaking changes', test: (f) => f.severity !== 'breaking' },
];

/** Findings of one comparison, grouped: {groups: {<id>: [finding]}, count}. */
export function classify(findings) {
  const groups = Object.fromEntries(CHANGELOG_GROUPS.map((group) => [group.id, []]));
  for (const finding of findings) groups[CHANGELOG_GROUPS.find((group) => group.test(finding)).id].push(finding);
  return { groups, count: findings.length };
}

function readJson(file) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

function compare(api, baseDoc, headDoc, today) {
  if (!headDoc) return null;
  const { findings } = checkApi({ baseDoc: baseDoc ?? { paths: {} }, headDoc, today });
  return { api, first: !baseDoc, ...classify(findings), migrations: newMigrationNotes(baseDoc, headDoc) };
}

/**
 * The changelog of the APIs, newest first: [{version, date, upcoming, apis: [{api, first,
 * groups, count, migrations}]}] (migrations: newMigrationNotes). The first entry is `upcoming` (the working descriptions against the
 * baseline) when the spec is built. A release's `first` API has nothing to compare with.
 */
export function apiChangelog({ root, today, apis = APIS }) {
  const releases = apiReleases(root);
  const entries = [];
  releases.forEach((release, index) => {
    const previous = releases[index - 1];
    entries.push({
      version: release.version,
      date: release.date,
      upcoming: false,
      apis: apis
        .map((api) => compare(api, previous ? readJson(path.join(previous.dir, `${api}.json`)) : null, readJson(path.join(release.dir, `${api}.json`)), release.date ?? today))
        .filter(Boolean),
    });
  });
  const built = apis.filter((api) => fs.existsSync(bundlePath(root, api)));
  if (built.length) {
    entries.push({
      version: null,
      date: null,
      upcoming: true,
      apis: built.map((api) => compare(api, readJson(baselinePath(root, api)), readJson(bundlePath(root, api)), today)),
    });
  }
  return entries.reverse();
}
