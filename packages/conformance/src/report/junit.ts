// JUnit XML for CI: a test suite per operation and version, a test case per case.
import type { RunSummary } from '../findings.js';
import { failed } from '../findings.js';
import { groupCases, label } from './group.js';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function junitReport(summary: RunSummary): string {
  const groups = groupCases(summary.cases);
  const total = summary.cases.length;
  const skipped = summary.cases.filter((c) => c.skipped).length;
  const seconds = (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000;
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="payroll-conformance" tests="${total}" failures="${summary.failures}" skipped="${skipped}" time="${seconds.toFixed(3)}">`];
  for (const group of groups) {
    const fails = group.cases.filter(failed).length;
    const skips = group.cases.filter((c) => c.skipped).length;
    const time = group.cases.reduce((t, c) => t + c.ms, 0) / 1000;
    out.push(`  <testsuite name="${xml(`${group.api} ${label(group)}`)}" tests="${group.cases.length}" failures="${fails}" skipped="${skips}" time="${time.toFixed(3)}">`);
    for (const c of group.cases) {
      const open = `    <testcase classname="${xml(`${c.api}.${c.operationId}`)}" name="${xml(`${c.kind}: ${c.title}${c.version ? ` (${c.version})` : ''}`)}" time="${(c.ms / 1000).toFixed(3)}"`;
      if (c.skipped) out.push(`${open}><skipped message="${xml(c.skipped)}"/></testcase>`);
      else if (c.findings.length > 0) {
        const text = c.findings.map((f) => `${f.check}: ${f.message}${f.curl ? `\n  ${f.curl}` : ''}`).join('\n');
        out.push(`${open}><failure message="${xml(c.findings[0]?.message ?? '')}" type="${xml(c.findings[0]?.check ?? '')}">${xml(text)}</failure></testcase>`);
      } else out.push(`${open}/>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
