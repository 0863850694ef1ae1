// An integrator's project outside the workspace: installs the published packages from the
// registry, compiles an ESM and a CommonJS file that use the client, and runs them against
// `npx payroll-mock` started from the installed package.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cleanEnv } from './commands.mjs';

const require = createRequire(import.meta.url);

/** The seed's quick-start wage model: the journal call of the compiled files. */
export const QUICK_START_WAGE_MODEL = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

// No @types/node in the consumer: the compiled files declare the little of Node they use.
const ESM_SOURCE = `import { createJournalClient, createPayrollClient, unwrap } from '@payroll-api/client';
import type { paths } from '@payroll-api/types/payroll';

declare const process: { argv: string[] };
const origin = process.argv[2];
const providers: keyof paths = '/v2/providers';
const payroll = createPayrollClient({ baseUrl: \`\${origin}/v2\`, auth: 'esm-consumer' });
const { data, response } = await payroll.GET(providers);
const journal = createJournalClient({ baseUrl: origin, auth: 'esm-consumer' });
const profiles = unwrap(await journal.GetJournalProfilesByWageModelId({ wageModelId: '${QUICK_START_WAGE_MODEL}' }));
console.log(JSON.stringify({ module: 'esm', payroll: response.status, providers: data?._embedded.length, journalProfiles: profiles._embedded?.length ?? 0 }));
`;

const CJS_SOURCE = `import { createJournalClient, createPayrollClient, unwrap } from '@payroll-api/client';
import type { paths } from '@payroll-api/types/journal';

declare const process: { argv: string[] };
async function main(origin: string) {
  const profilesPath: keyof paths = '/journal/providers/wagemodels/{wageModelId}/journalprofiles';
  const journal = createJournalClient({ baseUrl: origin, auth: 'cjs-consumer' });
  const { response } = await journal.GET(profilesPath, { params: { path: { wageModelId: '${QUICK_START_WAGE_MODEL}' } } });
  const payroll = createPayrollClient({ baseUrl: \`\${origin}/v2\`, auth: 'cjs-consumer' });
  const providers = unwrap(await payroll.GET('/v2/providers'));
  console.log(JSON.stringify({ module: 'cjs', journal: response.status, providers: providers._embedded.length }));
}
void main(process.argv[2]);
`;

/** Writes package.json, .npmrc (the scope's registry), tsconfig.json and the two sources. */
export function writeConsumer(dir, { registryUrl }) {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'payroll-consumer', version: '1.0.0', private: true }, null, 2)}\n`);
  // The standard way to take one scope from another registry; everything else from the default one.
  writeFileSync(path.join(dir, '.npmrc'), `@payroll-api:registry=${registryUrl}\n`);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    `${JSON.stringify(
      {
        // skipLibCheck, as most projects have it: the calls are checked against the published
        // declarations; checking the declarations themselves is attw's and typecheck's job.
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], strict: true, skipLibCheck: true, outDir: 'out', types: [] },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(path.join(dir, 'src', 'esm.mts'), ESM_SOURCE);
  writeFileSync(path.join(dir, 'src', 'cjs.cts'), CJS_SOURCE);
}

/** The TypeScript compiler of the workspace (the consumer's code is what is under test, not tsc). */
export const TSC = require.resolve('typescript/bin/tsc');

/**
 * `npx payroll-mock --port 0` in the consumer: resolves { origin, stop } once it prints its
 * address; rejects with its output if it exits or stays silent for `timeoutMs`.
 */
export function startInstalledMock(cwd, { timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'payroll-mock', '--port', '0'], { cwd, env: cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          done();
        }
      });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`payroll-mock did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = /payroll-mock listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ origin: match[1].replace(/\/$/, ''), stop, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`payroll-mock exited (${code}) before listening:\n${output}`));
    });
  });
}
