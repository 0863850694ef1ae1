// The Postman collections, run by Newman: with the sandbox environment against a fresh local
// sandbox, and with the hosted environment against a fresh `payroll-mock --hosted` with a client
// the operator endpoint made (its own token, one sandbox for the run, left as it was found).
// Every request answers 2xx and its body validates against its response schema; with a fresh
// token per request they pass in any order. The collections and environments are the ones the
// build writes (src/postman.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTED_RUN_USERNAME, POSTMAN_ENVIRONMENTS, RESET_FOLDER, RESET_REQUEST, postmanCollection, postmanEnvironments } from '../src/postman.mjs';
import { operationSamples, readSeed } from '../src/samples.mjs';
import { createHostedClient, hostedToken, startHostedMock, startMock } from './mock.mjs';

const require = createRequire(import.meta.url);
const newman = require('newman');

const APIS = ['payroll', 'journal'];
const bundle = (api) => JSON.parse(readFileSync(path.join(path.dirname(require.resolve('@payroll-api/spec/package.json')), 'dist', `${api}.json`), 'utf8'));

let mock;
const docs = {};
const collections = {};
let environments;

beforeAll(async () => {
  const seed = readSeed();
  const variables = new Map();
  for (const api of APIS) {
    docs[api] = bundle(api);
    const { collection, variables: used } = await postmanCollection(api, docs[api], operationSamples(api, docs[api], seed));
    collections[api] = collection;
    for (const [name, value] of used) variables.set(name, value);
  }
  environments = Object.fromEntries(postmanEnvironments(docs, variables).map((env) => [env.id, env.environment]));
  mock = await startMock();
}, 60_000);

afterAll(async () => {
  await mock?.stop();
});

const requestsOf = (items) => items.flatMap((item) => (item.request ? [item] : requestsOf(item.item ?? [])));

