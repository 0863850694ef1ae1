// Described means live, end to end, on a copy of the repository: a maintainer adds three
// operations to the journal description as YAML (a GET of one cost unit; cost unit groups of a
// wage model journal profile, listed and created; a PATCH of one group), bundles, and generates
// the types, the client and the query options. No file of the sandbox is copied or changed: the
// sandbox (the mock, over memory and over PostgreSQL) reads the copy's bundle and answers all
// three from state (the groups start from the list's example, and a scenario adds more); the client calls them by activity name, the query options fetch and
// invalidate them, and conformance checks them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRepoRoot, linkInstalledDependencies, runNode, workspaceCopy } from '@payroll-api/api-policy';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = findRepoRoot();
const GENERATED = ['packages/types', 'packages/client', 'packages/query'];
const NEW_OPERATIONS = ['GetCostUnitAtWageModelLevelByCostUnitId', 'GetCostUnitGroupsByJournalProfileId', 'PostCostUnitGroupByJournalProfileId', 'PatchCostUnitGroupByCostUnitGroupId'];
const WAGE_MODEL_PROFILE = '294af36b-2828-41e3-9ca6-a823da96a226';
const WAGE_MODEL = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
// The group the list's example shows: the groups start from it (`x-sandbox-collection: { seed: examples }`).
const EXAMPLE_GROUP = { id: '3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a', code: 'VOORBEELD', description: 'Uit het voorbeeld' };

let root;
let postgres;

const node = (args, { cwd = root, timeout } = {}) => runNode(args, { cwd, timeout });
const linkDependencies = (dir) => linkInstalledDependencies(repo, root, dir, ['@payroll-api/spec', '@payroll-api/types', '@payroll-api/client', '@payroll-api/query']);

const write = (file, text) => fs.writeFileSync(path.join(root, 'spec', 'journal', file), `${text.trim()}\n`);

/** A path parameter in uuid format, as each new path file declares its own. */
const uuidParameter = (name, description, example) => `parameters:
  - name: ${name}
    in: path
    required: true
    description: ${description}
    schema:
      type: string
      format: uuid${example === undefined ? '' : `\n    example: ${example}`}`;

/**
 * One operation of a path file, as a maintainer writes it: the body it takes (a schema file), its
 * answer (a schema file, with an example when given) and the errors every journal operation
 * answers, their 400 body of the answer's kind (`badRequest`).
 */
function operation(method, { operationId, summary, description, tag, requestSchema, status, answered, schema, example, badRequest }) {
  const lines = [`${method}:`, `  operationId: ${operationId}`, `  summary: ${summary}`];
  if (description) lines.push(`  description: ${description}`);
  lines.push(`  tags: [${tag}]`);
  if (requestSchema) lines.push('  requestBody:', '    required: true', '    content:', '      application/json:', '        schema:', `          $ref: ../components/schemas/${requestSchema}.yaml`);
  lines.push('  responses:', `    '${status}':`, `      description: ${answered}`, '      content:', '        application/json:', '          schema:', `            $ref: ../components/schemas/${schema}.yaml`);
  if (example) lines.push(example);
  lines.push(
    "    '400':",
    '      description: The request is not valid.',
    '      content:',
    '        application/json:',
    '          schema:',
    `            $ref: ../components/schemas/${badRequest}.yaml`,
    "    '401':",
    '      $ref: ../components/responses/JournalUnauthorized.yaml',
    "    '404':",
    '      $ref: ../components/responses/JournalNotFound.yaml',
  );
  return lines.join('\n');
}

