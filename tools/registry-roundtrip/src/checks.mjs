// What a published tarball must be: what an integrator and the registry read from it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { forbiddenEntries, readTarball, workspacePackages } from '@payroll-api/api-policy';

/** The packages the repository publishes: every workspace package that is not private. */
export function publishedPackages(root) {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];

/** The repository's home on the web, from the root manifest's `repository.url`; undefined while the root names none. */
export function repositoryWebUrl(rootManifest) {
  const url = typeof rootManifest.repository === 'string' ? rootManifest.repository : rootManifest.repository?.url;
  return url ? url.replace(/^git\+/, '').replace(/\.git$/, '') : undefined;
}

/** Problems of a packed manifest: the fields an integrator, a bundler and the registry read. */
export function manifestProblems(manifest, { rootManifest, dir }) {
  const problems = [];
  const name = manifest.name;
  for (const field of ['license', 'engines', 'exports', 'sideEffects']) {
    if (manifest[field] === undefined) problems.push(`${name}: no "${field}"`);
  }
  if (manifest.publishConfig?.access !== 'public') problems.push(`${name}: publishConfig.access is not "public"`);
  if (!manifest.engines?.node) problems.push(`${name}: engines.node is missing`);
  // A package names the repository the root names, or none while the root names none (a
  // manifest must not point at a repository that does not exist). Provenance ties the tarball
  // to the repository and folder it was built from.
  const rootUrl = typeof rootManifest.repository === 'string' ? rootManifest.repository : rootManifest.repository?.url;
  if (rootUrl === undefined) {
    if (manifest.repository !== undefined) problems.push(`${name}: names a repository (${JSON.stringify(manifest.repository)}) while the root package.json names none`);
  } else {
    if (manifest.repository?.url !== rootUrl) problems.push(`${name}: repository.url ${manifest.repository?.url} is not the repository's (${rootUrl})`);
    if (manifest.repository?.directory !== dir) problems.push(`${name}: repository.directory ${manifest.repository?.directory} is not ${dir}`);
  }
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${name}: ${field} ${dependency} is "${range}"`);
    }
  }
  return problems;
}

/** The links of a markdown text: [text](target) and <img src>, without code blocks. */
export function markdownLinks(markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
}

/**
 * Problems of a README on the registry's page: a relative link leads nowhere there, and a
 * link into the repository must name a file that exists in it.
 */
export function readmeProblems(name, markdown, { root, webUrl }) {
  const problems = [];
  for (const link of markdownLinks(markdown)) {
    if (link.startsWith('#') || /^mailto:/.test(link)) continue;
    if (!/^https?:\/\//.test(link)) {
      problems.push(`${name}: README link ${link} is relative; it leads nowhere on the registry's page`);
      continue;
    }
    const inRepository = webUrl && new RegExp(`^${webUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:blob|tree)/[^/]+/([^#?]*)`).exec(link);
    if (inRepository && !existsSync(path.join(root, decodeURIComponent(inRepository[1])))) {
      problems.push(`${name}: README link ${link} names ${inRepository[1]}, which the repository does not have`);
    }
  }
  return problems;
}

/** Problems of one tarball: no tests, no source maps outside dist, a sound manifest and README. */
export function tarballProblems(file, { root, rootManifest, dir }) {
  const entries = readTarball(file);
  const manifest = JSON.parse(entries.find((entry) => entry.path === 'package.json').body.toString('utf8'));
  const problems = manifestProblems(manifest, { rootManifest, dir });
  for (const entry of forbiddenEntries(entries)) problems.push(`${manifest.name}: ${entry.path} is a test file`);
  for (const entry of entries) if (/\.map$/.test(entry.path) && !entry.path.startsWith('dist/')) problems.push(`${manifest.name}: source map ${entry.path} outside dist/`);
  const readme = entries.find((entry) => /^readme(\.md)?$/i.test(entry.path));
  if (!readme) problems.push(`${manifest.name}: no README`);
  else problems.push(...readmeProblems(manifest.name, readme.body.toString('utf8'), { root, webUrl: repositoryWebUrl(rootManifest) }));
  if (!entries.some((entry) => entry.path === 'CHANGELOG.md')) problems.push(`${manifest.name}: no CHANGELOG.md`);
  return { manifest, files: entries.map((entry) => entry.path).sort(), problems };
}
