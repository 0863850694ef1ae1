// The journal configuration seed: the three levels (provider, wage model, payroll
// administration) as data, so that every level-specific rule of the Journal API arises from
// real entities. The API writes only the wage model level and payroll administration journal
// profiles; everything else here (provider level, payroll administration deviations and
// additions, payroll component links, journals) exists only as seeded data.
//
// Employments (the payroll seed) hold the journal allocations and payroll period data; they use
// the cost centers and cost units listed in EMPLOYMENT_JOURNAL_USES, so that both APIs agree:
// deleting one of those answers the matching InUse code.
import type { Doc } from '../store/types.js';
import { SEED_IDS } from './ids.js';
import { ORG_IDS, PAYROLL_ADMINISTRATION_IDS, WAGE_MODELS, wageModelOf } from './organisation.js';

export type JournalLevel = 'provider' | 'wageModel' | 'payrollAdministration';

/** The collections of the journal area (resources/journal/* declares them). */
export const JOURNAL_COLLECTIONS = {
  wageModels: 'journalWageModels',
  payrollAdministrations: 'journalPayrollAdministrations',
  profiles: 'journalProfiles',
  costCenters: 'journalCostCenters',
  costUnits: 'journalCostUnits',
  matrix: 'journalMatrixEntries',
  payrollComponentLinks: 'journalPayrollComponentLinks',
  journals: 'journals',
} as const;

/** Journal profiles of the seed, by level. */
export const JOURNAL_PROFILE_IDS = {
  /** Provider level. */
  providerStandard: 'bcd8b355-8822-4e3e-80a3-940175c503be',
  providerGroupReporting: 'ca41c409-8654-4fbf-abd2-b2692372c5f5',
  /** Wage model level (`SEED_IDS.wageModel`): holds every cost center and cost unit scenario. */
  wageModelStandard: '294af36b-2828-41e3-9ca6-a823da96a226',
  /** Wage model level (`SEED_IDS.wageModel`): a second family, whose codes may repeat the first's. */
  wageModelProjects: '722682e2-4049-4ca0-9b37-c991258307c4',
  /** Wage model level (`SEED_IDS.wageModelBakery`). */
  wageModelBakery: '43c04fa8-2310-448f-b658-9e21af1ef526',
  /** Payroll administration level (`ORG_IDS.payrollAdministrations.bouwgroepMonthly`), deviating from
   * wageModelStandard; journals use it. */
  deviationUsedByJournals: 'b9d0f579-1450-40e6-8130-910ca5d4bd0e',
  /** Deviates from wageModelProjects; nothing uses it (deleting it removes only the deviation). */
  deviationUnused: '857660e7-0bd6-4688-99fe-9e91a6f38845',
  /** The administration's own, with children nobody uses (deleting it deletes them). */
  ownUnused: '84dca489-bbe5-49e9-9b4e-275d44d6325a',
  /** Own profiles whose one child is in use by an employment (the four API_Journaal_ codes). */
  ownCostCenterInJournalAllocation: '2ad04af3-c5c0-4f8a-819a-262c43506b7a',
  ownCostCenterInPayrollPeriodData: 'd9831d35-628e-4fba-b0e9-dff047d9fb86',
  ownCostUnitInJournalAllocation: 'c901dd23-d6de-4772-bc55-ecedba045bb8',
  ownCostUnitInPayrollPeriodData: 'ac694e2c-940c-4b42-9994-a1ec90af4ef8',
  /** `ADMINISTRATIONS.bouwgroepFourWeekly`: deviates from wageModelStandard. */
  secondAdministrationDeviation: 'a4511f74-847e-49d2-a046-2ec45eb8fc78',
  /** `ADMINISTRATIONS.bakkerijFourWeekly`: the administration's own. */
  bakeryOwn: '2de15a61-a4d8-4827-b54c-90bcc852aef6',
} as const;

/** Cost centers of the seed. The wage model ones belong to JOURNAL_PROFILE_IDS.wageModelStandard;
 * each is used in exactly one way (its name says which), so deleting it shows one rule. */
