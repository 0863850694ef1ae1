// Nothing the description does not name: the converse of the seed-coverage test. Every GET of
// both descriptions is called on the seed at every version it serves (each JSON media type), and
// every property path an answer carries must be named by that version's answer schema (through
// $ref, allOf, oneOf, anyOf and items), or lie below a free-form object (one that names no
// property, or allows more). A stored field the contract does not show, or an older version's
// name under a newer version's label, fails here. The same on a description where a field was
// renamed in a second version of the employee.
import { deref } from '@payroll-api/openapi-bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { freshToken } from '../../helpers.js';
import { realBundle, type Doc } from '../../fixtures/fixture.js';
import { renamedBundle, writeBundle } from '../../support/renamed-bundle.js';
import { allOperations } from './operations.js';
import { freeFormPaths, parentOf, schemaPaths, seededAnswers, type SchemaProperty } from './answer-paths.js';

/** The enclosing paths of a property path, nearest first (`a.b[].c` → `a.b[]`, `a.b`, `a`, ''). */
function ancestors(path: string): string[] {
  const found: string[] = [];
  let at = path;
  while (at !== '') {
    at = at.endsWith('[]') ? at.slice(0, -2) : parentOf(at);
    found.push(at);
  }
  return found;
}

function operationById(bundle: Doc, operationId: string): Doc {
  for (const item of Object.values<Doc>(bundle.paths)) for (const operation of Object.values<Doc>(item)) if (operation?.operationId === operationId) return operation;
  throw new Error(`no operation ${operationId}`);
}

const cases = [
  { name: 'the description', payroll: () => realBundle('payroll'), onlyVersioned: false },
  { name: 'a description that renamed the last name in a newer employee version', payroll: () => renamedBundle({ resource: 'employee', field: 'personalDetails.lastName' }).bundle, onlyVersioned: true },
];

describe.each(cases)('on $name', ({ payroll, onlyVersioned }) => {
  const bundles = { payroll: payroll(), journal: realBundle('journal') };
  const written = writeBundle(bundles.payroll);
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, mode: 'sandbox', payrollSpec: written.payrollSpec, journalSpec: written.journalSpec, log: () => undefined });
  });
  afterAll(async () => {
    await mock?.close();
    written.remove();
  });

  it('every property of every seeded answer of every GET, at every version, is named by its answer schema', { timeout: 300_000 }, async () => {
    const unnamed: string[] = [];
    let checked = 0;
    for (const call of allOperations().filter((c) => c.method === 'get')) {
      const bundle = bundles[call.api];
      const operation = operationById(bundle, call.operationId);
      const success = deref<Doc>(bundle, Object.entries<Doc>(operation.responses).find(([code]) => code.startsWith('2'))?.[1]);
      const json = Object.entries<Doc>((success?.content as Record<string, Doc> | undefined) ?? {}).filter(([type]) => type.includes('json'));
      if (onlyVersioned && json.length < 2) continue;
      for (const [type, media] of json) {
        const { present } = await seededAnswers({ ...call, operation }, mock.url, freshToken(`names-${call.operationId}`), type);
        expect(present.size, `${call.operationId} answered ${type} on the seed`).toBeGreaterThan(0);
        const named = new Map<string, SchemaProperty>();
        schemaPaths(bundle, media.schema, '', named, { paths: new Map(), holders: [] });
        const free = new Set<string>();
        freeFormPaths(bundle, [media.schema], '', free);
        for (const path of present) {
          if (!named.has(path) && !ancestors(path).some((at) => free.has(at))) unnamed.push(`${call.operationId} ${type}: ${path}`);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(onlyVersioned ? 3 : 40);
    expect(unnamed, 'properties an answer carries that its schema does not name').toEqual([]);
  });
});
