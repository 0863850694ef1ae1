// The resource modules of the sandbox: together their handlers answer every operation of
// both descriptions (a test checks that none is missing). Add a module's import here.
import type { ResourceModule } from '../domain/context.js';
import administrations from './administrations.js';
import conceptEmployees from './concept-employees.js';
import employees from './employees.js';
import employers from './employers.js';
import employments from './employments.js';
import costCenters from './journal/cost-centers.js';
import costUnits from './journal/cost-units.js';
import journalProfiles from './journal/journal-profiles.js';
import costCenterCostUnitMatrix from './journal/matrix.js';
import metadata from './metadata.js';
import providers from './providers.js';

export const RESOURCE_MODULES: ResourceModule[] = [providers, employers, administrations, conceptEmployees, metadata, employees, employments, costCenters, costUnits, costCenterCostUnitMatrix, journalProfiles];
