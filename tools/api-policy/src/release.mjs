// Releasing: the baseline snapshot, `changeset version`, and the dry run that versions and
// packs a copy of the workspace without touching the working tree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { apiReleaseHistory } from './changelog.mjs';
import { PUBLISHED_PACKAGES } from './policy.mjs';
import { APIS, baselinePath, bundlePath, relative } from './repo.mjs';

/**
 * Copies spec/dist/<api>.json to the baseline; returns the written files. The baseline is the
 * last release: once a release is archived, only `pnpm release` (`releasing: true`) moves it,
 * and a snapshot of anything else is refused before a file is written.
 */
export function snapshot({ root, apis = APIS, releasing = false }) {
  if (!releasing) {
    const moved = [];
    for (const api of apis) {
      const last = apiReleaseHistory(root, api).at(-1);
      const source = bundlePath(root, api);
      if (!last || !fs.existsSync(source)) continue;
      if (JSON.stringify(JSON.parse(fs.readFileSync(source, 'utf8'))) !== JSON.stringify(JSON.parse(fs.readFileSync(last.file, 'utf8')))) {
        moved.push(`${relative(root, source)} differs from ${relative(root, last.file)} (release ${last.version} of ${last.date})`);
      }
    }
    if (moved.length > 0) {
      throw new Error(
        `the baseline is the last release and moves only with \`pnpm release\`, which checks the policy and the changesets first:\n  ${moved.join('\n  ')}\n` +
          'Nothing was written. Run pnpm api:check to see what changed since the release.',
      );
    }
  }
  const written = [];
  for (const api of apis) {
    const source = bundlePath(root, api);
    if (!fs.existsSync(source)) continue;
    const doc = JSON.parse(fs.readFileSync(source, 'utf8'));
    const target = baselinePath(root, api);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
    written.push(relative(root, target));
  }
  return written;
}

function bin(root, name) {
  const file = path.join(root, 'node_modules', '.bin', name);
  if (!fs.existsSync(file)) throw new Error(`${relative(root, file)} is missing: install the workspace (pnpm install)`);
  return file;
}

/**
 * How to run pnpm: the pnpm running this script (npm_execpath), the workspace's own, or the
 * version the root manifest pins through npx.
 */
function pnpmCommand(root) {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(path.basename(execpath)) && fs.existsSync(execpath)) {
    return /\.c?js$/.test(execpath) ? [process.execPath, [execpath]] : [execpath, []];
  }
  const local = path.join(root, 'node_modules', '.bin', 'pnpm');
  if (fs.existsSync(local)) return [local, []];
  const pinned = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager ?? 'pnpm@10';
  return ['npx', ['-y', pinned.split('+')[0]]];
}

function run(command, args, cwd, what) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true', npm_config_yes: 'true' }, timeout: 300_000 });
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}):\n${result.stdout ?? ''}${result.stderr ?? ''}`.trimEnd());
  }
  return result.stdout;
}

/** `changeset version` in `cwd` (no git commit; the config says commit: false). */
export function changesetVersion(root, cwd = root) {
  return run(bin(root, 'changeset'), ['version'], cwd, 'changeset version');
}

/** The workspace packages: [{name, dir (relative), manifest}], from pnpm-workspace.yaml globs `dir/*` and `dir`. */
export function workspacePackages(root) {
  const text = fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^packages:\s*$/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const match = /^\s*-\s*['"]?([^'"#]+?)['"]?\s*$/.exec(line);
      if (match) globs.push(match[1]);
    }
  }
  const dirs = [];
  for (const glob of globs) {
    if (glob.endsWith('/*')) {
      const parent = path.join(root, glob.slice(0, -2));
      if (!fs.existsSync(parent)) continue;
      for (const name of fs.readdirSync(parent).sort()) dirs.push(path.join(glob.slice(0, -2), name));
    } else {
      dirs.push(glob);
    }
  }
  return dirs
    .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) }))
    .map((p) => ({ ...p, name: p.manifest.name }));
}

const SKIP = new Set(['node_modules', '.turbo', 'coverage', '.release', 'artifacts']);

function copyTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isFile()) fs.copyFileSync(source, target);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
  }
}

