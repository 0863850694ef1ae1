// The `check` command: compares bundles, applies the policy, reads the release plan.
import fs from 'node:fs';
import { todayUtc, assertDate } from './dates.mjs';
import { apiReleaseHistory } from './changelog.mjs';
import { groupFindings } from './groups.mjs';
import { PUBLISHED_PACKAGES, checkApi, checkChangesets } from './policy.mjs';
import { POLICY_RULES, maxBump } from './rules.mjs';
import { APIS, baselinePath, bundlePath, readBundle, relative } from './repo.mjs';

/**
 * Runs the policy.
 * - Repository mode (no base/head): every API's spec/dist bundle against the last release (its
 *   archive, releases/<version>/<api>.json; before the first release, the baseline), and the
 *   changesets release plan of `root` (unless `changesets: false`). A baseline that differs
 *   from the last release's archive is refused: it moves only with `pnpm release`.
 * - File mode (base and head): two bundle files; no release plan unless `changesets: true`.
 */
export async function runCheck({ root, base, head, today = todayUtc(), changesets, apis = APIS, packages = PUBLISHED_PACKAGES }) {
  assertDate(today, 'today');
  const pairs = [];
  const baselineViolations = [];
  if (base || head) {
    if (!base || !head) throw new Error('--base and --head go together');
    pairs.push({ api: guessApi(head), baseFile: base, headFile: head, releases: [] });
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
      const releases = apiReleaseHistory(root, api);
      const last = releases.at(-1);
      if (last && hasBase && JSON.stringify(await readBundle(baseFile)) !== JSON.stringify(await readBundle(last.file))) {
        baselineViolations.push({
          policyRule: 'P-BASELINE',
          policy: POLICY_RULES['P-BASELINE'],
          message:
            `${relative(root, baseFile)} differs from the description of the last release, ${relative(root, last.file)} (${last.version}, ${last.date}); ` +
            `the check compares with the release. The baseline moves only with \`pnpm release\`: restore it (\`cp ${relative(root, last.file)} ${relative(root, baseFile)}\`).`,
          finding: null,
        });
      }
      pairs.push({ api, baseFile: last ? last.file : hasBase ? baseFile : null, headFile, releases });
    }
    if (pairs.length === 0) throw new Error(`no bundles in ${relative(root, bundlePath(root, ''))}: build the spec first (pnpm --filter @payroll-api/spec build)`);
  }
  const results = [];
  for (const { api, baseFile, headFile, releases } of pairs) {
    const baseDoc = baseFile ? await readBundle(baseFile) : { paths: {} };
    const headDoc = await readBundle(headFile);
    const outcome = checkApi({ baseDoc, headDoc, today, releases });
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
  const changes = results.flatMap((r) => groupFindings(r.findings));
  const plan = useChangesets ? { required, ...(await checkChangesets({ root, required, packages, changes })) } : null;
  const violations = [...baselineViolations, ...results.flatMap((r) => r.violations), ...(plan?.violations ?? [])];
  return { today, ok: violations.length === 0, violations, baseline: baselineViolations, apis: results, changesets: plan };
}

function guessApi(file) {
  const name = file.split(/[\\/]/).at(-1).replace(/\.(json|ya?ml)$/i, '');
  return APIS.find((api) => name.includes(api)) ?? name;
}
