#!/usr/bin/env node
// api-policy: the contract's versioning policy (section 9) for the API descriptions.
//   check     [--base <bundle> --head <bundle>] [--today yyyy-MM-dd] [--json] [--out <file>] [--no-changesets]
//   snapshot  [--api payroll|journal]
//   version   <resource> <yyyy-MM-dd> [--api payroll|journal]
//   calendar  [--format md|ics] [--api payroll|journal] [--today yyyy-MM-dd] [--out <file>]
//   release   [--today yyyy-MM-dd]
//   repository <https://host/owner/name>
// Every command takes --root <repository> (default: the repository holding this package).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calendarIcs, calendarMarkdown, deprecationCalendar } from '../src/calendar.mjs';
import { archiveRelease, releasedVersion } from '../src/changelog.mjs';
import { runCheck } from '../src/check.mjs';
import { todayUtc } from '../src/dates.mjs';
import { changesetVersion, snapshot, stampRepository } from '../src/release.mjs';
import { renderJson, renderMarkdown } from '../src/report.mjs';
import { APIS, bundlePath, findRepoRoot, registryPath, relative } from '../src/repo.mjs';
import { CHANGE_OPTIONS, CHANGE_USAGE, changesFromOptions } from '../src/change-options.mjs';
import { scaffoldVersion } from '../src/scaffold.mjs';

const USAGE = `usage: api-policy <command> [options]
  check     compare the bundles with the last release (or --base <file> --head <file>) and enforce the policy
            options: --today yyyy-MM-dd, --json, --out <file>, --no-changesets, --changesets
  snapshot  write the baseline (tools/api-policy/baseline/<api>.json) from spec/dist; once a release is
            archived, only when it is that release (the baseline moves with release)
  version   <resource> <yyyy-MM-dd>: scaffold a new resource version in the spec sources, dated today or
            later and after the last release, with its changes:
            ${CHANGE_USAGE}
  calendar  print the deprecation calendar: --format md|ics, --api payroll|journal, --out <file>
  release   check, then changeset version, then snapshot and archive the release (the real counterpart of release:dry)
  repository <https://host/owner/name>: name the repository in the root and every published manifest (npm provenance)
  common:   --root <repository>, --api payroll|journal`;

function fail(message, code = 2) {
  process.stderr.write(`api-policy: ${message}\n`);
  process.exit(code);
}

/** Input files may be given relative to the caller's directory, the package or the repository. */
function inputFile(file, root) {
  if (path.isAbsolute(file)) return file;
  const bases = [process.env.INIT_CWD, process.cwd(), root].filter(Boolean);
  for (const base of bases) {
    const candidate = path.resolve(base, file);
    if (fs.existsSync(candidate)) return candidate;
  }
  return path.resolve(process.cwd(), file);
}

