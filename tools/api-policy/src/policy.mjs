// Enforcement: which classified differences a release may contain, and what it must bump.
import { RECORD_KEY } from '@payroll-api/version-changes';
import { addDays, addMonths } from './dates.mjs';
import { unexplainedDifferences } from './explained.mjs';
import { REGISTRY_KEY, diffBundles } from './diff.mjs';
import { adviceFor, groupFindings, placesOf, scopeOf } from './groups.mjs';
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

/**
 * Checks one API. Returns {findings, deltas, violations, requiredBump, identical}.
 * Findings that are breaking get `permitted: true|false`. `releases` ([{version, date,
 * registry}], oldest first: the archived releases of this API) say when each version shipped.
 */
export function checkApi({ baseDoc, headDoc, today, releases = [] }) {
  const { findings, deltas, identical } = diffBundles(baseDoc, headDoc);
  const baseRegistry = baseDoc?.[REGISTRY_KEY];
  const headRegistry = headDoc?.[REGISTRY_KEY];
  const violations = [];
  const refuse = (policyRule, message, finding = null) => {
    violations.push({ policyRule, policy: POLICY_RULES[policyRule], message, finding });
    if (finding) finding.permitted = false;
  };
  const passed = (date) => typeof date === 'string' && date <= today;
  const inVersion = [];

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
        refuse(
          'P-NO-EARLIER',
          `resource \`${f.resource}\` version ${f.version}: the obsoleteDate moved earlier, from ${f.before} to ${f.after}. Integrators were promised ${f.before}:` +
            ` set \`obsoleteDate: '${f.before}'\` (or later) for ${f.version} in the registry (spec/<api>/resource-versions.yaml).`,
          f,
        );
        break;
      default:
        f.permitted = false;
        inVersion.push(f);
    }
  }

  // A breaking change is refused once, with every place it reaches (a shared schema's change
  // reaches many operations).
  for (const group of groupFindings(inVersion)) {
    const f = group.first;
    violations.push({
      policyRule: 'P-IN-VERSION',
      policy: POLICY_RULES['P-IN-VERSION'],
      message: `Breaking change ${scopeOf(group)} — ${placesOf(group)}: ${f.message} (${f.rule}). ${adviceFor(group, { versioned: Boolean(headRegistry) })}`,
      finding: f,
      findings: group.findings,
      operations: group.operations,
    });
  }

  // The window runs from the release that ships a version: a new version is dated no earlier
  // than that release (clients asking for a date in between would silently get the new shape),
  // and its predecessor is served for six months after it.
  const lastRelease = releases.at(-1)?.date ?? null;
  const baseResources = baseRegistry?.resources ?? {};
  const inBase = (name, version) => (baseResources[name]?.versions ?? []).some((entry) => entry.version === version);
  const shippedOn = (name, version) => {
    if (!inBase(name, version)) return today;
    return releases.find((release) => (release.registry?.resources?.[name]?.versions ?? []).some((entry) => entry.version === version))?.date ?? null;
  };
  const registryFile = 'the registry (spec/<api>/resource-versions.yaml)';
  for (const [name, resource] of Object.entries(headRegistry?.resources ?? {})) {
    const versions = [...(resource?.versions ?? [])].sort((a, b) => (a.version < b.version ? 1 : -1));
    if ((baseResources[name]?.versions ?? []).length > 0) {
      const earliest = lastRelease && addDays(lastRelease, 1) > today ? addDays(lastRelease, 1) : today;
      for (const entry of versions.filter((v) => !inBase(name, v.version) && v.version < earliest)) {
        const served = versions.find((v) => v.version < entry.version && inBase(name, v.version));
        refuse(
          'P-VERSION-DATE',
          `resource \`${name}\` gains version ${entry.version}, dated before ${earliest === today ? `today (${today}), the earliest day a release can ship it` : `the day after the last release (${lastRelease})`}:` +
            ` a client asking for a version dated from ${entry.version} on ${served ? `gets ${served.version} today and ` : ''}would silently get the new shape.` +
            ` Date it ${earliest} or later: undo the scaffold of ${entry.version} and run \`pnpm api:version ${name} <yyyy-MM-dd>\` again with that date.`,
        );
      }
    }
    for (let i = 1; i < versions.length; i += 1) {
      const successor = versions[i - 1];
      const old = versions[i];
      const shipped = shippedOn(name, successor.version);
      const from = shipped && shipped > successor.version ? shipped : successor.version;
      const due = addMonths(from, SUPPORT_MONTHS);
      if (!old.obsoleteDate || old.obsoleteDate < due) {
        const when = !inBase(name, successor.version) ? `which ships with the coming release (${today} at the earliest)` : shipped ? `released on ${shipped}` : `dated ${successor.version}`;
        refuse(
          'P-SUCCESSOR',
          `resource \`${name}\`: version ${old.version} has successor ${successor.version}, ${when}, so its obsoleteDate must be ${due} or later (six months after ${from});` +
            ` it is ${old.obsoleteDate ?? 'not set'}. Set \`obsoleteDate: '${due}'\` for ${old.version} in ${registryFile}.`,
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

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** True when `text` holds `name` as a whole word (`employee`, not `employees` nor `concept_employee`). */
export function namesWord(text, name) {
  return new RegExp(`(^|[^A-Za-z0-9_$])${escapeRegExp(name)}($|[^A-Za-z0-9_$])`).test(text);
}

/**
 * What a changeset must name for a group of findings (groups.mjs): each finding's resource or
 * operationId, or one name for the whole group (`shared`): the shared schema a change is in, a
 * shared parameter. A changed default is named by its field or parameter, and only by it.
 */
export function namesOf(group) {
  const f = group.first;
  if (f.kind === 'default-changed') return { each: [], shared: [f.element] };
  const each = group.findings.map((g) => [g.resource, g.operationId].filter(Boolean));
  const shared = [f.schema, f.location?.startsWith('parameter ') ? f.element : null].filter(Boolean);
  return { each, shared };
}

/** The parts of a group no changeset text names: {missing: [[alternatives]], shared}, or null when named. */
function unnamed(group, texts) {
  const { each, shared } = namesOf(group);
  const named = (name) => texts.some((text) => namesWord(text, name));
  if (shared.some(named) || (each.length === 0 && shared.length === 0)) return null;
  const missing = each.filter((alternatives) => !alternatives.some(named));
  if (missing.length === 0 && each.length > 0) return null;
  // One entry per resource (or operation), with every operation that would name it too.
  const merged = new Map();
  for (const [first, ...others] of missing) merged.set(first, [...new Set([...(merged.get(first) ?? []), ...others])]);
  return { missing: [...merged].map(([first, others]) => [first, ...others]), shared };
}

function changesetNamingViolations(changes, texts) {
  const byRequirement = new Map();
  for (const group of changes) {
    const gap = unnamed(group, texts);
    if (!gap) continue;
    const key = JSON.stringify([gap.missing.map(([first]) => first), gap.shared]);
    if (!byRequirement.has(key)) byRequirement.set(key, { gap: { missing: [], shared: gap.shared }, groups: [] });
    const entry = byRequirement.get(key);
    entry.groups.push(group);
    for (const alternatives of gap.missing) {
      const known = entry.gap.missing.find(([first]) => first === alternatives[0]);
      if (known) known.push(...alternatives.slice(1).filter((name) => !known.includes(name)));
      else entry.gap.missing.push([...alternatives]);
    }
  }
  return [...byRequirement.values()].map(({ gap, groups }) => {
    const changed = groups.slice(0, 5).map((g) => `${g.first.message}${g.first.schema ? ` (in \`${g.first.schema}\`)` : ''}`);
    const more = groups.length > 5 ? ` and ${groups.length - 5} more` : '';
    const resources = gap.missing.map((alternatives) => (alternatives.length > 1 ? `\`${alternatives[0]}\` (or \`${alternatives.slice(1).join('`, `')}\`)` : `\`${alternatives[0]}\``));
    const names = [resources.length > 0 ? `${resources.join(', ')}` : null, gap.shared.length > 0 ? `${resources.length > 0 ? 'or the shared ' : ''}\`${gap.shared.join('` or `')}\`` : null]
      .filter(Boolean)
      .join(', ');
    return {
      policyRule: 'P-CHANGESET',
      policy: POLICY_RULES['P-CHANGESET'],
      message: `No pending changeset names ${changed.join('; ')}${more}. Name ${names} in the text of a changeset (\`pnpm changeset\`; the name as a whole word, e.g. in backticks).`,
      finding: null,
      findings: groups.flatMap((g) => g.findings),
    };
  });
}

/**
 * Reads the changesets release plan of the workspace at `root` and checks that every
 * published package is bumped at least `required`, and that the pending changesets name each
 * change of `changes` (groups of findings, groups.mjs).
 */
export async function checkChangesets({ root, required, packages = PUBLISHED_PACKAGES, changes = [] }) {
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
  // Only the changesets that release a published package speak for the descriptions.
  const texts = plan.changesets.filter((c) => c.releases.some((r) => packages.includes(r.name))).map((c) => c.summary);
  violations.push(...changesetNamingViolations(changes, texts));
  return { releases: Object.fromEntries(packages.map((name) => [name, releases[name] ?? 'none'])), changesets, violations };
}
