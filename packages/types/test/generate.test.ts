import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/generate.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../../spec/dist', import.meta.url));

describe('scripts/generate.mjs', () => {
  it('fails clearly when a bundle is missing, naming it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'types-gen-'));
    try {
      fs.copyFileSync(path.join(dist, 'payroll.json'), path.join(dir, 'payroll.json'));
      const run = spawnSync(process.execPath, [script, '--dist', dir], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${path.join(dir, 'journal.json')} does not exist`);
      expect(run.stderr).toContain('pnpm --filter @payroll-api/spec build');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails clearly on a bundle that is not JSON', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'types-gen-'));
    try {
      fs.writeFileSync(path.join(dir, 'payroll.json'), '{ not json');
      fs.writeFileSync(path.join(dir, 'journal.json'), '{}');
      fs.writeFileSync(path.join(dir, 'sandbox-control.json'), '{}');
      const run = spawnSync(process.execPath, [script, '--dist', dir], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/payroll\.json is not valid JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('generated sources with read/write markers from the bundles', () => {
    const payroll = fs.readFileSync(fileURLToPath(new URL('../src/generated/payroll.ts', import.meta.url)), 'utf8');
    expect(payroll).toContain('export type $Read<T>');
    expect(payroll).toContain('"application/json;version=2019-12-16"');
    const bundle = JSON.parse(fs.readFileSync(path.join(dist, 'payroll.json'), 'utf8')) as { paths: Record<string, unknown> };
    for (const p of Object.keys(bundle.paths)) expect(payroll).toContain(`"${p}": {`);
  });
});