function output(text, out, root) {
  if (out) {
    const file = path.isAbsolute(out) ? out : path.resolve(process.env.INIT_CWD ?? process.cwd(), out);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    process.stderr.write(`api-policy: wrote ${relative(root, file)}\n`);
  } else {
    process.stdout.write(text);
  }
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      tokens: true,
      options: {
        ...CHANGE_OPTIONS,
        root: { type: 'string' },
        base: { type: 'string' },
        head: { type: 'string' },
        api: { type: 'string' },
        today: { type: 'string' },
        json: { type: 'boolean', default: false },
        out: { type: 'string' },
        format: { type: 'string', default: 'md' },
        changesets: { type: 'boolean' },
        'no-changesets': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${error.message}\n${USAGE}`);
  }
  const { values, positionals, tokens } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const root = values.root ? path.resolve(values.root) : findRepoRoot();
  const today = values.today ?? process.env.API_POLICY_TODAY ?? todayUtc();
  if (values.api && !APIS.includes(values.api)) fail(`--api must be one of ${APIS.join(', ')}`);

  switch (command) {
    case 'check': {
      const result = await runCheck({
        root,
        base: values.base ? inputFile(values.base, root) : undefined,
        head: values.head ? inputFile(values.head, root) : undefined,
        today,
        changesets: values['no-changesets'] ? false : values.changesets,
        apis: values.api ? [values.api] : APIS,
      });
      if (values.json) {
        output(renderJson(result), values.out, root);
        if (values.out) process.stdout.write(renderMarkdown(result));
      } else {
        output(renderMarkdown(result), values.out, root);
      }
      return result.ok ? 0 : 1;
    }
    case 'snapshot': {
      let written;
      try {
        written = snapshot({ root, apis: values.api ? [values.api] : APIS });
      } catch (error) {
        fail(error.message, 1);
      }
      if (written.length === 0) fail(`no bundle in spec/dist to snapshot: build the spec first (pnpm --filter @payroll-api/spec build)`);
      for (const file of written) process.stdout.write(`api-policy: baseline ${file}\n`);
      return 0;
    }
    case 'version': {
      const [resource, date] = rest;
      if (!resource || !date) fail('usage: api:version <resource> <yyyy-MM-dd>');
      // A new version is dated from the real clock: a version dated in the past would change what
      // clients asking for the days in between get.
      if (values.today || process.env.API_POLICY_TODAY) fail('version takes no --today (nor API_POLICY_TODAY): a new version is dated from today, the real date');
      let summary;
      try {
        summary = scaffoldVersion({ root, resource, date, api: values.api, changes: changesFromOptions(tokens) });
      } catch (error) {
        fail(error.message);
      }
      process.stdout.write(
        [
          `Scaffolded resource version ${summary.resource} ${summary.version} (${summary.api}): ${summary.mediaTypes} media type key(s) copied from ${summary.previous}.`,
          `${summary.previous} gets obsoleteDate ${summary.obsoleteDate}.`,
          `Changed: ${summary.changed.join(', ')}`,
          `Created: ${summary.created.join(', ')}`,
          summary.missingOperations.length > 0 ? `Not found in the path files: ${summary.missingOperations.join(', ')}` : null,
          summary.changes.length > 0
            ? `Recorded ${summary.changes.length} change(s) in the registry; review the copies and ${summary.changeset}, then pnpm build && pnpm api:check.`
            : `Next: change the ${summary.version} copies (schemas, examples), describe the change in ${summary.changeset} (or record it: --rename, --remove, --add, --retype), then pnpm build && pnpm api:check.`,
          '',
        ]
          .filter((line) => line !== null)
          .join('\n'),
      );
      return 0;
    }
    case 'calendar': {
      const apis = values.api ? [values.api] : APIS;
      const resources = {};
      for (const api of apis) {
        const registry = await readRegistry(root, api);
        if (!registry) continue;
        for (const [name, resource] of Object.entries(registry.resources ?? {})) resources[apis.length > 1 && api !== 'payroll' ? `${api}:${name}` : name] = resource;
      }
      if (Object.keys(resources).length === 0) fail('no resource version registry found (spec/<api>/resource-versions.yaml)');
      const entries = deprecationCalendar({ resources }, { today });
      if (values.format === 'md') output(calendarMarkdown(entries), values.out, root);
      else if (values.format === 'ics') output(calendarIcs(entries, { today }), values.out, root);
      else if (values.format === 'json') output(`${JSON.stringify(entries, null, 2)}\n`, values.out, root);
      else fail('--format must be md, ics or json');
      return 0;
    }
    case 'release': {
      // The archive records the day a release ships, from which its versions' six months run: a
      // later day may be given (a release prepared ahead), never an earlier one.
      if (today < todayUtc()) fail(`a release is dated today (${todayUtc()}) or later, not ${today}: the six months of the versions it ships run from it`);
      const result = await runCheck({ root, today });
      process.stdout.write(renderMarkdown(result));
      if (!result.ok) fail('the policy check fails; nothing was versioned', 1);
      changesetVersion(root);
      for (const file of snapshot({ root, releasing: true })) process.stdout.write(`api-policy: baseline ${file}\n`);
      // The released descriptions are kept per version: the docs' API changelog compares each
      // release with the one before it.
      for (const file of archiveRelease({ root, version: releasedVersion(root), date: today })) process.stdout.write(`api-policy: release ${file}\n`);
      process.stdout.write('api-policy: versioned, re-snapshotted and archived; review, commit, then publish (pnpm changeset publish).\n');
      return 0;
    }
    case 'repository': {
      if (rest.length !== 1) fail(`repository takes the repository's web address\n${USAGE}`);
      let changed;
      try {
        changed = stampRepository(root, rest[0]);
      } catch (error) {
        fail(error.message);
      }
      process.stdout.write(changed.length ? changed.map((file) => `api-policy: repository named in ${file}\n`).join('') : 'api-policy: every manifest names the repository already\n');
      return 0;
    }
    default:
      fail(`unknown command "${command}"\n${USAGE}`);
  }
  return 2;
}

async function readRegistry(root, api) {
  const source = registryPath(root, api);
  if (fs.existsSync(source)) {
    const { default: YAML } = await import('yaml');
    return YAML.parse(fs.readFileSync(source, 'utf8'));
  }
  const bundle = bundlePath(root, api);
  if (fs.existsSync(bundle)) return JSON.parse(fs.readFileSync(bundle, 'utf8'))['x-resource-versions'] ?? null;
  return null;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => fail(error.message, 2),
);
