// The organisation entries of the payroll rule catalogue (rules/payroll.yaml), as the docs
// render and run them: each names described operations, and its steps show the rule against a
// freshly reset sandbox (status, and the field a BrokenBusinessRule names).
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { packageDir } from '../../helpers.js';
import { operationOf, OrgClient } from './harness.js';

interface CatalogueEntry {
  id: string;
  contract: { document: string; section: string; quote: string };
  operations: string[];
  status: number;
  messageType?: string;
  steps: Array<{ method: string; path: string; accept: string; contentType?: string; body?: unknown; expect: { status: number; messageProperty?: string } }>;
}

/** The entries of this side, in catalogue order. */
const ORG_RULES = [
  'employer-number-assigned',
  'employer-company-name-required',
  'child-employers-include-parent',
  'concept-employee-validations-off',
  'concept-employee-unique-name',
  'concept-employee-views-consistent',
  'logo-attribute-max-10',
  'logo-name-max-50',
  'logo-unknown-404',
  'metadata-key-in-context',
  'defaults-fully-expanded',
];

const catalogue = YAML.parse(fs.readFileSync(path.join(packageDir, 'rules', 'payroll.yaml'), 'utf8')) as CatalogueEntry[];
const entries = catalogue.filter((e) => ORG_RULES.includes(e.id));

let running: RunningMock;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
});
afterAll(async () => {
  await running?.close();
});

describe('the organisation rules of the payroll catalogue', () => {
  it('lists every rule once', () => {
    expect(entries.map((e) => e.id)).toEqual(ORG_RULES);
  });

  it.each(entries.map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    expect(entry.contract).toMatchObject({ document: 'payroll', section: expect.stringMatching(/^\d+(\.\d+)?$/), quote: expect.any(String) });
    for (const operation of entry.operations) expect(() => operationOf(operation)).not.toThrow();
    const client = new OrgClient(running.url, 'rules-demo');
    await client.reset();
    for (const step of entry.steps) {
      const response = await fetch(`${running.url}${step.path}`, {
        method: step.method,
        headers: { Authorization: `Bearer ${client.token}`, Accept: step.accept, ...(step.contentType ? { 'Content-Type': step.contentType } : {}) },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const text = await response.text();
      expect(response.status, `${step.method} ${step.path}: ${text}`).toBe(step.expect.status);
      if (step.expect.messageProperty) {
        const messages = JSON.parse(text).messages as Array<{ type: string; properties: string[] }>;
        expect(messages.some((m) => m.type === entry.messageType && m.properties.includes(step.expect.messageProperty!)), text).toBe(true);
      }
    }
    expect(entry.steps.at(-1)!.expect.status).toBe(entry.status);
  });
});
