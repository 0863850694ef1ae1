// Enforcement: which classified differences a release may contain, and what it must bump.
import { RECORD_KEY } from '@payroll-api/version-changes';
import { addMonths } from './dates.mjs';
import { unexplainedDifferences } from './explained.mjs';
import { REGISTRY_KEY, diffBundles } from './diff.mjs';
import { POLICY_RULES, SUPPORT_MONTHS, bumpAtLeast, maxBump } from './rules.mjs';

/** The packages whose published content is generated from the descriptions (one fixed group). */
export const PUBLISHED_PACKAGES = ['@payroll-api/spec', '@payroll-api/types', '@payroll-api/client', '@payroll-api/query', '@payroll-api/sandbox', '@payroll-api/mock', '@payroll-api/conformance'];

function registryEntry(registry, resource, version) {
  return registry?.resources?.[resource]?.versions?.find((entry) => entry.version === version) ?? null;
}

function operationText(f) {
  return f.operationId ? `\`${f.operationId}\` (${f.method} ${f.path})` : f.location;
}

function where(f) {
  const parts = [operationText(f)];
  if (f.operationId && f.location) parts.push(f.location);
  if (f.mediaType) parts.push(`\`${f.mediaType}\``);
  return parts.join(', ');
}

/** What a finding is inside of: "resource version `employee` 2021-03-29", or the operation's every version. */
export function scopeText(f) {
  if (f.resource) return `resource version \`${f.resource}\` ${f.version ?? '(all versions)'}`;
  return f.version ? `version ${f.version}` : 'every version of the operation';
}

export function newVersionHint(f) {
  if (f.resource) return `introduce a new resource version instead: \`pnpm api:version ${f.resource} <yyyy-MM-dd>\`, and make the change there`;
  return 'introduce a new resource version instead (a new `;version=yyyy-MM-dd` media type key next to the old one), and make the change there';
}

/**
 * Checks one API. Returns {findings, deltas, violations, requiredBump, identical}.
 * Findings that are breaking get `permitted: true|false`.
 */
