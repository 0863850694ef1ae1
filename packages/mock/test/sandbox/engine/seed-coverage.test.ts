// Every property an answer schema names is carried by some answer on the seed, or the
// description says why not. Every GET of both descriptions is called on the seed (lists with
// their default page of 250, details of the employers, employees, employments and concept
// employees for each seeded one), the property paths present in the answers are collected, and
// each path of the operation's answer schema that no answer carries must be justified where it
// is described: `x-contract-gap` (the contract does not show it) or `x-rarely-present` (why the
// seed has none) on the property's schema in spec/*/components/schemas. A new unjustified one
// fails here.
//
// One more case is justified by the description: a oneOf or anyOf whose schema carries a
// justification (the contract does not show which of the forms an answer takes, e.g. a logo in
// the detail envelope or bare). The sandbox answers one form; the properties of a form that no
// answer takes are not expected.
import { deref } from '@payroll-api/openapi-bundle';
import { expect, it } from 'vitest';
import { freshToken, sandboxMock } from '../../helpers.js';
import { realBundle, type Doc } from '../../fixtures/fixture.js';
import { allOperations } from './operations.js';
import { justified, parentOf, schemaPaths, seededAnswers, untakenForms, type FormTable, type SchemaProperty } from './answer-paths.js';

const mock = sandboxMock();

it('every answer property is carried by some seeded answer, or justified in the description', { timeout: 240_000 }, async () => {
  const unjustified: string[] = [];
  let checked = 0;
  for (const call of allOperations().filter((c) => c.method === 'get')) {
    const bundle = realBundle(call.api);
    const success = deref<Doc>(bundle, Object.entries<Doc>(call.operation.responses).find(([code]) => code.startsWith('2'))?.[1]);
    const json = Object.entries<Doc>((success?.content as Record<string, Doc> | undefined) ?? {}).filter(([type]) => type.includes('json'));
    if (json.length === 0) continue;
    const token = freshToken(`coverage-${call.operationId}`);
    // The answers at every version served: a property any version's schema names must be carried at some version.
    const present = new Set<string>();
    const filled = new Set<string>();
    for (const [type] of json.length > 1 ? json : [['application/json']]) {
      const answered = await seededAnswers(call, mock().url, token, type);
      answered.present.forEach((path) => present.add(path));
      answered.filled.forEach((path) => filled.add(path));
    }
    expect(present.size, `${call.operationId} answered on the seed`).toBeGreaterThan(0);
    const paths = new Map<string, SchemaProperty>();
    const forms: FormTable = { paths: new Map(), holders: [] };
    for (const [, media] of json) schemaPaths(bundle, media.schema, '', paths, forms);
    const untaken = untakenForms(forms, present);
    for (const [path, property] of paths) {
      const parent = parentOf(path);
      // Only where the enclosing object was there to carry it (a child of an absent or null parent is the parent's case).
      if (parent !== '' && !filled.has(parent) && !filled.has(parent.replace(/\[\]$/, ''))) continue;
      if (present.has(path)) continue;
      if (property.nodes.some(justified)) continue;
      // Only reached through forms of a justified oneOf/anyOf that the answers do not take.
      if (property.routes.every((route) => route.some((form) => untaken.has(form)))) continue;
      unjustified.push(`${call.operationId}: ${path}`);
    }
    checked++;
  }
  expect(checked).toBeGreaterThan(40);
  expect(unjustified, 'properties no seeded answer carries: fill them in the seed or justify them in the description').toEqual([]);
});
