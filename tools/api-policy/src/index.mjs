// @payroll-api/api-policy: the contract's versioning policy (section 9) as code.
export { deprecationCalendar, calendarMarkdown, calendarIcs, foldLine } from './calendar.mjs';
export { runCheck } from './check.mjs';
export { addMonths, addDays, daysBetween, isDate, todayUtc } from './dates.mjs';
export { diffBundles, diffRegistries, mediaTypeVersion, mediaTypeEssence, operationsOf, resourceIndex, servedVersions, REGISTRY_KEY } from './diff.mjs';
export { checkApi, checkChangesets, PUBLISHED_PACKAGES } from './policy.mjs';
export { renderMarkdown, renderJson } from './report.mjs';
export { CHANGE_RULES, POLICY_RULES, SUPPORT_MONTHS, citeChange } from './rules.mjs';
export { compareSchemas, flatten, resolveRef, deref } from './schema-diff.mjs';
export { scaffoldVersion } from './scaffold.mjs';
export { snapshot, dryRelease, inspectTarball, listTarball, readTarball, forbiddenEntries, exportTargets, workspacePackages, workspaceCopy, linkInstalledDependencies, runNode, stampRepository } from './release.mjs';
export { findRepoRoot } from './repo.mjs';
export { apiChangelog, apiReleases, archiveRelease, classify, releasedVersion, CHANGELOG_GROUPS } from './changelog.mjs';
export { migrationNotes, newMigrationNotes, migrationMarkdown } from './migrations.mjs';
export { unexplainedDifferences, fieldOfPointer } from './explained.mjs';
