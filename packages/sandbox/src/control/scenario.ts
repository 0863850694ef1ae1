// A scenario: a start (the sandbox's seed, or empty) and partial entities to add in one go,
// each completed by its factory (../fixtures/factories.ts), with relations given by a seeded id
// (`employerId`) or by the local name of another entity of the scenario (`employerRef`). Merged
// into the current state instead (mode=merge), there is no start: the entities join what the
// sandbox holds, by id. The result is a whole snapshot, checked as an imported one is
// (snapshot-check.ts); the caller imports it in one step, so a bad scenario changes nothing.
import type { DocSchemas } from '../domain/doc-schemas.js';
import type { Scenario, ScenarioList, ScenarioLists, ScenarioResult as ControlScenarioResult } from '@payroll-api/types/sandbox-control';
import { createFactories, FIXTURE_RELATIONS, FixtureError, type FixtureKind, type FixtureOverride } from '../fixtures/factories.js';

export type { Scenario, ScenarioEntity, ScenarioList } from '@payroll-api/types/sandbox-control';
import type { CollectionSpec, Snapshot } from '../store/types.js';
import { mergeProblems, mergeSnapshots, snapshotProblems } from './snapshot-check.js';
import { makeDerivedDocs } from './scenario-derived.js';
import type { ApiName } from '../domain/context.js';

/** The relations an entity may name by the `ref` of another entity of the scenario, and the kinds that ref may name. */
const REFS = {
  providerRef: { kinds: ['provider'], field: 'providerId' },
  employerRef: { kinds: ['employer'], field: 'employerId' },
  employeeRef: { kinds: ['employee'], field: 'employeeId' },
  employmentRef: { kinds: ['employment'], field: 'employmentId' },
  administrationRef: { kinds: ['administration'], field: 'administrationId' },
  payrollAdministrationRef: { kinds: ['journalPayrollAdministration'], field: 'payrollAdministrationId' },
  wageModelRef: { kinds: ['journalWageModel'], field: 'wageModelId' },
  // A journal's profile is at payroll administration level, the others' at wage model level: the factory checks which.
  journalProfileRef: { kinds: ['journalProfile', 'administrationJournalProfile'], field: 'journalProfileId' },
  deviatesFromRef: { kinds: ['providerJournalProfile', 'journalProfile'], field: 'deviatesFromJournalProfileId' },
  costCenterRef: { kinds: ['costCenter'], field: 'costCenterId' },
  costUnitRef: { kinds: ['costUnit'], field: 'costUnitId' },
} as const satisfies Record<string, Relation>;
type RefField = keyof typeof REFS;
interface Relation {
  kinds: readonly FixtureKind[];
  field: string;
}
/** A cost center or cost unit belongs to a journal profile of any of the three levels. */
const ANY_LEVEL_PROFILE: Relation = { kinds: ['providerJournalProfile', 'journalProfile', 'administrationJournalProfile'], field: 'journalProfileId' };
/** Where a ref means another relation for a kind: a cost center or cost unit deviates from another of its kind. */
const REFS_OF_KIND: Partial<Record<FixtureKind, Partial<Record<RefField, Relation>>>> = {
  costCenter: { journalProfileRef: ANY_LEVEL_PROFILE, deviatesFromRef: { kinds: ['costCenter'], field: 'deviatesFromId' } },
  costUnit: { journalProfileRef: ANY_LEVEL_PROFILE, deviatesFromRef: { kinds: ['costUnit'], field: 'deviatesFromId' } },
};
const relationOf = (kind: FixtureKind, ref: RefField): Relation => REFS_OF_KIND[kind]?.[ref] ?? REFS[ref];
const REF_OF_FIELD = new Map([...Object.entries(REFS), ...Object.values(REFS_OF_KIND).flatMap((refs) => Object.entries(refs))].map(([ref, { field }]) => [field, ref]));