/** Every file an `exports` map (or main/module/types/bin) points at, with its condition path. */
export function exportTargets(manifest) {
  const targets = [];
  const walk = (node, conditions) => {
    if (typeof node === 'string') targets.push({ conditions, file: node.replace(/^\.\//, '') });
    else if (Array.isArray(node)) node.forEach((n) => walk(n, conditions));
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, [...conditions, key]);
  };
  walk(manifest.exports ?? {}, []);
  for (const field of ['main', 'module', 'types', 'typings']) if (typeof manifest[field] === 'string') targets.push({ conditions: [field], file: manifest[field].replace(/^\.\//, '') });
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [name, file] of Object.entries(bins)) targets.push({ conditions: ['bin', name], file: file.replace(/^\.\//, '') });
  return targets;
}

/** The files of a .tgz made by `pnpm pack` (ustar; pax and GNU long names understood): [{path, size, body}]. */
export function readTarball(file) {
  const data = zlib.gunzipSync(fs.readFileSync(file));
  const entries = [];
  let offset = 0;
  let longPath = null;
  while (offset + 512 <= data.length) {
    const header = data.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const text = (start, length) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const prefix = text(345, 155);
    const body = data.subarray(offset + 512, offset + 512 + size);
    if (type === 'x') {
      longPath = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1] ?? null;
    } else if (type === 'L') {
      longPath = body.toString('utf8').replace(/\0.*$/s, '');
    } else {
      const name = longPath ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
      longPath = null;
      if (type === '0') entries.push({ path: name.replace(/^package\//, ''), size, body });
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

export function listTarball(file) {
  return readTarball(file).map(({ path: p, size }) => ({ path: p, size }));
}

/** Paths that must never be published: tests, fixtures, sources of tests, coverage. */
export function forbiddenEntries(entries) {
  return entries.filter(({ path: p }) =>
    /(^|\/)(test|tests|__tests__|fixtures|__fixtures__|coverage)\//.test(p) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) || /(^|\/)vitest\.config\./.test(p),
  );
}

/** Checks one packed package: every export target present; types, ESM and CJS entries; nothing forbidden. */
export function inspectTarball(file) {
  const entries = readTarball(file);
  const paths = new Set(entries.map((e) => e.path));
  const manifestEntry = entries.find((e) => e.path === 'package.json');
  if (!manifestEntry) throw new Error(`${file} holds no package/package.json`);
  const manifest = JSON.parse(manifestEntry.body.toString('utf8'));
  const targets = exportTargets(manifest);
  const missing = targets.filter((t) => !paths.has(t.file));
  const problems = missing.map((t) => `${manifest.name}: ${t.conditions.join(' ')} -> ${t.file} is not in the tarball`);
  const files = targets.map((t) => t.file);
  const hasJsonOnly = files.length > 0 && files.every((f) => /\.(json|ya?ml)$/.test(f) || f === 'package.json');
  const kinds = {
    types: files.some((f) => /\.d\.(ts|mts|cts)$/.test(f)),
    esm: files.some((f) => /\.(mjs|js)$/.test(f) && !/\.cjs$/.test(f)) && (manifest.type === 'module' || files.some((f) => f.endsWith('.mjs'))),
    cjs: files.some((f) => /\.cjs$/.test(f)) || (manifest.type !== 'module' && files.some((f) => f.endsWith('.js'))),
  };
  if (!hasJsonOnly) {
    for (const [kind, present] of Object.entries(kinds)) if (!present) problems.push(`${manifest.name}: no ${kind} entry among its exports`);
  }
  for (const entry of forbiddenEntries(entries)) problems.push(`${manifest.name}: ${entry.path} must not be published`);
  return {
    name: manifest.name,
    version: manifest.version,
    file: path.basename(file),
    size: fs.statSync(file).size,
    unpacked: entries.reduce((sum, e) => sum + e.size, 0),
    files: entries.length,
    kinds: hasJsonOnly ? { data: true } : kinds,
    manifest,
    problems,
  };
}

/**
 * Every published package must be built before it is packed. A build in progress (tsup
 * empties dist first) is waited for up to `waitMs`; then the missing files are listed.
 */
export function assertBuilt(root, packages, { waitMs = 0 } = {}) {
  const deadline = Date.now() + waitMs;
  let problems = missingBuildFiles(root, packages);
  while (problems.length > 0 && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    problems = missingBuildFiles(root, packages);
  }
  if (problems.length > 0) {
    throw new Error(
      `the published packages are not built (or are being rebuilt); missing:\n  ${problems.join('\n  ')}\n` +
        'Build them first: pnpm build (pnpm release:dry does this through turbo).',
    );
  }
}

function missingBuildFiles(root, packages) {
  const problems = [];
  for (const pkg of packages) {
    for (const target of exportTargets(pkg.manifest)) {
      if (target.file === 'package.json') continue;
      if (!fs.existsSync(path.join(root, pkg.dir, target.file))) problems.push(`${pkg.name}: ${target.file} (${target.conditions.join(' ')})`);
    }
  }
  return problems;
}

/**
 * Copies the workspace skeleton to `tmp`: root manifests, .changeset, every package's
 * package.json, the directories in `fullDirs` whole (without node_modules), links from each
 * package's node_modules to its workspace dependencies in the copy, and the root node_modules
 * (the installed tools). Returns the workspace packages.
 */
export function workspaceCopy(root, tmp, { fullDirs = [], nodeModules = {} } = {}) {
  const all = workspacePackages(root);
  for (const file of ['package.json', 'pnpm-workspace.yaml', 'LICENSE', 'README.md']) {
    if (fs.existsSync(path.join(root, file))) fs.copyFileSync(path.join(root, file), path.join(tmp, file));
  }
  if (fs.existsSync(path.join(root, '.changeset'))) copyTree(path.join(root, '.changeset'), path.join(tmp, '.changeset'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
  for (const pkg of all) {
    const target = path.join(tmp, pkg.dir);
    if (fullDirs.includes(pkg.dir)) copyTree(path.join(root, pkg.dir), target);
    else {
      fs.mkdirSync(target, { recursive: true });
      fs.copyFileSync(path.join(root, pkg.dir, 'package.json'), path.join(target, 'package.json'));
    }
  }
  for (const [dir, source] of Object.entries(nodeModules)) {
    fs.symlinkSync(source, path.join(tmp, dir, 'node_modules'), 'dir');
  }
  // pnpm pack replaces `workspace:` ranges with the versions it reads through node_modules.
  for (const pkg of all) {
    if (pkg.dir in nodeModules) continue;
    const deps = { ...pkg.manifest.dependencies, ...pkg.manifest.devDependencies, ...pkg.manifest.peerDependencies, ...pkg.manifest.optionalDependencies };
    for (const [name, range] of Object.entries(deps)) {
      if (!String(range).startsWith('workspace:')) continue;
      const dep = all.find((p) => p.name === name);
      if (!dep) continue;
      const link = path.join(tmp, pkg.dir, 'node_modules', ...name.split('/'));
      fs.mkdirSync(path.dirname(link), { recursive: true });
      if (!fs.existsSync(link)) fs.symlinkSync(path.join(tmp, dep.dir), link, 'dir');
    }
  }
  return all;
}

/**
 * Names the repository the packages are built from in the root manifest and in every published
 * one (`repository.url`, and `directory` for a package), as npm provenance requires: the release
 * workflow gives it its own GitHub address, so no manifest names an address that may not exist.
 * Returns the manifests it changed (none when they already name it).
 */
export function stampRepository(root, webUrl) {
  const match = /^https:\/\/([^/\s]+)\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(webUrl);
  if (!match) throw new Error(`not a repository's web address: ${webUrl} (https://<host>/<owner>/<name>)`);
  const url = `git+https://${match[1]}/${match[2]}/${match[3]}.git`;
  const changed = [];
  const stamp = (dir, repository) => {
    const file = path.join(root, dir, 'package.json');
    const text = fs.readFileSync(file, 'utf8');
    const manifest = JSON.parse(text);
    if (JSON.stringify(manifest.repository) === JSON.stringify(repository)) return;
    const { name, version, description, ...rest } = manifest;
    // After name, version and description, where npm puts it.
    const ordered = JSON.parse(JSON.stringify({ name, version, description, repository, ...rest }));
    fs.writeFileSync(file, `${JSON.stringify(ordered, null, 2)}\n`);
    changed.push(path.join(dir, 'package.json'));
  };
  stamp('.', { type: 'git', url });
  for (const pkg of workspacePackages(root)) if (!pkg.manifest.private) stamp(pkg.dir, { type: 'git', url, directory: pkg.dir });
  return changed;
}

/**
 * In a copy made by workspaceCopy whose package `dir` was copied whole: links each dependency
 * installed for that package in `root` into the copy, except the workspace packages in `copied`
 * that already link to their copies (so the copy's sources are what it runs).
 */
export function linkInstalledDependencies(root, copy, dir, copied) {
  const source = path.join(root, dir, 'node_modules');
  const target = path.join(copy, dir, 'node_modules');
  const entries = (folder) => fs.readdirSync(folder).flatMap((name) => (name.startsWith('@') ? fs.readdirSync(path.join(folder, name)).map((inner) => `${name}/${inner}`) : [name]));
  for (const name of entries(source)) {
    const link = path.join(target, name);
    if (name.startsWith('.') || (copied.includes(name) && fs.existsSync(link))) continue;
    fs.rmSync(link, { force: true, recursive: false });
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(source, name)), link, 'dir');
  }
}

/** Runs a node script (in a copy of the repository); throws with its output when it fails. */
export function runNode(args, { cwd, timeout = 180_000 }) {
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status ?? run.signal}:\n${run.stdout}${run.stderr}`);
  return run;
}

/**
 * The dry run: copies the workspace (package manifests, the published packages with their
 * built files, .changeset) to a temporary directory, runs `changeset version` there, and packs
 * each published package into `outDir`. `changesets` ({name: markdown}) are added to the copy
 * only, to preview a release. A build in progress is waited for up to `waitMs`.
 * Returns {versions, tarballs, changelog}.
 */
export function dryRelease({ root, outDir = path.join(root, '.release'), packages: wanted = PUBLISHED_PACKAGES, changesets = {}, waitMs = 60_000, log = () => {} }) {
  const all = workspacePackages(root);
  const published = wanted.map((name) => {
    const pkg = all.find((p) => p.name === name);
    if (!pkg) throw new Error(`${name} is not a workspace package`);
    return pkg;
  });
  assertBuilt(root, published, { waitMs });
  if (!fs.existsSync(path.join(root, '.changeset', 'config.json'))) throw new Error('.changeset/config.json is missing');

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-release-'));
  try {
    workspaceCopy(root, tmp, { fullDirs: published.map((p) => p.dir) });
    for (const [name, text] of Object.entries(changesets)) fs.writeFileSync(path.join(tmp, '.changeset', `${name}.md`), text);

    log('changeset version (in a copy of the workspace)');
    const versionOutput = changesetVersion(root, tmp);
    const versions = {};
    const changelog = {};
    for (const pkg of published) {
      const manifest = JSON.parse(fs.readFileSync(path.join(tmp, pkg.dir, 'package.json'), 'utf8'));
      versions[pkg.name] = { from: pkg.manifest.version, to: manifest.version };
      const changelogFile = path.join(tmp, pkg.dir, 'CHANGELOG.md');
      changelog[pkg.name] = fs.existsSync(changelogFile) ? fs.readFileSync(changelogFile, 'utf8') : null;
    }

    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    const tarballs = [];
    for (const pkg of published) {
      log(`pnpm pack ${pkg.name}`);
      const before = new Set(fs.readdirSync(outDir));
      const [pnpm, prefix] = pnpmCommand(root);
      run(pnpm, [...prefix, 'pack', '--pack-destination', outDir], path.join(tmp, pkg.dir), `pnpm pack ${pkg.name}`);
      const made = fs.readdirSync(outDir).filter((f) => f.endsWith('.tgz') && !before.has(f));
      if (made.length !== 1) throw new Error(`pnpm pack ${pkg.name} produced ${made.length} tarballs`);
      tarballs.push(path.join(outDir, made[0]));
    }
    return { versions, tarballs, changelog, versionOutput };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The printed table of packed packages. */
export function sizeTable(inspections) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const rows = inspections.map((i) => [i.name, i.version, i.file, String(i.files), kb(i.size), kb(i.unpacked), Object.keys(i.kinds).filter((k) => i.kinds[k]).join(' ')]);
  const head = ['package', 'version', 'tarball', 'files', 'packed', 'unpacked', 'entries'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells) => `| ${cells.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
