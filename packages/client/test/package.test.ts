// The built package: ESM and CommonJS entries work and export the same names; the browser
// path imports nothing but openapi-fetch and no Node-only API.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: pkgDir, encoding: 'utf8', timeout: 30_000 });
}

const scenario = `
  const c = m.createPayrollClient({ baseUrl: 'https://payroll.example.nl/v2', auth: 't-1', fetch: async (url, init) => {
    const h = new Headers(init.headers);
    return new Response(JSON.stringify({ url, accept: h.get('accept'), auth: h.get('authorization'), _embedded: [], totalPages: 1 }), { headers: { 'content-type': 'application/json' } });
  } });
  const { data } = await c.GET('/v2/providers');
  console.log(JSON.stringify({ names: Object.keys(m).sort(), data }));
`;

describe('package', () => {
  it('ESM and CommonJS entries work alike', () => {
    const esm = node(['--input-type=module', '-e', `const m = await import(${JSON.stringify(dist('index.js'))});${scenario}`]);
    const cjs = node(['-e', `(async () => { const m = require(${JSON.stringify(dist('index.cjs'))});${scenario} })().catch((e) => { console.error(e); process.exit(1); });`]);
    expect(esm.stderr).toBe('');
    expect(cjs.stderr).toBe('');
    const a = JSON.parse(esm.stdout);
    const b = JSON.parse(cjs.stdout);
    expect(a).toEqual(b);
    expect(a.names).toEqual(expect.arrayContaining(['createPayrollClient', 'createJournalClient', 'paginate', 'ApiError', 'exportList', 'filterFor', 'orderBy', 'passwordGrant', 'refreshTokenGrant']));
    expect(a.data).toMatchObject({ url: 'https://payroll.example.nl/v2/v2/providers', accept: 'application/json;version=2018-01-01', auth: 'Bearer t-1' });
  });

  it.each(['index.js', 'sandbox.js'])('the ESM entry %s imports only openapi-fetch (and chunks shared by the entries) and uses no Node-only API', (entry) => {
    // The entries share their common code (one ApiError class) through chunks: follow them.
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = fs.readFileSync(dist(file), 'utf8');
      expect(code, file).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(|from ["']node:|__dirname/);
      for (const [, target] of code.matchAll(/^(?:import|export)\s[^'"]*["']([^"']+)["']/gm)) {
        if (target!.startsWith('./')) visit(target!.slice(2));
        else packages.add(target!);
      }
    };
    visit(entry);
    expect([...packages].filter((name) => name !== 'openapi-fetch')).toEqual([]);
  });

  it('ships type declarations for both formats', () => {
    expect(fs.existsSync(dist('index.d.ts'))).toBe(true);
    expect(fs.existsSync(dist('index.d.cts'))).toBe(true);
  });
});