export const COST_CENTER_IDS = {
  provider: 'c3be3978-049f-4880-97a6-ba0ce1205f90',
  providerWarehouse: 'a68726f0-0c1e-4bbc-9b3d-7aee3b058ef9',
  unused: '25ebfedf-ab3f-4f15-bb97-85a7546cf065',
  withAdministrationDeviation: 'aaa81b41-5cee-4446-9244-b10801f2cde6',
  inPayrollComponentLinkWageModel: 'a2db1c4a-e8a1-43d6-84b5-8f101d85799c',
  inPayrollComponentLinkAdministration: 'd87ae95c-4f06-49d0-ad78-3d7dd9d776d3',
  inJournalAllocation: '3c4f7077-e95c-4c4a-b50b-b5ac03d51c4c',
  inPayrollPeriodData: '7b8f760f-55a9-4453-9f78-6de15ab973d5',
  inMatrixWageModel: '5bae579d-c3b7-4e5e-8984-e2527c864e06',
  inMatrixAdministration: 'b105f94f-beef-4e8a-bf23-802dd1cff630',
  /** In a payroll component link and in the matrix at wage model level (two rules at once). */
  inLinkAndMatrix: 'db16754d-d210-47db-a753-007f5d21b8af',
  /** Payroll administration level (ORG_IDS.payrollAdministrations.bouwgroepMonthly): a deviation of withAdministrationDeviation. */
  administrationDeviation: '059fbf44-b863-4193-b168-b63cf48fa9da',
  /** Payroll administration level: the administration's own addition to wageModelStandard. */
  administrationAddition: '47d2a348-4006-4ce9-b329-2f42775ae84a',
  /** wageModelProjects (locked to its cost unit K100 / D100 in that profile's matrix). */
  projects: 'a2958844-e7f3-4b1e-94f7-5f27417db2b0',
  /** Children of the payroll administration's own profiles. */
  ownUnused: '69b1166a-8b05-4251-962d-5d5899da1d0c',
  ownInJournalAllocation: '9a5efe79-f776-45a7-87a3-ee9307b3c420',
  ownInPayrollPeriodData: '53708b49-ac2a-4b9a-bc1d-e2da090dbf27',
  bakeryOwn: 'f6a7bea3-7102-4ba3-966f-e70e3c8199db',
} as const;

/** Cost units of the seed, in the same roles as COST_CENTER_IDS. */
export const COST_UNIT_IDS = {
  provider: '92c31c0f-fc67-481a-b006-f5db5ae06f7b',
  unused: 'c7fecb05-ac51-4e9e-8a7b-331c2f47d96a',
  withAdministrationDeviation: '562aa9e3-cde2-4887-b645-f7cf945c4e50',
  inPayrollComponentLinkWageModel: 'b603d4ad-9962-48b2-ba03-f90aa98b99af',
  inPayrollComponentLinkAdministration: '05d40798-477d-458b-b702-8c06c2150cd7',
  inJournalAllocation: '8820f93c-9ee0-4897-bea7-7841e6f0ea70',
  inPayrollPeriodData: 'ff3960db-030e-4817-976a-46dfc297042f',
  inMatrixWageModel: '91ec6878-730a-45f2-91c8-53f065b03b0d',
  inMatrixAdministration: '27a7de35-0880-4372-a7a0-ed26b5c6478f',
  /** Linked with COST_CENTER_IDS.inLinkAndMatrix in the matrix at wage model level. */
  inLinkAndMatrix: 'b13a38e2-fc3f-4745-8104-da7696f59319',
  administrationDeviation: '064c8c17-576f-4cf9-822f-b43e234b09bb',
  administrationAddition: '2a775690-8991-429e-901b-99fc6a0d3589',
  projects: 'c4d546e8-19cb-478f-a164-b71d0cf27bba',
  ownUnused: '3e63d1b4-b236-4c91-87b1-89115d4041bb',
  ownInJournalAllocation: '3fb9ce66-3b83-4a36-9cf1-2e5e1474c76d',
  ownInPayrollPeriodData: '3883e9ee-b27e-49b3-8013-cae9756e7889',
  bakeryOwn: '363049f5-5b1b-4f6f-b5f7-a2f8b919ce2a',
} as const;

/** Journals (journal runs) that use a payroll administration journal profile. */
export const JOURNAL_IDS = {
  january: '0b6387b5-9315-427b-a548-5aa1ec9afcd5',
  february: '0ab5eb23-ad6f-446f-b865-7ec999d8019c',
} as const;

export interface CodedReference {
  key: string;
  code: string;
  description: string;
}

