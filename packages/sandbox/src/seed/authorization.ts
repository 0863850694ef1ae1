// The authorization model every sandbox starts from (contract §5.7): clients linked to
// activities, rights (groups of activities), roles that allow rights and may narrow the data
// scope, users holding rights with access to employers, the modules activities need and the
// provider's modules. Employers' modules are the organisation seed's (`modules` on employers).
// Each seeded user demonstrates one step of the decision; docs and tests address them by the
// constants below. Activities are operationIds; '*' stands for every activity.
import type { Doc } from '../store/types.js';
import { ORG_IDS, MODULES } from './organisation.js';

/** The collection holding the model, as one doc (read and replaced whole, in one transaction). */
export const AUTHORIZATION_COLLECTION = 'authorizationModel';
export const AUTHORIZATION_MODEL_ID = 'model';

/** Every seeded user's password (the password grant checks it). */
export const SEED_PASSWORD = 'Welkom01!';

/** Seeded usernames (lowercase; usable in the fixed sandbox tokens `sandbox-user-<username>`). */
export const SEED_USERS = {
  /** Every right, every employer: refused only where an employer lacks a module (step 4). */
  admin: 'admin',
  /** Only the read rights: every write is refused at step 2. */
  readOnly: 'read-only',
  /** Role department-manager: the employer rights are not the role's (step 3), and only the employees of department 20 (Uitvoering) of the Bouwgroep are in scope. */
  departmentManager: 'department-manager',
  /** Every right, but the client it signs in with is linked to read activities only (step 1). */
  reporting: 'reporting',
  /** Every right, access to every employer except Bakkerij De Korenschoof (step 5). */
  withoutBakery: 'without-bakery',
} as const;

export const SEED_CLIENTS = {
  /** Linked to every activity. */
  integration: 'payroll-integration',
  /** Linked to the read activities only. */
  reportingDashboard: 'reporting-dashboard',
} as const;

/** The department (code, per employer) the seeded department manager manages. */
export const MANAGED_DEPARTMENT = { employerId: ORG_IDS.employers.vanDerMeerBouwgroep, code: 20 } as const;

const READ_RIGHTS = {
  'employers-read': {
    name: 'View providers, employers and administrations',
    activities: [
      'GetProvidersByUser', 'GetProviderLogo', 'GetProviderLogoAndVersion', 'GetProviderContactInformationByProviderId', 'GetProviderLogosByProviderId',
      'GetProviderLogoByLogoId', 'GetProviderLogoOnlyByLogoId', 'GetEmployersByUserId', 'GetEmployersMinimizedByUserId', 'GetEmployersMinimizedByProviderId',
      'GetInformationForAddEmployerWizardByProviderId', 'GetEmployerByEmployerId', 'GetChildEmployersByEmployerId', 'GetEmployerLogoByEmployerId',
      'GetEmployerLogoByEmployerIdAndVersion', 'GetProviderLogoByEmployerId', 'GetProviderLogoByEmployerIdAndVersion', 'GetAdministrationsByEmployerId',
      'GetAdministrationsByBearerToken',
    ],
  },
  'employees-read': {
    name: 'View employees and employments',
    activities: [
      'GetEmploymentsByEmployerId', 'GetEmploymentsMinimizedByEmployerId', 'GetEmploymentsComprehensiveByEmployerId', 'GetEmploymentsByEmployeeId',
      'GetEmploymentByEmploymentId', 'GetDeleteEmploymentInformationByEmploymentId', 'GetEmploymentMetadataByEmploymentId', 'GetWageMetadataByEmploymentId',
      'GetPayrollPeriodDataDefaultsByEmploymentId', 'GetEmployeesByEmployerId', 'GetEmployeeByEmployeeId', 'GetEmployeeMetadataByEmployeeId',
      'GetCitizenServiceNumberByEmployeeId', 'GetEmployeePhotoByEmployeeId', 'GetEmployeePhotoByEmployeeIdAndVersion',
    ],
  },
  'recruitment-read': {
    name: 'View concept employees and job applicant metadata',
    activities: [
      'GetJobApplicantMetadataByEmployerId', 'GetJobApplicantMetadataByPayrollAdministrationId', 'GetJobApplicantPayGradeMetadataBySalaryScaleTypeId',
      'GetConceptEmployeesByEmployerId', 'GetConceptEmployeeByConceptEmployeeId', 'GetConceptEmployeeMinimizedByConceptEmployeeId',
      'GetConceptEmployeeMetadataByPayrollAdministrationId', 'GetConceptEmployeePayGradeMetadataByPayScaleKey', 'GetConceptEmployeePayGradeValuesByPayGradeKey',
      'GetConceptEmployeeDefaultsByPayrollAdministrationId',
    ],
  },
  'journal-read': {
    name: 'View the journal configuration',
    activities: [
      'GetCostCentersAtWageModelLevelByJournalProfileId', 'GetCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId', 'GetCostUnitsAtWageModelLevelByJournalProfileId',
      'GetJournalProfileAtPayrollAdministrationLevelByJournalProfileId', 'GetJournalProfilesByWageModelId',
    ],
  },
};

