// The deployment in compose.yaml, without Docker: the two sandbox services' own commands (with
// the compose network's addresses replaced by this machine's) run against one real PostgreSQL,
// each passes its own healthcheck command (/__ready), and they share clients, tokens and data.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '#sandbox/seed/ids.js';
import { packageDir, startProcess, type MockProcess } from './helpers.js';
import { usePostgres } from './support/postgres.js';
import { newEmployee } from './support/new-employee.js';

interface Service {
  entrypoint: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, unknown>;
}

const compose = parse(fs.readFileSync(path.join(packageDir, 'compose.yaml'), 'utf8')) as { services: Record<string, Service> };
const repoRoot = path.resolve(packageDir, '../..');
const OPERATOR = 'compose-operator-token-0123456789';
const server = usePostgres();
const instances: { service: Service; process: MockProcess }[] = [];

/** A service's command as this machine runs it: paths from the image's /repo, loopback, a free port, the test's database. */
function localArgs(service: Service, databaseUrl: string): string[] {
  const [program, script, ...args] = service.entrypoint;
  expect(program).toBe('node');
  expect(fs.existsSync(path.join(repoRoot, script!))).toBe(true);
  return [
    ...args.map((arg, i) => {
      if (args[i - 1] === '--database-url') return databaseUrl;
      if (args[i - 1] === '--port') return '0';
      if (args[i - 1] === '--host') return '127.0.0.1';
      return arg;
    }),
  ];
}

beforeAll(async () => {
  const databaseUrl = await server().database('compose');
  for (const name of ['sandbox-1', 'sandbox-2']) {
    const service = compose.services[name]!;
    expect(service.environment?.PAYROLL_MOCK_OPERATOR_TOKEN).toMatch(/^\$\{PAYROLL_MOCK_OPERATOR_TOKEN:\?/);
    const process = await startProcess(localArgs(service, databaseUrl), { PAYROLL_MOCK_OPERATOR_TOKEN: OPERATOR });
    instances.push({ service, process });
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.process.stop()));
});

it('declares PostgreSQL, two sandbox instances on it and the docs', () => {
  expect(Object.keys(compose.services).sort()).toEqual(['docs', 'postgres', 'sandbox-1', 'sandbox-2']);
  for (const name of ['sandbox-1', 'sandbox-2']) expect(compose.services[name]!.depends_on).toHaveProperty('postgres');
  expect(fs.existsSync(path.join(repoRoot, compose.services.docs!.entrypoint[1]!))).toBe(true);
});

it('runs both instances on one database, each ready by its own healthcheck command', async () => {
  for (const { service, process } of instances) {
    const [kind, program, ...args] = service.healthcheck!.test;
    expect(kind).toBe('CMD');
    const port = new URL(process.url).port;
    const check = spawnSync(program === 'node' ? globalThis.process.execPath : program!, args.map((arg) => arg.replace('127.0.0.1:4010', `127.0.0.1:${port}`)), { encoding: 'utf8', timeout: 30_000, env: { ...globalThis.process.env, PAYROLL_MOCK_OPERATOR_TOKEN: OPERATOR } });
    expect(check.status, check.stderr).toBe(0);
  }
  const [one, two] = instances.map((instance) => instance.process.url);
  // A client created through one instance logs in through the other; data written through one is read through the other.
  const created = await (await fetch(`${one}/__operator/clients`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' }, body: '{"name":"Compose test"}' })).json();
  const token = await (
    await fetch(`${two}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: 'Welkom01!', client_Id: created.client_id, client_secret: created.client_secret }),
    })
  ).json();
  const headers = { authorization: `Bearer ${token.access_token}`, accept: 'application/json', 'content-type': 'application/json;version=2018-01-01' };
  const employees = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
  const posted = await fetch(`${one}${employees}`, { method: 'POST', headers, body: JSON.stringify(newEmployee(50_001, 1)) });
  expect(posted.status).toBe(201);
  const { employeeId } = (await posted.json()).content;
  expect((await fetch(`${two}/v2/v2/providers/employers/employees/${employeeId}`, { headers })).status).toBe(200);
}, 60_000);
