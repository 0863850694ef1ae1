// One fixture pair per rule of the change table: the change that passes and the change that
// is refused, on the hand-written widgets bundle.
import { describe, expect, it } from 'vitest';
import { checkApi } from '../src/policy.mjs';
import { NEW, OLD, clone, widgets, withNewVersion } from './fixtures/widgets.mjs';

const TODAY = '2026-11-22';
const check = (base, head, today = TODAY) => checkApi({ baseDoc: base, headDoc: head, today });
const schema = (doc, name) => doc.components.schemas[name];

function refusedFor(result, element, ruleId) {
  return result.violations.filter((v) => v.finding && v.finding.element === element && (!ruleId || v.finding.ruleId === ruleId));
}

// Breaking changes to an element: refused inside the existing version, accepted as a new version.
const breaking = [
  { rule: 'B-REMOVAL', title: 'removing a field', element: 'note', change: (d, p) => delete schema(d, `${p}Widget`).properties.note },
  {
    rule: 'B-NAME',
    title: 'renaming a field',
    element: 'code',
    change: (d, p) => {
      for (const name of [`${p}Widget`, `${p}WidgetInput`]) {
        const props = schema(d, name).properties;
        props.sku = props.code;
        delete props.code;
      }
    },
  },
  { rule: 'B-TYPE', title: "changing a field's type", element: 'size', change: (d, p) => (schema(d, `${p}Widget`).properties.size.type = 'string') },
  { rule: 'B-PATTERN', title: "changing a field's pattern", element: 'code', change: (d, p) => (schema(d, `${p}WidgetInput`).properties.code.pattern = '^[A-Z]{4}$') },
  { rule: 'B-LENGTH', title: 'tightening a maxLength', element: 'name', change: (d, p) => (schema(d, `${p}WidgetInput`).properties.name.maxLength = 40) },
  { rule: 'B-LENGTH', title: 'loosening a maxLength', element: 'name', change: (d, p) => (schema(d, `${p}Widget`).properties.name.maxLength = 70) },
  { rule: 'B-RANGE', title: 'lowering a maximum', element: 'size', change: (d, p) => (schema(d, `${p}WidgetInput`).properties.size.maximum = 50) },
  { rule: 'B-FORMAT', title: "changing a field's format", element: 'size', change: (d, p) => (schema(d, `${p}Widget`).properties.size.format = 'int64') },
  { rule: 'B-ENUM', title: 'narrowing an enum', element: 'kind', change: (d, p) => (schema(d, `${p}Widget`).properties.kind.enum = ['small']) },
  { rule: 'B-REQUIRED', title: 'making a request field required', element: 'code', change: (d, p) => schema(d, `${p}WidgetInput`).required.push('code') },
  {
    rule: 'B-REQUIRED',
    title: 'adding a required request field',
    element: 'colour',
    change: (d, p) => {
      schema(d, `${p}WidgetInput`).properties.colour = { type: 'string' };
      schema(d, `${p}WidgetInput`).required.push('colour');
    },
  },
  { rule: 'B-TYPE', title: 'letting a response field be null', element: 'name', change: (d, p) => (schema(d, `${p}Widget`).properties.name.type = ['string', 'null']) },
  { rule: 'B-ENUM', title: 'widening an enum of a response', element: 'kind', change: (d, p) => schema(d, `${p}Widget`).properties.kind.enum.push('medium') },
  { rule: 'B-REMOVAL', title: 'making a response field optional', element: 'name', change: (d, p) => (schema(d, `${p}Widget`).required = ['id']) },
];

