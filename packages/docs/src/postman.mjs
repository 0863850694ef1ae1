// Postman collections and environments, for integrators who try an API in Postman (or
// Insomnia, or Bruno, which import them) before writing code. The collection is converted from
// the bundle by openapi-to-postmanv2 (folders by tag, one request per operation); then each
// request gets what the docs' samples already know to make it succeed on the sandbox's seed
// (src/samples.mjs): the operation's versioned Accept and Content-Type, path ids from the seed
// as environment variables, the request example as body; and a test of its answer: 2xx, and
// the body valid against the operation's response schema.
import { createRequire } from 'node:module';
import { deref, operationsOf } from '@payroll-api/openapi-bundle';
import { API_BASES, SAMPLE_TOKEN, SANDBOX_ORIGIN } from './samples.mjs';

const require = createRequire(import.meta.url);

export const POSTMAN_COLLECTIONS = { payroll: 'payroll.postman_collection.json', journal: 'journal.postman_collection.json' };
/**
 * A hosted sandbox (its address and the client id and secret its operator gives), a local
 * sandbox, and the real environments the descriptions' servers name (x-environment).
 */
export const POSTMAN_ENVIRONMENTS = ['hosted', 'sandbox', 'acceptance', 'production'];
/** The username the hosted environment logs in as: a sandbox of its own, apart from the integrator's. */
export const HOSTED_RUN_USERNAME = 'postman-run';
/** Environment variables that are secrets (Postman masks them). */
const SECRET_VARIABLES = new Set(['token', 'clientSecret', 'password']);
export const postmanEnvironmentFile = (id) => `${id}.postman_environment.json`;

/** Environment variable names of the two APIs' base URLs (the collection's request hosts). */
const BASE_URL_VARIABLES = { payroll: 'payrollBaseUrl', journal: 'journalBaseUrl' };

/**
 * Runs before every request. With a client (`clientId`, as the hosted environment has), it asks
 * the token endpoint for a token with the client's credentials and the environment's username
 * and password, and keeps it until shortly before its `expires_in`: a hosted sandbox accepts
 * only tokens it issued. Without one, `sandboxTokenPrefix` (empty by default) gives every
 * request a fresh token of a local sandbox, that is a fresh sandbox; else `{{token}}` is sent.
 */
const PRE_REQUEST = [
  "const clientId = pm.environment.get('clientId');",
  'if (clientId) {',
  "  const expiresAt = Number(pm.environment.get('tokenExpiresAt') || 0);",
  "  if (!pm.environment.get('token') || Date.now() > expiresAt - 30000) {",
  "    const url = pm.variables.replaceIn('{{authUrl}}/token');",
  '    const form = {',
  "      grant_type: 'password',",
  "      username: pm.variables.replaceIn('{{username}}'),",
  "      password: pm.variables.replaceIn('{{password}}'),",
  '      client_Id: clientId,',
  "      client_secret: pm.variables.replaceIn('{{clientSecret}}'),",
  '    };',
  "    pm.sendRequest({ url, method: 'POST', header: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: { mode: 'urlencoded', urlencoded: Object.entries(form).map(([key, value]) => ({ key, value })) } }, function (error, response) {",
  "      pm.test('a token from ' + url + ' for ' + form.username, function () {",
  '        pm.expect(error, String(error)).to.equal(null);',
  "        pm.expect(response.code, response.text()).to.equal(200);",
  '      });',
  '      if (error || response.code !== 200) return;',
  '      const token = response.json();',
  "      pm.environment.set('token', token.access_token);",
  "      pm.environment.set('tokenExpiresAt', String(Date.now() + token.expires_in * 1000));",
  '    });',
  '  }',
  '} else {',
  "  const prefix = pm.environment.get('sandboxTokenPrefix');",
  "  if (prefix) pm.variables.set('token', prefix + '-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2));",
  '}',
];

