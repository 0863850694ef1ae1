/**
 * Types of the sandbox control API (`/__sandbox/*` and `POST /auth/token` of
 * `@payroll-api/mock`), generated from spec/dist/sandbox-control.json.
 *
 * `paths` is what openapi-fetch consumes; the helpers name the bodies of one operation by its
 * operationId.
 */
import type { components, operations } from './generated/sandbox-control.js';
import type { JsonContent, RequestBodyOf, ResponseBodyOf } from './helpers.js';
import type { Readable } from './generated/payroll.js';
import type { operations as JournalOperations, Schema as JournalSchema } from './journal.js';
import type { operations as PayrollOperations, Schema as PayrollSchema } from './payroll.js';

export type { components, operations, paths } from './generated/sandbox-control.js';

/** Every operationId of the control API, planned ones included (see `x-sandbox-status`). */
export type OperationId = keyof operations;
/** Every named schema of the control API. */
export type Schemas = components['schemas'];
/** The body an operation sends. */
export type RequestBody<Id extends OperationId> = RequestBodyOf<operations[Id]>;
/** The success body an operation returns. */
export type ResponseBody<Id extends OperationId> = ResponseBodyOf<operations[Id]>;

/** An activity name (operationId) of either API. */
export type ActivityName = keyof PayrollOperations | keyof JournalOperations;
/** A fault rule as it is given: its activities by name, or `'*'` for every operation. */
export type FaultRuleInput = Omit<Schemas['FaultRule'], 'id' | 'operations'> & { operations: Array<ActivityName | '*'> };
/** A fault rule of a sandbox, with the id it was given. */
export type FaultRule = FaultRuleInput & { id: string };
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

/** The sections of an employment held as dated records, one valid at a time, by their name in the comprehensive employment (GetEmploymentsComprehensiveByEmployerId). */
export interface EmploymentRecordShapes {
  workinghours: PayrollSchema<'WorkingHours'>;
  organizationalEntity: PayrollSchema<'OrganizationalEntity'>;
  wage: PayrollSchema<'Wage'>;
  socialSecurityConfiguration: PayrollSchema<'SocialSecurityConfiguration'>;
  fiscalProperties: PayrollSchema<'FiscalProperties'>;
  healthcareInsuranceActConfiguration: PayrollSchema<'HealthcareInsuranceActConfiguration'>;
  otherPayrollVariables: PayrollSchema<'OtherPayrollVariables'>;
  pensionBenefits: PayrollSchema<'PensionBenefits'>;
}
export type EmploymentRecordSection = keyof EmploymentRecordShapes;

// The journal data the Journal API reads (to resolve a path, to refuse a delete) but never
// answers has no read shape: these are typed as the sandbox stores them.

/** A wage model: journal profiles and payroll administrations hang under it. */
export interface JournalWageModel {
  id: string;
  description: string;
  providerId: string;
}
/** The journal's view of a payroll administration: its id is the administration's, and the wage model it uses. */
export interface JournalPayrollAdministration {
  id: string;
  wageModelId: string;
  providerId: string;
}
/** A link of a payroll component to a ledger account, booked on a cost center and cost unit (a use that blocks their delete). */
export interface PayrollComponentLink {
  id: string;
  level: 'wageModel' | 'payrollAdministration';
  journalProfileId: string;
  payrollAdministrationId: string | null;
  payrollComponent: { key: number; value: string };
  ledgerAccount: { code: string; description: string };
  costCenterId: string | null;
  costUnitId: string | null;
}
/** A journal (a journal run) of a payroll period that uses a payroll administration journal profile. */
export interface JournalRun {
  id: string;
  payrollAdministrationId: string;
  journalProfileId: string;
  year: number;
  periodNumber: number;
  description: string;
}

/** The read shape of each kind of entity the sandbox stores: what the API answers for it (the
 * stored shape where the API answers none), nothing the sandbox keeps besides. A logo and a photo
 * are shown without an id: theirs is their employer's or employee's. */