describe.each(breaking)('$rule: $title', ({ rule, element, change }) => {
  it('is refused inside the existing resource version, naming the element and the way out', () => {
    const head = clone(widgets());
    change(head, '');
    const result = check(widgets(), head);
    const refused = refusedFor(result, element, rule);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].policyRule).toBe('P-IN-VERSION');
    expect(refused[0].message).toContain(element);
    expect(refused[0].message).toContain('pnpm api:version widget');
    expect(refused[0].message).toContain(`widget\` ${OLD}`);
    expect(refused[0].finding.rule).toMatch(/^§9 Versioning, Breaking: /);
  });

  it('passes as a new resource version whose change record names the field, and the new version lists it', () => {
    const head = withNewVersion(widgets(), { changes: [{ note: element, description: 'Changed in this version.' }] });
    change(head, 'V2');
    const result = check(widgets(), head);
    expect(result.violations).toEqual([]);
    expect(result.findings.filter((f) => f.kind === 'version-added').map((f) => f.version)).toContain(NEW);
    const delta = result.deltas.flatMap((d) => d.changes);
    expect(delta.some((c) => c.ruleId === rule && (c.element === element || c.before === element))).toBe(true);
  });

  it('is refused as a new resource version whose change record does not name the field', () => {
    const head = withNewVersion(widgets(), { changes: [{ note: 'other', description: 'Another change.' }] });
    change(head, 'V2');
    const refused = check(widgets(), head).violations.filter((v) => v.policyRule === 'P-EXPLAINED');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((v) => v.finding.field === element)).toBe(true);
    expect(refused[0].message).toContain(`does not name \`${element}\``);
  });
});