/** The scenario's lists by name, in the order they are made (a ref names an entity of an earlier list or an earlier one of its own). */
export const SCENARIO_LISTS: ScenarioLists = {
  providers: 'provider',
  providerLogos: 'providerLogo',
  employers: 'employer',
  employerLogos: 'employerLogo',
  administrations: 'administration',
  employees: 'employee',
  employeePhotos: 'employeePhoto',
  employments: 'employment',
  employmentRecords: 'employmentRecord',
  conceptEmployees: 'conceptEmployee',
  journalWageModels: 'journalWageModel',
  journalPayrollAdministrations: 'journalPayrollAdministration',
  providerJournalProfiles: 'providerJournalProfile',
  journalProfiles: 'journalProfile',
  administrationJournalProfiles: 'administrationJournalProfile',
  costCenters: 'costCenter',
  costUnits: 'costUnit',
  matrixEntries: 'matrixEntry',
  payrollComponentLinks: 'payrollComponentLink',
  journals: 'journal',
};

/** What a scenario added: the ids by list, in their order, and by ref. */
export type ScenarioResult = Omit<ControlScenarioResult, 'sandbox'>;

export interface ScenarioProblem {
  path: string;
  message: string;
}

export interface ScenarioContext {
  /** The sandbox's seed and the empty start. */
  seed: () => Snapshot;
  empty: () => Snapshot;
  /** The sandbox's state, when the scenario is merged into it (mode=merge). */
  current?: Snapshot;
  collections: Map<string, CollectionSpec>;
  schemas: DocSchemas;
  /** The descriptions served: the collections they derive take the scenario's `derived` docs. */
  apis?: Array<{ name: ApiName; doc: Record<string, unknown> }>;
}

/** The snapshot a scenario makes, or every problem it has (with its path in the scenario). */
export function buildScenario(value: Scenario, ctx: ScenarioContext): { ok: true; snapshot: Snapshot; made: Snapshot; result: ScenarioResult } | { ok: false; problems: ScenarioProblem[] } {
  const problems = shapeProblems(value, ctx.current !== undefined);
  if (problems.length > 0) return { ok: false, problems };
  const base = ctx.current ?? (value.start === 'empty' ? ctx.empty() : ctx.seed());
  const make = createFactories({ seed: value.seed, base: base.collections, schemas: ctx.schemas });
  const refs = new Map<string, { kind: FixtureKind; id: string | undefined }>();
  const result: ScenarioResult = { added: {}, refs: {} };

  for (const [list, kind] of Object.entries(SCENARIO_LISTS) as Array<[ScenarioList, FixtureKind]>) {
    const entities = value.entities[list];
    if (!entities) continue;
    const ids: string[] = [];
    entities.forEach((entity, i) => {
      const at = `entities.${list}[${i}]`;
      const { ref, ...rest } = entity as unknown as Record<string, unknown> & { ref?: string };
      const override: Record<string, unknown> = {};
      let resolved = true;
      for (const [name, given] of Object.entries(rest)) {
        if (!(name in REFS)) {
          override[name] = given;
          continue;
        }
        const relation = relationOf(kind, name as RefField);
        const target = refs.get(String(given));
        if (!FIXTURE_RELATIONS[kind].includes(relation.field)) {
          const takes = FIXTURE_RELATIONS[kind].flatMap((f) => REF_OF_FIELD.get(f) ?? []);
          problems.push({ path: `${at}.${name}`, message: `is no relation of a ${kind} (${takes.length > 0 ? `it takes ${takes.join(', ')}` : 'it takes none'})` });
          resolved = false;
        } else if (!target || !relation.kinds.includes(target.kind)) {
          problems.push({ path: `${at}.${name}`, message: `names no ${relation.kinds.join(' or ')} of the scenario before it (${JSON.stringify(given)})` });
          resolved = false;
        } else if (target.id === undefined) {
          problems.push({ path: `${at}.${name}`, message: `names the ${target.kind} ${JSON.stringify(given)}, which has problems of its own` });
          resolved = false;
        } else if (rest[relation.field] !== undefined) {
          problems.push({ path: `${at}.${name}`, message: `and ${relation.field} both name the ${target.kind}: give one` });
          resolved = false;
        } else override[relation.field] = target.id;
      }
      if (ref !== undefined && refs.has(ref)) problems.push({ path: `${at}.ref`, message: `${JSON.stringify(ref)} names an earlier entity already` });
      let id: string | undefined;
      if (resolved) {
        try {
          // An entity that names a stored id patches it; any other is made.
          const patched = typeof override.id === 'string' ? make.patch(kind, override as FixtureOverride<FixtureKind> & { id: string }) : undefined;
          id = (patched ?? (make.stored[kind] as (o: FixtureOverride<FixtureKind>) => { id: string })(override as FixtureOverride<FixtureKind>)).id;
          ids.push(id!);
        } catch (error) {
          if (!(error instanceof FixtureError)) throw error;
          for (const problem of error.problems) problems.push({ path: problem.path ? `${at}.${problem.path}` : at, message: problem.message });
        }
      }
      if (ref !== undefined && !refs.has(ref)) refs.set(ref, { kind, id });
      if (ref !== undefined && id !== undefined) result.refs[ref] = id;
    });
    result.added[list] = ids;
  }
  const derived = makeDerivedDocs({ given: (value as { derived?: unknown }).derived, seed: value.seed, base: mergeSnapshots(base, { format: base.format, collections: make.collections(), meta: {} }).collections, apis: ctx.apis ?? [], schemas: ctx.schemas, refs: result.refs });
  problems.push(...derived.problems);
  if (problems.length > 0) return { ok: false, problems };

  const made: Snapshot = { format: 'payroll-sandbox/1', collections: { ...make.collections(), ...derived.collections }, meta: {} };
  // Merged, the clock and the settings stay; otherwise they are the start's.
  const snapshot = { ...mergeSnapshots(base, made), meta: base.meta };
  // The whole state checked as an import is: a safety net under the factories' own checks.
  const whole = [...snapshotProblems(snapshot, ctx.collections, ctx.schemas), ...mergeProblems(snapshot, made, ctx.collections)];
  if (whole.length > 0) return { ok: false, problems: whole.map((message) => ({ path: 'entities', message })) };
  return { ok: true, snapshot, made, result };
}

