// What the build generates from the descriptions, the seed and the catalogues: samples, the
// reading copy, the error-code catalogue, the rule pages, the search index and the API
// changelog.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiChangelog, archiveRelease } from '@payroll-api/api-policy';
import { operationsOf } from '@payroll-api/openapi-bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { errorCodes, errorCodesPage, pageSections, searchIndex } from '../src/catalogue.mjs';
import { changelogPage } from '../src/changelog.mjs';
import { authorizationPage, controlApiSection, controlDescription, readAuthorizationModel, sandboxPage, sectionsOf } from '../src/guides.mjs';
import { escapeHtml } from '../src/layout.mjs';
import { APIS, readingCopy, withAuthentication } from '../src/reference.mjs';
import { readRules, rulesPage, stepCurl } from '../src/rules.mjs';
import { operationSamples, readSeed, seedValue } from '../src/samples.mjs';
import { seededIdRows, startPage } from '../src/start.mjs';

const require = createRequire(import.meta.url);
const bundle = (api) => JSON.parse(readFileSync(require.resolve(`@payroll-api/spec/${api}.json`), 'utf8'));
const payroll = bundle('payroll');
const journal = bundle('journal');
const temp = [];
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('samples', () => {
  const seed = readSeed();
  const ids = seed.ids;
  const samples = operationSamples('payroll', payroll, seed);

  it('read the seed from the sandbox source: its well-known ids and its entities', () => {
    expect(Object.keys(ids).length).toBeGreaterThan(0);
    for (const id of Object.values(ids)) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seed.collections.employers.map((doc) => doc.id)).toContain(ids.employer);
  });

  it('take each path parameter from the seed: well-known ids first, then the collection named like it, at the level the path names', () => {
    const fixture = {
      ids: { employer: 'E' },
      collections: { employers: [{ id: 'E2' }], journalCostCenters: [{ id: 'P', level: 'provider' }, { id: 'W', level: 'wageModel' }], categories: [{ id: 'C' }] },
    };
    expect(seedValue('employerId', '/v2/x/{employerId}', fixture)).toBe('E');
    expect(seedValue('costCenterId', '/journal/providers/wagemodels/journalprofiles/costcenters/{costCenterId}', fixture)).toBe('W');
    expect(seedValue('costCenterId', '/journal/other/{costCenterId}', fixture)).toBe('P');
    expect(seedValue('categoryId', '/x/{categoryId}', fixture)).toBe('C');
    expect(seedValue('version', '/x/{version}', fixture)).toBeNull();
  });

  it('cover every operation, with seed ids, the double /v2, the token and the newest served version', () => {
    expect(samples.map((s) => s.operationId).sort()).toEqual([...operationsOf(payroll)].map((o) => o.operation.operationId).sort());
    const employees = samples.find((s) => s.operationId === 'GetEmployeesByEmployerId');
    expect(employees.url).toBe(`http://127.0.0.1:4010/v2/v2/providers/employers/${ids.employer}/employees`);
    expect(employees.pathParams).toEqual({ employerId: ids.employer });
    expect(employees.allFromSeed).toBe(true);
    expect(employees.curl).toContain("-H 'Authorization: Bearer demo-token'");
    expect(employees.curl).toContain(`-H 'Accept: application/json;version=${payroll['x-resource-versions'].resources.employee.versions[0].version}'`);
    expect(employees.typescript).toContain(`// GET {base_url}/v2/providers/employers/{employerId}/employees:`);
    expect(employees.typescript).toContain(`unwrap(await payroll.GetEmployeesByEmployerId({ employerId: '${ids.employer}' }))`);
    // A body is the call's second argument.
    expect(samples.find((s) => s.operationId === 'PatchCorrectStartDateByEmploymentId').typescript).toMatch(/payroll\.PatchCorrectStartDateByEmploymentId\(\{ employmentId: '[0-9a-f-]{36}' \}, \{\n  startDate: '2021-03-15',\n\}\)/);
    for (const sample of samples) {
      // The Accept of each sample is one of the versions its success response serves.
      const { operation } = [...operationsOf(payroll)].find((o) => o.operation.operationId === sample.operationId);
      const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status))?.[1];
      const content = success.$ref ? payroll.components.responses[success.$ref.split('/').at(-1)].content : success.content;
      if (sample.accept) expect(Object.keys(content ?? {}), sample.operationId).toContain(sample.accept);
      if (sample.contentType) {
        expect(sample.contentType, sample.operationId).toMatch(/^application\/json;version=\d{4}-\d{2}-\d{2}$/);
        expect(sample.curl).toContain(`-H 'Content-Type: ${sample.contentType}'`);
      }
    }
  });

  it('address the kind of seeded entity each operation needs, and a body the sandbox takes from the seed where the description shows none', () => {
    const sample = (id) => samples.find((s) => s.operationId === id);
    const doc = (collection, id) => seed.collections[collection].find((d) => d.id === id);
    expect(doc('employments', sample('PatchReinstateByEmploymentId').pathParams.employmentId).endDate).not.toBeNull();
    const deleted = doc('employments', sample('DeleteEmploymentByEmploymentId').pathParams.employmentId);
    expect(deleted.processedPayrollResults).toBe(0);
    const logo = sample('GetProviderLogoByEmployerIdAndVersion').pathParams;
    expect(doc('employers', logo.employerId).providerLogoId).toBe(logo.version);
    const grade = sample('GetConceptEmployeePayGradeValuesByPayGradeKey').pathParams;
    const scales = seed.payScales[doc('administrations', grade.payrollAdministrationId).collectiveLaborAgreement];
    expect(scales.find((scale) => scale.key === grade.payScaleKey).grades.map((g) => g.key)).toContain(grade.payGradeKey);
    // The example's correction (two weeks forward) on an employment it fits.
    const corrected = sample('PatchCorrectStartDateByEmploymentId');
    expect(corrected.body).toEqual({ startDate: '2021-03-15' });
    expect(doc('employments', corrected.pathParams.employmentId).startDate <= '2021-03-15').toBe(true);
    const put = sample('PutConceptEmployeeByConceptEmployeeId');
    expect(put.contentType).toMatch(/^application\/json;version=/);
    expect(put.body.uniqueName).toBe(doc('conceptEmployees', put.pathParams.conceptEmployeeId).uniqueName);
    expect(put.body).not.toHaveProperty('employerId');
    // A seed without the kind of entity fails the build with the operation and parameter named.
    const noEnded = { ...seed, collections: { ...seed.collections, employments: seed.collections.employments.filter((e) => e.endDate === null) } };
    expect(() => operationSamples('payroll', payroll, noEnded)).toThrow(/PatchReinstateByEmploymentId's employmentId/);
  });

  it('journal samples address /journal paths without a version', () => {
    const samplesJ = operationSamples('journal', journal, seed);
    const list = samplesJ.find((s) => s.operationId === 'GetJournalProfilesByWageModelId') ?? samplesJ.find((s) => s.path.includes('{wageModelId}'));
    expect(list.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4010/journal/.*${ids.wageModel}`));
    expect(list.accept).toBe('application/json');
  });
});

describe('reading copy', () => {
  const copy = readingCopy(payroll, operationSamples('payroll', payroll));

  it('adds curl and TypeScript samples to every operation and a badge to every path the contract does not give', () => {
    let badges = 0;
    for (const { pathItem, operation } of operationsOf(copy)) {
      expect(operation['x-codeSamples'].map((s) => s.label)).toEqual(['curl', 'TypeScript']);
      const source = operation['x-path-source'] ?? pathItem['x-path-source'];
      if (source === 'inferred' || source === 'published') {
        badges += 1;
        expect(operation['x-badges'][0].name).toMatch(/^Path (inferred|from the published service)$/);
        expect(operation.description).toContain('href="index.html#path-sources"');
      } else {
        expect(operation['x-badges']).toBeUndefined();
      }
    }
    expect(badges).toBeGreaterThan(0);
    expect(copy.info.description.match(/^#{1,2} Authentication$/gm)).toHaveLength(1);
    expect(copy.info.description).toMatch(/^#{1,2} Authentication\n[\s\S]*<SecurityDefinitions \/>/m);
    // A description with its own section keeps it, and gets the schemes inside it.
    const own = withAuthentication('# API\n\n## Authentication\nOAuth.\n\n## Errors\nNone.');
    expect(own).toMatch(/## Authentication\nOAuth\.\n\nEvery call[\s\S]*<SecurityDefinitions \/>\n\n## Errors/);
    expect(own.match(/Authentication$/gm)).toHaveLength(1);
    // The bundle itself is untouched.
    expect(JSON.stringify(payroll)).not.toContain('x-codeSamples');
  });
});

describe('journal error codes', () => {
  it('lists every code the description names, with its operations and meaning', () => {
    const codes = errorCodes(journal);
    const named = new Set(JSON.stringify(journal).match(/API_Journa(?:a)?l_\w+/g));
    expect(codes.map((c) => c.code).sort()).toEqual([...named].sort());
    for (const code of codes) {
      expect(code.operations.length, code.code).toBeGreaterThan(0);
      expect(code.meaning, code.code).toBeTruthy();
    }
    const page = errorCodesPage(journal).html;
    expect(page).toContain('id="API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel"');
    expect(page).toMatch(/journal\.html#operation\/PostCostCenterAtWageModelLevelByJournalProfileId/);
    // The payroll codes: the contract shows no catalogue, and the sandbox's codes are its own.
    expect(page).toContain('id="payroll-codes"');
    expect(page).toMatch(/reference sandbox's codes are its own/);
  });
});

describe('rule pages', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'payroll-docs-rules-'));
  temp.push(dir);
  const file = path.join(dir, 'journal.yaml');
  writeFileSync(
    file,
    `# cost centers
- id: API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel
  title: Cost center code already used at provider level
  meaning: A code is unique across levels.
  contract: { document: journal, section: '7', quote: 'Every 400 validation error is identified by one of the codes below.' }
  operations: [PostCostCenterAtWageModelLevelByJournalProfileId]
  status: 400
  messageType: BrokenBusinessRule
  steps:
    - method: POST
      path: /journal/providers/wagemodels/journalprofiles/abc/costcenters
      accept: application/json
      contentType: application/json
      body: { code: "CC-1'0", description: Sales }
      expect: { status: 400, code: API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel }
`,
  );

  it('render each entry with its contract quote, operations and a runnable curl per step', () => {
    const rules = readRules('journal', file);
    expect(rules).toHaveLength(1);
    const html = rulesPage({ api: 'journal', title: 'Journal rules' }, rules);
    expect(html).toContain('id="API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel"');
    expect(html).toContain('Every 400 validation error is identified by one of the codes below.');
    expect(html).toContain('journal.html#operation/PostCostCenterAtWageModelLevelByJournalProfileId');
    expect(stepCurl(rules[0].steps[0])).toBe(
      "curl -X POST 'http://127.0.0.1:4010/journal/providers/wagemodels/journalprofiles/abc/costcenters' \\\n  -H 'Authorization: Bearer rules-demo' \\\n  -H 'Accept: application/json' \\\n  -H 'Content-Type: application/json' \\\n  --data '{\"code\":\"CC-1'\\''0\",\"description\":\"Sales\"}'",
    );
    const page = errorCodesPage(journal, new Map(rules.map((rule) => [rule.id, rule]))).html;
    expect(page).toContain('journal-rules.html#API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel');
  });

  it('name the entry that is malformed', () => {
    writeFileSync(path.join(dir, 'bad.yaml'), '- id: x\n  steps: [{ method: GET }]\n');
    expect(() => readRules('journal', path.join(dir, 'bad.yaml'))).toThrow(/entry 1 \(x\): every step has a method, a path and expect\.status/);
    writeFileSync(path.join(dir, 'twice.yaml'), '- id: x\n  steps: [{ method: GET, path: /a, expect: { status: 200 } }]\n- id: x\n  steps: [{ method: GET, path: /a, expect: { status: 200 } }]\n');
    expect(() => readRules('journal', path.join(dir, 'twice.yaml'))).toThrow(/entry 2 \(x\): the id is used twice/);
  });
});

describe('sandbox page', () => {
  it('renders the mock README sections about the sandbox', () => {
    const readme = '# mock\n\n## Install\n\nnpm i\n\n## Sandbox: isolation per token\n\nEach token has its own data.\n\n## Reset and snapshots\n\n`POST /__sandbox/reset`\n';
    expect(sectionsOf(readme, /sandbox|reset/i)).toHaveLength(2);
    const html = sandboxPage(readme);
    expect(html).toContain('Each token has its own data.');
    expect(html).toContain('<code>POST /__sandbox/reset</code>');
    expect(html).not.toContain('npm i');
  });

  it('renders the engine README sections on running without a server and on faults', () => {
    const engine = '# sandbox\n\n## In process\n\n`createSandbox().fetch`\n\n## Layout\n\nfolders\n\n## Faults and latency on purpose\n\nA 503 once, then the list again.\n';
    const html = sandboxPage('## Sandbox\n\nx\n', engine);
    expect(html).toContain('id="without-a-server"');
    expect(html).toContain('<code>createSandbox().fetch</code>');
    expect(html).toContain('A 503 once, then the list again.');
    expect(html).not.toContain('folders');
    // The real page carries the real README's loading and error states.
    expect(sandboxPage()).toContain('X-Sandbox-Fault');
  });

  it('renders the control description: every operation under its tag, with its parameters and body', () => {
    const doc = controlDescription();
    const html = sandboxPage('## Sandbox\n\nx\n', '', doc);
    expect(html).toContain('id="control-api"');
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o?.operationId).filter(Boolean));
    expect(ids.length).toBeGreaterThan(40);
    for (const id of ids) expect(html).toContain(`id="control-${id}"`);
    expect(html).toMatch(/<code>POST \/__sandbox\/scenario<\/code>/);
    expect(html).toContain('<code>mode</code> (query)');
    expect(html).toContain('Body: <code>Scenario</code>');
    expect(controlApiSection(null)).toContain('not built yet');
  });

  it('the authorization page shows the five steps and the seeded users of the sandbox\'s authorization model, and the catalogue\'s authorization rules', () => {
    const model = readAuthorizationModel();
    expect(model.steps.map((step) => step.step)).toEqual([1, 2, 3, 4, 5]);
    const html = authorizationPage([{ id: 'authorization-no-right', api: 'payroll', title: 'Step 2', token: 'sandbox-user-read-only', status: 403 }], model);
    const steps = /<ol id="authorization-steps">([\s\S]*?)<\/ol>/.exec(html)[1];
    expect(steps.match(/<li id="authorization-step-\d">/g)).toHaveLength(5);
    for (const step of model.steps) {
      expect(steps).toContain(escapeHtml(step.question));
      for (const reason of step.reasons) expect(steps).toContain(`<code>${reason}</code>`);
    }
    for (const user of model.users) {
      expect(html).toContain(`<tr id="user-${user.username}"><td><code>${user.username}</code></td><td><code>${user.token}</code></td>`);
      expect(html).toContain(escapeHtml(`Authorization: Bearer ${user.token}`));
      expect(user.step.expect.header[model.refusal.header]).toMatch(new RegExp(`^step=${user.demonstrates};`));
    }
    expect(html).toContain('payroll-rules.html#authorization-no-right');
    // What the page says comes from the model: a changed model changes the page.
    const changed = authorizationPage([], { ...model, steps: model.steps.map((step) => (step.step === 2 ? { ...step, question: 'a question the model asks now' } : step)) });
    expect(changed).toContain('a question the model asks now');
    expect(() => authorizationPage([], null)).toThrow(/authorization model/);
  });
});

describe('search index', () => {
  it('holds activity names, error codes and field names', () => {
    const codes = errorCodes(journal);
    const { entries } = searchIndex({ apis: APIS.map((api) => ({ api, doc: api.id === 'payroll' ? payroll : journal })), codes, rules: [], pages: [] });
    const find = (kind, name) => entries.find((e) => e.kind === kind && e.name === name);
    expect(find('operation', 'GetEmployeesByEmployerId').href).toBe('payroll.html#operation/GetEmployeesByEmployerId');
    expect(find('error code', 'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel').href).toBe('errors.html#API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel');
    expect(find('field', 'companyName').href).toMatch(/^payroll\.html#operation\//);
  });
});

describe('API changelog', () => {
  it('compares each release with the one before and the working descriptions with the last release', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'payroll-docs-api-changelog-'));
    temp.push(root);
    const widget = (extra = {}) => ({
      openapi: '3.1.0',
      info: { title: 'w', version: '1' },
      paths: {
        '/v2/widgets': {
          get: {
            operationId: 'GetWidgets',
            responses: { 200: { description: 'ok', content: { 'application/json;version=2020-01-01': { schema: { type: 'object', properties: { id: { type: 'string' }, ...extra } } } } } },
          },
        },
      },
    });
    const write = (file, doc) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), JSON.stringify(doc));
    };
    write('tools/api-policy/baseline/payroll.json', widget());
    archiveRelease({ root, version: '0.1.0', date: '2026-01-01', apis: ['payroll'] });
    write('tools/api-policy/baseline/payroll.json', widget({ name: { type: 'string' } }));
    archiveRelease({ root, version: '0.2.0', date: '2026-02-01', apis: ['payroll'] });
    write('spec/dist/payroll.json', widget({ name: { type: 'string' }, size: { type: 'integer' } }));

    const entries = apiChangelog({ root, today: '2026-03-01', apis: ['payroll'] });
    expect(entries.map((e) => (e.upcoming ? 'upcoming' : e.version))).toEqual(['upcoming', '0.2.0', '0.1.0']);
    expect(entries[0].apis[0].groups['non-breaking'].map((f) => f.element)).toEqual(['size']);
    expect(entries[1].apis[0].groups['non-breaking'].map((f) => f.element)).toEqual(['name']);
    expect(entries[2].apis[0].first).toBe(true);

    writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
    const html = changelogPage(root, entries).html;
    expect(html.indexOf('id="api-upcoming"')).toBeLessThan(html.indexOf('id="api-0.2.0"'));
    expect(html).toMatch(/id="api-upcoming"[\s\S]*Non-breaking changes[\s\S]*size[\s\S]*NB-FIELD/);
    expect(html).toContain('id="package-changes"');
  });

  it('renders the migration notes of a new resource version from its version change record', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'payroll-docs-migrations-'));
    temp.push(root);
    const content = (version, field) => ({ [`application/json;version=${version}`]: { schema: { type: 'object', required: [field], properties: { id: { type: 'string' }, [field]: { type: 'string' } } } } });
    const widget = (versions) => ({
      openapi: '3.1.0',
      info: { title: 'w', version: '1' },
      paths: { '/v2/widgets': { get: { operationId: 'GetWidgets', responses: { 200: { description: 'ok', content: Object.assign({}, ...versions.map(([v, f]) => content(v, f))) } } } } },
      'x-resource-versions': { resources: { widget: { operations: ['GetWidgets'], versions: versions.map(([version], i) => ({ version, obsoleteDate: i === 0 && versions.length > 1 ? null : versions.length > 1 ? '2026-12-01' : null })) } } },
    });
    const write = (file, doc) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), JSON.stringify(doc));
    };
    write('tools/api-policy/baseline/payroll.json', widget([['2020-01-01', 'name']]));
    const next = widget([['2026-06-01', 'title'], ['2020-01-01', 'name']]);
    next['x-version-changes'] = { widget: [{ version: '2026-06-01', previous: '2020-01-01', changes: [{ rename: 'name', to: 'title' }] }] };
    write('spec/dist/payroll.json', next);
    writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: []\n');

    const [upcoming] = apiChangelog({ root, today: '2026-03-01', apis: ['payroll'] });
    expect(upcoming.apis[0].migrations).toEqual([{ resource: 'widget', version: '2026-06-01', previous: '2020-01-01', previousObsoleteDate: '2026-12-01', notes: ['`name` is now `title`.'] }]);
    const html = changelogPage(root, [upcoming]).html;
    expect(html).toMatch(/<h5>Migration notes<\/h5>[\s\S]*<code>widget<\/code> 2020-01-01 → 2026-06-01[\s\S]*2020-01-01 is served until 2026-12-01[\s\S]*<li><code>name<\/code> is now <code>title<\/code>\.<\/li>/);
  });
});

describe('the integrator\'s pages', () => {
  const seed = readSeed();
  const model = readAuthorizationModel();
  const start = startPage(seed, model);
  const guide = readFileSync(new URL('../src/guide.html', import.meta.url), 'utf8');

  it('Start here says up front that each username is a sandbox, and gives the token request with the client credentials', () => {
    const main = start.slice(start.indexOf('<h1>'));
    expect(main.indexOf('Each username is a sandbox of its own')).toBeLessThan(main.indexOf('<h2'));
    expect(main).toContain('-d grant_type=password');
    expect(main).toContain('-d client_Id=YOUR_CLIENT_ID -d client_secret=YOUR_CLIENT_SECRET');
    expect(main).toContain('grant_type=refresh_token');
    expect(main).toMatch(/<code>429<\/code> with <code>Retry-After<\/code>/);
    // Every seeded user of the authorization model, with its password.
    for (const user of model.users) expect(main).toContain(`<td><code>${user.username}</code></td>`);
  });

  it('the table of seeded ids comes from the seed: the provider, every employer and payroll administration, and every wage model', () => {
    const rows = seededIdRows(seed);
    const ids = rows.map(([, id]) => id.replace(/<\/?code>/g, ''));
    expect(ids).toContain(seed.ids.provider);
    for (const employer of seed.collections.employers) expect(ids).toContain(employer.id);
    for (const wageModel of seed.collections.journalWageModels) expect(ids).toContain(wageModel.id);
    for (const administration of seed.collections.administrations.filter((a) => a.isPayrollAdministration)) expect(ids).toContain(administration.id);
    expect(rows.find(([kind, id]) => kind === 'wage model' && id.includes(seed.ids.wageModel))[2]).toContain("the samples' wageModel");
    // Another seed, another table: nothing is copied by hand.
    const other = structuredClone(seed);
    other.collections.journalWageModels.push({ id: 'aaaaaaaa-0000-4000-8000-000000000001', description: 'Loonmodel test' });
    expect(startPage(other, model)).toContain('<code>aaaaaaaa-0000-4000-8000-000000000001</code>');
    // The same list the sandbox answers for the reader's own sandbox.
    expect(start).toContain("curl 'http://127.0.0.1:4010/__sandbox/seeded-ids'");
  });

  it('no integrator page carries operator or contributor material', () => {
    const pages = { start, guide, sandbox: sandboxPage(), authorization: authorizationPage([], model) };
    for (const [name, html] of Object.entries(pages)) {
      expect(html, name).not.toMatch(/pnpm (mock|start)|in this repository|packages\/sandbox\/src|rules\/authorization\.yaml|--database-url|__operator|PAYROLL_MOCK_OPERATOR_TOKEN/);
    }
    // The sandbox page keeps the sections about using a sandbox, not those about running one.
    expect(pages.sandbox).toContain('Isolation per token');
    expect(pages.sandbox).not.toMatch(/Hosting a shared sandbox|Storage: in memory|collection cache/);
  });

  it('the search finds the Start here sections for "hosted" and "client credentials"', () => {
    const sections = pageSections(start, 'start.html', 'Start here');
    const index = searchIndex({ apis: [], codes: [], rules: [], pages: sections }).entries;
    const find = (query) => index.filter((entry) => `${entry.name} ${entry.text}`.toLowerCase().includes(query)).map((entry) => entry.href);
    expect(find('client credentials')).toContain('start.html#token');
    expect(find('hosted')).toContain('start.html#address');
    expect(find('retry-after')).toEqual(['start.html#limits']);
    expect(sections.map((section) => section.href)).toContain('start.html#seeded-ids');
  });

  it('the guide says which dates a version may name, not that any date may be sent', () => {
    expect(guide).not.toContain('Any date may be sent');
    expect(guide).toMatch(/A date that selects no served version gets <code>400<\/code> naming <code>Accept<\/code>/);
  });
});
