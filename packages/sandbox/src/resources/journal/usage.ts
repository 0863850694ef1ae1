// Where cost centers and cost units are in use outside the journal configuration itself: the
// journal allocations and payroll period data of employments. Those live on the payroll side
// (the payroll seed's employments, written from seed/journal.ts's EMPLOYMENT_* lists), so
// they are read from the stored employment docs of the same sandbox: whatever an employment
// holds under a `journalAllocation(s)` or `payrollPeriodData` key that names a cost center or
// cost unit (`costCenter.key`, `costUnit.key`) counts as a use.
import type { Tx } from '../../store/types.js';

/** The payroll collections that hold employments' journal allocations and payroll period data. */
export const EMPLOYMENT_COLLECTIONS = ['employments'] as const;

export type EmploymentUseKind = 'journalAllocation' | 'payrollPeriodData';

const SECTION_KEYS: Record<EmploymentUseKind, RegExp> = {
  journalAllocation: /^journalallocations?$/i,
  payrollPeriodData: /^payrollperioddata$/i,
};

export interface EmploymentUses {
  /** Cost center id → employments using it. */
  costCenters: Map<string, Set<string>>;
  costUnits: Map<string, Set<string>>;
}

/** The cost centers and cost units the employments of the sandbox use, per kind of use. */
export async function employmentUses(tx: Tx): Promise<Record<EmploymentUseKind, EmploymentUses>> {
  const uses: Record<EmploymentUseKind, EmploymentUses> = {
    journalAllocation: { costCenters: new Map(), costUnits: new Map() },
    payrollPeriodData: { costCenters: new Map(), costUnits: new Map() },
  };
  for (const collection of EMPLOYMENT_COLLECTIONS) {
    const { rows } = await tx.find(collection);
    for (const employment of rows) walk(employment, undefined, (kind, key, id) => {
      const byId = key === 'costCenter' ? uses[kind].costCenters : uses[kind].costUnits;
      const employments = byId.get(id) ?? new Set<string>();
      employments.add(employment.id);
      byId.set(id, employments);
    });
  }
  return uses;
}

type Found = (kind: EmploymentUseKind, key: 'costCenter' | 'costUnit', id: string, reference: Record<string, unknown>) => void;

function walk(value: unknown, kind: EmploymentUseKind | undefined, found: Found): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, kind, found);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    const section = (Object.keys(SECTION_KEYS) as EmploymentUseKind[]).find((k) => SECTION_KEYS[k].test(key));
    if (kind && (key === 'costCenter' || key === 'costUnit')) {
      const id = (child as { key?: unknown } | null)?.key;
      if (typeof id === 'string') found(kind, key, id, child as Record<string, unknown>);
      continue;
    }
    walk(child, section ?? kind, found);
  }
}

/**
 * After a cost center's or cost unit's code changed: the employments' copies of it (journal
 * allocations keep {key, code, description}) take the new code, so both APIs show the same.
 */
export async function renameInEmployments(tx: Tx, key: 'costCenter' | 'costUnit', id: string, code: string): Promise<void> {
  for (const collection of EMPLOYMENT_COLLECTIONS) {
    const { rows } = await tx.find(collection);
    for (const employment of rows) {
      let changed = false;
      walk(employment, undefined, (_kind, found, foundId, reference) => {
        if (found === key && foundId === id && 'code' in reference && reference.code !== code) {
          reference.code = code;
          changed = true;
        }
      });
      if (changed) await tx.replace(collection, employment);
    }
  }
}

/** How many employments use the id in this way (0 when none). */
export const usedBy = (uses: EmploymentUses, entity: 'costCenters' | 'costUnits', id: string): number => uses[entity].get(id)?.size ?? 0;
