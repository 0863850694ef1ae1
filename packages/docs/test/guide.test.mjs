// The guide's examples are real: its TypeScript snippets and every operation's TypeScript
// sample type-check against @payroll-api/client (one compiler run), the client quick start
// runs against the sandbox, and so do its curl commands.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite } from './built-site.mjs';
import { startMock } from './mock.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// Inside the package, so that the snippets resolve @payroll-api/client like a user's code.
const SNIPPETS = fileURLToPath(new URL('../artifacts/snippets', import.meta.url));
const MOCK_PORT = '127.0.0.1:4010';

const unescape = (html) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

let guide;
let site;
let mock;
let mockOrigin;

beforeAll(async () => {
  site = builtSite();
  guide = readFileSync(path.join(site.outDir, 'index.html'), 'utf8');
  rmSync(SNIPPETS, { recursive: true, force: true });
  mkdirSync(SNIPPETS, { recursive: true });
  mock = await startMock();
  mockOrigin = mock.origin;
});

afterAll(async () => {
  await mock?.stop();
});

function snippets() {
  return [...guide.matchAll(/<code data-snippet="([\w-]+)">([\s\S]*?)<\/code>/g)].map(([, name, code]) => ({ name, code: unescape(code) }));
}

describe('guide', () => {
  it('has TypeScript snippets, and every operation a TypeScript sample, that type-check against @payroll-api/client', async () => {
    const all = snippets();
    expect(all.map((s) => s.name).sort()).toEqual(['auth', 'client', 'export']);
    let samples = 0;
    for (const [api, list] of Object.entries(site.samples)) {
      for (const sample of list) {
        writeFileSync(path.join(SNIPPETS, `sample-${api}-${sample.operationId}.ts`), `${sample.typescript}\nexport {};\n`);
        samples += 1;
      }
    }
    expect(samples).toBeGreaterThan(80);
    for (const { name, code } of all) {
      // A snippet that continues the quick start uses its `payroll` client.
      const prelude = /\bconst payroll\b/.test(code) ? '' : "declare const payroll: import('@payroll-api/client').PayrollClient;\n";
      writeFileSync(path.join(SNIPPETS, `${name}.ts`), `${prelude}${code}\nexport {};\n`);
    }
    writeFileSync(
      path.join(SNIPPETS, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'dom.asynciterable'], types: [], skipLibCheck: true },
        include: ['*.ts'],
      }),
    );
    const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', SNIPPETS], { timeout: 60_000 }).catch((error) => error);
    expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).toBe('');
  });

  it('runs the client quick start against the mock', async () => {
    const { code } = snippets().find((s) => s.name === 'client');
    expect(code).toContain(`http://${MOCK_PORT}/v2`);
    const ts = require('typescript');
    const js = ts.transpileModule(code.replaceAll(`http://${MOCK_PORT}`, mockOrigin), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const file = path.join(SNIPPETS, 'client-run.mjs');
    writeFileSync(file, js);
    const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
    const lines = stdout.trim().split('\n');
    // The employer's company name, then one line per employment: "<uuid> <date>".
    expect(lines[0].length).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatch(/^[0-9a-f-]{36} \d{4}-\d{2}-\d{2}$/);
  });

  it('runs the export snippet against the mock', async () => {
    const { code } = snippets().find((s) => s.name === 'export');
    const ts = require('typescript');
    const prelude = `import { createPayrollClient } from '@payroll-api/client';\nconst payroll = createPayrollClient({ baseUrl: '${mockOrigin}/v2', auth: 'demo-token' });\n`;
    const js = ts.transpileModule(`${prelude}${code}\nconsole.log(JSON.stringify({ fileName: file.fileName, contentType: file.contentType, bytes: file.bytes.length }));\n`, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const file = path.join(SNIPPETS, 'export-run.mjs');
    writeFileSync(file, js);
    const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    expect(result.contentType).toMatch(/^text\/csv/);
    expect(result.bytes).toBeGreaterThan(0);
    expect(result.fileName).toMatch(/\.csv$/);
  });

  it('has curl commands that the mock answers', async () => {
    const commands = [...guide.matchAll(/<pre><code>(curl [\s\S]*?)<\/code><\/pre>/g)]
      .flatMap(([, block]) => unescape(block).replace(/\\\n\s*/g, ' ').split('\n'))
      .filter((line) => line.startsWith('curl '));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const headers = Object.fromEntries([...command.matchAll(/-H '([^:]+): ([^']*)'/g)].map(([, name, value]) => [name, value]));
      const url = /(http:\/\/\S+)/.exec(command)[1].replace(`http://${MOCK_PORT}`, mockOrigin);
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      expect(response.status, command).toBe(200);
      expect(response.headers.get('content-type'), command).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body, command).toHaveProperty('_embedded');
    }
  });
});
