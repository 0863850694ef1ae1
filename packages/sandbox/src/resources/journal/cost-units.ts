// Cost units at wage model level: list, create, edit and delete, with the code's uniqueness
// across the three levels and the uses that block a delete (coded-entities.ts).
import { JOURNAL_COLLECTIONS } from '../../seed/journal.js';
import { codedEntityModule } from './coded-entities.js';

export default codedEntityModule({
  noun: 'cost unit',
  collection: JOURNAL_COLLECTIONS.costUnits,
  component: 'CostUnit',
  referenceField: 'costUnitId',
  idParameter: 'costUnitId',
  operations: {
    list: 'GetCostUnitsAtWageModelLevelByJournalProfileId',
    create: 'PostCostUnitAtWageModelLevelByJournalProfileId',
    edit: 'PatchCostUnitAtWageModelLevelByJournalProfileId',
    remove: 'DeleteCostUnitAtWageModelLevelByCostUnitId',
  },
  codeNotUnique: {
    provider: 'API_Journal_WageModelCostUnit_Code_NotUnique_ProviderLevel',
    wageModel: 'API_Journal_WageModelCostUnit_Code_NotUnique_WageModelLevel',
    payrollAdministration: 'API_Journal_WageModelCostUnit_Code_NotUnique_PayrollAdministrationLevel',
  },
  inUse: {
    administrationDeviation: 'API_Journal_WageModelCostUnit_InUse_CostUnitAtPayrollAdministrationLevel',
    payrollComponentLinkWageModel: 'API_Journal_WageModelCostUnit_InUse_PayrollComponentLink_WageModelLevel',
    payrollComponentLinkAdministration: 'API_Journal_WageModelCostUnit_InUse_PayrollComponentLink_PayrollAdministrationLevel',
    journalAllocation: 'API_Journal_WageModelCostUnit_InUse_JournalAllocation',
    payrollPeriodData: 'API_Journal_WageModelCostUnit_InUse_PayrollPeriodData',
    matrixWageModel: 'API_Journal_WageModelCostUnit_InUse_CostUnitCostCenterMatrix_WageModelLevel',
    matrixAdministration: 'API_Journal_WageModelCostUnit_InUse_CostUnitCostCenterMatrix_PayrollAdministrationLevel',
  },
});
