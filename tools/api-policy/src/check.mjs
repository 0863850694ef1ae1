// The `check` command: compares bundles, applies the policy, reads the release plan.
import fs from 'node:fs';
import { todayUtc, assertDate } from './dates.mjs';
import { PUBLISHED_PACKAGES, checkApi, checkChangesets } from './policy.mjs';
import { maxBump } from './rules.mjs';
import { APIS, baselinePath, bundlePath, readBundle, relative } from './repo.mjs';

/**
 * Runs the policy.
 * - Repository mode (no base/head): every API's spec/dist bundle against its baseline, and the
 *   changesets release plan of `root` (unless `changesets: false`).
 * - File mode (base and head): two bundle files; no release plan unless `changesets: true`.
 */
export async function runCheck({ root, base, head, today = todayUtc(), changesets, apis = APIS, packages = PUBLISHED_PACKAGES }) {
  assertDate(today, 'today');
  const pairs = [];
  if (base || head) {
    if (!base || !head) throw new Error('--base and --head go together');
    pairs.push({ api: guessApi(head), baseFile: base, headFile: head });
  } else {
    for (const api of apis) {
      const headFile = bundlePath(root, api);
      const baseFile = baselinePath(root, api);
      const hasHead = fs.existsSync(headFile);
      const hasBase = fs.existsSync(baseFile);
      if (!hasHead && !hasBase) continue;
      if (!hasHead) {
        throw new Error(`${relative(root, headFile)} does not exist but its baseline does: build the spec first (pnpm --filter @payroll-api/spec build)`);
      }
      pairs.push({ api, baseFile: hasBase ? baseFile : null, headFile });
    }
    if (pairs.length === 0) throw new Error(`no bundles in ${relative(root, bundlePath(root, ''))}: build the spec first (pnpm --filter @payroll-api/spec build)`);
  }
  const results = [];
  for (const { api, baseFile, headFile } of pairs) {
    const baseDoc = baseFile ? await readBundle(baseFile) : { paths: {} };
    const headDoc = await readBundle(headFile);
    const outcome = checkApi({ baseDoc, headDoc, today });
    results.push({
      api,
      base: baseFile ? relative(root, baseFile) : relative(root, baselinePath(root, api)),
      baseMissing: !baseFile,
      head: relative(root, headFile),
      ...outcome,
    });
  }
  const required = results.reduce((bump, r) => maxBump(bump, r.requiredBump), 'none');
  const useChangesets = changesets ?? !(base || head);
  const plan = useChangesets ? { required, ...(await checkChangesets({ root, required, packages })) } : null;
  const violations = [...results.flatMap((r) => r.violations), ...(plan?.violations ?? [])];
  return { today, ok: violations.length === 0, violations, apis: results, changesets: plan };
}

function guessApi(file) {
  const name = file.split(/[\\/]/).at(-1).replace(/\.(json|ya?ml)$/i, '');
  return APIS.find((api) => name.includes(api)) ?? name;
}
