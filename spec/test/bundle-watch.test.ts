// The bundler's watch mode rebundles when a source file changes, which is how a running mock
// picks up edits to the description. It runs on a scratch copy so the real sources stay put.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { specDir } from './support/bundles.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-watch-'));
for (const dir of ['common', 'payroll', 'journal', 'sandbox-control']) {
  fs.cpSync(path.join(specDir, dir), path.join(scratch, dir), { recursive: true });
}
fs.copyFileSync(path.join(specDir, 'redocly.yaml'), path.join(scratch, 'redocly.yaml'));

const child = spawn(process.execPath, [path.join(specDir, 'scripts', 'bundle.mjs'), '--watch', '--spec-dir', scratch]);
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

afterAll(() => {
  child.kill();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function waitFor(predicate: () => boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; output:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('bundle --watch', () => {
  it('rebundles after a source file changes', async () => {
    await waitFor(() => output.includes('watching'), 'the first bundle');
    const bundle = () => JSON.parse(fs.readFileSync(path.join(scratch, 'dist', 'payroll.json'), 'utf8'));
    expect(bundle().paths['/v2/providers'].get.summary).toBe("List the user's provider");

    const file = path.join(scratch, 'payroll', 'paths', 'providers.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("summary: List the user's provider", 'summary: Changed while watching'));
    await waitFor(() => {
      try {
        return bundle().paths['/v2/providers'].get.summary === 'Changed while watching';
      } catch {
        return false; // mid-write
      }
    }, 'the rebundle');
  }, 60_000);
});
