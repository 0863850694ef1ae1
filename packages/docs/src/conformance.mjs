// The "Conformance" page: the checker's three uses (rendered from its README, where they are
// documented once) and two reports it really produced at build time: a passing run against a
// fresh in-process sandbox, and a failing one against a small proxy in front of that sandbox
// that drops Expires from one operation's answers.
import http from 'node:http';
import { renderPage } from './layout.mjs';
import { packageReadme, sectionsOf } from './guides.mjs';
import { renderMarkdown } from './markdown.mjs';
import { SANDBOX_ORIGIN } from './samples.mjs';

/** The port the README's proxy example listens on; the failing report is shown as if from it. */
export const PROXY_ORIGIN = 'http://127.0.0.1:4030';

/** A handful of operations, so that the build stays fast: lists (which teach the checker ids) and single reads, both APIs. */
export const REPORT_OPERATIONS = [
  'GetEmployerByEmployerId',
  'GetEmploymentsByEmployerId',
  'GetEmploymentByEmploymentId',
  'GetJournalProfilesByWageModelId',
  'GetCostCentersAtWageModelLevelByJournalProfileId',
];

/** The fault the failing run shows: this operation's answers lose their Expires header. */
export const FAULT = { operationId: 'GetEmployerByEmployerId', header: 'expires', path: /^\/v2\/v2\/providers\/employers\/[0-9a-f-]{36}$/ };

/** Forwards every request to `target` unchanged, except that GET answers on FAULT.path lose FAULT.header. */
export function startFaultProxy(target) {
  const server = http.createServer((request, response) => {
    const upstream = http.request(new URL(request.url, target), { method: request.method, headers: request.headers }, (answer) => {
      const headers = { ...answer.headers };
      if (request.method === 'GET' && FAULT.path.test(new URL(request.url, target).pathname)) delete headers[FAULT.header];
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(response);
    });
    upstream.on('error', () => {
      response.writeHead(502).end();
    });
    request.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * Runs the checker twice against a fresh in-process sandbox (its seed's quick-start wage model
 * and employer, as the conformance package's own tests do): directly, and through the fault
 * proxy. The servers' random ports become the fixed addresses of the README's examples, and
 * the run's seed is fixed, so the build does not change from one run to the next.
 */
export async function conformanceReports(seed) {
  const [{ runConformance, markdownReport }, { startMock }] = await Promise.all([import('@payroll-api/conformance'), import('@payroll-api/mock')]);
  const mock = await startMock({ port: 0, log: () => {} });
  let proxy;
  try {
    const common = { token: 'conformance-docs', seed: 1, allowWrites: true, params: { wageModelId: seed.ids.wageModel, employerId: seed.ids.employer } };
    const passing = await runConformance({ ...common, payrollUrl: mock.payrollBaseUrl, journalUrl: mock.url, operations: REPORT_OPERATIONS });
    proxy = await startFaultProxy(mock.url);
    const failing = await runConformance({ ...common, token: 'conformance-docs-proxy', payrollUrl: `${proxy.url}/v2`, journalUrl: proxy.url, operations: [FAULT.operationId] });
    const fixed = (text) => text.replaceAll(proxy.url, PROXY_ORIGIN).replaceAll(mock.url, SANDBOX_ORIGIN);
    return {
      passing: { failures: passing.failures, requests: passing.requests, markdown: fixed(markdownReport(passing)) },
      failing: { failures: failing.failures, requests: failing.requests, markdown: fixed(markdownReport(failing)), findings: failing.cases.flatMap((c) => c.findings) },
    };
  } finally {
    await proxy?.close();
    await mock.close();
  }
}

/** The Conformance page. */
export function conformancePage(reports, readme = packageReadme('@payroll-api/conformance')) {
  const uses = sectionsOf(readme, /^## Three uses/);
  if (reports.passing.failures !== 0) throw new Error(`conformance page: the run against the sandbox failed, which the page cannot show as the sample report:\n${reports.passing.markdown}`);
  if (reports.failing.failures === 0) throw new Error(`conformance page: the run through the proxy that drops ${FAULT.header} found nothing`);
  const report = (markdown) => `<div class="conformance-report">${renderMarkdown(markdown, { shift: 2 }).replaceAll('<table>', '<div class="table-scroll"><table>').replaceAll('</table>', '</table></div>')}</div>`;
  const body = `<h1>Conformance</h1>
      <p class="lead"><code>@payroll-api/conformance</code> (command <code>payroll-conformance</code>) checks any running server of the two APIs against the description, resource version by resource version: every operation at every served version, the negotiation rule, refusals of requests with exactly one violation, stateful sequences, and the contract's envelopes, <code>Expires</code>, empty 404s and the 401 shape on every answer.</p>
      ${uses.length ? `<div class="from-readme">${renderMarkdown(uses.join('\n'), { shift: 0 })}</div>` : '<p class="empty">The conformance package\'s README does not describe its uses yet.</p>'}
      <p>All options: <code>payroll-conformance --help</code>.</p>
      <h2 id="sample-report">A sample report</h2>
      <p>Produced when this site was built: the checker against a freshly started sandbox, limited to ${REPORT_OPERATIONS.length} operations (<code>--operation</code>, once per activity) with writes allowed, ${reports.passing.requests} requests. A full run covers every operation and served version.</p>
      ${report(reports.passing.markdown)}
      <h2 id="a-failure">What a failure looks like</h2>
      <p>The same sandbox behind a proxy that drops the <code>Expires</code> header from <a href="payroll.html#operation/${FAULT.operationId}"><code>${FAULT.operationId}</code></a>'s answers, checked for that operation only. Each finding names the check and comes with a curl that reproduces it (the token as <code>$PAYROLL_TOKEN</code>); the command exits with 1.</p>
      ${report(reports.failing.markdown)}
      <p>The report is also written as JUnit XML for CI and as JSON (<code>--junit</code>, <code>--json</code>, or <code>--report-dir</code> for all three).</p>`;
  return renderPage({ id: 'conformance', title: 'Conformance', body });
}
