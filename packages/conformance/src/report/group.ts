// Cases grouped by operation and version, the order every report lists them in.
import type { CaseResult } from '../findings.js';

export interface Group {
  api: string;
  operationId: string;
  version: string | null;
  cases: CaseResult[];
}

export function groupCases(cases: CaseResult[]): Group[] {
  const groups = new Map<string, Group>();
  for (const c of cases) {
    const key = `${c.api}\u0000${c.operationId}\u0000${c.version ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { api: c.api, operationId: c.operationId, version: c.version, cases: [] };
      groups.set(key, group);
    }
    group.cases.push(c);
  }
  return [...groups.values()];
}

export const label = (g: { operationId: string; version: string | null }): string => (g.version ? `${g.operationId} @ ${g.version}` : g.operationId);
