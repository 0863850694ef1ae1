// The console: a progress line per operation and version as cases finish, then a summary
// with every failure and its curl.
import type { CaseResult, RunSummary } from '../findings.js';
import { failed } from '../findings.js';
import { groupCases, label } from './group.js';

export function progressLine(result: CaseResult, done: number): string {
  const mark = result.skipped ? 'skip' : failed(result) ? 'FAIL' : ' ok ';
  return `[${String(done).padStart(4)}] ${mark} ${result.api} ${label(result)} – ${result.kind}: ${result.title}${result.skipped ? ` (${result.skipped})` : ''}`;
}

export function consoleSummary(summary: RunSummary): string {
  const lines: string[] = [''];
  const groups = groupCases(summary.cases);
  const width = Math.max(...groups.map((g) => `${g.api} ${label(g)}`.length), 20);
  for (const group of groups) {
    const run = group.cases.filter((c) => !c.skipped);
    const bad = run.filter(failed).length;
    lines.push(`${`${group.api} ${label(group)}`.padEnd(width)}  ${String(run.length).padStart(3)} cases  ${bad === 0 ? 'ok' : `${bad} FAILED`}`);
  }
  const failing = summary.cases.filter(failed);
  if (failing.length > 0) {
    lines.push('', 'Failures:');
    for (const c of failing) {
      lines.push(`  ${c.api} ${label(c)} – ${c.kind}: ${c.title}`);
      for (const f of c.findings) {
        lines.push(`    ${f.check}: ${f.message}`);
        if (f.curl) lines.push(`      ${f.curl}`);
      }
    }
  }
  if (summary.coverage.uncovered.length > 0) {
    lines.push('', 'Not covered:');
    for (const u of summary.coverage.uncovered) lines.push(`  ${u.api} ${label(u)}: ${u.reason}`);
  }
  const seconds = (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000;
  lines.push(
    '',
    `${summary.failures === 0 ? 'PASSED' : 'FAILED'}: ${summary.cases.filter((c) => !c.skipped).length} cases, ${summary.failures} failing; ${summary.coverage.covered} of ${summary.coverage.total} operation × version pairs covered; ${summary.requests} requests in ${seconds.toFixed(1)} s${summary.readOnly ? ' (read-only)' : ''}`,
  );
  lines.push(`Undeclared properties ${summary.strictProperties.strict ? 'reported' : 'not reported'} (${summary.strictProperties.reason}).`);
  if (summary.stoppedEarly) lines.push(`Stopped early: ${summary.stoppedEarly}`);
  return `${lines.join('\n')}\n`;
}
