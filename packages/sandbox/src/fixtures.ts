// @payroll-api/sandbox/fixtures: factories of every entity the sandbox stores, for tests.
//   const make = createFixtures({ seed: 7 });
//   const employer = make.employer({ companyName: 'Bakkerij Het Anker B.V.' });
//   const employee = make.employee({ employerId: employer.id, personalDetails: { lastName: 'Visser' } });
// Each factory returns a complete entity as the API serves it (its read shape, nothing else),
// deterministic from the seed; `make.stored.<kind>` returns it as the sandbox stores it. An
// override that breaks a schema or a rule throws a FixtureError naming the field. Give
// the entities to a sandbox with `sandbox.restore(...)` in merge mode, or let a scenario
// (`createSandbox({ scenario })`, POST /__sandbox/scenario) make them from partial entities.
// `make.derived('costUnitGroups', { journalProfileId })` makes a doc of a collection the sandbox
// derives from the description (one no resource module declares), as stored.
import { journalDescription, payrollDescription } from './generated/descriptions.js';
import { DocSchemas } from './domain/doc-schemas.js';
import { createFactories, type Factories } from './fixtures/factories.js';
import { createDerivedFactory, type DerivedFactory } from './fixtures/derived.js';
import { seedSnapshot } from './seed/index.js';
import { emptySeed } from './seed/empty.js';
import type { Snapshot } from './store/types.js';

export { FIXTURE_KINDS, FixtureError, RECORD_SECTIONS, type DeepPartial, type Factories, type FixtureKind, type StoredFactories, type StoredFixture, type FixtureOverride, type FixtureRelations, type FixtureShapes } from './fixtures/factories.js';
export { SEED_IDS } from './seed/ids.js';
export { DerivedFixtureError, type DerivedDoc, type DerivedFactory } from './fixtures/derived.js';
export type { Snapshot } from './store/types.js';

export interface CreateFixturesOptions {
  /** Values and ids follow from it: the same seed and the same calls give the same entities (default 1). */
  seed?: number | string;
  /** The state the entities join: relations resolve against it and unique numbers avoid it (default: the default seed). */
  base?: 'default' | 'empty' | Snapshot;
  /** Parsed bundles whose derived collections `derived` makes docs of (default: the built-in descriptions). */
  descriptions?: Partial<Record<'payroll' | 'journal', Record<string, unknown>>>;
}

let schemas: DocSchemas | undefined;

export function createFixtures(options: CreateFixturesOptions = {}): Factories & { derived: DerivedFactory } {
  schemas ??= new DocSchemas({ payroll: payrollDescription, journal: journalDescription });
  const base = options.base === 'empty' ? emptySeed() : options.base === undefined || options.base === 'default' ? seedSnapshot() : options.base;
  const bundles = { payroll: payrollDescription, journal: journalDescription, ...options.descriptions };
  const apis = (['payroll', 'journal'] as const).filter((name) => bundles[name]).map((name) => ({ name, doc: bundles[name]! }));
  const derivedSchemas = options.descriptions ? new DocSchemas(bundles) : schemas;
  return Object.assign(createFactories({ seed: options.seed, base: base.collections, schemas }), {
    derived: createDerivedFactory({ seed: options.seed, base: base.collections, apis, schemas: derivedSchemas }),
  });
}