export interface EntityShapes {
  provider: PayrollSchema<'ProviderContactInformation'>;
  providerLogo: PayrollSchema<'ProviderLogo'>;
  employer: PayrollSchema<'Employer'>;
  employerLogo: PayrollSchema<'EmployerLogo'>;
  administration: PayrollSchema<'Administration'>;
  employee: PayrollSchema<'Employee'>;
  employeePhoto: PayrollSchema<'Base64FileUpload'>;
  employment: PayrollSchema<'Employment'>;
  employmentRecord: EmploymentRecordShapes[EmploymentRecordSection];
  conceptEmployee: PayrollSchema<'ConceptEmployee'>;
  journalWageModel: JournalWageModel;
  journalPayrollAdministration: JournalPayrollAdministration;
  providerJournalProfile: JournalSchema<'WageModelJournalProfile'>;
  journalProfile: JournalSchema<'WageModelJournalProfile'>;
  administrationJournalProfile: JournalSchema<'PayrollAdministrationJournalProfile'>;
  costCenter: JournalSchema<'CostCenter'>;
  costUnit: JournalSchema<'CostUnit'>;
  matrixEntry: JournalSchema<'CostCenterCostUnitMatrixEntry'>;
  payrollComponentLink: PayrollComponentLink;
  journal: JournalRun;
}
export type EntityKind = keyof EntityShapes;

/** The snapshot collection each kind is stored in. */
export interface EntityCollections {
  provider: 'providers';
  providerLogo: 'providerLogos';
  employer: 'employers';
  employerLogo: 'employerLogos';
  administration: 'administrations';
  employee: 'employees';
  employeePhoto: 'employeePhotos';
  employment: 'employments';
  employmentRecord: 'employmentRecords';
  conceptEmployee: 'conceptEmployees';
  journalWageModel: 'journalWageModels';
  journalPayrollAdministration: 'journalPayrollAdministrations';
  providerJournalProfile: 'journalProfiles';
  journalProfile: 'journalProfiles';
  administrationJournalProfile: 'journalProfiles';
  costCenter: 'journalCostCenters';
  costUnit: 'journalCostUnits';
  matrixEntry: 'journalMatrixEntries';
  payrollComponentLink: 'journalPayrollComponentLinks';
  journal: 'journals';
}
/** An entity of `K` as the sandbox stores it (a snapshot's doc): the read shape's fields with the relations and the sandbox's own fields. */
export type StoredEntity<K extends EntityKind> = StoredShapes[EntityCollections[K]];

/** The stored relations each kind may be given by id, besides the fields of its read shape. */
export interface EntityRelations {
  provider: object;
  providerLogo: { providerId?: string };
  employer: { providerId?: string };
  employerLogo: { employerId?: string };
  administration: { employerId?: string; isPayrollAdministration?: boolean };
  employee: { employerId?: string };
  employeePhoto: { employeeId?: string };
  employment: { employeeId?: string; administrationId?: string };
  /** `section` names the chain the record joins (default `wage`). */
  employmentRecord: { employmentId?: string; section?: EmploymentRecordSection };
  conceptEmployee: { employerId?: string };
  journalWageModel: { providerId?: string };
  journalPayrollAdministration: { administrationId?: string; wageModelId?: string };
  providerJournalProfile: { providerId?: string };
  journalProfile: { wageModelId?: string };
  /** With `deviatesFromJournalProfileId` (a provider or wage model level profile) the profile deviates from it; without, it is the administration's own. */
  administrationJournalProfile: { payrollAdministrationId?: string; deviatesFromJournalProfileId?: string };
  /**
   * Of the journal profile `journalProfileId`, at its level: a provider level profile, a wage
   * model level one (the default), or a payroll administration's own profile (not one that
   * deviates). Of a wage model level profile, at payroll administration level with
   * `payrollAdministrationId` (the administration's addition), and with `deviatesFromId` (a wage
   * model level one of the profile) its deviation.
   */
  costCenter: { journalProfileId?: string; payrollAdministrationId?: string; deviatesFromId?: string };
  costUnit: { journalProfileId?: string; payrollAdministrationId?: string; deviatesFromId?: string };
  /** Of a wage model level profile, or of a payroll administration's own (at that level); of a
   * wage model level profile at payroll administration level with `payrollAdministrationId`. */
  matrixEntry: { journalProfileId?: string; payrollAdministrationId?: string };
  /** At payroll administration level when `payrollAdministrationId` is given. */
  payrollComponentLink: { journalProfileId?: string; payrollAdministrationId?: string; costCenterId?: string; costUnitId?: string };
  journal: { journalProfileId?: string };
}

/** A partial entity of `K`: any part of its read shape, and its relations by id. */
export type EntityOverride<K extends EntityKind> = DeepPartial<EntityShapes[K]> & EntityRelations[K];