/** The requests of a folder in the order a run needs in one sandbox: reads first, deletes last. */
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The last request of a run against a sandbox: back to the seed, so a run leaves the sandbox as a fresh one is. Skipped where there is no sandbox (`sandboxUrl` unset). */
export const RESET_FOLDER = 'Sandbox: reset at the end';
export const RESET_REQUEST = 'ResetSandbox';
function resetFolder() {
  return {
    name: RESET_FOLDER,
    description: 'Sandbox only: POST /__sandbox/reset brings the sandbox of the username the run logged in as back to the seed, so that a run leaves it as a fresh sandbox is. Skipped when the environment has no sandboxUrl (acceptance, production).',
    item: [
      {
        name: RESET_REQUEST,
        request: { method: 'POST', url: { raw: '{{sandboxUrl}}/__sandbox/reset', host: ['{{sandboxUrl}}'], path: ['__sandbox', 'reset'] }, header: [] },
        response: [],
        event: [
          { listen: 'prerequest', script: { type: 'text/javascript', exec: ["if (!pm.environment.get('sandboxUrl')) pm.execution.skipRequest();"] } },
          { listen: 'test', script: { type: 'text/javascript', exec: ["pm.test('ResetSandbox answers 200', function () {", '  pm.expect(pm.response.code).to.equal(200);', '});'] } },
        ],
      },
    ],
  };
}

// The formats the Postman sandbox's JSON Schema validator (Ajv 6) knows; others (int32, …) are
// annotations in OpenAPI and would stop it.
const AJV6_FORMATS = new Set(['date', 'date-time', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid', 'regex']);
// Keywords that only annotate, or that Ajv 6 (draft-07) does not read.
const ANNOTATIONS = new Set(['example', 'examples', 'discriminator', 'xml', 'externalDocs', 'deprecated', 'contentMediaType', 'contentEncoding', '$schema', '$id', '$comment']);

/**
 * The response schema of an operation as one self-contained draft-07 schema: the component
 * schemas it reaches under `definitions`, every other reference inlined.
 */
export function draft07Schema(doc, schema) {
  const definitions = {};
  const convert = (node) => {
    if (Array.isArray(node)) return node.map(convert);
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const component = /^#\/components\/schemas\/([^/]+)$/.exec(node.$ref);
      if (!component) return convert(deref(doc, node));
      const name = component[1];
      if (!(name in definitions)) {
        definitions[name] = true; // placeholder: a schema that refers to itself stops here
        definitions[name] = convert(deref(doc, node));
      }
      return { $ref: `#/definitions/${name}` };
    }
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
      if (key === 'format' && !AJV6_FORMATS.has(value)) continue;
      if (key === 'properties' || key === '$defs' || key === 'patternProperties') out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, convert(item)]));
      else out[key] = convert(value);
    }
    return out;
  };
  const root = convert(schema);
  return Object.keys(definitions).length ? { ...root, definitions } : root;
}

