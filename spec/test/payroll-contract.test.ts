// The payroll description against the contract's own lists: every activity of section 4.3 is
// an operation with the activity's verb as method, every path of section 4.2 appears verbatim,
// and every other path is marked as published or inferred.
import { describe, expect, it } from 'vitest';
import { deref, loadBundle, operationsOf } from './support/bundles.js';
import contract from './fixtures/payroll-activities.json' with { type: 'json' };

const doc = loadBundle('payroll');
const operations = operationsOf(doc);
const byId = new Map(operations.map((o) => [o.operation.operationId, o]));
const activities = Object.entries(contract.activities).flatMap(([tag, names]) => names.map((name) => ({ tag, name })));

describe('payroll description against the contract', () => {
  it('lists 53 activities in the fixture', () => {
    expect(activities).toHaveLength(53);
  });

  it.each(activities.map((a) => [a.name, a] as const))('%s is an operation with its verb and tag', (name, a) => {
    const op = byId.get(name);
    expect(op, `${name} is missing`).toBeDefined();
    expect(op!.method).toBe(/^[A-Z][a-z]+/.exec(name)![0].toLowerCase());
    expect(op!.operation.tags).toContain(a.tag);
  });

  it('has unique operationIds', () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has every given path verbatim, marked as from the contract', () => {
    for (const given of contract.givenPaths) {
      expect(doc.paths[given], given).toBeDefined();
      expect(doc.paths[given]!['x-path-source'], given).toBe('contract');
    }
  });

  it('marks every other path as published or inferred (test/published-paths.test.ts tells which)', () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      if (contract.givenPaths.includes(p)) continue;
      expect(['published', 'inferred'], p).toContain(item['x-path-source']);
    }
  });

  it('begins every path with /v2/providers and has an operation on every path', () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(p).toMatch(/^\/v2\/providers(\/|$)/);
      expect(operations.some((o) => o.path === p), `${p} has no operation`).toBe(true);
      void item;
    }
  });

  it('assigns every operation to exactly one resource in the registry', () => {
    const registry = doc['x-resource-versions'];
    const assigned = Object.values<any>(registry.resources).flatMap((r) => r.operations);
    expect([...assigned].sort()).toEqual(operations.map((o) => o.operation.operationId).sort());
  });

  it('gives every operation Accept examples naming exactly its resource\'s versions, newest first', () => {
    const registry = doc['x-resource-versions'];
    for (const { operation } of operations) {
      const [resource] = Object.entries<any>(registry.resources).find(([, r]) => r.operations.includes(operation.operationId))!;
      const accept = (operation.parameters ?? []).map((p: any) => deref(doc, p)).find((p: any) => p.in === 'header' && p.name === 'Accept');
      const named = Object.values<any>(accept.examples ?? {}).map((e) => e.value);
      const versions = registry.resources[resource].versions.map((v: any) => v.version);
      expect(named, operation.operationId).toEqual(versions.map((v: string) => `application/json;version=${v}`));
      expect(accept.example, operation.operationId).toBeUndefined();
    }
  });
});
