// Cost centers at wage model level: list, create, edit and delete, with the code's uniqueness
// across the three levels and the uses that block a delete (coded-entities.ts).
import { JOURNAL_COLLECTIONS } from '../../seed/journal.js';
import { codedEntityModule } from './coded-entities.js';

export default codedEntityModule({
  noun: 'cost center',
  collection: JOURNAL_COLLECTIONS.costCenters,
  component: 'CostCenter',
  referenceField: 'costCenterId',
  idParameter: 'costCenterId',
  operations: {
    list: 'GetCostCentersAtWageModelLevelByJournalProfileId',
    create: 'PostCostCenterAtWageModelLevelByJournalProfileId',
    edit: 'PatchCostCenterAtWageModelLevelByJournalProfileId',
    remove: 'DeleteCostCenterAtWageModelLevelByCostCenterId',
  },
  codeNotUnique: {
    provider: 'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel',
    wageModel: 'API_Journal_WageModelCostCenter_Code_NotUnique_WageModelLevel',
    payrollAdministration: 'API_Journal_WageModelCostCenter_Code_NotUnique_PayrollAdministrationLevel',
  },
  inUse: {
    administrationDeviation: 'API_Journal_WageModelCostCenter_InUse_CostCenterAtPayrollAdministrationLevel',
    payrollComponentLinkWageModel: 'API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_WageModelLevel',
    payrollComponentLinkAdministration: 'API_Journal_WageModelCostCenter_InUse_PayrollComponentLink_PayrollAdministrationLevel',
    journalAllocation: 'API_Journal_WageModelCostCenter_InUse_JournalAllocation',
    payrollPeriodData: 'API_Journal_WageModelCostCenter_InUse_PayrollPeriodData',
    matrixWageModel: 'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_WageModelLevel',
    matrixAdministration: 'API_Journal_WageModelCostCenter_InUse_CostCenterCostUnitMatrix_PayrollAdministrationLevel',
  },
});