/** The relations each kind may name by the `ref` of an earlier entity of the scenario. */
export interface ScenarioRefs {
  provider: object;
  providerLogo: { providerRef?: string };
  employer: { providerRef?: string };
  employerLogo: { employerRef?: string };
  administration: { employerRef?: string };
  employee: { employerRef?: string };
  employeePhoto: { employeeRef?: string };
  employment: { employeeRef?: string; administrationRef?: string };
  employmentRecord: { employmentRef?: string };
  conceptEmployee: { employerRef?: string };
  journalWageModel: { providerRef?: string };
  journalPayrollAdministration: { administrationRef?: string; wageModelRef?: string };
  providerJournalProfile: { providerRef?: string };
  journalProfile: { wageModelRef?: string };
  administrationJournalProfile: { payrollAdministrationRef?: string; deviatesFromRef?: string };
  costCenter: { journalProfileRef?: string; payrollAdministrationRef?: string; deviatesFromRef?: string };
  costUnit: { journalProfileRef?: string; payrollAdministrationRef?: string; deviatesFromRef?: string };
  matrixEntry: { journalProfileRef?: string; payrollAdministrationRef?: string; costCenterRef?: string; costUnitRef?: string };
  payrollComponentLink: { journalProfileRef?: string; payrollAdministrationRef?: string; costCenterRef?: string; costUnitRef?: string };
  journal: { journalProfileRef?: string };
}

/** The kind of each list of a scenario, in the order the lists are made. */
export interface ScenarioLists {
  providers: 'provider';
  providerLogos: 'providerLogo';
  employers: 'employer';
  employerLogos: 'employerLogo';
  administrations: 'administration';
  employees: 'employee';
  employeePhotos: 'employeePhoto';
  employments: 'employment';
  employmentRecords: 'employmentRecord';
  conceptEmployees: 'conceptEmployee';
  journalWageModels: 'journalWageModel';
  journalPayrollAdministrations: 'journalPayrollAdministration';
  providerJournalProfiles: 'providerJournalProfile';
  journalProfiles: 'journalProfile';
  administrationJournalProfiles: 'administrationJournalProfile';
  costCenters: 'costCenter';
  costUnits: 'costUnit';
  matrixEntries: 'matrixEntry';
  payrollComponentLinks: 'payrollComponentLink';
  journals: 'journal';
}
export type ScenarioList = keyof ScenarioLists;

/** One partial entity of a scenario, with a `ref` of its own by which later ones name it. */
export type ScenarioEntity<K extends EntityKind> = EntityOverride<K> & ScenarioRefs[K] & { ref?: string };

/** A scenario (PostSandboxScenario's body) with each list typed by its kind. */
export type Scenario = Omit<Schemas['Scenario'], 'entities'> & { entities: { [L in ScenarioList]?: Array<ScenarioEntity<ScenarioLists[L]>> } };

/**
 * A scenario whose lists (`L`) and refs (`R`) are known from the literal given, so that its
 * result names them: `(await sandbox.scenario({ entities: { employers: [{ ref: 'bakery' }] } })).refs.bakery`.
 */
export type ScenarioOf<L extends ScenarioList, R extends string> = Omit<Scenario, 'entities'> & {
  entities: { [K in L]?: Array<ScenarioEntity<ScenarioLists[K]> & { ref?: R }> };
};
/** The result of a scenario: the ids added by each list it gave, and the id of each of its refs. */
export type ScenarioResultOf<L extends ScenarioList, R extends string> = Omit<ScenarioResult, 'added' | 'refs'> & {
  added: { [K in L]: string[] };
  refs: { [K in R]: string };
};

// ---- Snapshots -----------------------------------------------------------------------------

/** A stored doc: its collection's stored schema, the relations it is stored with, and whatever
 * else the sandbox keeps (stored docs are supersets of what the API shows). */
type Stored<Shape, Relations = object> = Shape & Relations & { id: string } & { [field: string]: unknown };