/** What the payroll seed's employments must hold, so that journal deletes see them in use. */
export interface EmploymentJournalUse {
  /** The payroll administration of the employment. */
  payrollAdministrationId: string;
  /** The journal profile the allocation follows (payroll administration level). */
  journalProfile: { id: string; description: string };
  costCenter: CodedReference | null;
  costUnit: CodedReference | null;
}

interface CodedSeed {
  id: string;
  level: JournalLevel;
  journalProfileId: string;
  code: string;
  description: string;
  payrollAdministrationId?: string;
  deviatesFromId?: string;
}

const PROVIDER = SEED_IDS.provider;
const WM = SEED_IDS.wageModel;
const ADMINISTRATIONS = ORG_IDS.payrollAdministrations;
/** The payroll administration most journal scenarios are about (the README employer's). */
const PA = ADMINISTRATIONS.bouwgroepMonthly;
const P = JOURNAL_PROFILE_IDS;
const CC = COST_CENTER_IDS;
const CU = COST_UNIT_IDS;

/** The journal area's view of the payroll administrations: the wage model each one uses
 * (the bakery's its own, every other the standard one). */
const PAYROLL_ADMINISTRATIONS = PAYROLL_ADMINISTRATION_IDS.map((id) => ({ id, wageModelId: wageModelOf(id).id as string }));
const wageModelIdOf = (payrollAdministrationId: string): string => wageModelOf(payrollAdministrationId).id;

type ProfileSeed = { id: string; level: JournalLevel; description: string; wageModelId?: string; payrollAdministrationId?: string; deviatesFromJournalProfileId?: string };
const PROFILES: ProfileSeed[] = [
  { id: P.providerStandard, level: 'provider', description: 'Standaard journaalprofiel' },
  { id: P.providerGroupReporting, level: 'provider', description: 'Concernrapportage' },
  { id: P.wageModelStandard, level: 'wageModel', wageModelId: WM, description: 'Journaalprofiel loonmodel' },
  { id: P.wageModelProjects, level: 'wageModel', wageModelId: WM, description: 'Journaalprofiel projecten' },
  { id: P.wageModelBakery, level: 'wageModel', wageModelId: SEED_IDS.wageModelBakery, description: 'Journaalprofiel bakkerij' },
  { id: P.deviationUnused, level: 'payrollAdministration', payrollAdministrationId: PA, deviatesFromJournalProfileId: P.wageModelProjects, description: 'Projecten Bouwgroep maandloon' },
  { id: P.deviationUsedByJournals, level: 'payrollAdministration', payrollAdministrationId: PA, deviatesFromJournalProfileId: P.wageModelStandard, description: 'Journaalprofiel Bouwgroep maandloon' },
  { id: P.ownUnused, level: 'payrollAdministration', payrollAdministrationId: PA, description: 'Vestiging Utrecht' },
  { id: P.ownCostCenterInJournalAllocation, level: 'payrollAdministration', payrollAdministrationId: PA, description: 'Detachering' },
  { id: P.ownCostCenterInPayrollPeriodData, level: 'payrollAdministration', payrollAdministrationId: PA, description: 'Uitzendkrachten' },
  { id: P.ownCostUnitInJournalAllocation, level: 'payrollAdministration', payrollAdministrationId: PA, description: 'Projectadministratie' },
  { id: P.ownCostUnitInPayrollPeriodData, level: 'payrollAdministration', payrollAdministrationId: PA, description: 'Stagiairs' },
  { id: P.secondAdministrationDeviation, level: 'payrollAdministration', payrollAdministrationId: ADMINISTRATIONS.bouwgroepFourWeekly, deviatesFromJournalProfileId: P.wageModelStandard, description: 'Journaalprofiel Bouwgroep vierwekenloon' },
  { id: P.bakeryOwn, level: 'payrollAdministration', payrollAdministrationId: ADMINISTRATIONS.bakkerijFourWeekly, description: 'Bakkerij en winkel' },
];