describe('non-breaking changes and their refused counterparts', () => {
  it('a new optional request field passes; the same field made required is refused', () => {
    const ok = clone(widgets());
    schema(ok, 'WidgetInput').properties.colour = { type: 'string' };
    schema(ok, 'Widget').properties.colour = { type: 'string' };
    const pass = check(widgets(), ok);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.filter((f) => f.ruleId === 'NB-FIELD' && f.element === 'colour').map((f) => f.direction).sort()).toEqual(['request', 'response', 'response', 'response']);
    expect(pass.requiredBump).toBe('minor');

    schema(ok, 'WidgetInput').required.push('colour');
    expect(refusedFor(check(widgets(), ok), 'colour', 'B-REQUIRED')).toHaveLength(1);
  });

  it('direction: a new required field in a response is an addition, in a request it is breaking', () => {
    const response = clone(widgets());
    schema(response, 'Widget').properties.createdOn = { type: 'string', format: 'date', readOnly: true };
    schema(response, 'Widget').required.push('createdOn');
    const pass = check(widgets(), response);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.every((f) => f.ruleId === 'NB-FIELD' && f.direction === 'response')).toBe(true);

    const request = clone(widgets());
    schema(request, 'WidgetInput').properties.createdOn = { type: 'string', format: 'date' };
    schema(request, 'WidgetInput').required.push('createdOn');
    const fail = check(widgets(), request);
    expect(refusedFor(fail, 'createdOn', 'B-REQUIRED')[0].finding.location).toBe('request body');
  });

  it('direction: null accepted in a request passes; null in a response is refused', () => {
    const request = clone(widgets());
    schema(request, 'WidgetInput').properties.note.type = ['string', 'null'];
    const pass = check(widgets(), request);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.map((f) => f.kind)).toEqual(['null-accepted']);

    const response = clone(widgets());
    schema(response, 'Widget').properties.code.type = ['string', 'null'];
    expect(refusedFor(check(widgets(), response), 'code', 'B-TYPE').length).toBeGreaterThan(0);
  });

  it('direction: a wider enum in a request passes; a narrower one is refused', () => {
    const wider = clone(widgets());
    schema(wider, 'WidgetInput').properties.kind.enum.push('medium');
    expect(check(widgets(), wider).violations).toEqual([]);
    const narrower = clone(widgets());
    schema(narrower, 'WidgetInput').properties.kind.enum = ['large'];
    expect(refusedFor(check(widgets(), narrower), 'kind', 'B-ENUM')).toHaveLength(1);
  });

  it('a new endpoint passes; removing one before its versions are obsolete is refused', () => {
    const added = clone(widgets());
    added.paths['/v2/widgets/{widgetId}/history'] = { get: { operationId: 'GetWidgetHistory', responses: { 200: { description: 'ok' } } } };
    const pass = check(widgets(), added);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.map((f) => [f.kind, f.rule])).toEqual([['endpoint-added', '§9 Versioning, Non breaking: a new endpoint']]);

    const removed = clone(widgets());
    delete removed.paths['/v2/widgets'];
    const fail = check(widgets(), removed);
    expect(fail.violations.map((v) => v.policyRule)).toEqual(['P-REMOVE-AFTER-OBSOLETE']);
    expect(fail.violations[0].message).toContain('/v2/widgets');
  });

  it('a new operation passes; removing one is refused', () => {
    const added = clone(widgets());
    added.paths['/v2/widgets/{widgetId}'].delete = { operationId: 'DeleteWidget', responses: { 200: { description: 'ok' } } };
    const pass = check(widgets(), added);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.map((f) => f.ruleId)).toEqual(['NB-OPERATION']);

    const removed = clone(widgets());
    delete removed.paths['/v2/widgets/{widgetId}'].put;
    const fail = check(widgets(), removed);
    expect(fail.findings.map((f) => f.kind)).toEqual(['operation-removed']);
    expect(fail.violations[0].message).toContain('PutWidget');
  });

  it('a new optional parameter passes; a new required one, a removed one and one made required are refused', () => {
    const optional = clone(widgets());
    optional.paths['/v2/widgets'].get.parameters.push({ name: 'orderBy', in: 'query', required: false, schema: { type: 'string' } });
    const pass = check(widgets(), optional);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.map((f) => f.ruleId)).toEqual(['NB-PARAMETER']);

    const required = clone(widgets());
    required.paths['/v2/widgets'].get.parameters.push({ name: 'orderBy', in: 'query', required: true, schema: { type: 'string' } });
    expect(refusedFor(check(widgets(), required), 'orderBy', 'B-REQUIRED')).toHaveLength(1);

    const removed = clone(widgets());
    removed.paths['/v2/widgets'].get.parameters.pop();
    expect(refusedFor(check(widgets(), removed), 'filter', 'B-REMOVAL')).toHaveLength(1);

    const nowRequired = clone(widgets());
    nowRequired.components.parameters.PageSize.required = true;
    expect(refusedFor(check(widgets(), nowRequired), 'pageSize', 'B-REQUIRED')).toHaveLength(1);
  });

  it('a new resource version passes when the old one is served six more months; a shorter period is refused', () => {
    const pass = check(widgets(), withNewVersion(widgets()));
    expect(pass.violations).toEqual([]);
    expect(pass.findings.filter((f) => f.kind === 'version-added')).toHaveLength(4);
    expect(pass.findings.find((f) => f.kind === 'obsolete-date-set')).toMatchObject({ version: OLD, after: '2027-06-01' });
    expect(pass.requiredBump).toBe('minor');

    const fail = check(widgets(), withNewVersion(widgets(), { obsoleteDate: '2027-05-31' }));
    expect(fail.violations.map((v) => v.policyRule)).toEqual(['P-SUCCESSOR']);
    expect(fail.violations[0].message).toContain('2027-06-01');

    const none = withNewVersion(widgets());
    none['x-resource-versions'].resources.widget.versions[1].obsoleteDate = null;
    expect(check(widgets(), none).violations.map((v) => v.policyRule)).toEqual(['P-SUCCESSOR']);
  });

  it('an obsoleteDate may move later, never earlier', () => {
    const base = withNewVersion(widgets());
    const later = clone(base);
    later['x-resource-versions'].resources.widget.versions[1].obsoleteDate = '2027-09-01';
    const pass = check(base, later);
    expect(pass.violations).toEqual([]);
    expect(pass.findings.map((f) => f.kind)).toEqual(['obsolete-date-extended']);

    const earlier = clone(base);
    earlier['x-resource-versions'].resources.widget.versions[1].obsoleteDate = '2027-05-31';
    const fail = check(base, earlier);
    expect(fail.violations.map((v) => v.policyRule)).toContain('P-NO-EARLIER');
    expect(fail.violations.find((v) => v.policyRule === 'P-NO-EARLIER').message).toContain("set `obsoleteDate: '2027-06-01'` (or later)");
  });

  it('a version is removed once its obsoleteDate has passed (major), not before', () => {
    const base = withNewVersion(widgets());
    const head = clone(base);
    for (const item of Object.values(head.paths)) {
      for (const operation of [item.get, item.put].filter(Boolean)) {
        if (operation.requestBody) delete operation.requestBody.content[`application/json;version=${OLD}`];
        for (const response of Object.values(operation.responses)) if (response.content) delete response.content[`application/json;version=${OLD}`];
      }
    }
    head['x-resource-versions'].resources.widget.versions.pop();

    const after = check(base, head, '2027-06-01');
    expect(after.violations).toEqual([]);
    expect(after.findings.filter((f) => f.kind === 'version-removed')).toHaveLength(4);
    expect(after.findings.every((f) => f.ruleId === 'B-OBSOLETE' && f.permitted)).toBe(true);
    expect(after.requiredBump).toBe('major');

    const before = check(base, head, '2027-05-31');
    expect(before.violations.length).toBe(5);
    expect(before.violations.every((v) => v.policyRule === 'P-REMOVE-AFTER-OBSOLETE')).toBe(true);
    expect(before.violations[0].message).toContain('2027-06-01');
  });

  it('an unchanged description needs nothing; a wording change needs a patch', () => {
    expect(check(widgets(), widgets())).toMatchObject({ violations: [], findings: [], requiredBump: 'none' });
    const worded = clone(widgets());
    worded.paths['/v2/widgets'].get.description = 'Lists the widgets.';
    expect(check(widgets(), worded)).toMatchObject({ violations: [], findings: [], requiredBump: 'patch' });
  });
});

