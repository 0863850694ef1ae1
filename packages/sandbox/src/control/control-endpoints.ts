// The sandbox's control endpoints, outside the descriptions' paths (documented in the mock's
// README, not in the API descriptions). The caller's sandbox is the one its bearer token
// reaches, as for API calls.
//
//   POST   /__sandbox/reset            back to the seed (the clock, the settings, the fault rules and one-off answers too)
//   GET    /__sandbox/snapshot         the sandbox's state (JSON)
//   PUT    /__sandbox/snapshot         import a snapshot (checked first; 400 changes nothing): ?mode=replace
//                                       (default) makes the state the snapshot; ?mode=merge merges its docs
//                                       into the state by id (replaced or added; the rest stays)
//   POST   /__sandbox/scenario         the seed or empty plus partial entities made whole (control/scenario.ts);
//                                       ?mode=merge: the entities merged into the current state instead
//   GET    /__sandbox/sandboxes        the sandboxes that have written (hosted: the caller's client's only)
//   GET    /__sandbox/clock            the sandbox clock
//   PUT    /__sandbox/clock            {"now": "2030-01-01T00:00:00Z"} sets it; {"now": null} back to real time
//   POST   /__sandbox/clock/advance    {"days": 1, "hours": 0, "minutes": 0, "seconds": 0} moves it on
//   GET    /__sandbox/settings         the sandbox's settings
//   PUT    /__sandbox/settings         {"unknownFields": "ignore" | "warn" | "reject"} changes the given ones
//   GET    /__sandbox/seeded-ids       the seeded providers, employers, payroll administrations, wage models
//                                       and their journal profiles the sandbox still holds (seed/seeded-ids.ts)
import { tooLargeText, type SandboxRequest } from '../http/request.js';
import { parseJsonBody } from '../http/json-body.js';
import { message } from '../http/errors.js';
import { bearerToken, unauthorized } from '../http/authenticate.js';
import { json, type Outgoing } from '../http/outgoing.js';
import { SETTINGS_KEY, settingsProblems, settingsView, type SandboxSettings } from '../http/unknown-fields.js';
import { advanceClock, clockInRange, clockOffset, setClock } from '../domain/clock.js';
import type { DocSchemas } from '../domain/doc-schemas.js';
import type { ApiName } from '../domain/context.js';
import { SandboxError, type Principal } from '../domain/context.js';
import { tokenRefusal } from '../engine/identity.js';
import { UniqueViolation, type CollectionSpec, type Doc, type Snapshot, type Store } from '../store/types.js';
import { SEEDED_ID_COLLECTIONS, seededEntities } from '../seed/seeded-ids.js';
import { mergeProblemsInSlices, mergeSnapshots, snapshotProblemsInSlices } from './snapshot-check.js';
import { Slices } from '../util/slices.js';
import { buildScenario, type Scenario, type ScenarioResult } from './scenario.js';
import { emptySeed } from '../seed/empty.js';
import { tenantPrefix } from '../auth/tenants.js';

export const CONTROL_PREFIX = '/__sandbox';
const MAX_SNAPSHOT = 256 * 1024 * 1024;

export interface ControlContext {
  store: Store;
  /** Puts the sandbox back at its start, its fault rules included. */
  reset(sandbox: string): Promise<void>;
  collections: Map<string, CollectionSpec>;
  schemas: () => DocSchemas;
  /** The descriptions served (the collections they derive, for a scenario's `derived` docs). */
  apis: () => Array<{ name: ApiName; doc: Record<string, unknown> }>;
  principal(token: string): Promise<Principal | undefined>;
  /** What the sandbox starts from (a scenario's `start: 'seed'`). */
  seed: () => Snapshot;
  /** Hosted: a caller sees the sandboxes of its own client only. */
  hosted?: boolean;
}

export function refused(status: number, description: string, properties: string[] = []): Outgoing {
  return json(status, { messages: [message(status, description, properties)] });
}