/** The docs of each collection of a snapshot, by the schema the sandbox stores it under. */
export interface StoredShapes {
  providers: Stored<PayrollSchema<'ProviderContactInformation'>>;
  providerLogos: Stored<PayrollSchema<'ProviderLogo'>, { providerId: string }>;
  employers: Stored<PayrollSchema<'Employer'>, { providerId: string }>;
  /** Its id is its employer's. */
  employerLogos: Stored<PayrollSchema<'EmployerLogo'>>;
  administrations: Stored<PayrollSchema<'Administration'>, { employerId: string }>;
  conceptEmployees: Stored<PayrollSchema<'ConceptEmployee'>, { employerId: string }>;
  employees: Stored<PayrollSchema<'Employee'>, { employerId: string }>;
  /** Its id is its employee's. */
  employeePhotos: Stored<PayrollSchema<'Base64FileUpload'>>;
  employments: Stored<PayrollSchema<'Employment'>, { employeeId: string; employerId: string }>;
  /** A dated record of a section of an employment (`data` of the section's shape, see EmploymentRecordShapes). */
  employmentRecords: Stored<{ employmentId: string; employerId: string; section: string; subContext: string | null; startDate: string; endDate: string | null; data: Record<string, unknown> }>;
  employmentNotifications: Stored<object>;
  journalWageModels: Stored<JournalWageModel>;
  journalPayrollAdministrations: Stored<JournalPayrollAdministration>;
  /** At wage model and payroll administration level also `wageModelId`, at payroll administration level `payrollAdministrationId`. */
  journalProfiles: Stored<JournalSchema<'WageModelJournalProfile'>, { providerId: string; level: 'provider' | 'wageModel' | 'payrollAdministration'; wageModelId: string | null; payrollAdministrationId: string | null }>;
  journalCostCenters: Stored<JournalSchema<'CostCenter'>, { journalProfileId: string }>;
  journalCostUnits: Stored<JournalSchema<'CostUnit'>, { journalProfileId: string }>;
  journalMatrixEntries: Stored<JournalSchema<'CostCenterCostUnitMatrixEntry'>, { journalProfileId: string; costCenterId: string; costUnitId: string }>;
  journalPayrollComponentLinks: Stored<PayrollComponentLink>;
  journals: Stored<JournalRun>;
  authorizationModel: Stored<Partial<AuthorizationModel>>;
}
export type StoredCollection = keyof StoredShapes;

/** The state of a sandbox (GetSandboxSnapshot, PutSandboxSnapshot), each collection typed by its stored shape. */
export type Snapshot = Omit<Schemas['Snapshot'], 'collections'> & { collections: { [C in StoredCollection]?: Array<StoredShapes[C]> } };

// ---- One-off answers -----------------------------------------------------------------------

type OperationOf<A extends ActivityName> = A extends keyof PayrollOperations ? PayrollOperations[A] : A extends keyof JournalOperations ? JournalOperations[A] : never;
type ResponsesOf<A extends ActivityName> = OperationOf<A> extends { responses: infer R } ? R : never;
/** The statuses a `5XX` range of a description stands for. */
type ServerErrorStatus = 500 | 501 | 502 | 503 | 504;

/** The statuses an activity's description answers (a `5XX` range as its usual members). */
export type AnswerStatus<A extends ActivityName> = Extract<keyof ResponsesOf<A>, number> | ('5XX' extends keyof ResponsesOf<A> ? ServerErrorStatus : never);

/** The JSON body the description gives an activity's answer of `S`, as it is received (`never`: it has none). */
export type AnswerBody<A extends ActivityName, S extends number> = (S extends keyof ResponsesOf<A> ? ResponsesOf<A>[S] : S extends ServerErrorStatus ? ResponsesOf<A>['5XX' & keyof ResponsesOf<A>] : never) extends infer R
  ? R extends { content: infer C } ? Readable<JsonContent<C>> : never
  : never;

/**
 * A one-off answer of activity `A`, typed by its description: one of the statuses it answers,
 * the body of that status (optional: the answer may leave it out) and headers besides those the
 * sandbox sets on every answer.
 */
export type OneOffAnswerOf<A extends ActivityName> = {
  [S in AnswerStatus<A>]: { status: S; headers?: Record<string, string> } & ([AnswerBody<A, S>] extends [never] ? { body?: never } : { body?: AnswerBody<A, S> });
}[AnswerStatus<A>];

/** A one-off answer as a sandbox keeps and lists it (PostSandboxAnswers). */
export type OneOffAnswer = Omit<Schemas['OneOffAnswer'], 'operation'> & { id: string; operation: ActivityName };

// ---- Entities --------------------------------------------------------------------------------

/** The kinds the entity read (PostSandboxEntitiesFind) offers, by list name. */
export type EntityLists = Pick<ScenarioLists, Schemas['EntityList']>;
export type EntityList = keyof EntityLists;
/** An entity of a list in its read shape. */
export type EntityOf<L extends EntityList> = EntityShapes[EntityLists[L]];

/** Fields of a read shape and the values they equal; a nested object reaches nested fields. Arrays cannot be matched. */
export type EntityWhere<T> = {
  [K in keyof T]?: NonNullable<T[K]> extends readonly unknown[] ? never : NonNullable<T[K]> extends object ? EntityWhere<NonNullable<T[K]>> | (null extends T[K] ? null : never) : T[K];
};

/** What the entity read takes: `where` (equality, typed by the read shape), `filter` and `orderBy` in the API's syntax, and the page. */
export type EntityQuery<L extends EntityList> = Omit<Schemas['EntityQuery'], 'where'> & { where?: EntityWhere<EntityOf<L>> };
/** A page of the entity read: the matches in their read shape, and how many match. */
export type EntityPage<L extends EntityList> = { entities: Array<EntityOf<L>>; total: number };
