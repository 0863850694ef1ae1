#!/usr/bin/env node
// pnpm release:dry — versions and packs the published packages without touching the working
// tree: the policy check (as in a release), `changeset version` in a copy of the workspace,
// `pnpm pack` of each published package into .release/, and a check of every tarball.
//   --skip-policy   do not run the policy check first (the packaging test uses this)
//   --json          print the result as JSON
//   --root <dir>    the repository (default: the one holding this package)
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCheck } from '../src/check.mjs';
import { dryRelease, inspectTarball, sizeTable } from '../src/release.mjs';
import { findRepoRoot, relative } from '../src/repo.mjs';
import { renderMarkdown } from '../src/report.mjs';

async function main() {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      'skip-policy': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      today: { type: 'string' },
    },
  });
  const root = values.root ? path.resolve(values.root) : findRepoRoot();
  const log = (line) => process.stderr.write(`release:dry: ${line}\n`);

  let policy = null;
  if (!values['skip-policy']) {
    log('policy check');
    policy = await runCheck({ root, ...(values.today ? { today: values.today } : {}) });
    if (!policy.ok) {
      process.stdout.write(renderMarkdown(policy));
      log('the policy check fails: a release would stop here');
      return 1;
    }
  }
  const outDir = path.join(root, '.release');
  const { versions, tarballs } = dryRelease({ root, outDir, log });
  const inspections = tarballs.map(inspectTarball);
  const problems = inspections.flatMap((i) => i.problems);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ versions, policy: policy ? { ok: policy.ok, required: policy.changesets?.required } : null, packages: inspections.map(({ manifest, ...rest }) => rest), problems }, null, 2)}\n`);
  } else {
    const lines = [];
    lines.push(`Versions: ${Object.entries(versions).map(([name, v]) => `${name} ${v.from} -> ${v.to}`).join(', ')}`);
    if (policy) lines.push(`Policy: passes; required bump ${policy.changesets?.required ?? 'none'}.`);
    lines.push(`Tarballs in ${relative(root, outDir)}/:`, '', sizeTable(inspections), '');
    lines.push(problems.length === 0 ? 'Every export target is packed; types, ESM and CJS entries present; no tests or fixtures.' : `Problems:\n  ${problems.join('\n  ')}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`release:dry: ${error.message}\n`);
    process.exit(2);
  },
);
