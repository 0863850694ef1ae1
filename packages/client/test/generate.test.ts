import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { journalOperations, payrollOperations } from '../src/generated/operations.js';

const script = fileURLToPath(new URL('../scripts/generate.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../../spec/dist', import.meta.url));
const methods = ['get', 'put', 'post', 'delete', 'patch'];
type Doc = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }>; requestBody?: { content?: Record<string, unknown> } }>>; 'x-resource-versions': { resources: Record<string, { operations: string[]; versions: { version: string }[] }> } };
const load = (api: string) => JSON.parse(fs.readFileSync(path.join(dist, `${api}.json`), 'utf8')) as Doc;

describe('the runtime version table', () => {
  it('has every payroll operation with the versions of its media type keys and its registry resource', () => {
    const doc = load('payroll');
    const registry = doc['x-resource-versions'].resources;
    let count = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const m of methods) {
        const op = item[m];
        if (!op?.operationId) continue;
        count++;
        const entry = (payrollOperations as Record<string, readonly [string, string, number, readonly string[]]>)[`${m.toUpperCase()} ${p}`];
        expect(entry, `${m} ${p}`).toBeDefined();
        const [id, resource, , versions] = entry!;
        expect(id).toBe(op.operationId);
        expect(registry[resource]!.operations).toContain(id);
        const keys = [...Object.values(op.responses ?? {}).flatMap((r) => Object.keys(r.content ?? {})), ...Object.keys(op.requestBody?.content ?? {})];
        const fromKeys = [...new Set(keys.map((k) => /version=(\d{4}-\d{2}-\d{2})/.exec(k)?.[1]).filter(Boolean))];
        if (fromKeys.length > 0) expect([...versions].sort()).toEqual(fromKeys.sort());
      }
    }
    expect(Object.keys(payrollOperations)).toHaveLength(count);
  });

  it('has every journal operation', () => {
    const doc = load('journal');
    const ids = Object.values(doc.paths).flatMap((item) => methods.map((m) => item[m]?.operationId).filter(Boolean));
    expect(Object.values(journalOperations).map((e) => e[0]).sort()).toEqual(ids.sort());
  });

  it('the generator fails clearly when a bundle is missing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-gen-'));
    try {
      fs.copyFileSync(path.join(dist, 'payroll.json'), path.join(dir, 'payroll.json'));
      const run = spawnSync(process.execPath, [script, '--dist', dir], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${path.join(dir, 'journal.json')} does not exist`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the journal codes', () => {
  const generate = (dir: string) => spawnSync(process.execPath, [script, '--dist', dir, '--out', path.join(dir, 'out')], { encoding: 'utf8' });
  const codesIn = (dir: string) => fs.readFileSync(path.join(dir, 'out/journal-codes.ts'), 'utf8');

  it('are the 35 validation codes of the contract, whether the bundle closes the code or leaves it open', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-codes-'));
    try {
      fs.copyFileSync(path.join(dist, 'payroll.json'), path.join(dir, 'payroll.json'));
      fs.copyFileSync(path.join(dist, 'journal.json'), path.join(dir, 'journal.json'));
      expect(generate(dir).status).toBe(0);
      const closed = codesIn(dir);
      const known = [...closed.matchAll(/^ {2}\| "([^"]+)";?$/gm)].map((m) => m[1]);
      expect(known).toHaveLength(35);
      expect(known).toContain('API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_PayrollPeriodData');
      expect(closed).toContain('export type JournalMessageCode = KnownJournalCode | (string & {})');
      // The same codes as the known values of an open string: every string enum becomes
      // anyOf [{enum}, {type: string}].
      const doc = JSON.parse(fs.readFileSync(path.join(dist, 'journal.json'), 'utf8'));
      const open = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(open);
        if (!node || typeof node !== 'object') return node;
        const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, open(v)]));
        if (copy.type === 'string' && Array.isArray(copy.enum)) {
          const { enum: values, ...rest } = copy;
          return { ...rest, anyOf: [{ type: 'string', enum: values }, { type: 'string' }] };
        }
        return copy;
      };
      fs.writeFileSync(path.join(dir, 'journal.json'), JSON.stringify(open(doc)));
      expect(generate(dir).status).toBe(0);
      expect(codesIn(dir)).toBe(closed);
      // A bundle whose 400 responses name no code fails the build clearly.
      const none = JSON.parse(JSON.stringify(doc, (key, value) => (key === 'enum' ? undefined : value)));
      fs.writeFileSync(path.join(dir, 'journal.json'), JSON.stringify(none));
      const failed = generate(dir);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain('the journal 400 responses name no validation code');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
