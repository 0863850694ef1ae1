// The six-month window has no way round it: versions dated before the release that ships
// them, obsolete dates counted from a version's date instead of its release, changes no rule
// saw (a new required scope, a changed default), one report line per operation for one change
// of a shared schema, and advice the tooling cannot carry out.
import { describe, expect, it } from 'vitest';
import { addMonths } from '../src/dates.mjs';
import { checkApi } from '../src/policy.mjs';
import { renderJson, renderMarkdown } from '../src/report.mjs';
import { OLD, clone, widgets, withNewVersion } from './fixtures/widgets.mjs';

const TODAY = '2026-11-22';
const check = (base, head, options = {}) => checkApi({ baseDoc: base, headDoc: head, today: TODAY, ...options });
const rules = (result) => result.violations.map((v) => v.policyRule);
const report = (result) => renderMarkdown({ today: TODAY, ok: result.violations.length === 0, violations: result.violations, apis: [{ api: 'payroll', base: 'base', head: 'head', ...result }] });

/** A widgets bundle whose every operation also answers 401 with a shared error envelope. */
function withErrors(doc = widgets()) {
  doc.components.schemas.MessageType = { type: 'string', enum: ['BrokenBusinessRule', 'Warning', 'Exception'] };
  doc.components.schemas.Message.properties.type = { $ref: '#/components/schemas/MessageType' };
  doc.components.schemas.ErrorEnvelope = { type: 'object', properties: { messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } } } };
  doc.components.responses.Unauthorized = { description: 'No token.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
  for (const item of Object.values(doc.paths)) {
    for (const operation of [item.get, item.put].filter(Boolean)) operation.responses[401] = { $ref: '#/components/responses/Unauthorized' };
  }
  return doc;
}

describe('backdating: the window runs from the release that ships a version', () => {
  it('refuses a new version dated before today, and one dated before the day after the last release', () => {
    const backdated = withNewVersion(widgets(), { date: '2026-01-01' });
    const result = check(widgets(), backdated);
    const dated = result.violations.filter((v) => v.policyRule === 'P-VERSION-DATE');
    expect(dated).toHaveLength(1);
    expect(dated[0].message).toContain('version 2026-01-01, dated before today (2026-11-22)');
    expect(dated[0].message).toContain('pnpm api:version widget <yyyy-MM-dd>');
    // Its predecessor is served six months from the release, not from the date it names.
    const successor = result.violations.find((v) => v.policyRule === 'P-SUCCESSOR');
    expect(successor.message).toContain(`obsoleteDate must be ${addMonths(TODAY, 6)} or later`);

    const afterRelease = check(widgets(), withNewVersion(widgets(), { date: '2026-12-01' }), { releases: [{ version: '1.0.0', date: '2026-12-05', registry: widgets()['x-resource-versions'] }] });
    expect(afterRelease.violations.find((v) => v.policyRule === 'P-VERSION-DATE').message).toContain('the day after the last release (2026-12-05)');

    expect(rules(check(widgets(), withNewVersion(widgets(), { date: TODAY })))).toEqual([]);
  });

  it('a new resource (nothing was served before) may carry any date', () => {
    const base = widgets();
    delete base['x-resource-versions'].resources.widget;
    expect(rules(check(base, widgets()))).toEqual([]);
  });

  it('P-SUCCESSOR counts from the release that shipped the successor, when it shipped after its date', () => {
    const released = withNewVersion(widgets(), { date: '2026-12-01' });
    const releases = [{ version: '1.1.0', date: '2027-01-15', registry: released['x-resource-versions'] }];
    // Served until 2027-06-01 (six months after the date) is too short: it shipped on 2027-01-15.
    const result = checkApi({ baseDoc: released, headDoc: clone(released), today: '2027-02-01', releases });
    expect(rules(result)).toEqual(['P-SUCCESSOR']);
    expect(result.violations[0].message).toContain('released on 2027-01-15, so its obsoleteDate must be 2027-07-15 or later');
    const kept = withNewVersion(widgets(), { date: '2026-12-01', obsoleteDate: '2027-07-15' });
    expect(rules(checkApi({ baseDoc: kept, headDoc: clone(kept), today: '2027-02-01', releases }))).toEqual([]);
  });
});