describe('schema walking', () => {
  it('follows $ref and allOf into list items and detail content, once per path', () => {
    const head = clone(widgets());
    schema(head, 'Widget').properties.name.maxLength = 49;
    const pointers = check(widgets(), head).findings.map((f) => `${f.operationId} ${f.location} ${f.pointer}`).sort();
    expect(pointers).toEqual(['GetWidget response 200 /content/name', 'GetWidgets response 200 /_embedded/[]/name', 'PutWidget response 200 /content/name']);
  });

  it('is cycle-safe: the self reference is not walked again', () => {
    const head = clone(widgets());
    schema(head, 'Widget').properties.code.pattern = '^[A-Z]{2}$';
    const findings = check(widgets(), head).findings;
    expect(findings.length).toBe(3);
    expect(findings.some((f) => f.pointer.includes('parent'))).toBe(false);
  });

  it('walks oneOf and anyOf variants, matched by the schema they reference', () => {
    const head = clone(widgets());
    schema(head, 'Circle').properties.radius.minimum = 1;
    const found = check(widgets(), head).findings.find((f) => f.operationId === 'GetWidget');
    expect(found).toMatchObject({ ruleId: 'B-RANGE', pointer: '/content/shape/oneOf/Circle/radius', element: 'radius' });

    const anyOf = clone(widgets());
    schema(anyOf, 'Widget').properties.shape = { anyOf: [{ $ref: '#/components/schemas/Square' }, { $ref: '#/components/schemas/Circle' }] };
    expect(check(widgets(), anyOf).findings.some((f) => f.kind === 'variant-removed')).toBe(false);
    const dropped = clone(widgets());
    schema(dropped, 'Widget').properties.shape = { oneOf: [{ $ref: '#/components/schemas/Circle' }, { $ref: '#/components/schemas/Triangle' }] };
    dropped.components.schemas.Triangle = { type: 'object' };
    const kinds = check(widgets(), dropped).findings.map((f) => f.kind);
    expect(kinds).toContain('variant-removed');
    expect(kinds).toContain('variant-added');
  });

  it('reports a likely rename with both names', () => {
    const head = clone(widgets());
    const props = schema(head, 'Widget').properties;
    props.label = props.name;
    delete props.name;
    schema(head, 'Widget').required = ['id', 'label'];
    const renamed = check(widgets(), head).findings.filter((f) => f.kind === 'property-renamed');
    expect(renamed.length).toBe(3);
    expect(renamed[0].message).toContain('likely renamed from `name` to `label`');
  });

  it('matches content by the exact media type: a new version is not a change of the old', () => {
    const head = withNewVersion(widgets());
    delete schema(head, 'V2Widget').properties.note;
    const result = check(widgets(), head);
    expect(result.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    expect(result.findings.find((f) => f.kind === 'version-added').mediaType).toBe(`application/json;version=${NEW}`);
  });

  it('a parameter whose schema changes is checked like a request field', () => {
    const head = clone(widgets());
    head.paths['/v2/widgets'].get.parameters[1].schema.maxLength = 100;
    expect(refusedFor(check(widgets(), head), 'filter', 'B-LENGTH')).toHaveLength(1);
  });

  it('a removed response header is breaking; a new one is an addition', () => {
    const removed = clone(widgets());
    delete removed.paths['/v2/widgets/{widgetId}'].get.responses[200].headers;
    expect(refusedFor(check(widgets(), removed), 'Expires', 'B-REMOVAL')).toHaveLength(1);
    const added = clone(widgets());
    added.paths['/v2/widgets'].get.responses[200].headers = { Expires: { schema: { type: 'string' } } };
    expect(check(widgets(), added).violations).toEqual([]);
  });
});
