// One real scenario per validation code of the Journal API (contract 001, section 7): the
// state it needs (set up through the API where the API can write it, otherwise the seed), the
// request that breaks the rule, what the answer must say, and the reads that must answer the
// same before and after (a rejected request changes nothing). The HTTP test and the client
// test run this same table.
import { SEED_IDS } from '../../../../sandbox/src/seed/ids.js';
import { COST_CENTER_IDS as CC, COST_UNIT_IDS as CU, JOURNAL_PROFILE_IDS as P } from '../../../../sandbox/src/seed/journal.js';
import { ORG_IDS } from '../../../../sandbox/src/seed/organisation.js';

export const PATHS = {
  costCenters: '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcenters',
  costCenter: '/journal/providers/wagemodels/journalprofiles/costcenters/{costCenterId}',
  costUnits: '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costunits',
  costUnit: '/journal/providers/wagemodels/journalprofiles/costunits/{costUnitId}',
  matrix: '/journal/providers/wagemodels/journalprofiles/{journalProfileId}/costcentercostunitmatrix',
  wageModelProfiles: '/journal/providers/wagemodels/{wageModelId}/journalprofiles',
  administrationProfiles: '/journal/providers/payrolladministrations/{payrollAdministrationId}/journalProfiles',
  administrationProfile: '/journal/providers/payrolladministrations/journalprofiles/{journalProfileId}',
} as const;

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Step {
  method: Method;
  path: (typeof PATHS)[keyof typeof PATHS];
  /** Path parameters; a value `$name` is the id an earlier step saved as `name`. */
  params: Record<string, string>;
  body?: unknown;
  /** Keep the created entity's id (content.id) under this name. */
  save?: string;
}

export interface Scenario {
  code: string;
  /** The operation that answers the code. */
  operation: string;
  /** What the scenario does, in a few words. */
  title: string;
  /** Writes through the API before the trigger; each must succeed. */
  setup?: Step[];
  trigger: Step;
  /** The id the code's message carries (multi-patch); null otherwise. */
  messageId?: string | null;
  /** Reads that must answer the same before and after the trigger. */
  reads: Step[];
}

