// One conformance run against a live server: learn ids from what can be read, then call every
// operation at every served resource version, check negotiation, send requests that each carry
// one violation, call without a token and with unknown ids, and (with --allow-writes) write
// and run the stateful sequences. Every response goes through the same checks.
import { checkExchange, messagesOf, namesField, type CheckContext, type Expectation } from './checks.js';
import { loadDescriptions, servedVersions, type ApiDescription, type ApiName, type OperationSpec } from './description.js';
import type { CaseKind, CaseResult, Finding, RunSummary } from './findings.js';
import { failed } from './findings.js';
import { BudgetExhausted, curlOf, Requester, type Exchange } from './http.js';
import { deref } from '@payroll-api/openapi-bundle';
import { merged, sample } from './arbitraries.js';
import { IdPool } from './plan/ids.js';
import { acceptFor, bodyContent, bodyExample, buildRequest, type RequestParts, type Target } from './plan/requests.js';
import { runSequences } from './sequences.js';
import { SchemaValidator } from './schemas.js';
import { strictnessFor } from './strictness.js';

export interface ConformanceOptions {
  /** The payroll API's base_url: the host followed by /v2 (the description's paths, which begin with /v2 too, are appended). */
  payrollUrl?: string;
  /** The journal API's host (its paths begin with /journal). */
  journalUrl?: string;
  /** A bearer token, or a function returning one (e.g. an OAuth session of @payroll-api/client). */
  token?: string | (() => Promise<string>);
  /** Send writes (POST, PUT, PATCH, DELETE) and run the stateful sequences. Default false: GETs only. */
  allowWrites?: boolean;
  /** The server keeps state (the sandbox, a real API): unknown ids answer 404, lists honour paging, sequences run. Default true; false for the examples mock. */
  stateful?: boolean;
  /** At most this many requests. Default 5000. */
  maxRequests?: number;
  /** At most this many requests per second; 0 for no limit. Default 0. */
  rps?: number;
  /** Seed of the generated data: the same seed sends the same requests. Default 1. */
  seed?: number;
  /** Path parameter values to use (e.g. wageModelId, which no operation lists). */
  params?: Record<string, string>;
  /** Only these operations (activity names). */
  operations?: string[];
  /** Bundles to use instead of @payroll-api/spec's. */
  payrollSpec?: string;
  journalSpec?: string;
  timeoutMs?: number;
  /** The date versions are judged served on (yyyy-MM-dd). Default: today. */
  today?: string;
  /**
   * Report every property of an answer that the schema of the served version does not name
   * (`undeclared-property`). Default: on when the server is the reference sandbox (it answers
   * GET /__sandbox/sandboxes), off for other servers, which may answer more than the contract shows.
   */
  strictProperties?: boolean;
  /** Called after every case. */
  onCase?: (result: CaseResult, done: number) => void;
  fetch?: typeof fetch;
}

interface Work {
  operation: OperationSpec;
  target: Target;
}

const WRITE_ORDER: Record<string, number> = { put: 0, patch: 1, post: 2, delete: 3 };
const INVALID_UUID = 'not-a-uuid';