/** What a scenario given in code (not checked against the control description) must look like before it is made. */
function shapeProblems(value: unknown, merging: boolean): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const scenario = value as Partial<Scenario> | null;
  if (!scenario || typeof scenario !== 'object' || Array.isArray(scenario)) return [{ path: '', message: 'must be an object {start, entities}' }];
  if (merging && scenario.start !== undefined) problems.push({ path: 'start', message: 'is not used with mode=merge: the entities join the current state' });
  if (!merging && scenario.start !== 'seed' && scenario.start !== 'empty') problems.push({ path: 'start', message: "must be 'seed' or 'empty'" });
  if (!scenario.entities || typeof scenario.entities !== 'object' || Array.isArray(scenario.entities)) return [...problems, { path: 'entities', message: 'must be an object of lists by name' }];
  for (const [list, entities] of Object.entries(scenario.entities)) {
    if (!(list in SCENARIO_LISTS)) problems.push({ path: `entities.${list}`, message: `is no list of a scenario (${Object.keys(SCENARIO_LISTS).join(', ')})` });
    else if (!Array.isArray(entities)) problems.push({ path: `entities.${list}`, message: 'must be an array' });
    else
      entities.forEach((entity: unknown, i) => {
        if (!entity || typeof entity !== 'object' || Array.isArray(entity)) problems.push({ path: `entities.${list}[${i}]`, message: 'must be an object' });
        else for (const name of ['ref', ...Object.keys(REFS)]) {
          const given = (entity as Record<string, unknown>)[name];
          if (given !== undefined && (typeof given !== 'string' || given === '')) problems.push({ path: `entities.${list}[${i}].${name}`, message: 'must be a non-empty string' });
        }
      });
  }
  return problems;
}
