// The markdown report: a summary, the coverage gaps, then every failing case with its findings
// and a curl that reproduces each.
import type { RunSummary } from '../findings.js';
import { failed } from '../findings.js';
import { groupCases, label } from './group.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownReport(summary: RunSummary): string {
  const lines: string[] = [];
  const ran = summary.cases.filter((c) => !c.skipped);
  lines.push('# Conformance report', '');
  lines.push(`| | |`, `|---|---|`);
  if (summary.target.payrollUrl) lines.push(`| payroll | \`${summary.target.payrollUrl}\` |`);
  if (summary.target.journalUrl) lines.push(`| journal | \`${summary.target.journalUrl}\` |`);
  lines.push(`| mode | ${summary.readOnly ? 'read-only (GETs only)' : 'writes allowed'} |`);
  lines.push(`| seed | ${summary.seed} |`);
  lines.push(`| undeclared properties | ${summary.strictProperties.strict ? 'reported' : 'not reported'} (${summary.strictProperties.reason}) |`);
  lines.push(`| requests | ${summary.requests} |`);
  lines.push(`| cases | ${ran.length} run, ${summary.cases.length - ran.length} skipped |`);
  lines.push(`| coverage | ${summary.coverage.covered} of ${summary.coverage.total} operation × version pairs |`);
  lines.push(`| result | ${summary.failures === 0 ? 'passed' : `**${summary.failures} failing cases**`} |`);
  if (summary.stoppedEarly) lines.push(`| stopped early | ${cell(summary.stoppedEarly)} |`);
  lines.push('');
  lines.push('## By operation and version', '', '| operation | version | cases | failing |', '|---|---|---|---|');
  for (const group of groupCases(summary.cases)) {
    const run = group.cases.filter((c) => !c.skipped);
    const bad = run.filter(failed).length;
    lines.push(`| ${group.api} ${group.operationId} | ${group.version ?? '–'} | ${run.length}${run.length < group.cases.length ? ` (+${group.cases.length - run.length} skipped)` : ''} | ${bad === 0 ? '0' : `**${bad}**`} |`);
  }
  lines.push('');
  if (summary.coverage.uncovered.length > 0) {
    lines.push('## Not covered', '');
    for (const u of summary.coverage.uncovered) lines.push(`- ${u.api} ${label(u)}: ${u.reason}`);
    lines.push('');
  }
  const failing = summary.cases.filter(failed);
  lines.push('## Failures', '');
  if (failing.length === 0) lines.push('None.', '');
  for (const c of failing) {
    lines.push(`### ${c.api} ${label(c)}: ${c.title}`, '');
    for (const f of c.findings) {
      lines.push(`- **${f.check}**: ${f.message}`);
      if (f.curl) lines.push('', '  ```sh', `  ${f.curl}`, '  ```', '');
    }
    lines.push('');
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}
