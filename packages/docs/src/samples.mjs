// What a reader needs to call an operation, generated from the description and the sandbox's
// seed: the request (path filled with ids that exist in the seed, the operation's own
// versioned Accept and Content-Type, the body of its request example), a curl command and a
// TypeScript call by activity name with @payroll-api/client. The reference shows the samples,
// the "Try it" console starts from the same request, and the docs tests run the very same
// curls.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { toBody } from '@payroll-api/client/body';
import { deref, operationsOf } from '@payroll-api/openapi-bundle';

const require = createRequire(import.meta.url);

/** The sandbox that `pnpm start` runs beside the docs, and the token the samples send. */
export const SANDBOX_ORIGIN = 'http://127.0.0.1:4010';
export const SAMPLE_TOKEN = 'demo-token';
/** The token the rule pages' steps send (a sandbox apart from the samples'); the reader's token replaces it too. */
export const RULES_TOKEN = 'rules-demo';

/** Where each API's paths hang off the sandbox origin: payroll's {base_url} is the host plus /v2. */
export const API_BASES = { payroll: '/v2', journal: '' };
const CLIENT_FACTORIES = { payroll: 'createPayrollClient', journal: 'createJournalClient' };

function sandboxFile(relative) {
  try {
    return path.join(path.dirname(require.resolve('@payroll-api/sandbox/package.json')), relative);
  } catch {
    return null;
  }
}