export function checkApi({ baseDoc, headDoc, today }) {
  const { findings, deltas, identical } = diffBundles(baseDoc, headDoc);
  const baseRegistry = baseDoc?.[REGISTRY_KEY];
  const headRegistry = headDoc?.[REGISTRY_KEY];
  const violations = [];
  const refuse = (policyRule, message, finding = null) => {
    violations.push({ policyRule, policy: POLICY_RULES[policyRule], message, finding });
    if (finding) finding.permitted = false;
  };
  const passed = (date) => typeof date === 'string' && date <= today;

  for (const f of findings) {
    if (f.severity !== 'breaking') continue;
    switch (f.kind) {
      case 'version-removed': {
        const entry = f.resource ? registryEntry(baseRegistry, f.resource, f.version) : null;
        const obsolete = entry?.obsoleteDate ?? null;
        if (passed(obsolete)) f.permitted = true;
        else {
          refuse(
            'P-REMOVE-AFTER-OBSOLETE',
            `${where(f)}: version ${f.version} was removed, but ${obsolete ? `it is served until its obsoleteDate ${obsolete}` : 'it has no obsoleteDate'}` +
              ` (today is ${today}). Keep serving it until its obsoleteDate has passed.`,
            f,
          );
        }
        break;
      }
      case 'endpoint-removed':
      case 'operation-removed': {
        const versions = f.servedVersions ?? [];
        const open = versions.filter((version) => !passed(f.resource ? registryEntry(baseRegistry, f.resource, version)?.obsoleteDate : null));
        if (versions.length > 0 && open.length === 0) f.permitted = true;
        else {
          refuse(
            'P-REMOVE-AFTER-OBSOLETE',
            `${where(f)}: ${f.message}, but ${versions.length === 0 ? 'it serves no versioned content that could have an obsoleteDate' : `version(s) ${open.join(', ')} have not passed their obsoleteDate`}` +
              ` (today is ${today}). An endpoint or operation is removed only once every version it serves has passed its obsoleteDate.`,
            f,
          );
        }
        break;
      }
      case 'registry-version-removed': {
        if (passed(f.obsoleteDate)) f.permitted = true;
        else {
          refuse(
            'P-REMOVE-AFTER-OBSOLETE',
            `resource \`${f.resource}\` version ${f.version} was removed from the registry, but ${f.obsoleteDate ? `its obsoleteDate ${f.obsoleteDate} has not passed` : 'it has no obsoleteDate'} (today is ${today}).`,
            f,
          );
        }
        break;
      }
      case 'obsolete-date-earlier':
        refuse('P-NO-EARLIER', `resource \`${f.resource}\` version ${f.version}: the obsoleteDate moved earlier, from ${f.before} to ${f.after}. Integrators were promised ${f.before}.`, f);
        break;
      default:
        refuse(
          'P-IN-VERSION',
          `Breaking change inside ${scopeText(f)}` +
            ` — ${where(f)}, at \`${f.pointer}\`: ${f.message} (${f.rule}). A resource version never changes incompatibly: ${newVersionHint(f)}.`,
          f,
        );
    }
  }

  // A successor's predecessor is served for at least six months after the successor's date.
  for (const [name, resource] of Object.entries(headRegistry?.resources ?? {})) {
    const versions = [...(resource?.versions ?? [])].sort((a, b) => (a.version < b.version ? 1 : -1));
    for (let i = 1; i < versions.length; i += 1) {
      const successor = versions[i - 1];
      const old = versions[i];
      const due = addMonths(successor.version, SUPPORT_MONTHS);
      if (!old.obsoleteDate || old.obsoleteDate < due) {
        refuse(
          'P-SUCCESSOR',
          `resource \`${name}\`: version ${old.version} has successor ${successor.version}, so its obsoleteDate must be ${due} or later;` +
            ` it is ${old.obsoleteDate ?? 'not set'}. Set \`obsoleteDate: '${due}'\` (pnpm api:version does this).`,
        );
      }
    }
  }

  // Served versions differ only as their version change record says.
  const { unexplained, problems } = unexplainedDifferences(headDoc);
  for (const problem of problems) refuse('P-EXPLAINED', `${RECORD_KEY}: ${problem}`);
  for (const u of unexplained) {
    refuse(
      'P-EXPLAINED',
      `resource \`${u.resource}\` ${u.previousVersion} → ${u.version}, \`${u.operationId}\` ${u.direction} \`${u.mediaType}\`: field \`${u.field || '(body)'}\`: ${u.finding.message} (${u.finding.rule}),` +
        ` but the version change record does not name \`${u.field || '(body)'}\`. Record the change (pnpm api:version options, or by hand under \`changes\` of version ${u.version} in the registry).`,
      { ...u.finding, resource: u.resource, operationId: u.operationId, version: u.version, direction: u.direction, field: u.field },
    );
  }

  let requiredBump = identical ? 'none' : 'patch';
  for (const f of findings) {
    if (f.severity === 'breaking' && f.permitted) requiredBump = maxBump(requiredBump, 'major');
    else if (f.severity !== 'breaking') requiredBump = maxBump(requiredBump, 'minor');
  }
  return { findings, deltas, violations, requiredBump, identical };
}

/**
 * Reads the changesets release plan of the workspace at `root` and checks that every
 * published package is bumped at least `required`.
 */
export async function checkChangesets({ root, required, packages = PUBLISHED_PACKAGES }) {
  const { default: getReleasePlanModule } = await import('@changesets/get-release-plan');
  const getReleasePlan = getReleasePlanModule.default ?? getReleasePlanModule;
  let plan;
  try {
    plan = await getReleasePlan(root);
  } catch (error) {
    throw new Error(`cannot read the changesets release plan in ${root}: ${error.message}`);
  }
  const releases = Object.fromEntries(plan.releases.map((r) => [r.name, r.type]));
  const changesets = plan.changesets.map((c) => ({ id: c.id, summary: c.summary.split('\n')[0], releases: c.releases }));
  const short = packages.filter((name) => !bumpAtLeast(releases[name], required));
  const violations = [];
  if (required !== 'none' && short.length > 0) {
    violations.push({
      policyRule: 'P-CHANGESET',
      policy: POLICY_RULES['P-CHANGESET'],
      message:
        `The descriptions changed, which needs a ${required} release of ${packages.join(', ')}; the release plan bumps ` +
        `${short.map((name) => `${name} by ${releases[name] ?? 'nothing'}`).join(', ')}. ` +
        `Add a changeset: \`pnpm changeset\` (choose ${required}; the packages are one fixed group), or \`pnpm api:version\` for a new resource version.`,
      finding: null,
    });
  }
  return { releases: Object.fromEntries(packages.map((name) => [name, releases[name] ?? 'none'])), changesets, violations };
}
