// Path parameters: decoded once per routed request, handed out as a new object each time.
import { describe, expect, it } from 'vitest';
import { checkPathEncoding, pathParams, type Routed } from '../src/http/route.js';
import type { Operation } from '../src/http/spec.js';
import { MemoryStore } from '../src/store/memory.js';

const routedTo = (template: string, routedPath: string): Routed => ({
  method: 'get',
  pathname: routedPath,
  query: new URLSearchParams(),
  operation: { path: template, operationId: 'GetThing', method: 'get', api: { name: 'payroll', doc: {} } } as unknown as Operation,
  routedPath,
});

describe('path parameters', () => {
  it('are decoded by name, and each call gives a new object a handler may change', () => {
    const routed = routedTo('/providers/employers/{employerId}/employees/{employeeId}', '/providers/employers/a%20b/employees/%C3%A9');
    const first = pathParams(routed);
    expect(first).toEqual({ employerId: 'a b', employeeId: 'é' });
    first.employerId = 'changed';
    (first as Record<string, string>).extra = 'added';
    expect(pathParams(routed)).toEqual({ employerId: 'a b', employeeId: 'é' });
    expect(checkPathEncoding(routed)).toBeUndefined();
  });
  it('that are not valid percent-encoding are a 400 naming the parameter, each time', () => {
    const routed = routedTo('/providers/employers/{employerId}/employees/{employeeId}', '/providers/employers/ok/employees/%E0%A4%A');
    for (let i = 0; i < 2; i++) {
      const refusal = checkPathEncoding(routed);
      expect(refusal?.status).toBe(400);
      expect(JSON.parse(String(refusal?.body)).messages[0]).toMatchObject({ properties: ['employeeId'] });
      expect(() => pathParams(routed)).toThrow(URIError);
    }
  });
});

describe('the memory store', () => {
  it('tells whether a doc is there without handing one out', async () => {
    const store = new MemoryStore({ seed: { format: 'payroll-sandbox/1', collections: {}, meta: {} }, collections: [{ name: 'things' }] });
    await store.transaction('s', 'write', (tx) => tx.insert('things', { id: 'a', name: 'A' }));
    await store.transaction('s', 'read', async (tx) => {
      expect(await tx.has!('things', 'a')).toBe(true);
      expect(await tx.has!('things', 'b')).toBe(false);
      expect(await tx.has!('others', 'a')).toBe(false);
    });
  });
});