/** Newman with the sandbox environment, its base URLs moved to the fresh sandbox's port (or another environment and variables). */
function runNewman(collection, { onRequest = () => {}, environment = environments.sandbox, envVar = sandboxAt(mock.origin) } = {}) {
  return new Promise((resolve, reject) => {
    newman
      .run(
      {
        collection,
        environment,
        envVar,
        reporters: [],
        timeoutRequest: 15_000,
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
      )
      .on('request', (error, args) => onRequest(args.request));
  });
}

const sandboxAt = (origin) => [
  { key: 'sandboxUrl', value: origin },
  { key: 'payrollBaseUrl', value: `${origin}/v2` },
  { key: 'journalBaseUrl', value: origin },
];

const failures = (summary) => summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error?.test ?? ''} ${failure.error?.message ?? ''}`.slice(0, 400));

describe('the Postman collections', () => {
  for (const api of APIS) {
    it(`${api}: folders by tag, one request per operation, named by activity, with its versioned media types and a generated schema test`, () => {
      const operations = [...operationsOf(docs[api])];
      const requests = requestsOf(collections[api].item);
      expect(requests.map((item) => item.name).sort()).toEqual([...operations.map((o) => o.operation.operationId), RESET_REQUEST].sort());
      const tags = new Set(operations.flatMap((o) => o.operation.tags ?? []));
      expect(collections[api].item.map((folder) => folder.name).sort()).toEqual([...tags, RESET_FOLDER].sort());
      // The reset is the run's last request; in every folder reads come before writes, deletes last.
      expect(requests.at(-1).name).toBe(RESET_REQUEST);
      const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      for (const folder of collections[api].item) {
        const ranks = folder.item.map((item) => order.indexOf(item.request.method));
        expect(ranks, folder.name).toEqual([...ranks].sort((a, b) => a - b));
      }
      for (const { operation } of operations) {
        const item = requests.find((request) => request.name === operation.operationId);
        const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status));
        const accept = item.request.header.find((h) => h.key === 'Accept' && !h.disabled)?.value;
        const json = Object.keys(success[1].content ?? {}).filter((type) => type.startsWith('application/json'));
        if (json.length) expect(json, operation.operationId).toContain(accept);
        if (api === 'payroll' && json.length) expect(accept, operation.operationId).toMatch(/;version=\d{4}-\d{2}-\d{2}$/);
        const script = item.event.find((event) => event.listen === 'test').script.exec.join('\n');
        expect(script).toContain('to.be.within(200, 299)');
        if (json.length && success[0] !== '204') expect(script, operation.operationId).toContain('pm.response.to.have.jsonSchema(schema)');
      }
    });
  }

  it('the sandbox environments hold the seed ids the docs use; the hosted one a client id and secret instead of a token; the real ones placeholders for the same variables', () => {
    const values = (id) => Object.fromEntries(environments[id].values.map((v) => [v.key, v.value]));
    expect(Object.keys(environments).sort()).toEqual([...POSTMAN_ENVIRONMENTS].sort());
    const sandbox = values('sandbox');
    const seed = readSeed();
    expect(sandbox.employerId).toBe(seed.ids.employer);
    expect(sandbox.wageModelId).toBe(seed.ids.wageModel);
    expect(sandbox.payrollBaseUrl).toBe('http://127.0.0.1:4010/v2');
    // No random token per request unless asked for: a run is one sandbox.
    expect(sandbox.sandboxTokenPrefix).toBe('');
    const hosted = values('hosted');
    expect(hosted).toMatchObject({ payrollBaseUrl: '{{sandboxUrl}}/v2', journalBaseUrl: '{{sandboxUrl}}', authUrl: '{{sandboxUrl}}/auth', username: HOSTED_RUN_USERNAME, token: '', employerId: seed.ids.employer });
    for (const key of ['sandboxUrl', 'clientId', 'clientSecret']) expect(hosted[key], key).toMatch(/^<[^>]+>$/);
    expect(hosted).not.toHaveProperty('sandboxTokenPrefix');
    expect(environments.hosted.values.filter((v) => v.type === 'secret').map((v) => v.key).sort()).toEqual(['clientSecret', 'password', 'token']);
    for (const id of POSTMAN_ENVIRONMENTS.filter((name) => !['hosted', 'sandbox'].includes(name))) {
      const real = values(id);
      expect(Object.keys(real).sort()).toEqual(Object.keys(sandbox).filter((key) => !['sandboxTokenPrefix', 'sandboxUrl'].includes(key)).sort());
      expect(real.payrollBaseUrl).toMatch(/^https:\/\/<.+>\/v2$/);
      for (const [key, value] of Object.entries(real)) expect(value, `${id} ${key}`).toMatch(/<[^>]+>/);
    }
  });

  it('with sandboxTokenPrefix the requests do not depend on their order: the payroll collection passes backwards, each request with a token of its own', async () => {
    const reversed = structuredClone(collections.payroll);
    reversed.item = requestsOf(reversed.item).reverse();
    const tokens = new Set();
    const summary = await runNewman(reversed, { envVar: [...sandboxAt(mock.origin), { key: 'sandboxTokenPrefix', value: 'postman' }], onRequest: (request) => tokens.add(request.headers.get('Authorization')) });
    expect(failures(summary)).toEqual([]);
    expect(tokens.size).toBe(reversed.item.length);
  }, 60_000);

  it('a body that breaks its schema fails the schema test', async () => {
    const broken = structuredClone(collections.journal);
    const item = requestsOf(broken.item).find((request) => request.name === 'GetJournalProfilesByWageModelId');
    const script = item.event.find((event) => event.listen === 'test').script;
    // The same generated test, its referenced component schemas asking for a field the sandbox
    // does not send: the validator follows the references into `definitions`.
    script.exec = script.exec.map((line) => {
      if (!line.startsWith('const schema = ')) return line;
      const schema = JSON.parse(line.slice('const schema = '.length, -1));
      expect(Object.keys(schema.definitions ?? {}).length).toBeGreaterThan(0);
      for (const definition of Object.values(schema.definitions)) if (definition.properties) definition.required = [...(definition.required ?? []), 'noSuchField'];
      return `const schema = ${JSON.stringify(schema)};`;
    });
    const summary = await runNewman(broken);
    expect(failures(summary)).toEqual([expect.stringContaining('GetJournalProfilesByWageModelId: GetJournalProfilesByWageModelId answers its 200 schema')]);
  }, 60_000);
});

// The hosted environment is the one an integrator runs in CI; it runs both collections whole,
// in their order, in one sandbox (the sandbox environment differs only by its fixed token).
describe('the hosted environment against a fresh payroll-mock --hosted', () => {
  let hosted;
  afterAll(async () => {
    await hosted?.stop();
  });

  it('gets its own token with the client id and secret; every assertion passes; the sandbox it used is as it was before the run', async () => {
    hosted = await startHostedMock();
    const client = await createHostedClient(hosted.origin, 'Newman in the docs tests');
    const token = await hostedToken(hosted.origin, client, HOSTED_RUN_USERNAME);
    const snapshot = async () => {
      const response = await fetch(`${hosted.origin}/__sandbox/snapshot`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      return response.json();
    };
    const before = await snapshot();
    const envVar = [
      { key: 'sandboxUrl', value: hosted.origin },
      { key: 'clientId', value: client.client_id },
      { key: 'clientSecret', value: client.client_secret },
    ];
    const seen = new Set();
    for (const api of APIS) {
      const summary = await runNewman(collections[api], { environment: environments.hosted, envVar, onRequest: (request) => seen.add(request.headers.get('Authorization')) });
      expect(failures(summary)).toEqual([]);
      expect(summary.run.stats.assertions.failed).toBe(0);
      // Every request of the collection ran, the reset included, besides the token requests;
      // each has its tests (the token request its own).
      const requests = requestsOf(collections[api].item).length;
      expect(summary.run.stats.requests.total).toBeGreaterThan(requests);
      expect(summary.run.stats.assertions.total).toBeGreaterThan(summary.run.stats.requests.total);
    }
    // The issued tokens only: never a made-up one.
    expect([...seen].filter(Boolean).every((header) => /^Bearer sandbox-at-/.test(header))).toBe(true);
    expect(await snapshot()).toEqual(before);
  }, 240_000);
});