const WRITE_RIGHTS = {
  'employers-write': {
    name: 'Manage employers and logos',
    activities: [
      'PostProviderLogoByProviderId', 'PutProviderLogoByLogoId', 'DeleteProviderLogoByLogoId', 'PostEmployerByProviderId', 'PutEmployerByEmployerId',
      'PostEmployerLogoByEmployerId', 'DeleteEmployerLogoByEmployerId',
    ],
  },
  'employees-write': {
    name: 'Manage employees and employments',
    activities: [
      'PutEmploymentByEmploymentId', 'PatchTypeOfEmploymentCategoryTypeFieldsByEmploymentId', 'DeleteEmploymentByEmploymentId', 'PatchTerminateByEmploymentId',
      'PatchReinstateByEmploymentId', 'PatchCorrectStartDateByEmploymentId', 'PostEmployeeByEmployerId', 'PutEmployeeByEmployeeId', 'PatchEmailByEmployeeId',
      'PutCitizenServiceNumberByEmployeeId', 'PostEmployeePhotoByEmployeeId', 'DeleteEmployeePhotoByEmployeeId', 'PatchRevokeEmployeeSelfServiceAccessByEmployeeId',
    ],
  },
  'recruitment-write': {
    name: 'Manage concept employees',
    activities: ['PostConceptEmployeeByEmployerId', 'PutConceptEmployeeByConceptEmployeeId', 'PutConceptEmployeeMinimizedByConceptEmployeeId'],
  },
  'journal-write': {
    name: 'Manage the journal configuration',
    activities: [
      'PostCostCenterAtWageModelLevelByJournalProfileId', 'PatchCostCenterAtWageModelLevelByJournalProfileId', 'DeleteCostCenterAtWageModelLevelByCostCenterId',
      'PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId', 'PostCostUnitAtWageModelLevelByJournalProfileId', 'PatchCostUnitAtWageModelLevelByJournalProfileId',
      'DeleteCostUnitAtWageModelLevelByCostUnitId', 'PatchJournalProfileAtPayrollAdministrationLevelByJournalProfileId',
      'DeleteJournalProfileAtPayrollAdministrationLevelByJournalProfileId', 'PostJournalProfileByPayrollAdministrationId', 'PostJournalProfileByWageModelId',
    ],
  },
};

const RIGHTS = { ...READ_RIGHTS, ...WRITE_RIGHTS };
const ALL_RIGHTS = Object.keys(RIGHTS);
const READ_RIGHT_IDS = Object.keys(READ_RIGHTS);

/** The seeded model (without the employers' modules, which the organisation seed holds). */
export function authorizationModelSeed(): Record<string, unknown> {
  const allEmployers = Object.values(ORG_IDS.employers);
  return {
    clients: {
      [SEED_CLIENTS.integration]: { name: 'Payroll integration', secret: null, activities: ['*'] },
      [SEED_CLIENTS.reportingDashboard]: { name: 'Reporting dashboard', secret: null, activities: Object.values(READ_RIGHTS).flatMap((r) => r.activities) },
    },
    rights: RIGHTS,
    roles: {
      administrator: { name: 'Administrator', rights: ALL_RIGHTS, dataScope: 'all' },
      'payroll-officer': { name: 'Payroll officer', rights: ALL_RIGHTS, dataScope: 'all' },
      'department-manager': { name: 'Department manager', rights: ['employers-read', 'employees-read', 'employees-write'], dataScope: 'department' },
    },
    users: {
      [SEED_USERS.admin]: { name: 'Anna de Boer', password: SEED_PASSWORD, client: SEED_CLIENTS.integration, role: 'administrator', rights: ALL_RIGHTS, employers: 'all', department: null },
      [SEED_USERS.readOnly]: { name: 'Ruud Visser', password: SEED_PASSWORD, client: SEED_CLIENTS.integration, role: 'payroll-officer', rights: READ_RIGHT_IDS, employers: 'all', department: null },
      [SEED_USERS.departmentManager]: {
        name: 'Demi Bos',
        password: SEED_PASSWORD,
        client: SEED_CLIENTS.integration,
        role: 'department-manager',
        rights: ['employers-read', 'employers-write', 'employees-read', 'employees-write'],
        employers: [MANAGED_DEPARTMENT.employerId],
        department: { ...MANAGED_DEPARTMENT },
      },
      [SEED_USERS.reporting]: { name: 'Rik Meijer', password: SEED_PASSWORD, client: SEED_CLIENTS.reportingDashboard, role: 'payroll-officer', rights: ALL_RIGHTS, employers: 'all', department: null },
      [SEED_USERS.withoutBakery]: {
        name: 'Wendy Smits',
        password: SEED_PASSWORD,
        client: SEED_CLIENTS.integration,
        role: 'payroll-officer',
        rights: ALL_RIGHTS,
        employers: allEmployers.filter((id) => id !== ORG_IDS.employers.bakkerijDeKorenschoof),
        department: null,
      },
    },
    modules: {
      [MODULES.employeeSelfService]: { activities: ['PatchRevokeEmployeeSelfServiceAccessByEmployeeId'] },
      [MODULES.payroll]: {
        activities: [
          'GetJobApplicantMetadataByPayrollAdministrationId', 'GetConceptEmployeeMetadataByPayrollAdministrationId', 'GetConceptEmployeePayGradeMetadataByPayScaleKey',
          'GetConceptEmployeePayGradeValuesByPayGradeKey', 'GetConceptEmployeeDefaultsByPayrollAdministrationId', 'GetPayrollPeriodDataDefaultsByEmploymentId',
        ],
      },
      // The wage model level is the provider's; creating a payroll administration's own profile needs the employer's.
      [MODULES.journal]: {
        activities: [...WRITE_RIGHTS['journal-write'].activities, ...READ_RIGHTS['journal-read'].activities].filter((a) => /WageModel/.test(a)).concat('PostJournalProfileByPayrollAdministrationId'),
      },
    },
    providers: { [ORG_IDS.provider]: { modules: Object.values(MODULES) } },
  };
}

export function authorizationSeed(): Record<string, Doc[]> {
  return { [AUTHORIZATION_COLLECTION]: [{ id: AUTHORIZATION_MODEL_ID, ...authorizationModelSeed() }] };
}