/** The three operations, as a maintainer writes them: one file per path and per schema, the path table. */
function describeOperations() {
  const costUnitPath = path.join(root, 'spec', 'journal', 'paths', 'providers_wagemodels_journalprofiles_costunits_{costUnitId}.yaml');
  const detail = { badRequest: 'JournalBadRequestDetailResult' };
  fs.appendFileSync(
    costUnitPath,
    `${operation('get', { ...detail, operationId: 'GetCostUnitAtWageModelLevelByCostUnitId', summary: 'Get a cost unit at wage model level', description: 'The cost unit.', tag: 'Cost units', status: 200, answered: 'The cost unit, as a detail result.', schema: 'CostUnitDetail' })}\n`,
  );
  const groups = { tag: 'Cost unit groups', schema: 'CostUnitGroupDetail' };
  write(
    'paths/providers_wagemodels_journalprofiles_{journalProfileId}_costunitgroups.yaml',
    [
      'x-path-source: inferred',
      'x-sandbox-collection: { seed: examples }',
      uuidParameter('journalProfileId', 'The journal profile at wage model level.', WAGE_MODEL_PROFILE),
      operation('get', {
        ...groups,
        operationId: 'GetCostUnitGroupsByJournalProfileId',
        summary: 'List the cost unit groups of a wage model journal profile',
        status: 200,
        answered: 'The groups, as a list result.',
        schema: 'CostUnitGroupList',
        example: `          example:
            messages: []
            totalSize: 1
            pageSize: 250
            totalPages: 1
            currentPage: 1
            _embedded:
              - { id: ${EXAMPLE_GROUP.id}, code: ${EXAMPLE_GROUP.code}, description: ${EXAMPLE_GROUP.description} }`,
        badRequest: 'JournalBadRequestListResult',
      }),
      operation('post', { ...groups, ...detail, operationId: 'PostCostUnitGroupByJournalProfileId', summary: 'Add a cost unit group to a wage model journal profile', requestSchema: 'CostUnitGroupPost', status: 201, answered: 'The new group, as a detail result.' }),
    ].join('\n'),
  );
  write(
    'paths/providers_wagemodels_journalprofiles_costunitgroups_{costUnitGroupId}.yaml',
    [
      'x-path-source: inferred',
      uuidParameter('costUnitGroupId', 'The cost unit group.'),
      operation('patch', { ...groups, ...detail, operationId: 'PatchCostUnitGroupByCostUnitGroupId', summary: 'Edit a cost unit group', requestSchema: 'CostUnitGroupPatch', status: 200, answered: 'The edited group, as a detail result.' }),
    ].join('\n'),
  );
  const fields = `  code:
    type: string
    maxLength: 10
  description:
    type: [string, 'null']
    maxLength: 50`;
  write('components/schemas/CostUnitGroup.yaml', `type: object\ndescription: A group of cost units.\nproperties:\n  id:\n    type: string\n    format: uuid\n    readOnly: true\n${fields}`);
  write('components/schemas/CostUnitGroupPost.yaml', `type: object\ndescription: A new cost unit group.\nrequired: [code]\nproperties:\n${fields}`);
  write('components/schemas/CostUnitGroupPatch.yaml', `type: object\ndescription: Changes to a cost unit group.\nproperties:\n${fields}`);
  write('components/schemas/CostUnitGroupList.yaml', `description: List result of cost unit groups.\nallOf:\n  - $ref: ./JournalListResult.yaml\n  - type: object\n    properties:\n      _embedded:\n        type: array\n        items:\n          $ref: ./CostUnitGroup.yaml`);
  write('components/schemas/CostUnitGroupDetail.yaml', `description: Detail result of a cost unit group.\nallOf:\n  - $ref: ./JournalDetailResult.yaml\n  - type: object\n    properties:\n      content:\n        $ref: ./CostUnitGroup.yaml`);
  const openapi = path.join(root, 'spec', 'journal', 'openapi.yaml');
  const text = fs.readFileSync(openapi, 'utf8');
  const table = `paths:
  # GetCostUnitGroupsByJournalProfileId, PostCostUnitGroupByJournalProfileId
  /journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunitgroups:
    $ref: ./paths/providers_wagemodels_journalprofiles_{journalProfileId}_costunitgroups.yaml
  # PatchCostUnitGroupByCostUnitGroupId
  /journal/providers/wagemodels/journalprofiles/costunitgroups/{costUnitGroupId}:
    $ref: ./paths/providers_wagemodels_journalprofiles_costunitgroups_{costUnitGroupId}.yaml
`;
  fs.writeFileSync(openapi, text.replace(/^paths:\n/m, table).replace(/^tags:\n/m, 'tags:\n  - name: Cost unit groups\n    description: Groups of cost units at wage model level.\n'));
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'described-operations-'));
  workspaceCopy(repo, root, { fullDirs: ['spec', ...GENERATED], nodeModules: { spec: path.join(repo, 'spec', 'node_modules') } });
  for (const dir of GENERATED) linkDependencies(dir);
  describeOperations();
  node(['spec/scripts/bundle.mjs']);
  node(['packages/types/scripts/generate.mjs']);
  node(['packages/client/scripts/generate.mjs']);
  node(['packages/query/scripts/generate.mjs']);
  const { startPostgresServer } = await import(path.join(repo, 'packages', 'mock', 'test', 'support', 'postgres-server.mjs'));
  postgres = await startPostgresServer();
});