export async function runConformance(options: ConformanceOptions): Promise<RunSummary> {
  const startedAt = new Date().toISOString();
  const today = options.today ?? startedAt.slice(0, 10);
  const seed = options.seed ?? 1;
  const stateful = options.stateful ?? true;
  const allowWrites = options.allowWrites ?? false;
  const descriptions = loadDescriptions({ payroll: options.payrollSpec, journal: options.journalSpec });
  const urls: Partial<Record<ApiName, string>> = { payroll: options.payrollUrl, journal: options.journalUrl };
  const targets = descriptions.filter((d) => urls[d.name]).map((api) => ({ api, url: urls[api.name] as string }));
  if (targets.length === 0) throw new Error('give --payroll-url or --journal-url (or both)');
  const validator = new SchemaValidator(descriptions);
  const requester = new Requester({
    origins: targets.map((t) => t.url),
    maxRequests: options.maxRequests ?? 5000,
    rps: options.rps ?? 0,
    timeoutMs: options.timeoutMs ?? 15_000,
    fetch: options.fetch,
  });
  const tokenOf = async (): Promise<string | undefined> => (typeof options.token === 'function' ? options.token() : options.token);
  const names = new Set(descriptions.flatMap((d) => d.operations.flatMap((o) => o.parameters.filter((p) => p.in === 'path').map((p) => p.name))));
  const pool = new IdPool(names, options.params);
  const only = options.operations ? new Set(options.operations) : undefined;
  const work: Work[] = targets.flatMap((target) => target.api.operations.filter((o) => !only || only.has(o.operationId)).map((operation) => ({ operation, target })));

  const cases: CaseResult[] = [];
  let stoppedEarly: string | undefined;
  const record = (result: CaseResult) => {
    cases.push(result);
    options.onCase?.(result, cases.length);
  };
  const strictness = await strictnessFor(options.strictProperties, (targets[0] as { url: string }).url, async (url) => {
    const token = await tokenOf();
    const answer = await requester.send({ method: 'GET', url, headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
    return { status: answer.response?.status, json: answer.response?.json };
  });
  const contextOf = (api: ApiDescription): CheckContext => ({ api, validator, strictProperties: strictness.strict });

  /** Sends one request and checks its answer; `assert` adds case-specific findings. */
  async function exchange(item: Work, parts: RequestParts, expect: Expectation): Promise<{ exchange: Exchange; findings: Finding[] }> {
    const token = parts.anonymous ? undefined : await tokenOf();
    const request = buildRequest(item.target, item.operation, { ...parts, token });
    const result = await requester.send(request);
    return { exchange: result, findings: checkExchange(contextOf(item.target.api), item.operation, result, expect) };
  }

  async function runCase(item: Work, version: string | null, kind: CaseKind, title: string, body: (add: (f: Finding[]) => void) => Promise<string | void>): Promise<void> {
    const started = performance.now();
    const before = requester.count;
    const findings: Finding[] = [];
    let note: string | undefined;
    try {
      note = (await body((f) => findings.push(...f))) ?? undefined;
    } catch (error) {
      if (error instanceof BudgetExhausted) throw error;
      findings.push({ check: 'transport', message: (error as Error).message });
    }
    record({ api: item.target.api.name, operationId: item.operation.operationId, version, kind, title, findings, note, requests: requester.count - before, ms: performance.now() - started });
  }

  const skip = (item: Work, version: string | null, kind: CaseKind, title: string, reason: string) =>
    record({ api: item.target.api.name, operationId: item.operation.operationId, version, kind, title, findings: [], skipped: reason, requests: 0, ms: 0 });

  const versionsOf = (operation: OperationSpec): Array<{ version: string | null; obsoleteDate: string | null }> =>
    operation.resource ? servedVersions(operation, today) : [{ version: null, obsoleteDate: null }];

  /** Path parameter values for an operation, or the name of the first one without a value. */
  function paramsFor(operation: OperationSpec): { params: Record<string, string> } | { missing: string } {
    const params: Record<string, string> = {};
    for (const p of operation.parameters.filter((x) => x.in === 'path')) {
      const value = pool.value(p.name, operation.path, p.example);
      if (value === undefined) return { missing: p.name };
      params[p.name] = value;
    }
    return { params };
  }

  const reads = work.filter((w) => w.operation.method === 'get');
  /** GETs that answered 2xx, with the path parameters they answered for. */
  const answered = new Map<string, Record<string, string>>();
  const writes = work.filter((w) => w.operation.method !== 'get').sort((a, b) => (WRITE_ORDER[a.operation.method] ?? 9) - (WRITE_ORDER[b.operation.method] ?? 9));

  try {
    // 1. Every GET at every served version, in the order ids become known.
    let pending = [...reads];
    for (let progress = true; progress && pending.length > 0; ) {
      progress = false;
      const next: Work[] = [];
      for (const item of pending) {
        const resolved = paramsFor(item.operation);
        if ('missing' in resolved) {
          next.push(item);
          continue;
        }
        progress = true;
        for (const { version, obsoleteDate } of versionsOf(item.operation)) {
          await runCase(item, version, 'valid', 'a valid request', async (add) => {
            const { exchange: ex, findings } = await exchange(item, { params: resolved.params, version }, { version, obsoleteDate });
            add(findings);
            pool.learn(item.operation, ex.response?.json);
            if (ex.response && ex.response.status < 300) answered.set(item.operation.operationId, resolved.params);
            // A described refusal (a logo that is not there, a rule) is the server's to give; the
            // sequences and the negotiation cases are where a 200 is required.
            const status = ex.response?.status ?? 0;
            if (status >= 400 && status < 500) return `answered ${status}: ${messagesOf(ex.response?.json)}`;
          });
          if (item.operation.isList) {
            const [paging] = sample(undefined, { type: 'object', required: ['pageNumber', 'pageSize'], properties: { pageNumber: { type: 'integer', minimum: 1, maximum: 3 }, pageSize: { type: 'integer', minimum: 1, maximum: 5 } } }, seed + cases.length, 1, { writing: false }) as Array<{ pageNumber: number; pageSize: number }>;
            if (paging) {
              await runCase(item, version, 'generated', `page ${paging.pageNumber} of size ${paging.pageSize}`, async (add) => {
                const query = { pageNumber: String(paging.pageNumber), pageSize: String(paging.pageSize) };
                add((await exchange(item, { params: resolved.params, query, version }, { version, obsoleteDate, statuses: [200], paging: stateful ? paging : undefined })).findings);
              });
            }
          }
          await exportCase(item, resolved.params, version, obsoleteDate);
        }
      }
      pending = next;
    }
    for (const item of pending) {
      const resolved = paramsFor(item.operation) as { missing: string };
      for (const { version } of versionsOf(item.operation)) skip(item, version, 'valid', 'a valid request', `no value is known for the path parameter ${resolved.missing} (give it with --param ${resolved.missing}=<uuid>)`);
    }

    // 2. Negotiation, once per resource, on its first GET that answered 2xx.
    const negotiated = new Set<string>();
    for (const item of reads) {
      const resource = item.operation.resource;
      const params = answered.get(item.operation.operationId);
      if (!resource || negotiated.has(resource.name) || !params) continue;
      negotiated.add(resource.name);
      await negotiationCases(item, params);
    }

    // 3. Requests with one violation each, without a token, and with unknown ids.
    for (const item of reads) {
      const resolved = paramsFor(item.operation);
      if ('missing' in resolved) continue;
      await invalidCases(item, resolved.params);
      await unauthorizedCase(item, resolved.params);
      if (stateful) await notFoundCase(item, resolved.params);
    }

    // 4. Writes, then the stateful sequences; deletes of learned ids last.
    if (!allowWrites) {
      for (const item of writes) for (const { version } of versionsOf(item.operation)) skip(item, version, 'valid', 'a valid request', 'writes are not sent without --allow-writes');
    } else {
      for (const item of writes.filter((w) => w.operation.method !== 'delete')) await writeCases(item);
      if (stateful) {
        await runSequences({
          targets,
          pool,
          seed,
          exchange: async (operationId, parts, expect) => {
            const item = work.find((w) => w.operation.operationId === operationId);
            if (!item) return undefined;
            return exchange(item, parts, expect);
          },
          record: (operationId, version, title, findings, requests, ms, skipped) => {
            const item = work.find((w) => w.operation.operationId === operationId);
            if (item) record({ api: item.target.api.name, operationId, version, kind: 'sequence', title, findings, requests, ms, ...(skipped ? { skipped } : {}) });
          },
          requestCount: () => requester.count,
          versionOf: (operationId) => {
            const item = work.find((w) => w.operation.operationId === operationId);
            return item ? (versionsOf(item.operation)[0]?.version ?? null) : null;
          },
        });
      }
      for (const item of writes.filter((w) => w.operation.method === 'delete')) await writeCases(item);
    }
  } catch (error) {
    if (!(error instanceof BudgetExhausted)) throw error;
    stoppedEarly = error.message;
  }

  async function exportCase(item: Work, params: Record<string, string>, version: string | null, obsoleteDate: string | null): Promise<void> {
    const success = item.operation.responses.find((r) => /^2/.test(r.status));
    const csv = success?.contents.find((c) => c.essence === 'text/csv' && (c.version === version || c.version === null));
    if (!csv) return;
    const reportInput = item.operation.parameters.find((p) => p.name.toLowerCase() === 'x-reportinput');
    await runCase(item, version, 'export', 'a csv export', async (add) => {
      const headers: Record<string, string> = {};
      if (reportInput?.example !== undefined) headers['X-ReportInput'] = JSON.stringify(reportInput.example);
      const { exchange: ex, findings } = await exchange(item, { params, version, accept: csv.mediaType, headers }, { version, obsoleteDate, statuses: [200] });
      add(findings);
      if (ex.response?.status === 200 && !ex.response.headers['content-disposition']) {
        add([{ check: 'export', message: 'a download carries no Content-Disposition header with a file name', curl: curlOf(ex.request), status: 200 }]);
      }
    });
  }

  async function negotiationCases(item: Work, params: Record<string, string>): Promise<void> {
    const versions = versionsOf(item.operation);
    const all = item.operation.resource?.versions ?? [];
    const newest = versions[0];
    if (!newest?.version) return;
    const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    for (const [index, served] of versions.entries()) {
      const version = served.version as string;
      const newer = versions[index - 1]?.version;
      const between = newer ? (dayAfter(version, 1) < newer ? dayAfter(version, 1) : version) : dayAfter(version, 30);
      await runCase(item, version, 'negotiation', `version=${between} gets ${version}, the newest on or before it`, async (add) => {
        add((await exchange(item, { params, version: between }, { version, obsoleteDate: served.obsoleteDate, statuses: [200] })).findings);
      });
    }
    const oldest = all[all.length - 1]?.version ?? newest.version;
    const before = dayAfter(oldest, -1);
    await runCase(item, oldest, 'negotiation', `version=${before}, before every version, gets a 400 naming Accept`, async (add) => {
      const { exchange: ex, findings } = await exchange(item, { params, version: before }, { version: newest.version, statuses: [400] });
      add(findings);
      if (ex.response?.status === 400 && !namesField(ex.response.json, 'Accept')) add([{ check: 'negotiation', message: 'the 400 does not name Accept', curl: curlOf(ex.request), status: 400 }]);
    });
    await runCase(item, newest.version, 'negotiation', 'no version gets the newest', async (add) => {
      add((await exchange(item, { params, version: null, accept: acceptFor(item.operation, null) }, { version: newest.version, obsoleteDate: newest.obsoleteDate, statuses: [200] })).findings);
    });
  }

  /** A request that must be refused with a 400 envelope naming `field`. */
  async function expectRefusal(item: Work, version: string | null, title: string, field: string, parts: RequestParts): Promise<void> {
    await runCase(item, version, 'invalid', title, async (add) => {
      const { exchange: ex, findings } = await exchange(item, parts, { version, statuses: [400] });
      add(findings);
      if (ex.response?.status === 400 && !namesField(ex.response.json, field)) {
        add([{ check: 'invalid-request', message: `the 400 does not name ${field}`, curl: curlOf(ex.request), status: 400 }]);
      }
    });
  }

  async function invalidCases(item: Work, params: Record<string, string>): Promise<void> {
    const version = versionsOf(item.operation)[0]?.version ?? null;
    const uuidParam = item.operation.parameters.find((p) => p.in === 'path' && p.schema.format === 'uuid');
    if (uuidParam) await expectRefusal(item, version, `a malformed uuid in ${uuidParam.name}`, uuidParam.name, { params: { ...params, [uuidParam.name]: INVALID_UUID }, version });
    if (item.operation.resource) await expectRefusal(item, version, 'a version in Accept that is not a date', 'Accept', { params, version, accept: 'application/json;version=2018-13-45' });
    const pageSize = item.operation.parameters.find((p) => p.in === 'query' && p.name === 'pageSize');
    if (pageSize) await expectRefusal(item, version, 'pageSize of the wrong type', 'pageSize', { params, version, query: { pageSize: 'many' } });
  }

  async function unauthorizedCase(item: Work, params: Record<string, string>): Promise<void> {
    if (!item.operation.secured) return;
    const version = versionsOf(item.operation)[0]?.version ?? null;
    await runCase(item, version, 'unauthorized', 'no token gets a 401 {message}', async (add) => {
      add((await exchange(item, { params, version, anonymous: true }, { version, statuses: [401] })).findings);
    });
  }

  async function notFoundCase(item: Work, params: Record<string, string>): Promise<void> {
    const entity = item.operation.parameters.find((p) => p.in === 'path' && p.schema.format === 'uuid' && p.name !== 'version');
    if (!entity) return;
    const version = versionsOf(item.operation)[0]?.version ?? null;
    await runCase(item, version, 'not-found', `an unknown ${entity.name} gets a 404 with no body`, async (add) => {
      add((await exchange(item, { params: { ...params, [entity.name]: unknownId(seed, item.operation.operationId) }, version }, { version, statuses: [404] })).findings);
    });
  }

  async function writeCases(item: Work): Promise<void> {
    const resolved = paramsFor(item.operation);
    for (const { version, obsoleteDate } of versionsOf(item.operation)) {
      if ('missing' in resolved) {
        skip(item, version, 'valid', 'a valid request', `no value is known for the path parameter ${resolved.missing} (give it with --param ${resolved.missing}=<uuid>)`);
        continue;
      }
      const content = bodyContent(item.operation, version);
      const example = bodyExample(item.operation, version);
      const body = example ?? (content?.schema ? sample(item.target.api.doc, content.schema, seed, 1, { writing: true })[0] : undefined);
      await runCase(item, version, 'valid', example !== undefined ? 'the description\'s example request' : 'a generated request', async (add) => {
        const { exchange: ex, findings } = await exchange(item, { params: resolved.params, version, body: item.operation.body ? (body ?? {}) : undefined }, { version, obsoleteDate });
        add(findings);
        if (item.operation.method === 'delete' && ex.response?.status === 200) for (const value of Object.values(resolved.params)) pool.forget(value);
        const status = ex.response?.status ?? 0;
        if (status >= 400 && status < 500) return `answered ${status}: ${messagesOf(ex.response?.json)}`;
        pool.learn(item.operation, ex.response?.json);
      });
      if (content?.schema && item.operation.method !== 'delete') {
        await bodyViolations(item, resolved.params, version, content.schema as Record<string, unknown>, body);
        const [generated] = sample(item.target.api.doc, content.schema, seed + 7, 1, { writing: true });
        await runCase(item, version, 'generated', 'a request generated from the schema', async (add) => {
          const { exchange: ex, findings } = await exchange(item, { params: resolved.params, version, body: generated ?? {} }, { version, obsoleteDate });
          add(findings);
          const status = ex.response?.status ?? 0;
          if (status >= 400 && status < 500) return `answered ${status}: ${messagesOf(ex.response?.json)}`;
        });
      }
    }
  }

  /** One request per kind of violation the body schema allows: missing required, wrong type, too long. */
  async function bodyViolations(item: Work, params: Record<string, string>, version: string | null, schema: Record<string, unknown>, valid: unknown): Promise<void> {
    if (!valid || typeof valid !== 'object' || Array.isArray(valid)) return;
    const doc = item.target.api.doc;
    // The top-level fields of the body, through $refs and allOf.
    const body = merged(doc, deref<Record<string, unknown>>(doc, schema) ?? {});
    const properties = (body.properties ?? {}) as Record<string, unknown>;
    const required = (body.required ?? []) as string[];
    const base = valid as Record<string, unknown>;
    const requiredField = required.find((name) => name in base);
    if (requiredField) {
      const body = { ...base };
      delete body[requiredField];
      await expectRefusal(item, version, `the required field ${requiredField} left out`, requiredField, { params, version, body });
    }
    for (const [name, raw] of Object.entries(properties)) {
      const field = deref<Record<string, unknown>>(doc, raw) ?? {};
      if (field.readOnly === true) continue;
      const kinds = Array.isArray(field.type) ? field.type : [field.type];
      if (kinds.includes('integer') || kinds.includes('number')) {
        await expectRefusal(item, version, `${name} of the wrong type`, name, { params, version, body: { ...base, [name]: 'not a number' } });
        break;
      }
    }
    for (const [name, raw] of Object.entries(properties)) {
      const field = deref<Record<string, unknown>>(doc, raw) ?? {};
      if (field.readOnly === true || typeof field.maxLength !== 'number') continue;
      await expectRefusal(item, version, `${name} longer than ${field.maxLength} characters`, name, { params, version, body: { ...base, [name]: 'x'.repeat(field.maxLength + 1) } });
      break;
    }
  }

  // Coverage: an operation × version is covered when a case exercised it (not skipped).
  const pairs = targets.flatMap((t) => t.api.operations.filter((o) => !only || only.has(o.operationId)).flatMap((o) => versionsOf(o).map((v) => ({ api: t.api.name, operationId: o.operationId, version: v.version }))));
  const key = (p: { api: string; operationId: string; version: string | null }) => `${p.api} ${p.operationId} ${p.version}`;
  const exercised = new Set(cases.filter((c) => !c.skipped && c.kind !== 'unauthorized' && c.kind !== 'invalid' && c.kind !== 'not-found').map(key));
  const reasons = new Map(cases.filter((c) => c.skipped).map((c) => [key(c), c.skipped as string]));
  const uncovered = pairs.filter((p) => !exercised.has(key(p))).map((p) => ({ ...p, reason: reasons.get(key(p)) ?? (stoppedEarly ? 'not reached before the run stopped' : 'not exercised') }));
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    target: { payrollUrl: options.payrollUrl, journalUrl: options.journalUrl },
    seed,
    readOnly: !allowWrites,
    strictProperties: strictness,
    requests: requester.count,
    cases,
    coverage: { covered: pairs.length - uncovered.length, total: pairs.length, uncovered },
    failures: cases.filter(failed).length,
    stoppedEarly,
  };
}

/** A uuid no server has: derived from the seed and the operation, so runs repeat. */
function unknownId(seed: number, salt: string): string {
  let h = seed >>> 0;
  const hex: string[] = [];
  for (let i = 0; i < 32; i++) {
    h = Math.imul(h ^ salt.charCodeAt(i % salt.length), 2654435761) >>> 0;
    hex.push(((h >>> 28) & 15).toString(16));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

