// The authorization data the docs render: the entries of rules/payroll.yaml's authorization
// section and rules/authorization.yaml (the five steps, the seeded users). Each entry and each
// user's example runs against a freshly reset sandbox with its token, and the data must agree
// with the seed and with the reasons the decision gives.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/index.js';
import { authorizationModelSeed, SEED_USERS } from '#sandbox/seed/authorization.js';
import { packageDir } from '../../helpers.js';
import { reset, tokenOf } from './harness.js';

interface Step {
  method: string;
  path: string;
  accept?: string;
  contentType?: string;
  body?: unknown;
  expect: { status: number; header?: Record<string, string> };
}
interface CatalogueEntry {
  id: string;
  contract: { document: string; section: string; quote: string };
  operations: string[];
  status: number;
  token?: string;
  steps: Step[];
}
interface AuthorizationData {
  steps: Array<{ step: number; question: string; reasons: string[] }>;
  users: Array<{ username: string; token: string; password: string; client: string; role: string; demonstrates: number; example: { method: string; path: string; body?: unknown; status: number; header: string } }>;
  clients: Array<{ id: string }>;
  refusal: { header: string };
}

const read = (file: string) => YAML.parse(fs.readFileSync(path.join(packageDir, 'rules', file), 'utf8'));
const entries = (read('payroll.yaml') as CatalogueEntry[]).filter((e) => e.id.startsWith('authorization-'));
const data = read('authorization.yaml') as AuthorizationData;
const seed = authorizationModelSeed() as { users: Record<string, { password: string; client: string; role: string }>; clients: Record<string, unknown> };

let running: RunningMock;
beforeAll(async () => {
  running = await startMock({ port: 0, mode: 'sandbox' });
});
afterAll(async () => {
  await running?.close();
});

async function run(token: string, step: Omit<Step, 'expect'>): Promise<Response> {
  return fetch(`${running.url}${step.path}`, {
    method: step.method,
    headers: { Authorization: `Bearer ${token}`, Accept: step.accept ?? 'application/json', ...(step.body === undefined ? {} : { 'Content-Type': step.contentType ?? 'application/json' }) },
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
}

describe('the authorization entries of the payroll rule catalogue', () => {
  it('cover every step and every seeded user', () => {
    const tokens = new Set(entries.map((e) => e.token));
    expect([...tokens].sort()).toEqual(Object.values(SEED_USERS).map(tokenOf).sort());
    const steps = entries.map((e) => /step=(\d)/.exec(Object.values(e.steps.at(-1)!.expect.header ?? {})[0] ?? '')?.[1]);
    expect(new Set(steps)).toEqual(new Set(['1', '2', '3', '4', '5']));
  });

  it.each(entries.map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    expect(entry.contract).toMatchObject({ document: 'payroll', section: '5.7' });
    expect(entry.steps.at(-1)!.expect.status).toBe(entry.status);
    await reset(running.url, entry.token!);
    for (const step of entry.steps) {
      const response = await run(entry.token!, step);
      const text = await response.text();
      expect(response.status, `${step.method} ${step.path}: ${text}`).toBe(step.expect.status);
      for (const [name, value] of Object.entries(step.expect.header ?? {})) expect(response.headers.get(name)).toBe(value);
      if (response.status === 403) expect(Object.keys(JSON.parse(text))).toEqual(['message']);
    }
  });
});

describe('rules/authorization.yaml', () => {
  it('lists the five steps in order, with exactly the reasons the decision gives', () => {
    expect(data.steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5]);
    const source = ['decision.ts', 'teams.ts'].map((file) => fs.readFileSync(path.join(packageDir, '../sandbox/src/authorization', file), 'utf8')).join('\n');
    const given = [...source.matchAll(/step: (\d), reason: '([a-z-]+)'/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(new Set(data.steps.flatMap((s) => s.reasons.map((r) => `${s.step}:${r}`)))).toEqual(new Set(given));
  });

  it('lists every seeded user and client as the seed has them', () => {
    expect(data.users.map((u) => u.username).sort()).toEqual(Object.keys(seed.users).sort());
    for (const user of data.users) {
      expect(user.token).toBe(tokenOf(user.username));
      expect({ password: user.password, client: user.client, role: user.role }).toEqual({ password: seed.users[user.username]!.password, client: seed.users[user.username]!.client, role: seed.users[user.username]!.role });
    }
    expect(data.clients.map((c) => c.id).sort()).toEqual(Object.keys(seed.clients).sort());
    expect(new Set(data.users.map((u) => u.demonstrates))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it.each(data.users.map((u) => [u.username, u] as const))("%s's example is refused at the step it demonstrates", async (_name, user) => {
    await reset(running.url, user.token);
    const response = await run(user.token, user.example);
    expect(response.status).toBe(user.example.status);
    expect(response.headers.get(data.refusal.header)).toBe(user.example.header);
    expect(user.example.header).toMatch(new RegExp(`^step=${user.demonstrates};`));
  });
});