export async function jsonBody(req: SandboxRequest, limit: number): Promise<{ ok: true; value: unknown } | { ok: false; out: Outgoing }> {
  const read = await req.readBody(limit);
  if (read.kind === 'too-large') return { ok: false, out: refused(413, tooLargeText(read, limit), ['body']) };
  if (read.kind !== 'body') return { ok: false, out: refused(400, 'A JSON body is required.', ['body']) };
  if (req.parsedBody) return { ok: true, value: req.parsedBody.value };
  const parsed = await parseJsonBody(new TextDecoder().decode(read.bytes));
  return parsed.ok ? parsed : { ok: false, out: refused(400, parsed.description, [parsed.field]) };
}

async function clockState(store: Store, sandbox: string): Promise<Record<string, unknown>> {
  const offsetMs = await store.transaction(sandbox, 'read', (tx) => clockOffset(tx));
  const now = new Date(Date.now() + offsetMs);
  return { sandbox, now: now.toISOString(), today: now.toISOString().slice(0, 10), offsetMs };
}

/** The seed's docs of the seeded-id collections as the sandbox holds them now (those it deleted left out). */
async function seededDocs(store: Store, sandbox: string, seed: Snapshot): Promise<Record<string, Doc[]>> {
  return store.transaction(sandbox, 'read', async (tx) => {
    const held: Record<string, Doc[]> = {};
    for (const name of SEEDED_ID_COLLECTIONS) {
      held[name] = [];
      for (const { id } of seed.collections[name] ?? []) {
        const doc = await tx.get(name, id);
        if (doc) held[name].push(doc);
      }
    }
    return held;
  });
}

/** Imports a checked snapshot; a store may refuse one beyond its limits (its answer is returned). */
async function importInto(store: Store, sandbox: string, snapshot: Snapshot): Promise<Outgoing | undefined> {
  try {
    await store.importSnapshot(sandbox, snapshot);
    return undefined;
  } catch (error) {
    if (error instanceof SandboxError) return json(error.status, { messages: error.messages });
    throw error;
  }
}

/** The docs a merge writes, or its refusal. */
type MergePlan = { ok: true; docs: Snapshot } | { ok: false; out: Outgoing };

/**
 * Merges docs into a sandbox in one write transaction: the state they are checked against is the
 * one they join (read under the sandbox's lock), so no write landing meanwhile is lost. `plan`
 * gets that state and answers the docs to write, or the refusal; a refusal changes nothing.
 * The docs are written in slices: a large merge pauses now and then for other requests (only
 * this sandbox's writes wait for it; its reads see the last commit).
 */
async function mergeInto(
  store: Store,
  sandbox: string,
  collections: Map<string, CollectionSpec>,
  plan: (current: Snapshot) => MergePlan | Promise<MergePlan>,
): Promise<Outgoing | undefined> {
  try {
    return await store.transaction(sandbox, 'write', async (tx) => {
      const current: Snapshot = { format: 'payroll-sandbox/1', collections: {}, meta: {} };
      for (const name of collections.keys()) current.collections[name] = (await tx.find(name)).rows;
      const planned = await plan(current);
      if (!planned.ok) return planned.out;
      const slices = new Slices();
      for (const [name, docs] of Object.entries(planned.docs.collections)) {
        for (const doc of docs) {
          if (!(await tx.replace(name, doc))) await tx.insert(name, doc);
          await slices.due();
        }
      }
      for (const [key, value] of Object.entries(planned.docs.meta ?? {})) await tx.setMeta(key, value);
      return undefined;
    });
  } catch (error) {
    if (error instanceof SandboxError) return json(error.status, { messages: error.messages });
    if (error instanceof UniqueViolation) return badRequest([`${error.collection}: the value of ${error.fields.join(', ')} is already in use (${error.rule}).`]);
    throw error;
  }
}

const badRequest = (problems: string[]) => json(400, { messages: problems.map((p) => message(400, p, ['body'])) });

