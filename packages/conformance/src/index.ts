// @payroll-api/conformance: checks any server of the Payroll and HR API v2 and the Journal
// configuration API against the description, resource version by resource version.
export { runConformance } from './run.js';
export type { ConformanceOptions } from './run.js';
export { startProxy } from './proxy.js';
export type { ProxyOptions, RunningProxy } from './proxy.js';
export { markdownReport } from './report/markdown.js';
export { junitReport } from './report/junit.js';
export { consoleSummary, progressLine } from './report/console.js';
export type { CaseKind, CaseResult, CheckName, Finding, RunSummary } from './findings.js';
