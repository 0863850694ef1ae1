export interface DerivedEntry {
  resource: string;
  ids: string[];
  /** 0 a GET, 1 a list, 2 a write. */
  kind: 0 | 1 | 2;
  family: string;
  embeds?: string[];
  changes?: string[];
  entities?: string[];
  answerIds?: Array<[string, string]>;
  reads?: string[];
}
export type DerivedTable = Record<string, DerivedEntry>;
export declare const paramsOf: (path: string) => string[];
export declare function deriveTable(doc: unknown, resourceOf: (id: string, path: string) => string, familyOf: (resource: string) => string): DerivedTable;
export declare function deriveTables(payroll: unknown, journal: unknown): { payroll: DerivedTable; journal: DerivedTable };
export declare function invalidationMarkdown(tables: Record<string, DerivedTable>): string;
export declare const README_TABLE: readonly [start: string, end: string];
