/**
 * Types of the sandbox control API (`/__sandbox/*` and `POST /auth/token` of
 * `@payroll-api/mock`), generated from spec/dist/sandbox-control.json.
 *
 * `paths` is what openapi-fetch consumes; the helpers name the bodies of one operation by its
 * operationId.
 */
import type { components, operations } from './generated/sandbox-control.js';
import type { RequestBodyOf, ResponseBodyOf } from './helpers.js';
import type { Schema as JournalSchema } from './journal.js';
import type { Schema as PayrollSchema } from './payroll.js';

export type { components, operations, paths } from './generated/sandbox-control.js';

/** Every operationId of the control API, planned ones included (see `x-sandbox-status`). */
export type OperationId = keyof operations;
/** Every named schema of the control API. */
export type Schemas = components['schemas'];
/** The body an operation sends. */
export type RequestBody<Id extends OperationId> = RequestBodyOf<operations[Id]>;
/** The success body an operation returns. */
export type ResponseBody<Id extends OperationId> = ResponseBodyOf<operations[Id]>;

export type Snapshot = Schemas['Snapshot'];
export type ClockState = Schemas['ClockState'];
export type AuthorizationModel = Schemas['AuthorizationModel'];
export type ClientEntry = Schemas['ClientEntry'];
export type RightEntry = Schemas['RightEntry'];
export type RoleEntry = Schemas['RoleEntry'];
export type UserEntry = Schemas['UserEntry'];
export type ModuleEntry = Schemas['ModuleEntry'];
export type ModulesEntry = Schemas['ModulesEntry'];
export type Settings = Schemas['Settings'];
export type UnknownFields = Schemas['UnknownFields'];
export type ScenarioResult = Schemas['ScenarioResult'];

// ---- Scenarios and fixtures ----------------------------------------------------------------
// What a scenario entity (and a fixture factory's override) may hold, typed by the read shapes of
// the APIs: the description can only say "an object" of each, these types say which.

/** Every field optional, at every depth (arrays are given whole). */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

/** The read shape of each kind of entity the sandbox stores (what the API answers). */
export interface EntityShapes {
  employer: PayrollSchema<'Employer'>;
  administration: PayrollSchema<'Administration'>;
  employee: PayrollSchema<'Employee'>;
  employment: PayrollSchema<'Employment'>;
  conceptEmployee: PayrollSchema<'ConceptEmployee'>;
  journalProfile: JournalSchema<'WageModelJournalProfile'>;
  costCenter: JournalSchema<'CostCenter'>;
  costUnit: JournalSchema<'CostUnit'>;
  matrixEntry: JournalSchema<'CostCenterCostUnitMatrixEntry'>;
}
export type EntityKind = keyof EntityShapes;

/** The stored relations each kind may be given by id, besides the fields of its read shape. */
export interface EntityRelations {
  employer: { providerId?: string };
  administration: { employerId?: string; isPayrollAdministration?: boolean };
  employee: { employerId?: string };
  employment: { employeeId?: string; administrationId?: string };
  conceptEmployee: { employerId?: string };
  journalProfile: { wageModelId?: string };
  costCenter: { journalProfileId?: string };
  costUnit: { journalProfileId?: string };
  matrixEntry: { journalProfileId?: string };
}

/** A partial entity of `K`: any part of its read shape, and its relations by id. */
export type EntityOverride<K extends EntityKind> = DeepPartial<EntityShapes[K]> & EntityRelations[K];

/** The relations each kind may name by the `ref` of an earlier entity of the scenario. */
export interface ScenarioRefs {
  employer: object;
  administration: { employerRef?: string };
  employee: { employerRef?: string };
  employment: { employeeRef?: string; administrationRef?: string };
  conceptEmployee: { employerRef?: string };
  journalProfile: object;
  costCenter: { journalProfileRef?: string };
  costUnit: { journalProfileRef?: string };
  matrixEntry: { journalProfileRef?: string; costCenterRef?: string; costUnitRef?: string };
}

/** The kind of each list of a scenario, in the order the lists are made. */
export interface ScenarioLists {
  employers: 'employer';
  administrations: 'administration';
  employees: 'employee';
  employments: 'employment';
  conceptEmployees: 'conceptEmployee';
  journalProfiles: 'journalProfile';
  costCenters: 'costCenter';
  costUnits: 'costUnit';
  matrixEntries: 'matrixEntry';
}
export type ScenarioList = keyof ScenarioLists;

/** One partial entity of a scenario, with a `ref` of its own by which later ones name it. */
export type ScenarioEntity<K extends EntityKind> = EntityOverride<K> & ScenarioRefs[K] & { ref?: string };

/** A scenario (PostSandboxScenario's body) with each list typed by its kind. */
export type Scenario = Omit<Schemas['Scenario'], 'entities'> & { entities: { [L in ScenarioList]?: Array<ScenarioEntity<ScenarioLists[L]>> } };