const W = P.wageModelStandard;
const PA = ORG_IDS.payrollAdministrations.bouwgroepMonthly;
const get = (path: Step['path'], params: Record<string, string>): Step => ({ method: 'GET', path, params });
const costCenters = get(PATHS.costCenters, { journalProfileId: W });
const costUnits = get(PATHS.costUnits, { journalProfileId: W });
const matrix = get(PATHS.matrix, { journalProfileId: W });
const wageModelProfiles = get(PATHS.wageModelProfiles, { wageModelId: SEED_IDS.wageModel });
const administrationProfile = (id: string) => get(PATHS.administrationProfile, { journalProfileId: id });
const deleteCostCenter = (id: string): Step => ({ method: 'DELETE', path: PATHS.costCenter, params: { costCenterId: id } });
const deleteCostUnit = (id: string): Step => ({ method: 'DELETE', path: PATHS.costUnit, params: { costUnitId: id } });
const deleteProfile = (id: string): Step => ({ method: 'DELETE', path: PATHS.administrationProfile, params: { journalProfileId: id } });
const matrixEdit = (...items: Array<[string, string, boolean]>): Step => ({
  method: 'PATCH',
  path: PATHS.matrix,
  params: { journalProfileId: W },
  body: items.map(([costCenterId, costUnitId, isLinked]) => ({ costCenterId, costUnitId, isLinked })),
});
const createCostCenter = (code: string, save?: string): Step => ({ method: 'POST', path: PATHS.costCenters, params: { journalProfileId: W }, body: { code }, save });
const createCostUnit = (code: string, save?: string): Step => ({ method: 'POST', path: PATHS.costUnits, params: { journalProfileId: W }, body: { code }, save });
const createWageModelProfile = (description: string): Step => ({ method: 'POST', path: PATHS.wageModelProfiles, params: { wageModelId: SEED_IDS.wageModel }, body: { description } });
const createAdministrationProfile = (description: string): Step => ({ method: 'POST', path: PATHS.administrationProfiles, params: { payrollAdministrationId: PA }, body: { description } });
/** A uuid no entity of the seed has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const CREATE_COST_CENTER = 'PostCostCenterAtWageModelLevelByJournalProfileId';
const EDIT_COST_CENTER = 'PatchCostCenterAtWageModelLevelByJournalProfileId';
const DELETE_COST_CENTER = 'DeleteCostCenterAtWageModelLevelByCostCenterId';
const CREATE_COST_UNIT = 'PostCostUnitAtWageModelLevelByJournalProfileId';
const EDIT_COST_UNIT = 'PatchCostUnitAtWageModelLevelByJournalProfileId';
const DELETE_COST_UNIT = 'DeleteCostUnitAtWageModelLevelByCostUnitId';
const EDIT_MATRIX = 'PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId';
const CREATE_ADMINISTRATION_PROFILE = 'PostJournalProfileByPayrollAdministrationId';
const EDIT_ADMINISTRATION_PROFILE = 'PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId';
const DELETE_ADMINISTRATION_PROFILE = 'DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId';
const CREATE_WAGE_MODEL_PROFILE = 'PostJournalProfileByWageModelId';

export const SCENARIOS: Scenario[] = [
  // Cost center create and edit: the code is taken at one level.
  {
    code: 'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel',
    operation: CREATE_COST_CENTER,
    title: "a new cost center with the code of the provider's cost center K010, in other case",
    trigger: createCostCenter('k010'),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_Code_NotUnique_WageModelLevel',
    operation: EDIT_COST_CENTER,
    title: 'a cost center edited to the code of one created before (with a trailing space)',
    setup: [createCostCenter('K150')],
    trigger: { method: 'PATCH', path: PATHS.costCenter, params: { costCenterId: CC.unused }, body: { code: 'K150 ' } },
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_Code_NotUnique_PayrollAdministrationLevel',
    operation: CREATE_COST_CENTER,
    title: "a new cost center with the code of a payroll administration's own cost center K-AMS",
    trigger: createCostCenter('K-AMS'),
    reads: [costCenters],
  },
  // Cost center delete: each use refuses it.
  {
    code: 'API_Journal_WageModelCostCenter_InUse_CostCenterAtPayrollAdministrationLevel',
    operation: DELETE_COST_CENTER,
    title: 'deleting cost center K200, which a payroll administration deviates from',
    trigger: deleteCostCenter(CC.withAdministrationDeviation),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_WageModelLevel',
    operation: DELETE_COST_CENTER,
    title: 'deleting cost center K300, which a payroll component link at wage model level books on',
    trigger: deleteCostCenter(CC.inPayrollComponentLinkWageModel),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_PayrollAdministrationLevel',
    operation: DELETE_COST_CENTER,
    title: 'deleting cost center K400, which a payroll component link at payroll administration level books on',
    trigger: deleteCostCenter(CC.inPayrollComponentLinkAdministration),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_JournalAllocation',
    operation: DELETE_COST_CENTER,
    title: "deleting cost center K500, which an employment's journal allocation uses",
    trigger: deleteCostCenter(CC.inJournalAllocation),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_PayrollPeriodData',
    operation: DELETE_COST_CENTER,
    title: "deleting cost center K600, which an employment's payroll period data use",
    trigger: deleteCostCenter(CC.inPayrollPeriodData),
    reads: [costCenters],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_WageModelLevel',
    operation: DELETE_COST_CENTER,
    title: 'deleting a new cost center after linking it to a new cost unit in the matrix',
    setup: [
      createCostCenter('K950', 'costCenter'),
      createCostUnit('D950', 'costUnit'),
      { method: 'PATCH', path: PATHS.matrix, params: { journalProfileId: W }, body: [{ costCenterId: '$costCenter', costUnitId: '$costUnit', isLinked: true }] },
    ],
    trigger: deleteCostCenter('$costCenter'),
    reads: [costCenters, matrix],
  },
  {
    code: 'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_PayrollAdministrationLevel',
    operation: DELETE_COST_CENTER,
    title: "deleting cost center K800, which a payroll administration's matrix links",
    trigger: deleteCostCenter(CC.inMatrixAdministration),
    reads: [costCenters],
  },
  // Matrix edit.
  {
    code: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenterCostUnit_NotUnique',
    operation: EDIT_MATRIX,
    title: 'linking K100 to D100 twice in one request',
    trigger: matrixEdit([CC.unused, CU.unused, true], [CC.unused, CU.unused, true]),
    messageId: CC.unused,
    reads: [matrix],
  },
  {
    code: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenter_NotExists',
    operation: EDIT_MATRIX,
    title: "linking a cost center of another journal profile (the projects profile's K100)",
    trigger: matrixEdit([CC.projects, CU.unused, true]),
    messageId: CC.projects,
    reads: [matrix],
  },
  {
    code: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostUnit_NotExists',
    operation: EDIT_MATRIX,
    title: 'linking K100 to a cost unit that does not exist',
    trigger: matrixEdit([CC.unused, UNKNOWN_ID, true]),
    messageId: UNKNOWN_ID,
    reads: [matrix],
  },
  {
    code: 'API_Journal_WageModelCostCenterCostUnitMatrix_CostCenterCostUnit_IsLocked',
    operation: EDIT_MATRIX,
    title: 'unlinking the locked combination K700 / D700',
    trigger: matrixEdit([CC.inMatrixWageModel, CU.inMatrixWageModel, false]),
    messageId: CC.inMatrixWageModel,
    reads: [matrix],
  },
  // Cost unit create and edit.
  {
    code: 'API_Journal_WageModelCostUnit_Code_NotUnique_ProviderLevel',
    operation: CREATE_COST_UNIT,
    title: "a new cost unit with the code of the provider's cost unit D010, in other case",
    trigger: createCostUnit('d010'),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_Code_NotUnique_WageModelLevel',
    operation: EDIT_COST_UNIT,
    title: 'a cost unit edited to the code of one created before (in other case)',
    setup: [createCostUnit('D150')],
    trigger: { method: 'PATCH', path: PATHS.costUnit, params: { costUnitId: CU.unused }, body: { code: 'd150' } },
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_Code_NotUnique_PayrollAdministrationLevel',
    operation: CREATE_COST_UNIT,
    title: "a new cost unit with the code of a payroll administration's own cost unit D-AMS",
    trigger: createCostUnit('D-AMS'),
    reads: [costUnits],
  },
  // Cost unit delete.
  {
    code: 'API_Journal_WageModelCostUnit_InUse_CostUnitAtPayrollAdministrationLevel',
    operation: DELETE_COST_UNIT,
    title: 'deleting cost unit D200, which a payroll administration deviates from',
    trigger: deleteCostUnit(CU.withAdministrationDeviation),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_PayrollComponentLink_WageModelLevel',
    operation: DELETE_COST_UNIT,
    title: 'deleting cost unit D300, which a payroll component link at wage model level books on',
    trigger: deleteCostUnit(CU.inPayrollComponentLinkWageModel),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_PayrollComponentLink_PayrollAdministrationLevel',
    operation: DELETE_COST_UNIT,
    title: 'deleting cost unit D400, which a payroll component link at payroll administration level books on',
    trigger: deleteCostUnit(CU.inPayrollComponentLinkAdministration),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_JournalAllocation',
    operation: DELETE_COST_UNIT,
    title: "deleting cost unit D500, which an employment's journal allocation uses",
    trigger: deleteCostUnit(CU.inJournalAllocation),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_PayrollPeriodData',
    operation: DELETE_COST_UNIT,
    title: "deleting cost unit D600, which an employment's payroll period data use",
    trigger: deleteCostUnit(CU.inPayrollPeriodData),
    reads: [costUnits],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_CostUnitCostCenterMatrix_WageModelLevel',
    operation: DELETE_COST_UNIT,
    title: 'deleting cost unit D100 after linking it to K100 in the matrix',
    setup: [matrixEdit([CC.unused, CU.unused, true])],
    trigger: deleteCostUnit(CU.unused),
    reads: [costUnits, matrix],
  },
  {
    code: 'API_Journal_WageModelCostUnit_InUse_CostUnitCostCenterMatrix_PayrollAdministrationLevel',
    operation: DELETE_COST_UNIT,
    title: "deleting cost unit D800, which a payroll administration's matrix links",
    trigger: deleteCostUnit(CU.inMatrixAdministration),
    reads: [costUnits],
  },
  // Payroll administration journal profile create and edit.
  {
    code: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_ProviderLevel',
    operation: CREATE_ADMINISTRATION_PROFILE,
    title: "a new profile described as the provider's 'Standaard journaalprofiel'",
    trigger: createAdministrationProfile('Standaard journaalprofiel'),
    reads: [administrationProfile(P.ownUnused)],
  },
  {
    code: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_WageModelLevel',
    operation: CREATE_ADMINISTRATION_PROFILE,
    title: 'a new profile described as a wage model profile created before',
    setup: [createWageModelProfile('Reiskosten')],
    trigger: createAdministrationProfile('REISKOSTEN'),
    reads: [wageModelProfiles],
  },
  {
    code: 'API_Journal_PayrollAdministrationJournalProfile_Description_NotUnique_PayrollAdministrationLevel',
    operation: EDIT_ADMINISTRATION_PROFILE,
    title: "a profile edited to the description of the administration's profile created before",
    setup: [createAdministrationProfile('Vestiging Eindhoven')],
    trigger: { method: 'PATCH', path: PATHS.administrationProfile, params: { journalProfileId: P.ownUnused }, body: { description: 'vestiging eindhoven' } },
    reads: [administrationProfile(P.ownUnused)],
  },
  // Payroll administration journal profile delete.
  {
    code: 'API_Journal_PayrollAdministrationJournalProfile_InUse_Journal',
    operation: DELETE_ADMINISTRATION_PROFILE,
    title: 'deleting the deviating profile that two journals use',
    trigger: deleteProfile(P.deviationUsedByJournals),
    reads: [administrationProfile(P.deviationUsedByJournals)],
  },
  {
    code: 'API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_PayrollPeriodData',
    operation: DELETE_ADMINISTRATION_PROFILE,
    title: "deleting the administration's own profile whose cost unit ST10 payroll period data use",
    trigger: deleteProfile(P.ownCostUnitInPayrollPeriodData),
    reads: [administrationProfile(P.ownCostUnitInPayrollPeriodData)],
  },
  {
    code: 'API_Journaal_PayrollAdministrationJournalProfile_CostUnit_Delete_InUse_JournalAllocation',
    operation: DELETE_ADMINISTRATION_PROFILE,
    title: "deleting the administration's own profile whose cost unit PA10 a journal allocation uses",
    trigger: deleteProfile(P.ownCostUnitInJournalAllocation),
    reads: [administrationProfile(P.ownCostUnitInJournalAllocation)],
  },
  {
    code: 'API_Journaal_PayrollAdministrationJournalProfile_CostCenter_Delete_InUse_PayrollPeriodData',
    operation: DELETE_ADMINISTRATION_PROFILE,
    title: "deleting the administration's own profile whose cost center Z100 payroll period data use",
    trigger: deleteProfile(P.ownCostCenterInPayrollPeriodData),
    reads: [administrationProfile(P.ownCostCenterInPayrollPeriodData)],
  },
  {
    code: 'API_Journaal_PayrollAdministrationJournalProfile_CostCenter_Delete_InUse_JournalAllocation',
    operation: DELETE_ADMINISTRATION_PROFILE,
    title: "deleting the administration's own profile whose cost center DT10 a journal allocation uses",
    trigger: deleteProfile(P.ownCostCenterInJournalAllocation),
    reads: [administrationProfile(P.ownCostCenterInJournalAllocation)],
  },
  // Wage model journal profile create.
  {
    code: 'API_Journal_WageModelJournalProfile_Description_NotUnique_ProviderLevel',
    operation: CREATE_WAGE_MODEL_PROFILE,
    title: "a new profile described as the provider's 'Concernrapportage'",
    trigger: createWageModelProfile('Concernrapportage'),
    reads: [wageModelProfiles],
  },
  {
    code: 'API_Journal_WageModelJournalProfile_Description_NotUnique_WageModelLevel',
    operation: CREATE_WAGE_MODEL_PROFILE,
    title: 'the same new profile twice, the second in capitals',
    setup: [createWageModelProfile('Reiskosten')],
    trigger: createWageModelProfile('REISKOSTEN'),
    reads: [wageModelProfiles],
  },
  {
    code: 'API_Journal_WageModelJournalProfile_Description_NotUnique_PayrollAdministrationLevel',
    operation: CREATE_WAGE_MODEL_PROFILE,
    title: "a new profile described as a payroll administration's profile created before",
    setup: [createAdministrationProfile('Vestiging Eindhoven')],
    trigger: createWageModelProfile('Vestiging Eindhoven'),
    reads: [wageModelProfiles],
  },
];

/** The path with its parameters filled in (saved ids replace `$name`). */
export function pathOf(step: Step, saved: Record<string, string> = {}): string {
  return step.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(resolve(step.params[name] ?? '', saved)));
}

/** A value with saved ids filled in (`$name` strings, at any depth). */
export function resolve<T>(value: T, saved: Record<string, string>): T {
  if (typeof value === 'string' && value.startsWith('$')) {
    const id = saved[value.slice(1)];
    if (!id) throw new Error(`no saved id ${value}`);
    return id as T;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, saved)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, saved)])) as T;
  return value;
}