const COST_CENTERS: CodedSeed[] = [
  { id: CC.provider, level: 'provider', journalProfileId: P.providerStandard, code: 'K010', description: 'Hoofdkantoor' },
  { id: CC.providerWarehouse, level: 'provider', journalProfileId: P.providerGroupReporting, code: 'K020', description: 'Centraal magazijn' },
  { id: CC.unused, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K100', description: 'Directie' },
  { id: CC.withAdministrationDeviation, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K200', description: 'Verkoop' },
  { id: CC.inPayrollComponentLinkWageModel, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K300', description: 'Inkoop' },
  { id: CC.inPayrollComponentLinkAdministration, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K400', description: 'Productie' },
  { id: CC.inJournalAllocation, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K500', description: 'Logistiek' },
  { id: CC.inPayrollPeriodData, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K600', description: 'Administratie' },
  { id: CC.inMatrixWageModel, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K700', description: 'Marketing' },
  { id: CC.inMatrixAdministration, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K800', description: 'ICT' },
  { id: CC.inLinkAndMatrix, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'K900', description: 'Facilitair' },
  { id: CC.administrationDeviation, level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, deviatesFromId: CC.withAdministrationDeviation, code: 'K200', description: 'Verkoop binnendienst' },
  { id: CC.administrationAddition, level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, code: 'K-AMS', description: 'Filiaal Amsterdam' },
  { id: CC.projects, level: 'wageModel', journalProfileId: P.wageModelProjects, code: 'K100', description: 'Projectleiding' },
  { id: CC.ownUnused, level: 'payrollAdministration', journalProfileId: P.ownUnused, payrollAdministrationId: PA, code: 'U100', description: 'Vestiging Utrecht' },
  { id: CC.ownInJournalAllocation, level: 'payrollAdministration', journalProfileId: P.ownCostCenterInJournalAllocation, payrollAdministrationId: PA, code: 'DT10', description: 'Gedetacheerden' },
  { id: CC.ownInPayrollPeriodData, level: 'payrollAdministration', journalProfileId: P.ownCostCenterInPayrollPeriodData, payrollAdministrationId: PA, code: 'Z100', description: 'Uitzendkrachten' },
  { id: CC.bakeryOwn, level: 'payrollAdministration', journalProfileId: P.bakeryOwn, payrollAdministrationId: ADMINISTRATIONS.bakkerijFourWeekly, code: 'H100', description: 'Bakkerij' },
];

const COST_UNITS: CodedSeed[] = [
  { id: CU.provider, level: 'provider', journalProfileId: P.providerStandard, code: 'D010', description: 'Algemeen' },
  { id: CU.unused, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D100', description: 'Project Noord' },
  { id: CU.withAdministrationDeviation, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D200', description: 'Project Zuid' },
  { id: CU.inPayrollComponentLinkWageModel, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D300', description: 'Onderhoud' },
  { id: CU.inPayrollComponentLinkAdministration, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D400', description: 'Nieuwbouw' },
  { id: CU.inJournalAllocation, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D500', description: 'Klantenservice' },
  { id: CU.inPayrollPeriodData, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D600', description: 'Opleidingen' },
  { id: CU.inMatrixWageModel, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D700', description: 'Webwinkel' },
  { id: CU.inMatrixAdministration, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D800', description: 'Winkel Centrum' },
  { id: CU.inLinkAndMatrix, level: 'wageModel', journalProfileId: P.wageModelStandard, code: 'D900', description: 'Groothandel' },
  { id: CU.administrationDeviation, level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, deviatesFromId: CU.withAdministrationDeviation, code: 'D200', description: 'Project Zuid (Amsterdam)' },
  { id: CU.administrationAddition, level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, code: 'D-AMS', description: 'Filiaal Amsterdam' },
  { id: CU.projects, level: 'wageModel', journalProfileId: P.wageModelProjects, code: 'D100', description: 'Project Oost' },
  { id: CU.ownUnused, level: 'payrollAdministration', journalProfileId: P.ownUnused, payrollAdministrationId: PA, code: 'U200', description: 'Winkel Utrecht' },
  { id: CU.ownInJournalAllocation, level: 'payrollAdministration', journalProfileId: P.ownCostUnitInJournalAllocation, payrollAdministrationId: PA, code: 'PA10', description: 'Project Havenkwartier' },
  { id: CU.bakeryOwn, level: 'payrollAdministration', journalProfileId: P.bakeryOwn, payrollAdministrationId: ADMINISTRATIONS.bakkerijFourWeekly, code: 'H200', description: 'Winkel' },
  { id: CU.ownInPayrollPeriodData, level: 'payrollAdministration', journalProfileId: P.ownCostUnitInPayrollPeriodData, payrollAdministrationId: PA, code: 'ST10', description: 'Stageplaatsen' },
];

/** Matrix entries at wage model and payroll administration level, some locked. */
const MATRIX: Array<{ id: string; level: JournalLevel; journalProfileId: string; payrollAdministrationId?: string; costCenterId: string; costUnitId: string; isLocked: boolean }> = [
  { id: '55aa8434-8706-488d-bdaa-68aee876ed5e', level: 'wageModel', journalProfileId: P.wageModelStandard, costCenterId: CC.inMatrixWageModel, costUnitId: CU.inMatrixWageModel, isLocked: true },
  { id: '1ec4be2e-cfc7-441e-b01f-c5f2cb661016', level: 'wageModel', journalProfileId: P.wageModelStandard, costCenterId: CC.inLinkAndMatrix, costUnitId: CU.inLinkAndMatrix, isLocked: false },
  { id: '4722aa57-8b9b-4e5e-860c-da32e99a297b', level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, costCenterId: CC.inMatrixAdministration, costUnitId: CU.inMatrixAdministration, isLocked: false },
  { id: 'a8c2bc3a-1c6e-4719-a39c-342711b9530b', level: 'wageModel', journalProfileId: P.wageModelProjects, costCenterId: CC.projects, costUnitId: CU.projects, isLocked: true },
  { id: 'c17b472b-8fe0-4bf1-8a22-a31480bb52e9', level: 'payrollAdministration', journalProfileId: P.bakeryOwn, payrollAdministrationId: ADMINISTRATIONS.bakkerijFourWeekly, costCenterId: CC.bakeryOwn, costUnitId: CU.bakeryOwn, isLocked: true },
  { id: 'ac7aab7f-9048-4187-8234-5e90da47c819', level: 'payrollAdministration', journalProfileId: P.ownUnused, payrollAdministrationId: PA, costCenterId: CC.ownUnused, costUnitId: CU.ownUnused, isLocked: false },
];

/** Links from payroll components to ledger accounts (with the cost center and unit they book on). */
const PAYROLL_COMPONENT_LINKS = [
  { id: '88b9e90e-2dfc-48a5-8cd5-cc6e7786ffa6', level: 'wageModel', journalProfileId: P.wageModelStandard, payrollComponent: { key: 1, value: 'Salaris' }, ledgerAccount: { code: '4000', description: 'Brutolonen' }, costCenterId: CC.inPayrollComponentLinkWageModel, costUnitId: CU.inPayrollComponentLinkWageModel },
  { id: 'b51c6f5f-5492-4815-9d9d-829317feb4cb', level: 'wageModel', journalProfileId: P.wageModelStandard, payrollComponent: { key: 40, value: 'Vakantiegeld' }, ledgerAccount: { code: '4010', description: 'Vakantiegeld' }, costCenterId: CC.inLinkAndMatrix, costUnitId: null },
  { id: '46dd5f3b-238e-465e-b66c-6267d8dfb161', level: 'payrollAdministration', journalProfileId: P.wageModelStandard, payrollAdministrationId: PA, payrollComponent: { key: 7, value: 'Overwerk' }, ledgerAccount: { code: '4020', description: 'Overwerkvergoeding' }, costCenterId: CC.inPayrollComponentLinkAdministration, costUnitId: CU.inPayrollComponentLinkAdministration },
  { id: 'c79c92e7-8d3c-4da5-a8b4-f26e5efda5d0', level: 'wageModel', journalProfileId: P.wageModelBakery, payrollComponent: { key: 1, value: 'Salaris' }, ledgerAccount: { code: '4000', description: 'Brutolonen' }, costCenterId: null, costUnitId: null },
] as const;

const JOURNALS = [
  { id: JOURNAL_IDS.january, payrollAdministrationId: PA, journalProfileId: P.deviationUsedByJournals, year: 2026, periodNumber: 1, description: 'Journaal januari 2026' },
  { id: JOURNAL_IDS.february, payrollAdministrationId: PA, journalProfileId: P.deviationUsedByJournals, year: 2026, periodNumber: 2, description: 'Journaal februari 2026' },
];

const codedReference = (list: CodedSeed[], id: string): CodedReference => {
  const found = list.find((c) => c.id === id)!;
  return { key: found.id, code: found.code, description: found.description };
};
const profileReference = (id: string) => ({ id, description: PROFILES.find((p) => p.id === id)!.description });

/**
 * The journal allocations the payroll seed puts on employments (`journalAllocation` of the
 * comprehensive employment), one employment each, in ORG_IDS.payrollAdministrations.bouwgroepMonthly.
 */
export const EMPLOYMENT_JOURNAL_ALLOCATIONS: EmploymentJournalUse[] = [
  { payrollAdministrationId: PA, journalProfile: profileReference(P.deviationUsedByJournals), costCenter: codedReference(COST_CENTERS, CC.inJournalAllocation), costUnit: codedReference(COST_UNITS, CU.inJournalAllocation) },
  { payrollAdministrationId: PA, journalProfile: profileReference(P.ownCostCenterInJournalAllocation), costCenter: codedReference(COST_CENTERS, CC.ownInJournalAllocation), costUnit: null },
  { payrollAdministrationId: PA, journalProfile: profileReference(P.ownCostUnitInJournalAllocation), costCenter: null, costUnit: codedReference(COST_UNITS, CU.ownInJournalAllocation) },
];

/**
 * The cost centers and cost units the payroll seed's payroll period data use (the `costCenter`
 * and `costUnit` of an employment's payroll period data, as its defaults answer them), one
 * employment each, in ORG_IDS.payrollAdministrations.bouwgroepMonthly.
 */
export const EMPLOYMENT_PAYROLL_PERIOD_DATA: EmploymentJournalUse[] = [
  { payrollAdministrationId: PA, journalProfile: profileReference(P.deviationUsedByJournals), costCenter: codedReference(COST_CENTERS, CC.inPayrollPeriodData), costUnit: codedReference(COST_UNITS, CU.inPayrollPeriodData) },
  { payrollAdministrationId: PA, journalProfile: profileReference(P.ownCostCenterInPayrollPeriodData), costCenter: codedReference(COST_CENTERS, CC.ownInPayrollPeriodData), costUnit: null },
  { payrollAdministrationId: PA, journalProfile: profileReference(P.ownCostUnitInPayrollPeriodData), costCenter: null, costUnit: codedReference(COST_UNITS, CU.ownInPayrollPeriodData) },
];

/** The key of a matrix entry: one combination per level, journal profile and administration. */
export const matrixCombination = (e: { level: string; journalProfileId: string; payrollAdministrationId?: string | null; costCenterId: string; costUnitId: string }): string =>
  [e.level, e.journalProfileId, e.payrollAdministrationId ?? '-', e.costCenterId, e.costUnitId].join('/');

function codedDoc(c: CodedSeed): Doc {
  const profile = PROFILES.find((p) => p.id === c.journalProfileId)!;
  return {
    id: c.id,
    level: c.level,
    journalProfileId: c.journalProfileId,
    code: c.code,
    description: c.description,
    providerId: PROVIDER,
    wageModelId: c.payrollAdministrationId ? wageModelIdOf(c.payrollAdministrationId) : profile.wageModelId ?? null,
    payrollAdministrationId: c.payrollAdministrationId ?? null,
    deviatesFromId: c.deviatesFromId ?? null,
  };
}

/** The journal area's part of the seed snapshot. */
export function journalSeed(): Record<string, Doc[]> {
  return {
    [JOURNAL_COLLECTIONS.wageModels]: [
      ...WAGE_MODELS.map((model) => ({ ...model, providerId: PROVIDER })),
    ],
    [JOURNAL_COLLECTIONS.payrollAdministrations]: PAYROLL_ADMINISTRATIONS.map((a) => ({ ...a, providerId: PROVIDER })),
    [JOURNAL_COLLECTIONS.profiles]: PROFILES.map((p) => ({
      id: p.id,
      level: p.level,
      description: p.description,
      providerId: PROVIDER,
      wageModelId: p.payrollAdministrationId ? wageModelIdOf(p.payrollAdministrationId) : p.wageModelId ?? null,
      payrollAdministrationId: p.payrollAdministrationId ?? null,
      deviatesFromJournalProfileId: p.deviatesFromJournalProfileId ?? null,
    })),
    [JOURNAL_COLLECTIONS.costCenters]: COST_CENTERS.map(codedDoc),
    [JOURNAL_COLLECTIONS.costUnits]: COST_UNITS.map(codedDoc),
    [JOURNAL_COLLECTIONS.matrix]: MATRIX.map((e) => ({ ...e, payrollAdministrationId: e.payrollAdministrationId ?? null, combination: matrixCombination(e) })),
    [JOURNAL_COLLECTIONS.payrollComponentLinks]: PAYROLL_COMPONENT_LINKS.map((l) => ({ payrollAdministrationId: null, ...l })),
    [JOURNAL_COLLECTIONS.journals]: JOURNALS.map((j) => ({ ...j })),
  };
}