describe('changes no rule saw', () => {
  it('a new required OAuth scope is breaking and needs a new operation; dropping one is compatible', () => {
    const base = widgets();
    base.components.securitySchemes = { OAuth2: { type: 'oauth2', flows: { password: { tokenUrl: 'https://auth.invalid/token', scopes: { 'payroll:write': 'Write' } } } } };
    base.security = [{ OAuth2: [] }];
    const head = clone(base);
    head.paths['/v2/widgets/{widgetId}'].put.security = [{ OAuth2: ['payroll:write'] }];
    const result = check(base, head);
    expect(result.findings).toEqual([expect.objectContaining({ ruleId: 'B-REQUIRED', kind: 'security-required', operationId: 'PutWidget' })]);
    expect(result.violations).toHaveLength(1);
    expect(result.violations[0].message).toContain('now requires the OAuth2 scope `payroll:write`');
    expect(result.violations[0].message).toContain('The change needs a new operation');
    expect(result.violations[0].message).not.toContain('pnpm api:version widget');

    const everywhere = clone(base);
    everywhere.security = [{ OAuth2: ['payroll:write'] }];
    expect(check(base, everywhere).findings.filter((f) => f.kind === 'security-required')).toHaveLength(3);
    expect(check(base, everywhere).violations).toHaveLength(1);
    expect(check(everywhere, base).findings.map((f) => f.kind)).toEqual(['security-relaxed', 'security-relaxed', 'security-relaxed']);
    expect(check(everywhere, base).violations).toEqual([]);
  });

  it('a changed documented default is a change of its own (a minor release)', () => {
    const base = widgets();
    base.components.parameters.PageSize.schema.default = 250;
    const head = clone(base);
    head.components.parameters.PageSize.schema.default = 25;
    const result = check(base, head);
    expect(result.violations).toEqual([]);
    expect(result.findings).toEqual([expect.objectContaining({ ruleId: 'NB-DEFAULT', kind: 'default-changed', element: 'pageSize', before: 250, after: 25, message: '`pageSize`: default changed from 250 to 25' })]);
    expect(result.requiredBump).toBe('minor');
  });
});

describe('grouped findings', () => {
  it('a value removed from a shared enum is one violation naming the operations it reaches', () => {
    const head = withErrors();
    head.components.schemas.MessageType.enum = ['BrokenBusinessRule', 'Exception'];
    const result = check(withErrors(), head);
    expect(result.findings.length).toBeGreaterThan(3);
    expect(result.violations).toHaveLength(1);
    const [violation] = result.violations;
    expect(violation.finding).toMatchObject({ schema: 'MessageType', schemaPointer: '/' });
    expect(violation.operations.sort()).toEqual(['GetWidget', 'GetWidgets', 'PutWidget']);
    expect(violation.findings).toHaveLength(result.findings.length);
    const text = report(result);
    expect(text.match(/P-IN-VERSION/g)).toHaveLength(1);
    expect(text).toContain('in `MessageType` at `/`');
    // JSON lists the change's places once per violation, not every finding again.
    const json = JSON.parse(renderJson({ today: TODAY, ok: false, violations: result.violations, apis: [{ api: 'payroll', ...result }], changesets: null }));
    expect(json.violations[0]).not.toHaveProperty('findings');
    expect(json.violations[0].places).toHaveLength(result.findings.length);
    // The error body carries no version: said plainly, not `pnpm api:version`.
    expect(violation.message).toContain('`application/json` carries no `version=`');
  });
});

describe('advice that can be followed', () => {
  it('an API without resource versions is never told to add a `;version=` media type', () => {
    const journal = clone(widgets());
    delete journal['x-resource-versions'];
    for (const item of Object.values(journal.paths)) {
      for (const operation of [item.get, item.put].filter(Boolean)) {
        for (const owner of [operation.requestBody, ...Object.values(operation.responses)]) {
          if (!owner?.content) continue;
          owner.content = Object.fromEntries(Object.entries(owner.content).map(([key, media]) => [key.replace(/;version=.*/, ''), media]));
        }
      }
    }
    const head = clone(journal);
    delete head.components.schemas.Widget.properties.note;
    const result = check(journal, head);
    expect(result.violations).toHaveLength(1);
    expect(result.violations[0].message).toContain('this API asserts no resource versioning');
    expect(result.violations[0].message).toContain('needs a new operation');
    expect(result.violations[0].message).not.toMatch(/version=yyyy|;version=|api:version [a-z]/);
  });

  const structural = [
    ['an operationId rename', (d) => (d.paths['/v2/widgets/{widgetId}'].get.operationId = 'ReadWidget'), 'an operationId'],
    ['a new required query parameter', (d) => d.paths['/v2/widgets'].get.parameters.push({ name: 'since', in: 'query', required: true, schema: { type: 'string' } }), 'a parameter'],
    [
      'a changed status',
      (d) => {
        const put = d.paths['/v2/widgets/{widgetId}'].put;
        put.responses[201] = put.responses[200];
        delete put.responses[200];
      },
      'a response status',
    ],
  ];
  it.each(structural)('%s needs a new operation, not pnpm api:version', (_title, change, what) => {
    const head = clone(widgets());
    change(head);
    const result = check(widgets(), head);
    expect(result.violations.length).toBeGreaterThan(0);
    for (const violation of result.violations) {
      expect(violation.message).toContain(`${what} is the same at every resource version`);
      expect(violation.message).toContain('The change needs a new operation');
      expect(violation.message).not.toContain('pnpm api:version widget');
    }
  });

  it('a field change inside a version names the api:version option that makes it', () => {
    const head = clone(widgets());
    delete head.components.schemas.Widget.properties.note;
    const [violation] = check(widgets(), head).violations;
    expect(violation.message).toContain('`pnpm api:version widget <yyyy-MM-dd> --remove note`');
    expect(violation.message).toContain(`widget\` ${OLD}`);
  });
});