/** How an import or a scenario treats the current state: `replace` (the default) or `merge`; the refusal of anything else. */
function modeOf(req: SandboxRequest): 'replace' | 'merge' | Outgoing {
  const mode = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams.get('mode') ?? 'replace';
  if (mode === 'replace' || mode === 'merge') return mode;
  return refused(400, `mode must be replace (the state becomes what is given) or merge (what is given is merged into the state by id), not ${JSON.stringify(mode).slice(0, 40)}.`, ['mode']);
}

const UNITS: Record<string, number> = { days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1000 };

export async function control(req: SandboxRequest, pathname: string, ctx: ControlContext): Promise<Outgoing> {
  const method = req.method ?? 'GET';
  const action = pathname.slice(CONTROL_PREFIX.length);
  const allowed: Record<string, string[]> = {
    '/reset': ['POST'],
    '/snapshot': ['GET', 'PUT'],
    '/scenario': ['POST'],
    '/sandboxes': ['GET'],
    '/clock': ['GET', 'PUT'],
    '/clock/advance': ['POST'],
    '/settings': ['GET', 'PUT'],
    '/seeded-ids': ['GET'],
  };
  const methods = allowed[action];
  if (!methods) return { status: 404, headers: {} };
  if (!methods.includes(method === 'HEAD' ? 'GET' : method)) return { status: 405, headers: { Allow: methods.join(', ') } };
  const token = bearerToken(req);
  if (token === undefined) return unauthorized();
  const principal = await ctx.principal(token);
  if (!principal) return unauthorized(await tokenRefusal(ctx.store, token, ctx.hosted));
  const { sandbox } = principal;
  if (action === '/sandboxes') {
    if (!ctx.hosted) return json(200, { sandboxes: await ctx.store.list() });
    if (!principal.tenant) return unauthorized();
    const prefix = tenantPrefix(principal.tenant);
    return json(200, { sandboxes: await ctx.store.list(prefix) });
  }

  switch (`${method === 'HEAD' ? 'GET' : method} ${action}`) {
    case 'POST /reset':
      await ctx.reset(sandbox);
      return json(200, { sandbox, reset: true });
    case 'GET /snapshot':
      return json(200, await ctx.store.exportSnapshot(sandbox), { 'Content-Disposition': `attachment; filename="${sandbox}.json"` });
    case 'PUT /snapshot': {
      const body = await jsonBody(req, MAX_SNAPSHOT);
      if (!body.ok) return body.out;
      const checked = snapshotProblemsInSlices(body.value, ctx.collections, ctx.schemas());
      const problems = Array.isArray(checked) ? checked : await checked;
      if (problems.length > 0) return badRequest(problems);
      const mode = modeOf(req);
      if (typeof mode !== 'string') return mode;
      const given = body.value as Snapshot;
      const snapshot: Snapshot = { format: given.format, collections: given.collections, meta: given.meta ?? {} };
      const failed =
        mode === 'merge'
          ? await mergeInto(ctx.store, sandbox, ctx.collections, async (current) => {
              const broken = await mergeProblemsInSlices(mergeSnapshots(current, given), given, ctx.collections);
              return broken.length > 0 ? { ok: false, out: badRequest(broken) } : { ok: true, docs: given };
            })
          : await importInto(ctx.store, sandbox, snapshot);
      if (failed) return failed;
      return json(200, { sandbox, mode, imported: Object.fromEntries(Object.entries(given.collections).map(([name, docs]) => [name, docs.length])) });
    }
    case 'POST /scenario': {
      const body = await jsonBody(req, MAX_SNAPSHOT);
      if (!body.ok) return body.out;
      const mode = modeOf(req);
      if (typeof mode !== 'string') return mode;
      const build = (current: Snapshot | undefined) => buildScenario(body.value as Scenario, { seed: ctx.seed, empty: emptySeed, current, collections: ctx.collections, schemas: ctx.schemas(), apis: ctx.apis() });
      const refusal = (problems: Array<{ path: string; message: string }>) => json(400, { messages: problems.map((p) => message(400, `${p.path ? `${p.path} ` : ''}${p.message}.`, [p.path || 'body'])) });
      let result: ScenarioResult | undefined;
      let failed: Outgoing | undefined;
      if (mode === 'merge') {
        failed = await mergeInto(ctx.store, sandbox, ctx.collections, (current) => {
          const built = build(current);
          if (!built.ok) return { ok: false, out: refusal(built.problems) };
          result = built.result;
          return { ok: true, docs: built.made };
        });
      } else {
        const built = build(undefined);
        if (!built.ok) return refusal(built.problems);
        result = built.result;
        failed = await importInto(ctx.store, sandbox, built.snapshot);
      }
      if (failed) return failed;
      return json(200, { sandbox, ...result });
    }
    case 'GET /clock':
      return json(200, await clockState(ctx.store, sandbox));
    case 'PUT /clock': {
      const body = await jsonBody(req, 4096);
      if (!body.ok) return body.out;
      const now = (body.value as { now?: unknown } | null)?.now;
      const at = now === null ? null : typeof now === 'string' && /^\d{4}-\d{2}-\d{2}/.test(now) ? Date.parse(now) : Number.NaN;
      if (at !== null && !clockInRange(at)) return refused(400, 'now must be an ISO 8601 date or date-time from year 0001 to 9999 (e.g. 2030-01-31T09:00:00Z), or null for real time.', ['now']);
      await ctx.store.transaction(sandbox, 'write', (tx) => setClock(tx, at));
      return json(200, await clockState(ctx.store, sandbox));
    }
    case 'GET /seeded-ids':
      return json(200, { sandbox, entities: seededEntities(await seededDocs(ctx.store, sandbox, ctx.seed())) });
    case 'GET /settings':
      return json(200, settingsView(await ctx.store.transaction(sandbox, 'read', (tx) => tx.getMeta<SandboxSettings>(SETTINGS_KEY))));
    case 'PUT /settings': {
      const body = await jsonBody(req, 4096);
      if (!body.ok) return body.out;
      const problems = settingsProblems(body.value);
      if (problems.length > 0) return json(400, { messages: problems.map((p) => message(400, p.problem, [p.field])) });
      const stored = await ctx.store.transaction(sandbox, 'write', async (tx) => {
        const settings = { ...(await tx.getMeta<SandboxSettings>(SETTINGS_KEY)), ...(body.value as SandboxSettings) };
        await tx.setMeta(SETTINGS_KEY, settings);
        return settings;
      });
      return json(200, settingsView(stored));
    }
    default: {
      // POST /clock/advance
      const body = await jsonBody(req, 4096);
      if (!body.ok) return body.out;
      const value = body.value as Record<string, unknown> | null;
      if (!value || typeof value !== 'object' || Array.isArray(value)) return refused(400, 'The body must be an object such as {"days": 1}.', ['body']);
      let by = 0;
      for (const [unit, amount] of Object.entries(value)) {
        const size = UNITS[unit];
        if (size === undefined) return refused(400, `Unknown unit ${unit}: use days, hours, minutes and seconds.`, [unit]);
        if (typeof amount !== 'number' || !Number.isFinite(amount)) return refused(400, `${unit} must be a number.`, [unit]);
        by += amount * size;
      }
      if (!Number.isFinite(by) || Math.abs(by) > 1000 * 365 * 86_400_000) return refused(400, 'The clock can move at most 1000 years.', ['body']);
      const moved = await ctx.store.transaction(sandbox, 'write', (tx) => advanceClock(tx, by));
      // The running total is bounded, not only each step: the clock stays within years 0001 to 9999.
      if (!moved) return refused(400, 'The clock would leave the years 0001 to 9999; move it by less, or set it (PUT /__sandbox/clock).', ['body']);
      return json(200, await clockState(ctx.store, sandbox));
    }
  }
}