/** A request's path variable: the seed's value, named after its parameter (or its operation when it differs). */
function pathVariables(samples) {
  const counts = new Map();
  for (const sample of samples) {
    for (const [name, value] of Object.entries(sample.pathParams)) {
      const key = `${name}\u0000${value}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  // The value most operations use for a parameter name is `{{name}}`; an operation that needs
  // another entity (an ended employment to reinstate) gets `{{OperationId.name}}`.
  const common = new Map();
  for (const [key, count] of counts) {
    const [name, value] = key.split('\u0000');
    if (!common.has(name) || count > counts.get(`${name}\u0000${common.get(name)}`)) common.set(name, value);
  }
  const variables = new Map();
  const nameFor = (sample, name, own = false) => {
    const value = sample.pathParams[name];
    const variable = common.get(name) === value && !own ? name : `${sample.operationId}.${name}`;
    variables.set(variable, value);
    return variable;
  };
  return { nameFor, variables };
}

function operationIndex(doc) {
  const index = new Map();
  for (const entry of operationsOf(doc)) index.set(`${entry.method.toUpperCase()} ${entry.path}`, entry);
  return index;
}

/** The test script of one request: 2xx, then the body against the response schema of its Accept. */
function testScript(doc, sample, operation) {
  const lines = [`pm.test('${sample.operationId} answers 2xx', function () {`, '  pm.expect(pm.response.code).to.be.within(200, 299);', '});'];
  const response = deref(doc, operation.responses?.[sample.successStatus]);
  const schema = sample.accept ? response?.content?.[sample.accept]?.schema : undefined;
  if (schema && sample.successStatus !== '204') {
    lines.push(
      `const schema = ${JSON.stringify(draft07Schema(doc, schema))};`,
      `pm.test('${sample.operationId} answers its ${sample.successStatus} schema', function () {`,
      '  pm.response.to.have.jsonSchema(schema);',
      '});',
    );
  }
  return lines;
}

/**
 * The deletes that delete what a create of their folder made in the run: a DELETE of the
 * entity its path ends with, when exactly one POST of the folder creates such an entity (the
 * POST's path does not name it). Its variable is its own, the seed's id by default (so that it runs alone
 * on a fresh sandbox), and the POST's test sets it to the created id during a run: the run
 * deletes what it created, not the seed's entity other requests read or refer to.
 * Returns Map<delete operationId, { parameter, create: post operationId }>.
 */
function createdDeletes(folders, sampleOf) {
  const chained = new Map();
  for (const folder of folders) {
    const samples = (folder.item ?? []).map(sampleOf).filter(Boolean);
    for (const remove of samples.filter((sample) => sample.method === 'DELETE')) {
      const parameter = Object.keys(remove.pathParams).at(-1);
      // Only a delete of the entity itself (…/costcenters/{costCenterId}), not of a part of another (…/{employerId}/logo).
      if (!parameter || !remove.path.endsWith(`/{${parameter}}`)) continue;
      const creates = samples.filter((sample) => sample.method === 'POST' && !(parameter in sample.pathParams));
      if (creates.length === 1) chained.set(remove.operationId, { parameter, create: creates[0].operationId });
    }
  }
  return chained;
}

/** Every request item of a collection, through its folders. */
function* requestItems(items) {
  for (const item of items) {
    if (item.request) yield item;
    if (Array.isArray(item.item)) yield* requestItems(item.item);
  }
}

function convert(doc) {
  const Converter = require('openapi-to-postmanv2');
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'json', data: doc },
      { folderStrategy: 'Tags', parametersResolution: 'Example', requestNameSource: 'Fallback', includeAuthInfoInExample: false },
      (error, result) => {
        if (error) return reject(error);
        if (!result.result) return reject(new Error(`openapi-to-postmanv2: ${result.reason}`));
        resolve(result.output[0].data);
      },
    );
  });
}

/**
 * The Postman collection (v2.1) of one API. `samples` are the docs' samples of its operations
 * (operationSamples): every request succeeds on a fresh sandbox. Returns { collection, variables }:
 * the path variables the requests use, with the seed's values, for the environments.
 */
export async function postmanCollection(api, doc, samples) {
  const collection = await convert(doc);
  const operations = operationIndex(doc);
  const bySample = new Map(samples.map((sample) => [`${sample.method} ${sample.path}`, sample]));
  const { nameFor, variables } = pathVariables(samples);
  const seen = new Set();
  const keyOf = (request) => `${request.method} /${request.url.path.map((segment) => segment.replace(/^:(\w+)$/, '{$1}')).join('/')}`;
  const chained = createdDeletes(collection.item, (item) => item.request && bySample.get(keyOf(item.request)));
  const createdBy = new Map([...chained].map(([remove, { parameter, create }]) => [create, `${remove}.${parameter}`]));
  for (const item of requestItems(collection.item)) {
    const request = item.request;
    const key = keyOf(request);
    const sample = bySample.get(key);
    if (!sample) throw new Error(`postman: the converted request ${key} matches no operation of the ${api} description`);
    seen.add(key);
    item.name = sample.operationId;
    request.name = sample.operationId;
    request.url.host = [`{{${BASE_URL_VARIABLES[api]}}}`];
    request.url.variable = Object.keys(sample.pathParams).map((name) => ({
      key: name,
      value: `{{${nameFor(sample, name, chained.get(sample.operationId)?.parameter === name)}}}`,
      description: request.url.variable?.find((v) => v.key === name)?.description,
    }));
    // Optional query parameters are offered, switched off: the sample sends none.
    for (const query of request.url.query ?? []) query.disabled = true;
    // The operation's own versioned media types; other declared headers offered, switched off.
    const headers = (request.header ?? []).filter((h) => !/^(accept|content-type|authorization)$/i.test(h.key)).map((h) => ({ ...h, disabled: true }));
    if (sample.accept) headers.unshift({ key: 'Accept', value: sample.accept });
    if (sample.contentType) headers.push({ key: 'Content-Type', value: sample.contentType });
    request.header = headers;
    if (sample.body !== undefined) request.body = { mode: 'raw', raw: JSON.stringify(sample.body, null, 2), options: { raw: { language: 'json' } } };
    else delete request.body;
    delete request.auth; // the collection's bearer token
    // The converter's example responses repeat the description; the reference shows them.
    item.response = [];
    const remembers = createdBy.has(sample.operationId)
      ? ['// The delete of this folder deletes what this request created (during a run).', 'if (pm.response.code < 300) {', '  const created = pm.response.json();', `  pm.variables.set('${createdBy.get(sample.operationId)}', (created.content ?? created).id);`, '}']
      : [];
    item.event = [{ listen: 'test', script: { type: 'text/javascript', exec: [...testScript(doc, sample, operations.get(key).operation), ...remembers] } }];
  }
  const missing = samples.filter((sample) => !seen.has(`${sample.method} ${sample.path}`)).map((sample) => sample.operationId);
  if (missing.length) throw new Error(`postman: the converter made no request for ${missing.join(', ')}`);

  // One sandbox for the whole run: in each folder reads come first and deletes last, and the
  // folders that delete nothing come first, so that nothing is read or referred to after it
  // was deleted; the reset at the end undoes the run's writes.
  const rank = (item) => METHOD_ORDER.indexOf(item.request?.method);
  const deletes = (folder) => (folder.item ?? []).some((item) => item.request?.method === 'DELETE');
  for (const folder of collection.item) if (Array.isArray(folder.item)) folder.item.sort((a, b) => rank(a) - rank(b));
  collection.item.sort((a, b) => Number(deletes(a)) - Number(deletes(b)));
  collection.item.push(resetFolder());

  collection.info = {
    ...collection.info,
    name: doc.info.title,
    description: {
      content: `${doc.info.title} ${doc.info.version}. Generated from the OpenAPI description; choose an environment (hosted, sandbox, acceptance, production). Against a sandbox a run starts from a fresh sandbox and its last request (${RESET_REQUEST}) resets the sandbox of the username it logged in as to the seed, so it leaves that sandbox as it found it. The hosted environment logs in as its own username (postman-run), not yours.`,
      type: 'text/plain',
    },
  };
  collection.variable = [];
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] };
  collection.event = [{ listen: 'prerequest', script: { type: 'text/javascript', exec: PRE_REQUEST } }];
  return { collection, variables };
}

/** The environments of a hosted sandbox, a local one, and the servers the descriptions name (with placeholders). */
export function postmanEnvironments(docs, variables) {
  const environment = (id, name, values) => ({
    id,
    file: postmanEnvironmentFile(id),
    environment: {
      name,
      values: Object.entries(values).map(([key, value]) => ({ key, value, type: SECRET_VARIABLES.has(key) ? 'secret' : 'default', enabled: true })),
      _postman_variable_scope: 'environment',
    },
  });
  const ids = Object.fromEntries([...variables].sort(([a], [b]) => a.localeCompare(b)));
  const environments = [
    environment('hosted', 'Payroll API hosted sandbox', {
      sandboxUrl: '<hosted sandbox address>',
      [BASE_URL_VARIABLES.payroll]: `{{sandboxUrl}}${API_BASES.payroll}`,
      [BASE_URL_VARIABLES.journal]: `{{sandboxUrl}}${API_BASES.journal}`,
      authUrl: '{{sandboxUrl}}/auth',
      clientId: '<client id from the operator>',
      clientSecret: '<client secret from the operator>',
      username: HOSTED_RUN_USERNAME,
      password: HOSTED_RUN_USERNAME,
      token: '',
      tokenExpiresAt: '',
      ...ids,
    }),
    environment('sandbox', 'Payroll API sandbox', {
      sandboxUrl: SANDBOX_ORIGIN,
      [BASE_URL_VARIABLES.payroll]: `${SANDBOX_ORIGIN}${API_BASES.payroll}`,
      [BASE_URL_VARIABLES.journal]: `${SANDBOX_ORIGIN}${API_BASES.journal}`,
      token: SAMPLE_TOKEN,
      sandboxTokenPrefix: '',
      ...ids,
    }),
  ];
  for (const id of POSTMAN_ENVIRONMENTS.filter((name) => !['hosted', 'sandbox'].includes(name))) {
    // The hosts are not in the contract: the server URLs' variables become placeholders.
    const url = (api) => {
      const server = (docs[api].servers ?? []).find((s) => s['x-environment'] === id);
      if (!server) throw new Error(`postman: the ${api} description has no server with x-environment ${id}`);
      return server.url.replace(/\{(\w+)\}/g, (_, name) => `<${id} ${name}>`);
    };
    environments.push(
      environment(id, `Payroll API ${id}`, {
        [BASE_URL_VARIABLES.payroll]: url('payroll'),
        [BASE_URL_VARIABLES.journal]: url('journal'),
        token: `<${id} access token>`,
        ...Object.fromEntries(Object.keys(ids).map((key) => [key, `<${key}>`])),
      }),
    );
  }
  return environments;
}
