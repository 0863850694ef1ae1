// The journal rule catalogue (rules/journal.yaml) as the docs render it: one entry per
// validation code of the description, naming operations that exist, and each entry's steps
// reproducing its code against a freshly reset sandbox.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { packageDir } from '../../helpers.js';
import { journalBundle, reset } from './harness.js';
import { SCENARIOS } from './scenarios.js';

interface CatalogueStep {
  method: string;
  path: string;
  accept: string;
  contentType?: string;
  body?: unknown;
  expect: { status: number; code?: string; messageProperty?: string };
}
interface CatalogueEntry {
  id: string;
  title: string;
  meaning: string;
  contract: { document: string; section: string; quote: string };
  operations: string[];
  status: number;
  messageType?: string;
  steps: CatalogueStep[];
}

const catalogue = YAML.parse(fs.readFileSync(path.join(packageDir, 'rules', 'journal.yaml'), 'utf8')) as CatalogueEntry[];
const operationIds = new Set(Object.values(journalBundle.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).map((o) => o?.operationId)));

let running: RunningMock;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
});
afterAll(async () => {
  await running?.close();
});

describe('the journal rule catalogue', () => {
  it('has one entry per code, in the order of the scenarios', () => {
    expect(catalogue.map((e) => e.id)).toEqual(SCENARIOS.map((s) => s.code));
  });

  it.each(catalogue.map((e) => [e.id, e] as const))('%s reproduces its code', async (code, entry) => {
    expect(entry.contract).toMatchObject({ document: 'journal', section: expect.stringMatching(/^\d+$/), quote: expect.any(String) });
    for (const operation of entry.operations) expect(operationIds).toContain(operation);
    expect(entry.operations).toContain(SCENARIOS.find((s) => s.code === code)!.operation);

    const sandbox = { url: running.url, token: 'rules-demo' };
    await reset(sandbox);
    for (const step of entry.steps) {
      const response = await fetch(`${running.url}${step.path}`, {
        method: step.method,
        headers: { Authorization: `Bearer ${sandbox.token}`, Accept: step.accept, ...(step.contentType ? { 'Content-Type': step.contentType } : {}) },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const text = await response.text();
      expect(response.status, `${step.method} ${step.path}: ${text}`).toBe(step.expect.status);
      if (step.expect.code) {
        const messages = JSON.parse(text).messages as Array<{ code: unknown; type: string; properties: string[] }>;
        const message = messages.find((m) => m.code === step.expect.code);
        expect(message, `${code} in ${text}`).toBeDefined();
        expect(message!.type).toBe(entry.messageType);
        if (step.expect.messageProperty) expect(message!.properties).toContain(step.expect.messageProperty);
      }
    }
    expect(entry.steps.at(-1)!.expect).toMatchObject({ status: entry.status, code });
  });
});