afterAll(() => {
  postgres?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

it('bundles the new operations, and copies no file of the sandbox', () => {
  const bundle = JSON.parse(fs.readFileSync(path.join(root, 'spec', 'dist', 'journal.json'), 'utf8'));
  const ids = Object.values(bundle.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId));
  expect(ids).toEqual(expect.arrayContaining(NEW_OPERATIONS));
  expect(fs.existsSync(path.join(root, 'packages', 'sandbox', 'src'))).toBe(false);
});

for (const storeName of ['memory', 'postgres']) {
  describe(`the sandbox over ${storeName}, through the generated client, query options and conformance`, () => {
    let mock;
    let api;

    beforeAll(async () => {
      const { startMock } = await import('@payroll-api/mock');
      const databaseUrl = storeName === 'postgres' ? postgres.url : undefined;
      mock = await startMock({ port: 0, specDir: path.join(root, 'spec', 'dist'), databaseUrl, log: () => undefined });
      // The copy's client and query options, bundled as an app would.
      const entry = path.join(root, `app-${storeName}.mjs`);
      fs.writeFileSync(entry, "export { createJournalClient, unwrap } from './packages/client/src/index.ts';\nexport { journalQueries } from './packages/query/src/index.ts';\nexport { QueryClient, MutationObserver } from '@tanstack/query-core';\n");
      const outfile = path.join(root, `app-${storeName}.bundle.mjs`);
      await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent', nodePaths: [path.join(repo, 'packages', 'query', 'node_modules')], alias: { '@payroll-api/client': path.join(root, 'packages', 'client', 'src', 'index.ts') } });
      api = await import(outfile);
    });
    afterAll(() => mock?.close());

    it('answers all three by activity name through the client', async () => {
      const client = api.createJournalClient({ baseUrl: mock.url, auth: `described-client-${storeName}`, retry: false });
      const units = api.unwrap(await client.GetCostUnitsAtWageModelLevelByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }))._embedded;
      const unit = api.unwrap(await client.GetCostUnitAtWageModelLevelByCostUnitId({ costUnitId: units[0].id })).content;
      expect(unit).toEqual(units[0]);
      const created = api.unwrap(await client.PostCostUnitGroupByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }, { code: 'G1', description: 'Eerste groep' })).content;
      expect(created).toEqual({ id: expect.any(String), code: 'G1', description: 'Eerste groep' });
      const edited = api.unwrap(await client.PatchCostUnitGroupByCostUnitGroupId({ costUnitGroupId: created.id }, { description: 'Hernoemd' })).content;
      expect(edited).toEqual({ id: created.id, code: 'G1', description: 'Hernoemd' });
      const groups = api.unwrap(await client.GetCostUnitGroupsByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }));
      expect(groups._embedded).toHaveLength(2);
      expect(groups._embedded).toEqual(expect.arrayContaining([edited, EXAMPLE_GROUP]));
      const refused = await client.PostCostUnitGroupByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }, { description: 'zonder code' });
      expect(refused.response.status).toBe(400);
    });

    it('fetches them with the query options, and a create invalidates the list', async () => {
      const client = api.createJournalClient({ baseUrl: mock.url, auth: `described-query-${storeName}`, retry: false });
      const journal = api.journalQueries(client);
      const queryClient = new api.QueryClient();
      const list = journal.GetCostUnitGroupsByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE });
      expect((await queryClient.fetchQuery(list))._embedded).toEqual([EXAMPLE_GROUP]);
      const create = new api.MutationObserver(queryClient, journal.mutation.PostCostUnitGroupByJournalProfileId());
      await create.mutate({ params: { journalProfileId: WAGE_MODEL_PROFILE }, body: { code: 'Q1' } });
      // The list was read by no observer, so it is marked stale rather than refetched; read again, it has the group.
      expect(queryClient.getQueryState(list.queryKey)?.isInvalidated).toBe(true);
      expect((await queryClient.fetchQuery(list)).totalSize).toBe(2);
    });

    it("adds groups through a scenario's derived list, and refuses one under no profile", async () => {
      const token = `described-scenario-${storeName}`;
      const scenario = (body) => fetch(`${mock.url}/__sandbox/scenario`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
      const made = await scenario({ start: 'seed', entities: {}, derived: { costUnitGroups: [{ ref: 'made', journalProfileId: WAGE_MODEL_PROFILE, code: 'S1' }] } });
      expect(made.status).toBe(200);
      const { refs } = await made.json();
      const client = api.createJournalClient({ baseUrl: mock.url, auth: token, retry: false });
      const groups = api.unwrap(await client.GetCostUnitGroupsByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }))._embedded;
      expect(groups).toHaveLength(2);
      expect(groups).toEqual(expect.arrayContaining([{ id: refs.made, code: 'S1' }, EXAMPLE_GROUP]));
      const refused = await scenario({ start: 'seed', entities: {}, derived: { costUnitGroups: [{ code: 'S2' }] } });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain('derived.costUnitGroups[0].journalProfileId');
      expect(api.unwrap(await client.GetCostUnitGroupsByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }))._embedded).toHaveLength(2);
    });

    it('passes conformance on them, writes included', async () => {
      const { runConformance } = await import('@payroll-api/conformance');
      // Ids no list of the description gives: a seeded cost unit, and a group made first.
      const token = `described-conformance-${storeName}`;
      const client = api.createJournalClient({ baseUrl: mock.url, auth: token, retry: false });
      const costUnitId = api.unwrap(await client.GetCostUnitsAtWageModelLevelByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }))._embedded[0].id;
      const costUnitGroupId = api.unwrap(await client.PostCostUnitGroupByJournalProfileId({ journalProfileId: WAGE_MODEL_PROFILE }, { code: 'C1' })).content.id;
      const summary = await runConformance({
        journalUrl: mock.url,
        token,
        allowWrites: true,
        journalSpec: path.join(root, 'spec', 'dist', 'journal.json'),
        params: { wageModelId: WAGE_MODEL, journalProfileId: WAGE_MODEL_PROFILE, costUnitId, costUnitGroupId },
        operations: NEW_OPERATIONS,
      });
      const cases = summary.cases.filter((c) => !c.skipped);
      expect(new Set(cases.map((c) => c.operationId))).toEqual(new Set(NEW_OPERATIONS));
      expect(cases.filter((c) => c.findings.length > 0).map((c) => `${c.operationId} ${c.title}: ${c.findings.map((f) => f.message).join('; ')}`)).toEqual([]);
    });
  });
}