/** The sandbox's seed modules, bundled from their TypeScript source and run once; null without the sandbox's sources. */
let seedModules;
function seedModule() {
  if (seedModules !== undefined) return seedModules;
  const dir = sandboxFile('src/seed');
  if (!dir || !existsSync(path.join(dir, 'index.ts'))) return (seedModules = null);
  const esbuild = require('esbuild');
  const result = esbuild.buildSync({
    stdin: {
      contents:
        "export { seedSnapshot } from './index.ts';\nexport { SEED_IDS } from './ids.ts';\nexport { seededEntities } from './seeded-ids.ts';\nexport { payScaleOptions, payGradeOptions, AGREEMENTS } from '../domain/reference-data.ts';\n",
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} };
  try {
    new Function('module', 'exports', 'require', result.outputFiles[0].text)(module, module.exports, require);
  } catch (error) {
    throw new Error(`the sandbox's seed (${dir}) could not be run: ${error.message}`);
  }
  return (seedModules = module.exports);
}

/**
 * The sandbox's seed (packages/sandbox/src/seed/), bundled from its TypeScript source
 * and run: { ids: SEED_IDS (the well-known ids), collections: { <name>: [doc] }, payScales:
 * { <agreement>: [{ key, value, grades: [{ key, value }] }] } }. Read at
 * build time, so that the samples follow the seed as it grows.
 */
export function readSeed() {
  const modules = seedModule();
  if (!modules) return { ids: {}, collections: {}, payScales: {} };
  const { seedSnapshot, SEED_IDS, payScaleOptions, payGradeOptions, AGREEMENTS } = modules;
  // The pay scales and grades the metadata endpoints offer, per collective labour agreement.
  const payScales = Object.fromEntries(
    Object.entries(AGREEMENTS).map(([agreement, data]) => [
      agreement,
      payScaleOptions(agreement).map((option, index) => ({ ...option, grades: payGradeOptions(agreement, data.payScales[index]) })),
    ]),
  );
  return { ids: { ...SEED_IDS }, collections: seedSnapshot().collections, payScales };
}

/**
 * The seeded entities to start from in a seed's collections, as the sandbox's own control read
 * (GET /__sandbox/seeded-ids) lists them: the same function (seed/seeded-ids.ts), never a copy.
 */
export function seededEntities(collections) {
  return seedModule()?.seededEntities(collections) ?? [];
}

const plural = (name) => (/y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`);

/**
 * The seed's id for a path parameter: the well-known id named like it (`employerId` →
 * SEED_IDS.employer), else the first entity of the collection named like it (`costCenterId` →
 * journalCostCenters), preferring an entity at the deepest `level` the path names (the journal's
 * wage model and payroll administration levels). Null when the seed has none.
 */
export function seedValue(parameterName, pathTemplate, seed) {
  const key = parameterName.replace(/Id$/, '');
  if (key === parameterName) return null;
  if (seed.ids[key]) return seed.ids[key];
  const wanted = plural(key).toLowerCase();
  const names = Object.keys(seed.collections).filter((name) => name.toLowerCase().endsWith(wanted));
  names.sort((a, b) => a.length - b.length);
  const docs = names.flatMap((name) => seed.collections[name]).filter((doc) => typeof doc?.id === 'string');
  if (docs.length === 0) return null;
  const lowerPath = pathTemplate.toLowerCase();
  // The deepest level the path names wins: /providers/wagemodels/… is the wage model level.
  const depth = (doc) => (typeof doc.level === 'string' ? lowerPath.lastIndexOf(`/${doc.level.toLowerCase()}s/`) : -1);
  return docs.reduce((best, doc) => (depth(doc) > depth(best) ? doc : best), docs[0]).id;
}

const byId = (seed, collection, id) => (seed.collections[collection] ?? []).find((doc) => doc.id === id);

/** An employment the sandbox lets go: no processed payroll results, and no other employment links to it. */
function isDeletable(employment, seed) {
  return Number(employment.processedPayrollResults ?? 0) === 0 && !seed.collections.employments.some((other) => other.linkedEmployment === employment.id);
}

/**
 * Whether the example's start date correction fits an employment: the records starting on its
 * start date move with it and must not end before the new date, every other record starts
 * after it, and the employment does not end before it.
 */
function startDateFits(employment, seed, newStart) {
  if (typeof newStart !== 'string' || (employment.endDate !== null && employment.endDate < newStart)) return false;
  return seed.collections.employmentRecords
    .filter((record) => record.employmentId === employment.id)
    .every((record) => (record.startDate === employment.startDate ? record.endDate === null || record.endDate >= newStart : record.startDate > newStart));
}

/** The pay scales of the agreement of the payroll administration the path names. */
const payScalesOf = (seed, params) => seed.payScales[byId(seed, 'administrations', params.payrollAdministrationId)?.collectiveLaborAgreement] ?? [];

/**
 * The operations whose sample needs a particular kind of seeded entity, because the one a
 * parameter's name leads to would be refused (an active employment cannot be reinstated) or
 * has nothing to show. Per path parameter: a function of the seed, the parameters filled
 * before it (in path order) and the example body, giving the id from the seed.
 */
export const SAMPLE_ENTITIES = {
  GetProviderLogoByEmployerId: { employerId: (seed) => seed.collections.employers.find((e) => typeof e.providerLogoId === 'string')?.id },
  GetProviderLogoByEmployerIdAndVersion: {
    employerId: (seed) => seed.collections.employers.find((e) => typeof e.providerLogoId === 'string')?.id,
    // The trailing version is a caching token: the logo's own id serves.
    version: (seed, params) => byId(seed, 'employers', params.employerId)?.providerLogoId,
  },
  PatchReinstateByEmploymentId: { employmentId: (seed) => seed.collections.employments.find((e) => e.endDate !== null && e.employerId === seed.ids.employer)?.id },
  DeleteEmploymentByEmploymentId: { employmentId: (seed) => seed.collections.employments.find((e) => e.employerId === seed.ids.employer && isDeletable(e, seed))?.id },
  PatchCorrectStartDateByEmploymentId: { employmentId: (seed, params, body) => seed.collections.employments.find((e) => e.employerId === seed.ids.employer && startDateFits(e, seed, body?.startDate))?.id },
  GetJobApplicantPayGradeMetadataBySalaryScaleTypeId: { id: (seed) => Object.values(seed.payScales).flat()[0]?.key },
  GetConceptEmployeePayGradeMetadataByPayScaleKey: { payScaleKey: (seed, params) => payScalesOf(seed, params)[0]?.key },
  GetConceptEmployeePayGradeValuesByPayGradeKey: {
    payScaleKey: (seed, params) => payScalesOf(seed, params)[0]?.key,
    payGradeKey: (seed, params) => payScalesOf(seed, params).find((scale) => scale.key === params.payScaleKey)?.grades[0]?.key,
  },
};

/**
 * Operations whose description shows no request body that the sandbox still needs one for:
 * the operation whose body shape it takes (its x-contract-gap says so), filled from the
 * seeded entity the path names, read shape to body with the client's toBody.
 */
export const UNDECLARED_BODIES = {
  PutConceptEmployeeByConceptEmployeeId: { like: 'PostConceptEmployeeByEmployerId', entity: ['conceptEmployees', 'conceptEmployeeId'] },
};

/** The value of a path parameter: from the seed, else the description's example. */
export function pathValue(parameter, pathTemplate, seed) {
  const fromSeed = seedValue(parameter.name, pathTemplate, seed);
  if (fromSeed) return { value: fromSeed, fromSeed: true };
  const example = parameter.example ?? parameter.schema?.example ?? Object.values(parameter.examples ?? {})[0]?.value;
  if (example !== undefined) return { value: String(example), fromSeed: false };
  const schema = parameter.schema ?? {};
  if (schema.format === 'uuid') return { value: '00000000-0000-4000-8000-000000000000', fromSeed: false };
  if (schema.format === 'date') return { value: '2024-01-01', fromSeed: false };
  return { value: '1', fromSeed: false };
}

function firstExample(doc, media) {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first === undefined ? undefined : deref(doc, first)?.value;
}

/** The JSON media type a sample sends or asks for: the newest version (keys list newest first). */
function jsonMediaType(content) {
  const keys = Object.keys(content ?? {});
  return keys.find((key) => /^application\/json\b/.test(key)) ?? null;
}

const shellQuote = (text) => `'${String(text).replaceAll("'", "'\\''")}'`;

/** A value as TypeScript source: single-quoted strings, bare keys where they are names. */
export function tsLiteral(value, indent = '') {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' ? `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'` : JSON.stringify(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${tsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : tsLiteral(name));
  return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${tsLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

/**
 * The TypeScript sample: the client's call by activity name, `(params, body)`. An operation
 * whose description shows no body has a typed call that takes none, so the body the sandbox
 * reads is sent with fetch instead.
 */
function typescriptSample({ api, operation, method, template, url, pathParams, body, contentType, undeclared }) {
  const factory = CLIENT_FACTORIES[api];
  const id = operation.operationId;
  const params = Object.entries(pathParams);
  if (undeclared) {
    return [
      `// ${id}: the description shows no body, so the client's ${api}.${id}() sends none; the sandbox takes ${undeclared.like}'s body.`,
      `const response = await fetch('${url}', {`,
      `  method: '${method.toUpperCase()}',`,
      `  headers: { Authorization: 'Bearer ${SAMPLE_TOKEN}', 'Content-Type': '${contentType}' },`,
      `  body: JSON.stringify(${tsLiteral(body, '  ')}),`,
      '});',
      'console.log(response.status);',
    ].join('\n');
  }
  const args = [];
  if (params.length || body !== undefined) args.push(params.length ? `{ ${params.map(([name, value]) => `${name}: ${tsLiteral(value)}`).join(', ')} }` : '{}');
  if (body !== undefined) args.push(tsLiteral(body));
  return [
    `import { ${factory}, unwrap } from '@payroll-api/client';`,
    '',
    `const ${api} = ${factory}({ baseUrl: '${SANDBOX_ORIGIN}${API_BASES[api]}', auth: '${SAMPLE_TOKEN}' });`,
    '',
    `// ${method.toUpperCase()} ${api === 'payroll' ? '{base_url}' : ''}${template}: unwrap() gives the response body, or throws the ApiError of a non-2xx answer.`,
    `const result = unwrap(await ${api}.${id}(${args.join(', ')}));`,
    'console.log(result);',
  ].join('\n');
}

/** The request, curl and TypeScript of every operation of one API. */
export function operationSamples(api, doc, seed = readSeed()) {
  const samples = [];
  const operations = [...operationsOf(doc)];
  const requestOf = (operation) => {
    const requestBody = deref(doc, operation.requestBody);
    const contentType = jsonMediaType(requestBody?.content);
    return { contentType, body: contentType ? firstExample(doc, requestBody.content[contentType]) : undefined };
  };
  for (const { path: template, method, pathItem, operation } of operations) {
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(doc, p));
    let { contentType, body } = requestOf(operation);
    const chosen = SAMPLE_ENTITIES[operation.operationId] ?? {};
    const pathParams = {};
    let allFromSeed = true;
    const inPathOrder = [...template.matchAll(/\{(\w+)\}/g)].map((match) => parameters.find((p) => p.in === 'path' && p.name === match[1])).filter(Boolean);
    for (const parameter of inPathOrder) {
      if (chosen[parameter.name]) {
        const value = chosen[parameter.name](seed, pathParams, body);
        if (!value) throw new Error(`samples: the sandbox's seed has no entity for ${operation.operationId}'s ${parameter.name} (see SAMPLE_ENTITIES in src/samples.mjs)`);
        pathParams[parameter.name] = value;
        continue;
      }
      const { value, fromSeed } = pathValue(parameter, template, seed);
      pathParams[parameter.name] = value;
      allFromSeed &&= fromSeed;
    }
    let undeclared = null;
    if (UNDECLARED_BODIES[operation.operationId] && body === undefined) {
      undeclared = UNDECLARED_BODIES[operation.operationId];
      const like = operations.find((o) => o.operation.operationId === undeclared.like);
      const [collection, parameter] = undeclared.entity;
      const entity = byId(seed, collection, pathParams[parameter]);
      if (!like || !entity) throw new Error(`samples: ${operation.operationId} takes ${undeclared.like}'s body, from the seed's ${collection}: one of them is missing`);
      contentType = requestOf(like.operation).contentType;
      body = toBody(undeclared.like, entity);
    }
    const filled = template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(pathParams[name] ?? name));
    const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2/.test(status));
    const successResponse = deref(doc, success?.[1]);
    const accept = jsonMediaType(successResponse?.content) ?? (api === 'journal' ? 'application/json' : null);
    const url = `${SANDBOX_ORIGIN}${API_BASES[api]}${filled}`;

    const curl = [`curl -X ${method.toUpperCase()} ${shellQuote(url)}`, `-H ${shellQuote(`Authorization: Bearer ${SAMPLE_TOKEN}`)}`];
    if (accept) curl.push(`-H ${shellQuote(`Accept: ${accept}`)}`);
    if (contentType) curl.push(`-H ${shellQuote(`Content-Type: ${contentType}`)}`);
    if (body !== undefined) curl.push(`--data ${shellQuote(JSON.stringify(body))}`);

    const typescript = typescriptSample({ api, operation, method, template, url, pathParams, body, contentType, undeclared });

    samples.push({
      api,
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path: template,
      pathParams,
      allFromSeed,
      url,
      accept,
      contentType,
      body,
      successStatus: success ? success[0] : null,
      statuses: Object.keys(operation.responses ?? {}),
      curl: curl.join(' \\\n  '),
      typescript,
    });
  }
  return samples;
}
